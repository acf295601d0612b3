/* diagnose/parallel.c — the diagnosis of a profile read by several analysis processes
 * (`mpirun -np K tprof-analyze --parallel --diagnose`).  Each reads whole processes
 * (parallel/partition.h), but the messages and collectives between processes two of them
 * read are matched only at the end, where the receiver is read: so each holds its steps
 * until then (diagnosis.c's hold), sends every wait span and delay to the analysis process
 * that reads its process, and only then diagnoses its steps.  Then it asks the others who
 * ran on the CPUs its processes waited for, and sends what it found to the first (join.c),
 * which joins the steps over the ranks, walks each step's critical path over what every process
 * waited for, has each link described where its process is read (its spans are there), and
 * writes the diagnosis as one analysis process would.  Everything is ordered by process
 * number, step and name, never by what came first, so any number of analysis processes
 * writes the same. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../parallel/mail.h"
#include "../parallel/par.h"
#include "../read/trace.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "../util/strings.h"
#include "diagnosis.h"
#include "state.h"

/* Collective: the wait spans and delays of the processes each analysis process reads, sent
 * there and taken in as if they had come in its stream. */
static void exchange_waits(struct diagnosis *dx)
{
	struct mail *m = dx->away ? dx->away : mail_new();
	dx->away = NULL;
	mail_exchange(m);
	for (struct unpack u = mail_all(m); unpack_more(&u);) {
		int kind = (int)unpack_u64(&u);
		struct dproc *dp = dproc_at(dx, unpack_i64(&u));
		uint64_t kd = unpack_u64(&u);
		int64_t t0 = unpack_i64(&u), t1 = unpack_i64(&u);
		uint32_t site = unpack_name(&u), caller = unpack_name(&u);
		uint64_t comm = unpack_u64(&u);
		uint32_t seq = (uint32_t)unpack_u64(&u);
		if (kind == 0) {
			struct wait_span w = { .kind = (uint8_t)(kd >> 8), .on_device = (uint8_t)kd,
					       .t0 = t0, .t1 = t1, .site = site, .caller = caller,
					       .comm = comm, .seq = seq,
					       .cause_rank = (int32_t)unpack_i64(&u) };
			if (u.short_read)
				break;
			if (dp) {
				w.proc = dp->p;
				wait_span_take(dx, dp, &w);
			}
		} else {
			struct wait_delay d = { .kind = (uint8_t)(kd >> 8), .on_device = (uint8_t)kd,
						.t0 = t0, .t1 = t1, .site = site, .caller = caller,
						.comm = comm, .seq = seq };
			d.waiters = (uint32_t)unpack_u64(&u);
			d.waited = unpack_i64(&u);
			if (u.short_read)
				break;
			if (dp) {
				d.late = dp->p;
				wait_delay_take(dx, dp, &d);
			}
		}
	}
	mail_free(m);
}


/* ---- who ran on the CPUs of a process that waited for them --------------------------------- */

/* Collective: each process read here that waited for a CPU asks every analysis process which
 * of the processes it reads ran on its CPUs meanwhile, in its longest wait's step (or run);
 * the one that ran most, then the lowest number, is named. */
static void cpu_takers(struct diagnosis *dx)
{
	struct pack q = { 0 };
	for (size_t i = 0; i < dx->nprocs; i++) {
		struct dproc *dp = dx->procs[i];
		const struct own_cost *o = &dp->own[OWN_CPU_WAIT];
		if (o->max <= 0)
			continue;
		struct cpu_spans w = { 0 };
		cpu_waits(dp, o->max_t0, o->max_t1, &w);
		pack_i64(&q, dp->p->index);
		pack_name(&q, dp->p->host);
		pack_u64(&q, cpu_mask(dx, dp, o->max_t0, o->max_t1));
		pack_i64(&q, o->max_t0);
		pack_i64(&q, o->max_t1);
		pack_u64(&q, w.n);
		for (size_t k = 0; k < w.n; k++) {
			pack_i64(&q, w.v[k].t0);
			pack_i64(&q, w.v[k].t1);
		}
		free(w.v);
	}
	size_t nq;
	char *all = par_allgather_total(q.v, q.n, &nq);
	pack_free(&q);
	struct pack ans = { 0 };
	for (struct unpack u = unpack_of(all, nq); unpack_more(&u);) {
		int64_t index = unpack_i64(&u);
		uint32_t host = unpack_name(&u);
		uint64_t cpus = unpack_u64(&u);
		int64_t a = unpack_i64(&u), b = unpack_i64(&u);
		size_t n = unpack_count(&u, 2 * sizeof(int64_t));
		struct cpu_spans v = { 0 };
		for (size_t k = 0; k < n; k++) {
			v.v = util_grow(v.v, &v.cap, v.n, sizeof(*v.v), 64);
			int64_t t0 = unpack_i64(&u), t1 = unpack_i64(&u);
			v.v[v.n++] = (struct cpu_span){ t0, t1, -1 };
		}
		if (u.short_read) {
			free(v.v);
			break;
		}
		cpu_runs(dx, host, cpus, index, a, b, &v);
		struct cpu_took took[CPU_TAKERS];
		unsigned nt = cpu_sweep(&v, took);
		free(v.v);
		for (unsigned k = 0; k < nt; k++) {
			pack_i64(&ans, index);
			pack_i64(&ans, took[k].index);
			pack_i64(&ans, took[k].ns);
		}
	}
	free(all);
	size_t na;
	all = par_allgather_total(ans.v, ans.n, &na);
	pack_free(&ans);
	for (size_t i = 0; i < dx->nprocs; i++) {
		struct dproc *dp = dx->procs[i];
		if (dp->own[OWN_CPU_WAIT].max <= 0)
			continue;
		struct cpu_took took[CPU_TAKERS];
		unsigned nt = 0;
		for (struct unpack u = unpack_of(all, na); unpack_more(&u);) {
			int64_t index = unpack_i64(&u), taker = unpack_i64(&u), ns = unpack_i64(&u);
			if (u.short_read || index != dp->p->index)
				continue;
			unsigned m = 0;
			while (m < nt && took[m].index != taker)
				m++;
			if (m == nt && nt < CPU_TAKERS)
				took[nt++] = (struct cpu_took){ taker, 0 };
			if (m < nt)
				took[m].ns += ns;
		}
		cpu_pick(dx, &dp->own[OWN_CPU_WAIT], took, nt);
	}
	free(all);
}

/* ---- the critical paths, walked on the first, their links described where read ---------- */

/* Collective: every link of every step's path (found on the first, in dx0) described by the
 * analysis process that reads its process, from its own spans (dx). */
static void describe_links(struct diagnosis *dx, struct diagnosis *dx0)
{
	struct mail *m = mail_new();
	for (size_t i = 0; dx0 && i < dx0->nsteps; i++)
		for (uint32_t j = 0; j < dx0->steps[i].npath; j++) {
			const struct cp_link *l = &dx0->steps[i].path[j];
			int64_t index = dx0->procs[l->proc]->p->index;
			int r = trace_reader_of(dx->tr, index);
			if (r < 0)
				r = 0;
			struct pack *b = &m->to[r];
			pack_u64(b, i);
			pack_u64(b, j);
			pack_i64(b, index);
			pack_i64(b, l->t0);
			pack_i64(b, l->t1);
		}
	mail_exchange(m);
	struct pack *back = &m->to[0];   /* all of the answers to the first */
	for (struct unpack u = mail_all(m); unpack_more(&u);) {
		uint64_t i = unpack_u64(&u), j = unpack_u64(&u);
		struct dproc *dp = dproc_at(dx, unpack_i64(&u));
		struct cp_link l = { .t0 = unpack_i64(&u) };
		l.t1 = unpack_i64(&u);
		if (u.short_read)
			break;
		if (dp)
			describe_link(dp, &l);
		pack_u64(back, i);
		pack_u64(back, j);
		pack_u64(back, l.cat);
		pack_i64(back, l.cat_ns);
		pack_name(back, l.name);
		pack_name(back, l.after);
	}
	mail_exchange(m);
	for (struct unpack u = mail_all(m); dx0 && unpack_more(&u);) {
		uint64_t i = unpack_u64(&u), j = unpack_u64(&u);
		uint8_t cat = (uint8_t)unpack_u64(&u);
		int64_t cat_ns = unpack_i64(&u);
		uint32_t name = unpack_name(&u), after = unpack_name(&u);
		if (u.short_read || i >= dx0->nsteps || j >= dx0->steps[i].npath)
			break;
		struct cp_link *l = &dx0->steps[i].path[j];
		l->cat = cat;
		l->cat_ns = cat_ns;
		l->name = name;
		l->after = after;
	}
	mail_free(m);
}

/* ---- the end of a held diagnosis --------------------------------------------------------- */

static int by_end(const void *a, const void *b)
{
	const struct wait_delay *x = a, *y = b;
	if (x->t1 != y->t1)
		return (x->t1 > y->t1) - (x->t1 < y->t1);
	if (x->t0 != y->t0)
		return (x->t0 > y->t0) - (x->t0 < y->t0);
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->comm > y->comm) - (x->comm < y->comm);
}

/* Collective: every process's held steps diagnosed, one step of each process a round (so
 * that their latest steps stay side by side), with its delays in order of their ends; its
 * run when no process of the job has steps.  Then, with several analysis processes, the
 * CPU takers, and on the first the join of all they found, the critical paths, and the
 * diagnosis in dx's place.  1 when this analysis process writes the diagnosis. */
int dpar_hold_end(struct diagnosis *dx)
{
	exchange_waits(dx);
	int64_t steps = dx->job_steps;
	par_max_i64(&steps, 1);
	dx->job_steps = (int)steps;
	for (size_t i = 0; i < dx->nprocs; i++) {
		struct dproc *dp = dx->procs[i];
		if (dp->nwhy > 1)
			qsort(dp->why, dp->nwhy, sizeof(*dp->why), by_end);
	}
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < dx->nprocs; i++) {
			struct dproc *dp = dx->procs[i];
			if (dp->nfinal < dp->npend) {
				step_done(dx, dp);
				more = 1;
			}
		}
	}
	diagnose_rest(dx);
	if (par_size() < 2) {
		for (size_t i = 0; i < dx->nsteps; i++)
			critical_path(dx, &dx->steps[i], 1);
		return 1;
	}
	cpu_takers(dx);
	struct pack b = { 0 };
	join_pack(&b, dx);
	size_t *len_of;
	char *all = par_gather(b.v, b.n, 0, &len_of);
	pack_free(&b);
	struct diagnosis *dx0 = NULL;
	if (par_rank() == 0) {
		dx0 = diagnosis_new(dx->rts);
		dx0->tr = dx->tr;
		dx0->keep_splits = dx->keep_splits;
		dx0->ov_budget = dx->ov_budget;
		dx0->ov_bins = dx->ov_bins;
		dx0->ov_bin_ns = dx->ov_bin_ns;
		dx0->sm_cols = dx->sm_cols;
		dx0->th_bins = dx->th_bins;
		dx0->th_bin_ns = dx->th_bin_ns;
		if (join_unpack(dx0, all, len_of) < 0)
			diag_error("--parallel: an analysis process's diagnosis could not be read");
		for (size_t i = 0; i < dx0->nprocs; i++) {
			struct dproc *dp = dx0->procs[i];
			struct own_cost *o = &dp->own[OWN_CPU_WAIT];
			struct dproc *q = o->by_index >= 0 ? dproc_at(dx0, o->by_index) : NULL;
			o->by_proc = q ? q->index : -1;
			dx0->late_spans += dp->tl.late;
			dx0->step_procs += dp->has_steps;
		}
		for (size_t i = 0; i < dx0->nsteps; i++)
			critical_path(dx0, &dx0->steps[i], 0);
	}
	free(all);
	free(len_of);
	describe_links(dx, dx0);
	if (dx0)
		diagnosis_take(dx, dx0);
	return par_rank() == 0;
}

/* diagnose/diagnosis.c — the events into each process's timeline (diagnose/timeline.h), the
 * runtimes' wait states (model/waits.h) into wait spans and delays, and each step diagnosed
 * once the events of its time have come: a process's step is split into the categories when
 * DIAG_LAG later steps of it have ended (the collectives that say who waited come after the
 * host calls of their time) and, when it launches device work (the domains of its calls
 * say, common/domains.h), a device span that ended after the step came (device spans are
 * recorded after the host calls of their time, on a busy machine without bound, in the
 * order they end) or, the device idling, the events read came a lag past the step's end
 * (1 s, twice the latest an event came once one comes later, up to LAG_MAX).  The delays it
 * caused in that time are explained by its own split of their time; once every process
 * with steps has diagnosed a step number, its critical path is found (critical.c) and the
 * spans before it forgotten.  A process without steps is diagnosed as a whole at the end,
 * when no process of the job has steps. */
#include <stdlib.h>
#include <string.h>

#include "../../common/events.h"
#include "../../common/system-records.h"
#include "../../common/xalloc.h"
#include "../model/runtime.h"
#include "../parallel/mail.h"
#include "../parallel/par.h"
#include "../read/trace.h"
#include "../summary/summary.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "diagnosis.h"
#include "state.h"

_Static_assert(DIAG_PARTS == CATS, "the parts of a step are the timeline's categories");


struct dproc *dproc_get(struct diagnosis *dx, struct proc *p)
{
	uint32_t *at = u64map_get(&dx->proc_of, (uint64_t)(uintptr_t)p);
	if (at)
		return dx->procs[*at - 1];
	struct dproc *dp = xcalloc(1, sizeof(*dp));
	dp->p = p;
	dp->index = (int)dx->nprocs;
	dx->procs = util_grow(dx->procs, &dx->capprocs, dx->nprocs, sizeof(*dx->procs), 16);
	dx->procs[dx->nprocs++] = dp;
	u64map_put(&dx->proc_of, (uint64_t)(uintptr_t)p, (uint32_t)dx->nprocs);
	if (!u64map_get(&dx->by_index, (uint64_t)p->index))
		u64map_put(&dx->by_index, (uint64_t)p->index, (uint32_t)dx->nprocs);
	if (p->rank >= 0 && !u64map_get(&dx->by_rank, (uint64_t)p->rank))
		u64map_put(&dx->by_rank, (uint64_t)p->rank, (uint32_t)dx->nprocs);
	return dp;
}

static int by_index(const void *a, const void *b)
{
	const struct proc *x = *(struct proc *const *)a, *y = *(struct proc *const *)b;
	return (x->index > y->index) - (x->index < y->index);
}

/* The process a runtime's wait names: by its number when several analysis processes read
 * the profile (a runtime may name one read here by a stand-in of another's). */
static struct dproc *dproc_of(struct diagnosis *dx, struct proc *p)
{
	struct dproc *dp = dx->hold ? dproc_at(dx, p->index) : NULL;
	return dp ? dp : dproc_get(dx, p);
}

struct dproc *dproc_at(struct diagnosis *dx, int64_t index)
{
	uint32_t *at = u64map_get(&dx->by_index, (uint64_t)index);
	return at ? dx->procs[*at - 1] : NULL;
}

void diagnosis_begin(struct diagnosis *dx, const struct trace *tr)
{
	dx->tr = tr;
	dx->hold = par_size() > 1;
	if (!tr->nprocs)
		return;
	struct proc **v = xmallocarray(tr->nprocs, sizeof(*v));
	memcpy(v, tr->procs, tr->nprocs * sizeof(*v));
	qsort(v, tr->nprocs, sizeof(*v), by_index);
	for (size_t i = 0; i < tr->nprocs; i++)
		dproc_get(dx, v[i]);
	free(v);
	overview_begin(dx);
}

static void extent(struct dproc *dp, int64_t t0, int64_t t1)
{
	if (!dp->any || t0 < dp->lo)
		dp->lo = t0;
	if (!dp->any || t1 > dp->hi)
		dp->hi = t1;
	dp->any = 1;
}

struct step_agg *step_agg_of(struct diagnosis *dx, uint64_t step)
{
	uint32_t *at = u64map_get(&dx->step_of, step);
	if (at)
		return &dx->steps[*at];
	dx->steps = util_grow(dx->steps, &dx->capsteps, dx->nsteps, sizeof(*dx->steps), 64);
	struct step_agg *s = &dx->steps[dx->nsteps];
	memset(s, 0, sizeof(*s));
	s->step = step;
	u64map_put(&dx->step_of, step, (uint32_t)dx->nsteps++);
	return s;
}

/* What a process's own kind of cost came to in one step (or its run). */
static void own_add(struct own_cost *o, int64_t ns, uint32_t name, int has_step, uint64_t step,
		    int64_t t0, int64_t t1)
{
	if (ns <= 0)
		return;
	o->total += ns;
	o->steps++;
	if (ns > o->max) {
		o->max = ns;
		o->max_step = step;
		o->max_has_step = has_step;
		o->max_t0 = t0;
		o->max_t1 = t1;
		if (name)
			o->name = name;
	}
}

/* A bit per CPU below 64; the CPUs past them share the last. */
static uint64_t cpu_bit(uint32_t cpu)
{
	return 1ull << (cpu < 63 ? cpu : 63);
}

static int cpu_span_before(const void *a, const void *b)
{
	const struct cpu_span *x = a, *y = b;
	if (x->t0 != y->t0)
		return (x->t0 > y->t0) - (x->t0 < y->t0);
	return (x->proc > y->proc) - (x->proc < y->proc);
}

uint64_t cpu_mask(const struct diagnosis *dx, const struct dproc *dp, int64_t a, int64_t b)
{
	uint64_t cpus = 0;
	for (size_t k = 0; k < dx->nrunning; k++) {
		const struct run_rec *r = &dx->running[k];
		if (r->proc == dp->index && r->t1 > a && r->t0 < b && r->cpu != UINT32_MAX)
			cpus |= cpu_bit(r->cpu);
	}
	return cpus;
}

void cpu_waits(const struct dproc *dp, int64_t a, int64_t b, struct cpu_spans *v)
{
	for (size_t i = 0; i < dp->tl.n; i++) {
		const struct tl_span *w = &dp->tl.v[i];
		if (w->cat != CAT_CPU_WAIT || w->t1 <= a || w->t0 >= b || w->t1 <= dp->tl.forgotten)
			continue;
		v->v = util_grow(v->v, &v->cap, v->n, sizeof(*v->v), 64);
		v->v[v->n++] = (struct cpu_span){ w->t0 > a ? w->t0 : a, w->t1 < b ? w->t1 : b, -1 };
	}
}

void cpu_runs(const struct diagnosis *dx, uint32_t host, uint64_t cpus, int64_t not_index,
	      int64_t a, int64_t b, struct cpu_spans *v)
{
	for (size_t k = 0; v->n && k < dx->nrunning; k++) {
		const struct run_rec *r = &dx->running[k];
		const struct dproc *q = dx->procs[r->proc];
		if (q->p->index == not_index || q->p->host != host || r->t1 <= a || r->t0 >= b ||
		    (r->cpu != UINT32_MAX && !(cpus & cpu_bit(r->cpu))))
			continue;
		v->v = util_grow(v->v, &v->cap, v->n, sizeof(*v->v), 64);
		v->v[v->n++] = (struct cpu_span){ r->t0 > a ? r->t0 : a, r->t1 < b ? r->t1 : b,
						  (int)q->p->index };
	}
}

unsigned cpu_sweep(struct cpu_spans *v, struct cpu_took *took)
{
	unsigned n = 0;
	size_t nv = v->n;
	if (nv > 1)
		qsort(v->v, nv, sizeof(*v->v), cpu_span_before);
	/* the spans still open, of each kind (indexes into v) */
	size_t *open[2] = { xmallocarray(nv ? nv : 1, sizeof(size_t)),
			    xmallocarray(nv ? nv : 1, sizeof(size_t)) };
	size_t nopen[2] = { 0, 0 };
	for (size_t i = 0; i < nv; i++) {
		const struct cpu_span *s = &v->v[i];
		int mine = s->proc >= 0, other = !mine;
		size_t k = 0;
		for (size_t j = 0; j < nopen[other]; j++) {
			const struct cpu_span *t = &v->v[open[other][j]];
			if (t->t1 <= s->t0)
				continue;                /* ended: closed */
			open[other][k++] = open[other][j];
			int64_t ns = (s->t1 < t->t1 ? s->t1 : t->t1) - s->t0;
			int proc = mine ? s->proc : t->proc;
			unsigned m = 0;
			while (m < n && took[m].index != proc)
				m++;
			if (m == n && n < CPU_TAKERS)
				took[n++] = (struct cpu_took){ proc, 0 };
			if (m < n)
				took[m].ns += ns;
		}
		nopen[other] = k;
		open[mine][nopen[mine]++] = i;
	}
	free(open[0]);
	free(open[1]);
	return n;
}

void cpu_pick(struct diagnosis *dx, struct own_cost *o, const struct cpu_took *took, unsigned n)
{
	o->by_proc = -1;
	o->by_ns = 0;
	int64_t best = INT64_MAX;
	for (unsigned j = 0; j < n; j++)
		if (took[j].ns > o->by_ns || (took[j].ns == o->by_ns && took[j].ns &&
					      took[j].index < best)) {
			o->by_ns = took[j].ns;
			best = took[j].index;
		}
	if (best != INT64_MAX) {
		struct dproc *q = dproc_at(dx, best);
		o->by_proc = q ? q->index : -1;
		o->by_index = best;
	}
}

/* The process (of its host, another) that ran most on dp's CPUs (those its threads ran on
 * in a..b) while dp waited for a CPU in a..b: one sweep over both kinds of span in order of
 * start, each meeting those of the other kind still open (a few: as many as threads wait or
 * CPUs run), so every overlap is counted once. */
static void cpu_taker(struct diagnosis *dx, struct dproc *dp, int64_t a, int64_t b,
		      struct own_cost *o)
{
	struct cpu_took took[CPU_TAKERS];
	struct cpu_spans v = { 0 };
	cpu_waits(dp, a, b, &v);
	cpu_runs(dx, dp->p->host, cpu_mask(dx, dp, a, b), dp->p->index, a, b, &v);
	unsigned n = cpu_sweep(&v, took);
	free(v.v);
	cpu_pick(dx, o, took, n);
}

/* Whether dp's figure replaces the step's most (or least) so far, held by process `held`:
 * when it is beyond it, or the same and dp's number is lower. */
static int takes(const struct diagnosis *dx, const struct step_agg *s, const struct dproc *dp,
		 int same, int held, int beyond)
{
	return !s->ranks || beyond || (same && dp->p->index < dx->procs[held]->p->index);
}

/* One step (has_step) or the run of a process: its split, into the job's sums. */
static void diagnose_span(struct diagnosis *dx, struct dproc *dp, int has_step, uint64_t step,
			  int64_t t0, int64_t t1)
{
	overview_upto(dx, dp, t1);   /* before the split: the time up to it, its own too */
	int64_t ns[CATS];
	timeline_split(&dp->tl, t0, t1, ns, NULL);
	if (dx->keep_splits) {
		dx->splits = util_grow(dx->splits, &dx->capsplits, dx->nsplits,
				       sizeof(*dx->splits), 64);
		struct split_rec *r = &dx->splits[dx->nsplits++];
		*r = (struct split_rec){ .proc = dp->index, .has_step = has_step, .step = step,
					 .t0 = t0, .t1 = t1 };
		memcpy(r->ns, ns, sizeof(ns));
	}
	dp->steps += has_step;
	dp->covered += t1 - t0;
	for (unsigned c = 0; c < CATS; c++)
		dp->ns[c] += ns[c];
	uint32_t name;
	/* a stream starved of launches while its host was busy (in launch calls or outside
	 * calls), not while it waited for others, talked to them or for other device work */
	int64_t in[CATS];
	timeline_split_within(&dp->tl, TL_STARVED, TL_COMM, t0, t1, in);
	int64_t v = in[CAT_RUNTIME] + in[CAT_HOST] + in[CAT_CPU_WAIT] + in[CAT_IDLE];
	timeline_sum(&dp->tl, TL_STARVED, t0, t1, &name);
	own_add(&dp->own[OWN_STARVED], v, name, has_step, step, t0, t1);
	v = timeline_sum(&dp->tl, TL_COPY_HELD, t0, t1, &name);
	own_add(&dp->own[OWN_COPY_HELD], v, name, has_step, step, t0, t1);
	if (ns[CAT_CPU_WAIT] > dp->own[OWN_CPU_WAIT].max && !dx->hold)
		cpu_taker(dx, dp, t0, t1, &dp->own[OWN_CPU_WAIT]);   /* held: parallel.c */
	own_add(&dp->own[OWN_CPU_WAIT], ns[CAT_CPU_WAIT], 0, has_step, step, t0, t1);
	/* communication, and how much of it compute hid */
	int64_t comm[CATS];
	timeline_split_within(&dp->tl, TL_COMM, TL_KINDS, t0, t1, comm);
	for (unsigned c = 0; c < CATS; c++)
		dp->comm_ns += comm[c];
	dp->comm_hidden += comm[CAT_COMPUTE];
	if (!has_step)
		return;
	struct step_agg *s = step_agg_of(dx, step);
	int64_t dur = t1 - t0, wait = ns[CAT_WAIT];
	stepmap_add(dx, dp, step, dur, wait);
	int64_t comp = ns[CAT_COMPUTE] + ns[CAT_COPY] + ns[CAT_COLLECTIVE];
	if (!s->ranks || t0 < s->t0)
		s->t0 = t0;
	if (!s->ranks || t1 > s->t1)
		s->t1 = t1;
	/* the most and the least, ties to the lower process number (not the first to come) */
	if (takes(dx, s, dp, dur == s->dur_max, s->dur_max_proc, dur > s->dur_max)) {
		s->dur_max = dur;
		s->dur_max_proc = dp->index;
	}
	if (takes(dx, s, dp, comp == s->comp_max, s->comp_max_proc, comp > s->comp_max)) {
		s->comp_max = comp;
		s->comp_max_proc = dp->index;
	}
	if (takes(dx, s, dp, comp == s->comp_min, s->comp_min_proc, comp < s->comp_min)) {
		s->comp_min = comp;
		s->comp_min_proc = dp->index;
	}
	if (takes(dx, s, dp, wait == s->wait_max, s->wait_max_proc, wait > s->wait_max)) {
		s->wait_max = wait;
		s->wait_max_proc = dp->index;
	}
	if (takes(dx, s, dp, wait == s->wait_min, s->wait_min_proc, wait < s->wait_min)) {
		s->wait_min = wait;
		s->wait_min_proc = dp->index;
	}
	s->ranks++;
	s->dur_sum += dur;
	s->comp_sum += comp;
	s->wait_sum += wait;
	for (unsigned c = 0; c < CATS; c++)
		s->ns[c] += ns[c];
}

/* The delays dp caused that end by `upto`, explained by its split of their time: counted
 * in the step they end in (has_step), or set aside as outside the steps. */
static void explain_one(struct diagnosis *dx, struct dproc *dp, const struct wait_delay *d,
			int has_step, uint64_t step, int64_t step_t0, int whole_run)
{
	if (!whole_run && !(has_step && d->t1 > step_t0)) {
		dp->outside++;
		return;
	}
	int64_t ex[CATS];
	uint32_t top[CATS];
	timeline_split(&dp->tl, d->t0, d->t1, ex, top);
	uint32_t after = ex[CAT_HOST] ? timeline_gap_after(&dp->tl, d->t0, d->t1) : 0;
	group_add(dx, dp, d, ex, top, after, has_step, step);
}

static void explain(struct diagnosis *dx, struct dproc *dp, int64_t upto, int has_step,
		    uint64_t step, int64_t step_t0, int whole_run)
{
	if (dx->hold) {         /* all of them, in order of their ends (dpar_hold_end) */
		while (dp->why_at < dp->nwhy && dp->why[dp->why_at].t1 <= upto)
			explain_one(dx, dp, &dp->why[dp->why_at++], has_step, step, step_t0,
				    whole_run);
		return;
	}
	size_t k = 0;
	for (size_t i = 0; i < dp->nwhy; i++) {
		const struct wait_delay *d = &dp->why[i];
		if (d->t1 > upto)
			dp->why[k++] = *d;
		else
			explain_one(dx, dp, d, has_step, step, step_t0, whole_run);
	}
	dp->nwhy = k;
}

/* The critical path of the oldest step number waiting, then what its processes hold of the
 * time before it forgotten (a delay in the step after it may begin in it: kept). */
static void cp_next(struct diagnosis *dx)
{
	uint64_t step = dx->cpq[0];
	memmove(dx->cpq, dx->cpq + 1, (dx->ncpq - 1) * sizeof(*dx->cpq));
	dx->ncpq--;
	critical_path(dx, step_agg_of(dx, step), 1);
	int64_t oldest = INT64_MAX;
	for (size_t i = 0; i < dx->nprocs; i++) {
		struct dproc *dp = dx->procs[i];
		const struct pend_step *ps = done_step(dp, step);
		if (!ps)
			continue;
		timeline_forget(&dp->tl, ps->t0);
		if (ps->t0 < oldest)
			oldest = ps->t0;
		size_t k = 0;
		for (size_t j = 0; j < dp->nwaits; j++)
			if (dp->waits[j].t1 > ps->t0)
				dp->waits[k++] = dp->waits[j];
		dp->nwaits = k;
	}
	/* what ran before every process's kept time can take no CPU from it */
	size_t k = 0;
	for (size_t j = 0; j < dx->nrunning; j++)
		if (dx->running[j].t1 > oldest)
			dx->running[k++] = dx->running[j];
	dx->nrunning = k;
}

/* Critical paths of the step numbers every process with steps has diagnosed (or, when more
 * than CP_QUEUE wait, of the oldest with those that have). */
static void cp_ready(struct diagnosis *dx)
{
	while (dx->ncpq && (step_agg_of(dx, dx->cpq[0])->done >= dx->step_procs ||
			    (dx->ncpq > CP_QUEUE && !dx->ending)))
		cp_next(dx);
}

/* The oldest step waiting, diagnosed. */
void step_done(struct diagnosis *dx, struct dproc *dp)
{
	struct pend_step s;
	if (dx->hold) {         /* every step stays, for the critical paths */
		s = dp->pend[dp->nfinal++];
	} else {
		s = dp->pend[dp->pend_first++];
		if (!--dp->npend)
			dp->pend_first = 0;
		else if (dp->pend_first > 64 && dp->pend_first > dp->npend) {
			memmove(dp->pend, dp->pend + dp->pend_first, dp->npend * sizeof(*dp->pend));
			dp->pend_first = 0;
		}
	}
	diagnose_span(dx, dp, 1, s.step, s.t0, s.t1);
	if (!dx->hold && s.t1 > dp->tl.settled)
		dp->tl.settled = s.t1;
	/* delays before this step (between steps) are outside; those in it are its own */
	explain(dx, dp, s.t1, 1, s.step, s.t0, 0);
	dp->done[dp->ndone++ % DONE_KEPT] = s;
	if (dx->hold)
		return;         /* the critical paths: once every step is diagnosed */
	struct step_agg *a = step_agg_of(dx, s.step);
	if (!a->done++) {
		dx->cpq = util_grow(dx->cpq, &dx->capcpq, dx->ncpq, sizeof(*dx->cpq), 8);
		dx->cpq[dx->ncpq++] = s.step;
	}
	cp_ready(dx);
}

/* A delay whose time was diagnosed already: explained by what is left, in its step. */
static int explain_late(struct diagnosis *dx, struct dproc *dp, const struct wait_delay *d)
{
	for (unsigned i = 0; i < DONE_KEPT && i < dp->ndone; i++) {
		const struct pend_step *s = &dp->done[(dp->ndone - 1 - i) % DONE_KEPT];
		if (d->t1 > s->t0 && d->t1 <= s->t1) {
			int64_t ex[CATS];
			uint32_t top[CATS];
			timeline_split(&dp->tl, d->t0, d->t1, ex, top);
			group_add(dx, dp, d, ex, top, 0, 1, s->step);
			return 1;
		}
	}
	return 0;
}

/* The oldest waiting step of dp is ready: DIAG_LAG later ones ended (the collectives that
 * say who waited come after the host calls of their time) and, when dp has device work, a
 * device span ending after it came (they come in the order they end) or the events read came
 * the lag past its end (the device idles); or too many wait. */
static int step_ready(const struct dproc *dp)
{
	if (dp->npend > PEND_MAX)
		return 1;
	if (dp->npend <= DIAG_LAG)
		return 0;
	int64_t t1 = dp->pend[dp->pend_first].t1;
	return !dp->device_work || dp->dev_upto >= t1 || dp->due_upto >= t1;
}

static void steps_ready(struct diagnosis *dx, struct dproc *dp)
{
	while (step_ready(dp))
		step_done(dx, dp);
}

/* The steps that ended the lag before the events read came are due, in the order they
 * ended: those ready diagnosed. */
static void steps_due(struct diagnosis *dx)
{
	while (dx->dueq_at < dx->ndueq && dx->now - dx->dueq[dx->dueq_at].t1 >= dx->lag) {
		const struct due_step *e = &dx->dueq[dx->dueq_at++];
		struct dproc *dp = dx->procs[e->proc];
		if (e->t1 > dp->due_upto)
			dp->due_upto = e->t1;
		steps_ready(dx, dp);
	}
	if (dx->dueq_at > 64 && dx->dueq_at * 2 > dx->ndueq) {
		dx->ndueq -= dx->dueq_at;
		memmove(dx->dueq, dx->dueq + dx->dueq_at, dx->ndueq * sizeof(*dx->dueq));
		dx->dueq_at = 0;
	}
}

/* Every step waiting diagnosed, one step of each process a round, so that the processes'
 * latest steps stay side by side (their critical paths need them). */
static void steps_all(struct diagnosis *dx)
{
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < dx->nprocs; i++) {
			struct dproc *dp = dx->procs[i];
			if (dp->npend) {
				step_done(dx, dp);
				more = 1;
			}
		}
	}
}

static void on_step(struct diagnosis *dx, struct dproc *dp, const struct event *ev)
{
	dx->job_steps = 1;
	dx->step_procs += !dp->has_steps;
	dp->has_steps = 1;
	dp->pend = util_grow(dp->pend, &dp->cappend, dp->pend_first + dp->npend, sizeof(*dp->pend),
			     8);
	dp->pend[dp->pend_first + dp->npend++] = (struct pend_step){ ev->step, ev->t0, ev->t1 };
	if (dx->hold)
		return;
	dx->dueq = util_grow(dx->dueq, &dx->capdueq, dx->ndueq, sizeof(*dx->dueq), 64);
	dx->dueq[dx->ndueq++] = (struct due_step){ ev->t1, (size_t)dp->index };
	steps_ready(dx, dp);
}

/* The reader's progress: the latest start seen; the lag, twice the latest an event came
 * after its end (between LAG_MIN and LAG_MAX). */
static void reader_time(struct diagnosis *dx, const struct event *ev)
{
	if (ev->flags & EVF_UNFINISHED)
		return;          /* ends where its process's data ends: not a time read */
	if (ev->t0 > dx->now)
		dx->now = ev->t0;
	int64_t late = dx->now - ev->t1;
	if (late > dx->lag / 2)
		dx->lag = late > LAG_MAX / 2 ? LAG_MAX : 2 * late;
}

/* ---- several analysis processes: the waits of processes another one reads, for it ---- */

static int reads_here(const struct diagnosis *dx, const struct proc *p)
{
	return !dx->hold || trace_reader_of(dx->tr, p->index) == par_rank();
}

static struct pack *away_to(struct diagnosis *dx, const struct proc *p, int kind)
{
	int to = trace_reader_of(dx->tr, p->index);
	if (to < 0)
		return NULL;             /* nobody reads it: nothing to diagnose */
	if (!dx->away)
		dx->away = mail_new();
	struct pack *b = &dx->away->to[to];
	pack_u64(b, (uint64_t)kind);
	pack_i64(b, p->index);
	return b;
}

static void route_span(struct diagnosis *dx, const struct wait_span *w)
{
	struct pack *b = away_to(dx, w->proc, 0);
	if (!b)
		return;
	pack_u64(b, (uint64_t)w->kind << 8 | w->on_device);
	pack_i64(b, w->t0);
	pack_i64(b, w->t1);
	pack_name(b, w->site);
	pack_name(b, w->caller);
	pack_u64(b, w->comm);
	pack_u64(b, w->seq);
	pack_i64(b, w->cause_rank);
}

static void route_delay(struct diagnosis *dx, const struct wait_delay *d)
{
	struct pack *b = away_to(dx, d->late, 1);
	if (!b)
		return;
	pack_u64(b, (uint64_t)d->kind << 8 | d->on_device);
	pack_i64(b, d->t0);
	pack_i64(b, d->t1);
	pack_name(b, d->site);
	pack_name(b, d->caller);
	pack_u64(b, d->comm);
	pack_u64(b, d->seq);
	pack_u64(b, d->waiters);
	pack_i64(b, d->waited);
}

void wait_span_take(struct diagnosis *dx, struct dproc *dp, const struct wait_span *w)
{
	timeline_add(&dp->tl, CAT_WAIT, w->t0, w->t1, w->site);
	wait_row_add(dx, w, dp->index);
	if (w->t1 > dp->tl.forgotten) {
		dp->waits = util_grow(dp->waits, &dp->capwaits, dp->nwaits, sizeof(*dp->waits), 16);
		dp->waits[dp->nwaits++] = (struct wait_rec){ w->t0, w->t1, w->cause_rank, w->site,
							      w->seq, w->comm };
	}
}

static void wait_span_cb(void *ctx, const struct wait_span *w)
{
	struct diagnosis *dx = ctx;
	if (!reads_here(dx, w->proc))
		route_span(dx, w);
	else
		wait_span_take(dx, dproc_of(dx, w->proc), w);
}

void wait_delay_take(struct diagnosis *dx, struct dproc *dp, const struct wait_delay *d)
{
	if (dp->has_steps && dp->ndone && d->t1 <= dp->done[(dp->ndone - 1) % DONE_KEPT].t1) {
		if (!explain_late(dx, dp, d))
			dp->outside++;
		return;
	}
	dp->why = util_grow(dp->why, &dp->capwhy, dp->nwhy, sizeof(*dp->why), 16);
	dp->why[dp->nwhy++] = *d;
}

static void wait_delay_cb(void *ctx, const struct wait_delay *d)
{
	struct diagnosis *dx = ctx;
	if (!reads_here(dx, d->late))
		route_delay(dx, d);
	else
		wait_delay_take(dx, dproc_of(dx, d->late), d);
}

static struct lane *lane_at(struct dproc *dp, uint64_t stream)
{
	for (size_t i = 0; i < dp->nlanes; i++)
		if (dp->lanes[i].stream == stream)
			return &dp->lanes[i];
	dp->lanes = util_grow(dp->lanes, &dp->caplanes, dp->nlanes, sizeof(*dp->lanes), 4);
	struct lane *l = &dp->lanes[dp->nlanes++];
	memset(l, 0, sizeof(*l));
	l->stream = stream;
	return l;
}

/* A gap between two kernels of a stream, the second launched only after the first ended, is
 * the host's launching (host-bound) when it is longer than the first kernel (the device idles
 * more than it works) and shorter than this; longer ones are phases of the host (the split
 * shows them). */
#define STARVED_GAP_NS 50000000

static int is_copy(unsigned kind)
{
	return kind == TPROF_DEVOP_COPY || kind == TPROF_DEVOP_MEMSET;
}

/* A device operation, in order on its stream: its category, and what its launch shows. */
static void device_op(struct diagnosis *dx, struct dproc *dp, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	unsigned kind = di->kind;
	unsigned cat = kind == TPROF_DEVOP_COLLECTIVE ? CAT_COLLECTIVE
		       : is_copy(kind) ? CAT_COPY : CAT_COMPUTE;
	timeline_add(&dp->tl, cat, ev->t0, ev->t1, ev->name);
	overview_device(dx, dp, di->op.stream, cat, ev->t0, ev->t1);
	if (cat == CAT_COLLECTIVE)
		timeline_add(&dp->tl, TL_COMM, ev->t0, ev->t1, 0);
	if (cat != CAT_COMPUTE && !is_copy(kind))
		return;
	struct lane *l = lane_at(dp, di->op.stream);
	if (cat == CAT_COMPUTE) {
		dp->kernels++;
		dp->kernel_ns += ev->t1 - ev->t0;
		launches_kernel(&dp->launches, ev);
	}
	if (l->t1 && cat == CAT_COMPUTE && di->launch_ns) {
		if (is_copy(l->kind) && di->launch_ns < l->t1 && ev->t0 >= l->t1) {
			/* launched while a copy ran before it on its stream: held back until the
			 * copy ended */
			int64_t from = di->launch_ns > l->t0 ? di->launch_ns : l->t0;
			timeline_add(&dp->tl, TL_COPY_HELD, from, l->t1, l->name);
			dp->own[OWN_COPY_HELD].count++;
		} else if (!is_copy(l->kind) && di->launch_ns >= l->t1 && ev->t0 > l->t1 &&
			   ev->t0 - l->t1 < STARVED_GAP_NS && ev->t0 - l->t1 > l->t1 - l->t0) {
			timeline_add(&dp->tl, TL_STARVED, l->t1, ev->t0, ev->name);
			dp->own[OWN_STARVED].count++;
		}
	}
	l->t0 = ev->t0;
	l->t1 = ev->t1;
	l->kind = (uint8_t)kind;
	l->name = ev->name;
}

static unsigned state_cat(unsigned state)
{
	switch (state) {
	case TPROF_SCHED_RUNNING:
		return CAT_HOST;
	case TPROF_SCHED_RUNNABLE:
		return CAT_CPU_WAIT;
	case TPROF_SCHED_SLEEPING: case TPROF_SCHED_BLOCKED: case TPROF_SCHED_STOPPED:
		return CAT_IDLE;
	default:
		return CATS;
	}
}

static void diagnosis_take_event(struct diagnosis *dx, const struct event *ev);

void diagnosis_event(struct diagnosis *dx, const struct event *ev)
{
	reader_time(dx, ev);
	if (!ev->proc || ev->proc->sys)
		return;
	diagnosis_take_event(dx, ev);
	if (dx->dueq_at < dx->ndueq && dx->now - dx->dueq[dx->dueq_at].t1 >= dx->lag)
		steps_due(dx);
}

static void diagnosis_take_event(struct diagnosis *dx, const struct event *ev)
{
	const struct runtime_set *rts = dx->rts;
	for (unsigned k = 0; k < rts->n; k++) {
		const struct runtime *rt = rts->all[k];
		if (rt->waits && ev->kind <= EV_LAST && (rt->wait_events & RT_KIND(ev->kind))) {
			struct wait_sink sink = { dx, wait_span_cb, wait_delay_cb };
			rt->waits(ev, &sink);
		}
	}
	switch (ev->kind) {
	case EV_STEP: {
		struct dproc *dp = dproc_get(dx, ev->proc);
		extent(dp, ev->t0, ev->t1);
		/* a step cut by the window (--steps, --start, --end) is not a whole step */
		if (!(ev->flags & EVF_CLIPPED))
			on_step(dx, dp, ev);
		else
			dx->job_steps = 1;
		break;
	}
	case EV_CALL: {
		struct dproc *dp = dproc_get(dx, ev->proc);
		extent(dp, ev->t0, ev->t1);
		timeline_add(&dp->tl, CAT_RUNTIME, ev->t0, ev->t1, ev->name);
		launches_call(&dp->launches, ev);
		if (tprof_domain_device(ev->call->domain))
			dp->device_work = 1;
		const struct runtime *rt = runtime_of_domain(dx->rts, ev->call->domain);
		if (rt && rt->communication)
			timeline_add(&dp->tl, TL_COMM, ev->t0, ev->t1, 0);
		break;
	}
	case EV_DEVICE: {
		struct dproc *dp = dproc_get(dx, ev->proc);
		extent(dp, ev->t0, ev->t1);
		device_op(dx, dp, ev);
		dp->device_work = 1;
		if (ev->t1 > dp->dev_upto)
			dp->dev_upto = ev->t1;
		if (!dx->hold)
			steps_ready(dx, dp);
		break;
	}
	case EV_STATE: {
		unsigned c = state_cat(ev->state);
		if (c < CATS) {
			struct dproc *dp = dproc_get(dx, ev->proc);
			timeline_add(&dp->tl, c, ev->t0, ev->t1, 0);
			overview_state(dx, dp, ev->thread, ev->state, ev->t0, ev->t1);
			if (ev->state == TPROF_SCHED_RUNNING) {
				dx->running = util_grow(dx->running, &dx->caprunning, dx->nrunning,
							sizeof(*dx->running), 256);
				dx->running[dx->nrunning++] = (struct run_rec){ ev->t0, ev->t1,
										dp->index, ev->cpu };
			}
		}
		break;
	}
	case EV_RANGE: case EV_MARK: case EV_ASYNC: case EV_SAMPLE:
		extent(dproc_get(dx, ev->proc), ev->t0, ev->kind == EV_MARK ? ev->t0 : ev->t1);
		break;
	default:
		break;
	}
}

struct diagnosis *diagnosis_new(const struct runtime_set *rts)
{
	struct diagnosis *dx = xcalloc(1, sizeof(*dx));
	dx->rts = rts;
	dx->lag = LAG_MIN;
	return dx;
}

void dproc_free(struct dproc *dp)
{
	timeline_free(&dp->tl);
	threads_free(&dp->ov);
	overview_free(&dp->ov);
	free(dp->sm.bins);
	free(dp->pend);
	free(dp->why);
	free(dp->lanes);
	launches_free(&dp->launches);
	free(dp->waits);
	free(dp->excess);
	free(dp);
}

static int by_step_number(const void *a, const void *b)
{
	const struct step_agg *x = a, *y = b;
	return (x->step > y->step) - (x->step < y->step);
}

/* What is left once every step is: each process's run when no process of the job has steps
 * (else the delays outside its steps counted), and the spans that came too late. */
void diagnose_rest(struct diagnosis *dx)
{
	for (size_t i = 0; i < dx->nprocs; i++) {
		struct dproc *dp = dx->procs[i];
		if (!dp->has_steps && !dx->job_steps && dp->any) {
			/* no steps anywhere: the whole run of each process */
			diagnose_span(dx, dp, 0, 0, dp->lo, dp->hi);
			explain(dx, dp, INT64_MAX, 0, 0, 0, 1);
		} else {
			dp->outside += dp->nwhy - (dx->hold ? dp->why_at : 0);
			dp->nwhy = dp->why_at = 0;
		}
		overview_finish(dx, dp);
		threads_finish(dx, &dp->ov);
		dx->late_spans += dp->tl.late;
	}
}

size_t diagnosis_settle(struct diagnosis *dx)
{
	if (dx->settled)
		return dx->nsteps;
	dx->settled = 1;
	dx->ending = 1;       /* every process's last steps, then every critical path */
	if (!dx->hold) {        /* held: dpar_hold_end did it (output.c) */
		steps_all(dx);
		while (dx->ncpq)
			cp_next(dx);
		diagnose_rest(dx);
	}
	findings_rank(dx);
	/* in step order from here on (step_of, by the order they came, is no longer used) */
	if (dx->nsteps > 1)
		qsort(dx->steps, dx->nsteps, sizeof(*dx->steps), by_step_number);
	return dx->nsteps;
}

void diagnosis_step(const struct diagnosis *dx, size_t i, struct diagnosis_step *out)
{
	const struct step_agg *s = &dx->steps[i];
	out->step = s->step;
	out->longest = s->dur_max;
	for (unsigned c = 0; c < DIAG_PARTS; c++)
		out->ns[c] = s->ns[c];
}

void diagnosis_total(const struct diagnosis *dx, int64_t ns[DIAG_PARTS])
{
	for (unsigned c = 0; c < DIAG_PARTS; c++) {
		ns[c] = 0;
		for (size_t i = 0; i < dx->nprocs; i++)
			ns[c] += dx->procs[i]->ns[c];
	}
}

const char *diagnosis_part_words(unsigned part)
{
	return part_key(part);
}

void diagnosis_write(struct diagnosis *dx, struct sumw *w, const char *dir, int top)
{
	diagnosis_settle(dx);
	report_write(dx, w, dir, top);
}

void diagnosis_keep_splits(struct diagnosis *dx)
{
	dx->keep_splits = 1;
}

static void diagnosis_clear(struct diagnosis *dx)
{
	for (size_t i = 0; i < dx->nprocs; i++)
		dproc_free(dx->procs[i]);
	free(dx->procs);
	for (size_t i = 0; i < dx->nsteps; i++)
		free(dx->steps[i].path);
	free(dx->steps);
	free(dx->cpq);
	free(dx->dueq);
	free(dx->running);
	u64map_free(&dx->by_rank);
	for (size_t i = 0; i < dx->ngroups; i++)
		free(dx->groups[i].delays);
	free(dx->groups);
	free(dx->rows);
	free(dx->splits);
	free(dx->findings);
	u64map_free(&dx->proc_of);
	u64map_free(&dx->step_of);
	u64map_free(&dx->group_of);
	u64map_free(&dx->row_of);
	u64map_free(&dx->by_index);
	for (size_t i = 0; i < dx->nstandins; i++)
		free(dx->standins[i]);
	free(dx->standins);
	mail_free(dx->away);
}

void diagnosis_free(struct diagnosis *dx)
{
	if (!dx)
		return;
	diagnosis_clear(dx);
	free(dx);
}

void diagnosis_take(struct diagnosis *dx, struct diagnosis *from)
{
	struct diagnosis keep = *dx;
	diagnosis_clear(dx);
	*dx = *from;
	free(from);
	dx->settled = keep.settled;
	dx->ending = keep.ending;
	dx->hold = keep.hold;
}

/* runtimes/sys/summary.c — the system profile's summary tables, after the steps: CPU samples
 * by function (self: the innermost frame; total: anywhere in the stack, once per sample), by
 * thread, off-CPU time by thread and reason (the EV_STATE spans), utilisation per core and
 * memory (the SYSCTR counters), and what was lost.  Everything is what the window kept. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../summary/table.h"
#include "../../util/grow.h"
#include "../../util/pack.h"
#include "../../util/u64map.h"
#include "sys.h"

struct fn_row {
	uint64_t self, total;
	uint64_t mark;                   /* the last sample that counted it in total */
};

/* Who a row is about, as the tables name it (said once the row is settled: settle()). */
struct who {
	int64_t proc, tid;               /* the process's number; the thread's, or -1 */
	char *thread, *process;          /* "name (tid N)", the process's label */
	char *host;
	int64_t mem_total;               /* a system image's host memory, or -1 */
};

struct thread_row {
	const struct thread *th;         /* NULL: another analysis process's (who says) */
	uint64_t samples;
	int64_t in[TPROF_SCHED_EXITED];  /* ns per state (index = enum tprof_sched_state) */
	struct who who;
};

struct core_row {
	int proc;                        /* its system image's index */
	uint32_t cpu;
	uint64_t n;
	double sum, max;
	struct who who;
};

struct mem_row {
	const struct proc *p;            /* NULL: another analysis process's */
	double peak;
	int host;                        /* a system image's host memory, not a process's RSS */
	struct who who;
};

struct syssum {
	struct fn_row *fns;              /* by name id */
	size_t capfns;
	uint64_t samples;
	struct thread_row *threads;      /* in the order they were first met */
	size_t nthreads, capthreads;
	struct u64map thread_of;         /* struct thread address -> index in threads */
	struct core_row *cores;
	size_t ncores;
	struct mem_row *mems;
	size_t nmems;
	uint64_t samples_lost, unattributed, unresolved, missing_files;   /* settled */
	int settled;
};

void *sys_sum_new(void)
{
	struct syssum *s = xcalloc(1, sizeof(*s));
	return s;
}

static struct fn_row *fn(struct syssum *s, uint32_t id)
{
	s->fns = util_grow_index(s->fns, &s->capfns, id, sizeof(*s->fns), 1024, 0);
	return &s->fns[id];
}

static struct thread_row *thread_row(struct syssum *s, const struct thread *th)
{
	uint64_t key = (uint64_t)(uintptr_t)th;
	uint32_t *i = u64map_get(&s->thread_of, key);
	if (i)
		return &s->threads[*i];
	u64map_put(&s->thread_of, key, (uint32_t)s->nthreads);
	s->threads = util_grow(s->threads, &s->capthreads, s->nthreads, sizeof(*s->threads), 64);
	s->threads[s->nthreads] = (struct thread_row){ .th = th };
	return &s->threads[s->nthreads++];
}

static void on_sample(struct syssum *s, const struct event *ev)
{
	const struct sample_info *si = ev->sample;
	s->samples++;
	thread_row(s, ev->thread)->samples++;
	fn(s, ev->name)->self++;
	for (uint32_t i = 0; i < si->n; i++) {
		struct fn_row *f = fn(s, si->frames[i]);
		if (f->mark != s->samples) {
			f->mark = s->samples;
			f->total++;
		}
	}
	if (!si->n) {
		struct fn_row *f = fn(s, ev->name);
		f->total++;
		f->mark = s->samples;
	}
}

static void on_counter(struct syssum *s, const struct event *ev)
{
	if (ev->sysctr == TPROF_SYSCTR_CPU_BUSY) {
		size_t i = 0;
		while (i < s->ncores && (s->cores[i].proc != ev->proc->index || s->cores[i].cpu != ev->cpu))
			i++;
		if (i == s->ncores) {
			s->cores = xreallocarray(s->cores, s->ncores + 1, sizeof(*s->cores));
			s->cores[s->ncores++] = (struct core_row){ .proc = ev->proc->index, .cpu = ev->cpu };
		}
		struct core_row *c = &s->cores[i];
		c->n++;
		c->sum += ev->value;
		if (ev->value > c->max)
			c->max = ev->value;
		return;
	}
	if (ev->sysctr != TPROF_SYSCTR_RSS && ev->sysctr != TPROF_SYSCTR_HOST_MEM)
		return;
	int host = ev->sysctr == TPROF_SYSCTR_HOST_MEM;
	size_t i = 0;
	while (i < s->nmems && (s->mems[i].p != ev->proc || s->mems[i].host != host))
		i++;
	if (i == s->nmems) {
		s->mems = xreallocarray(s->mems, s->nmems + 1, sizeof(*s->mems));
		s->mems[s->nmems++] = (struct mem_row){ .p = ev->proc, .host = host };
	}
	if (ev->value > s->mems[i].peak)
		s->mems[i].peak = ev->value;
}

void sys_sum_event(void *priv, const struct event *ev)
{
	struct syssum *s = priv;
	switch (ev->kind) {
	case EV_SAMPLE:
		on_sample(s, ev);
		break;
	case EV_STATE:
		if (ev->state < TPROF_SCHED_EXITED)
			thread_row(s, ev->thread)->in[ev->state] =
				sat_add(thread_row(s, ev->thread)->in[ev->state], ev->t1 - ev->t0);
		break;
	case EV_COUNTER:
		on_counter(s, ev);
		break;
	default:
		break;
	}
}

/* ---- the tables --------------------------------------------------------------------------- */

static double pct(uint64_t n, uint64_t of)
{
	return of ? 100.0 * (double)n / (double)of : 0.0;
}

static const struct syssum *sort_ctx;

static int by_self(const void *a, const void *b)
{
	const struct fn_row *x = &sort_ctx->fns[*(const uint32_t *)a];
	const struct fn_row *y = &sort_ctx->fns[*(const uint32_t *)b];
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(strings_get(*(const uint32_t *)a), strings_get(*(const uint32_t *)b));
}

static void functions_table(struct sumw *w, struct syssum *s, int top)
{
	size_t n = 0;
	uint32_t *ids = xmallocarray(s->capfns ? s->capfns : 1, sizeof(*ids));
	for (uint32_t id = 0; id < s->capfns; id++)
		if (s->fns[id].total)
			ids[n++] = id;
	sort_ctx = s;
	if (n > 1)
		qsort(ids, n, sizeof(*ids), by_self);
	sw_obj(w, "cpu_functions");
	sw_u64(w, NULL, "samples", s->samples);
	sw_if(w, n > 0);
	sw_text(w, "\nCPU samples by function (%" PRIu64 " samples; self: the innermost frame, "
		"total: anywhere in the stack)\n%8s %10s %8s %10s  %s\n", s->samples, "Self(%)",
		"Self", "Total(%)", "Total", "Function");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	for (size_t i = 0; i < shown; i++) {
		const struct fn_row *f = &s->fns[ids[i]];
		sw_obj(w, NULL);
		sw_real(w, "%6.2f %% ", "self_pct", pct(f->self, s->samples));
		sw_count(w, "%10s ", "self_samples", f->self);
		sw_real(w, "%6.2f %% ", "total_pct", pct(f->total, s->samples));
		sw_count(w, "%10s  ", "total_samples", f->total);
		sw_name(w, "function", strings_get(ids[i]));
		sw_close(w);
	}
	sw_close(w);
	table_more(w, n - shown);
	sw_close(w);
	free(ids);
}

static int by_samples(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->who.proc != y->who.proc)
		return x->who.proc < y->who.proc ? -1 : 1;
	return x->who.tid < y->who.tid ? -1 : x->who.tid > y->who.tid;
}

static int64_t off_cpu(const struct thread_row *r)
{
	return r->in[TPROF_SCHED_RUNNABLE] + r->in[TPROF_SCHED_SLEEPING] +
	       r->in[TPROF_SCHED_BLOCKED] + r->in[TPROF_SCHED_STOPPED];
}

static int by_off_cpu(const void *a, const void *b)
{
	const struct thread_row *x = a, *y = b;
	int64_t p = off_cpu(x), q = off_cpu(y);
	if (p != q)
		return p > q ? -1 : 1;
	return by_samples(a, b);
}

/* The rows of the thread table, packed, those that `keep` says. */
static struct thread_row *rows(const struct syssum *s, int (*keep)(const struct thread_row *),
			       size_t *n)
{
	struct thread_row *v = xmallocarray(s->nthreads ? s->nthreads : 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		if (keep(&s->threads[i]))
			v[(*n)++] = s->threads[i];
	return v;
}

static int has_samples(const struct thread_row *r)
{
	return r->samples > 0;
}

static int has_states(const struct thread_row *r)
{
	for (int k = 0; k < TPROF_SCHED_EXITED; k++)
		if (r->in[k])
			return 1;
	return 0;
}

static void who(struct sumw *w, const struct who *o)
{
	sw_i64(w, NULL, "process", o->proc);
	sw_i64(w, NULL, "tid", o->tid);
	sw_str(w, "%s", "thread", o->thread);
	sw_str(w, " of %s\n", "process_label", o->process);
}

static void threads_table(struct sumw *w, struct syssum *s, int top)
{
	size_t n;
	struct thread_row *v = rows(s, has_samples, &n);
	if (n > 1)
		qsort(v, n, sizeof(*v), by_samples);
	sw_obj(w, "cpu_threads");
	sw_if(w, n > 0);
	sw_text(w, "\nCPU samples by thread\n%10s %8s  %s\n", "Samples", "Share", "Thread");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	for (size_t i = 0; i < shown; i++) {
		sw_obj(w, NULL);
		sw_count(w, "%10s ", "samples", v[i].samples);
		sw_real(w, "%6.2f %%  ", "share_pct", pct(v[i].samples, s->samples));
		who(w, &v[i].who);
		sw_close(w);
	}
	sw_close(w);
	table_more(w, n - shown);
	sw_close(w);
	free(v);
}

static void state_cells(struct sumw *w, const int64_t *in, int64_t off)
{
	sw_dur(w, "%12s ", "running_ns", in[TPROF_SCHED_RUNNING]);
	sw_dur(w, "%12s ", "runnable_ns", in[TPROF_SCHED_RUNNABLE]);
	sw_dur(w, "%12s ", "sleeping_ns", in[TPROF_SCHED_SLEEPING]);
	sw_dur(w, "%12s ", "blocked_ns", in[TPROF_SCHED_BLOCKED]);
	sw_dur(w, "%12s ", "stopped_ns", in[TPROF_SCHED_STOPPED]);
	sw_dur(w, "%12s  ", "off_cpu_ns", off);
}

static void off_cpu_table(struct sumw *w, struct syssum *s, int top)
{
	size_t n;
	struct thread_row *v = rows(s, has_states, &n);
	if (n > 1)
		qsort(v, n, sizeof(*v), by_off_cpu);
	int64_t total[TPROF_SCHED_EXITED] = { 0 };
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < TPROF_SCHED_EXITED; k++)
			total[k] = sat_add(total[k], v[i].in[k]);
	sw_obj(w, "off_cpu");
	sw_if(w, n > 0);
	sw_text(w, "\nOff-CPU time by thread and reason (runnable: preempted or waiting for a CPU; "
		"blocked: uninterruptible, mostly I/O)\n%12s %12s %12s %12s %12s %12s  %s\n",
		"Running", "Runnable", "Sleeping", "Blocked I/O", "Stopped", "Off-CPU", "Thread");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	for (size_t i = 0; i < shown; i++) {
		sw_obj(w, NULL);
		state_cells(w, v[i].in, off_cpu(&v[i]));
		who(w, &v[i].who);
		sw_close(w);
	}
	sw_close(w);
	table_more(w, n - shown);
	sw_obj(w, "total");
	sw_if(w, n > 0);
	struct thread_row t = { 0 };
	memcpy(t.in, total, sizeof(total));
	state_cells(w, total, off_cpu(&t));
	sw_text(w, "total\n");
	sw_endif(w);
	sw_close(w);
	sw_close(w);
	free(v);
}

static int core_cmp(const void *a, const void *b)
{
	const struct core_row *x = a, *y = b;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static void cores_table(struct sumw *w, struct syssum *s)
{
	if (s->ncores > 1)
		qsort(s->cores, s->ncores, sizeof(*s->cores), core_cmp);
	sw_obj(w, "cpu_cores");
	sw_if(w, s->ncores > 0);
	sw_text(w, "\nCPU utilisation per core\n%8s %8s %8s  %s\n", "Avg", "Max", "Samples",
		"Core");
	sw_endif(w);
	sw_arr(w, "rows");
	for (size_t i = 0; i < s->ncores; i++) {
		const struct core_row *c = &s->cores[i];
		sw_obj(w, NULL);
		sw_real(w, "%6.1f %% ", "avg_pct", c->n ? c->sum / (double)c->n : 0.0);
		sw_real(w, "%6.1f %% ", "max_pct", c->max);
		sw_u64(w, "%8" PRIu64 "  ", "samples", c->n);
		sw_u64(w, "CPU %" PRIu64, "cpu", c->cpu);
		sw_str(w, " of %s\n", "host", c->who.host);
		sw_close(w);
	}
	sw_close(w);
	sw_close(w);
}

static int mem_cmp(const void *a, const void *b)
{
	const struct mem_row *x = a, *y = b;
	return x->who.proc < y->who.proc ? -1 : x->who.proc > y->who.proc;
}

static void memory_table(struct sumw *w, struct syssum *s)
{
	if (s->nmems > 1)
		qsort(s->mems, s->nmems, sizeof(*s->mems), mem_cmp);
	sw_obj(w, "memory");
	sw_if(w, s->nmems > 0);
	sw_text(w, "\nMemory (peaks of the samples)\n%12s %12s  %s\n", "Peak", "Of", "What");
	sw_endif(w);
	sw_arr(w, "rows");
	for (int host = 1; host >= 0; host--)
		for (size_t i = 0; i < s->nmems; i++) {
			const struct mem_row *m = &s->mems[i];
			if (m->host != host)
				continue;
			sw_obj(w, NULL);
			sw_str(w, NULL, "kind", host ? "host" : "process");
			sw_bytes(w, "%12s ", "peak_bytes", m->peak);
			int64_t total = host ? m->who.mem_total : -1;
			if (total > 0)
				sw_bytes(w, "%12s  ", "total_bytes", (double)total);
			else
				sw_null(w, "%12s  ", "total_bytes", "-");
			sw_str(w, host ? "host memory used on %s\n" : NULL, "host", m->who.host);
			sw_str(w, host ? NULL : "RSS of %s\n", "process_label", m->who.process);
			sw_i64(w, NULL, "process", m->who.proc);
			sw_close(w);
		}
	sw_close(w);
	sw_close(w);
}

/* Samples lost, records of unknown threads, addresses left unnamed. */
static void losses(struct sumw *w, const struct syssum *s)
{
	uint64_t lost = s->samples_lost;
	sw_obj(w, "lost");
	sw_if(w, lost || s->unattributed || s->unresolved || s->missing_files);
	sw_text(w, "\nSystem profile:");
	sw_count(w, "  samples lost (the kernel's ring buffer was full): %s", "samples_lost", lost);
	sw_count(w, "; records of unknown threads left out: %s", "unattributed",
		 s->unattributed);
	sw_count(w, "; addresses not named: %s", "unresolved_addresses", s->unresolved);
	sw_count(w, "; ELF files not found or changed: %s\n", "missing_files", s->missing_files);
	sw_endif(w);
	sw_close(w);
}

/* ---- settled rows, and the parallel analyzer's partial tables ---------------------------- */

static struct who who_of(const struct proc *p, const struct thread *th)
{
	char label[512], thr[320];
	struct who o = { p->index, th ? th->tid : -1, NULL, NULL, NULL, -1 };
	if (th)
		snprintf(thr, sizeof(thr), "%s (tid %d)", th->name ? strings_get(th->name) : "thread",
			 th->tid);
	o.thread = xstrdup(th ? thr : "");
	o.process = xstrdup(proc_label(p, label, sizeof(label)));
	o.host = xstrdup(p->host ? strings_get(p->host) : "?");
	o.mem_total = p->sys ? p->sys->mem_total : -1;
	return o;
}

static void who_free(struct who *o)
{
	free(o->thread);
	free(o->process);
	free(o->host);
}

/* Every row says who it is about, and the losses are counted: what the tables and a pack
 * need of the trace, once. */
static void settle(struct syssum *s, const struct trace *tr)
{
	if (s->settled)
		return;
	s->settled = 1;
	for (size_t i = 0; i < s->nthreads; i++)
		s->threads[i].who = who_of(s->threads[i].th->proc, s->threads[i].th);
	for (size_t i = 0; i < s->ncores; i++) {
		const struct proc *p = trace_proc_at(tr, s->cores[i].proc);
		struct who o = { s->cores[i].proc, -1, xstrdup(""), xstrdup(""),
				 xstrdup(p && p->host ? strings_get(p->host) : "?"), -1 };
		s->cores[i].who = o;
	}
	for (size_t i = 0; i < s->nmems; i++)
		s->mems[i].who = who_of(s->mems[i].p, NULL);
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->sys)
			s->samples_lost += drops_of(tr->procs[i]->drops)->count[TPROF_DROP_SAMPLES];
	s->unattributed = tr->sys.unattributed;
	s->unresolved = tr->sys.unresolved;
	s->missing_files = tr->sys.missing_files;
}

static void who_pack(struct pack *b, const struct who *o)
{
	pack_i64(b, o->proc);
	pack_i64(b, o->tid);
	pack_str(b, o->thread);
	pack_str(b, o->process);
	pack_str(b, o->host);
	pack_i64(b, o->mem_total);
}

static struct who who_unpack(struct unpack *u)
{
	struct who o;
	o.proc = unpack_i64(u);
	o.tid = unpack_i64(u);
	o.thread = unpack_strdup(u);
	o.process = unpack_strdup(u);
	o.host = unpack_strdup(u);
	o.mem_total = unpack_i64(u);
	return o;
}

void sys_sum_pack(void *priv, const struct sum_span *span, struct pack *b)
{
	struct syssum *s = priv;
	settle(s, span->tr);
	pack_u64(b, s->samples);
	uint64_t nfns = 0;
	for (uint32_t id = 0; id < s->capfns; id++)
		nfns += s->fns[id].total != 0;
	pack_u64(b, nfns);
	for (uint32_t id = 0; id < s->capfns; id++)
		if (s->fns[id].total) {
			pack_name(b, id);
			pack_u64(b, s->fns[id].self);
			pack_u64(b, s->fns[id].total);
		}
	pack_u64(b, s->nthreads);
	for (size_t i = 0; i < s->nthreads; i++) {
		pack_u64(b, s->threads[i].samples);
		pack_bytes(b, s->threads[i].in, sizeof(s->threads[i].in));
		who_pack(b, &s->threads[i].who);
	}
	pack_u64(b, s->ncores);
	for (size_t i = 0; i < s->ncores; i++) {
		const struct core_row *c = &s->cores[i];
		pack_u64(b, c->cpu);
		pack_u64(b, c->n);
		pack_f64(b, c->sum);
		pack_f64(b, c->max);
		who_pack(b, &c->who);
	}
	pack_u64(b, s->nmems);
	for (size_t i = 0; i < s->nmems; i++) {
		pack_i64(b, s->mems[i].host);
		pack_f64(b, s->mems[i].peak);
		who_pack(b, &s->mems[i].who);
	}
	pack_u64(b, s->samples_lost);
	pack_u64(b, s->unattributed);
	pack_u64(b, s->unresolved);
	pack_u64(b, s->missing_files);
}

/* Another analysis process's rows are of other processes: rows of their own. */
void sys_sum_merge(void *priv, const struct sum_span *span, struct unpack *u)
{
	struct syssum *s = priv;
	settle(s, span->tr);
	s->samples += unpack_u64(u);
	for (size_t i = 0, n = unpack_count(u, 3 * sizeof(uint64_t)); i < n; i++) {
		struct fn_row *f = fn(s, unpack_name(u));
		f->self += unpack_u64(u);
		f->total += unpack_u64(u);
	}
	for (size_t i = 0, n = unpack_count(u, 8 * sizeof(uint64_t)); i < n; i++) {
		s->threads = util_grow(s->threads, &s->capthreads, s->nthreads, sizeof(*s->threads),
				       64);
		struct thread_row *r = &s->threads[s->nthreads++];
		memset(r, 0, sizeof(*r));
		r->samples = unpack_u64(u);
		unpack_bytes(u, r->in, sizeof(r->in));
		r->who = who_unpack(u);
	}
	for (size_t i = 0, n = unpack_count(u, 10 * sizeof(uint64_t)); i < n; i++) {
		s->cores = xreallocarray(s->cores, s->ncores + 1, sizeof(*s->cores));
		struct core_row *c = &s->cores[s->ncores++];
		c->cpu = (uint32_t)unpack_u64(u);
		c->n = unpack_u64(u);
		c->sum = unpack_f64(u);
		c->max = unpack_f64(u);
		c->who = who_unpack(u);
		c->proc = (int)c->who.proc;
	}
	for (size_t i = 0, n = unpack_count(u, 8 * sizeof(uint64_t)); i < n; i++) {
		s->mems = xreallocarray(s->mems, s->nmems + 1, sizeof(*s->mems));
		struct mem_row *m = &s->mems[s->nmems++];
		m->p = NULL;
		m->host = (int)unpack_i64(u);
		m->peak = unpack_f64(u);
		m->who = who_unpack(u);
	}
	s->samples_lost += unpack_u64(u);
	s->unattributed += unpack_u64(u);
	s->unresolved += unpack_u64(u);
	s->missing_files += unpack_u64(u);
}

void sys_sum_end(void *priv, struct sumw *w, const struct sum_span *span, int top)
{
	struct syssum *s = priv;
	settle(s, span->tr);
	sw_obj(w, "system");
	functions_table(w, s, top);
	threads_table(w, s, top);
	off_cpu_table(w, s, top);
	cores_table(w, s);
	memory_table(w, s);
	losses(w, s);
	sw_close(w);
	for (size_t i = 0; i < s->nthreads; i++)
		who_free(&s->threads[i].who);
	for (size_t i = 0; i < s->ncores; i++)
		who_free(&s->cores[i].who);
	for (size_t i = 0; i < s->nmems; i++)
		who_free(&s->mems[i].who);
	free(s->fns);
	free(s->threads);
	u64map_free(&s->thread_of);
	free(s->cores);
	free(s->mems);
	free(s);
}

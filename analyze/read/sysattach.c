/* sysattach.c — the system images' tasks given their place in the trace (system.h).  Each
 * run of a pid between two execs (an exec generation) that a system image followed finds
 * the process image that recorded it on the same host, or gets a process made for it from
 * the TASK records (pid, ppid, executable, host); each thread followed finds its thread
 * there, or gets one named by its comm.  An index by (host, tid) then finds, for a record
 * at a time, the thread it belongs to: tids are reused, so each entry holds its run's span,
 * which ends where the next entry of that tid begins (a pid followed by one image up to its
 * exec and by another after it, when each process samples itself).  Of several images of
 * one host that overlap in time, the one that covers the most draws the host's counters. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "system.h"

/* One exec generation of a pid, as the TASK records tell it. */
struct run {
	uint32_t pid, gen, ppid, exe, comm;
	int64_t t0, t1;                  /* its first record; its exit or the next generation's
					  * first record (INT64_MAX: none) */
	int execd;                       /* a next generation follows */
	size_t first, n;                 /* its tasks, in the by-run order */
	struct proc *proc;
};

struct slot {
	uint32_t host, tid, pid;
	int64_t t0, t1;
	struct thread *th;
};

struct sysindex {
	struct slot *v;
	size_t n, cap;
};

static int by_time(const void *a, const void *b)
{
	const struct sys_task *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->ticks < y->ticks ? -1 : x->ticks > y->ticks;
}

/* By pid, generation, then time (the time order of equal times is kept by ticks). */
static int by_run(const void *a, const void *b)
{
	const struct sys_task *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->gen != y->gen)
		return x->gen < y->gen ? -1 : 1;
	return by_time(a, b);
}

static int map_cmp(const void *a, const void *b)
{
	const struct sys_map *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->gen != y->gen)
		return x->gen < y->gen ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct sys_ksym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

/* The runs of the tasks v[0..n) (sorted by_run). */
static struct run *runs_of(const struct sys_task *v, size_t n, size_t *nruns)
{
	struct run *r = xcalloc(n ? n : 1, sizeof(*r));
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		struct run *u = &r[k++];
		u->pid = v[i].pid;
		u->gen = v[i].gen;
		u->first = i;
		u->t0 = v[i].ns;
		u->t1 = INT64_MAX;
		for (; i < n && v[i].pid == u->pid && v[i].gen == u->gen; i++) {
			const struct sys_task *t = &v[i];
			if (t->tid == t->pid) {
				if (!u->ppid && t->ppid)
					u->ppid = t->ppid;
				if (t->comm)
					u->comm = t->comm;
				if (t->what == TPROF_TASK_EXIT)
					u->t1 = t->ns;
			}
			if (t->exe)
				u->exe = t->exe;
			if (!u->comm && t->comm)
				u->comm = t->comm;
		}
		u->n = i - u->first;
	}
	for (size_t i = 0; i + 1 < k; i++)
		if (r[i + 1].pid == r[i].pid) {
			r[i].execd = 1;
			if (r[i + 1].t0 < r[i].t1)
				r[i].t1 = r[i + 1].t0;
		}
	*nruns = k;
	return r;
}

/* The recorded image of each run: of the same host and pid, started last at or before the
 * run (a process running when the sampler began started before its first record), else the
 * pid's first run. */
static void match_images(struct trace *tr, const struct proc *sp, struct run *r, size_t n)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *q = tr->procs[i];
		if (q->sys || q->made || q->host != sp->host || q->pid < 0)
			continue;
		struct run *best = NULL, *firstrun = NULL;
		for (size_t k = 0; k < n; k++) {
			if (r[k].pid != (uint64_t)q->pid)
				continue;
			if (!firstrun)
				firstrun = &r[k];
			if (r[k].t0 <= q->start_ns && (!best || r[k].t0 >= best->t0))
				best = &r[k];
		}
		if (!best)
			best = firstrun;
		if (best && !best->proc) {
			best->proc = q;
			q->gen = best->gen;
		}
	}
}

/* Whether run k is tprof-inspect's child before its exec: the first run of the pid the
 * sampler was started for (not its own), which it follows but leaves out until the exec. */
static int left_out(const struct sysimage *si, const struct run *r, size_t k)
{
	return si->target >= 0 && si->target != si->proc->pid && r[k].pid == si->target &&
	       r[k].execd && (k == 0 || r[k - 1].pid != r[k].pid);
}

static struct proc *make_proc(struct trace *tr, const struct proc *sp, const struct run *r)
{
	struct proc *p = xcalloc(1, sizeof(*p));
	tr->procs = xreallocarray(tr->procs, tr->nprocs + 1, sizeof(*tr->procs));
	tr->procs[tr->nprocs++] = p;
	p->rank = p->world_size = p->local_rank = -1;
	p->pid = r->pid;
	p->ppid = r->ppid ? (int64_t)r->ppid : -1;
	p->host = sp->host;
	p->exe = r->exe ? r->exe : r->comm;
	p->made = 1;
	p->before_exec = r->execd;
	p->ended = 1;
	p->gen = r->gen;
	p->clock_source = sp->clock_source;
	p->start_ns = r->t0;
	p->end_ns = r->t1 < sp->end_ns ? r->t1 : sp->end_ns;
	if (p->end_ns < p->start_ns)
		p->end_ns = p->start_ns;
	return p;
}

static struct thread *find_thread(struct proc *p, uint32_t tid)
{
	for (size_t id = 1; id < p->nstreams; id++)
		if (p->threads[id] && p->threads[id]->tid == (int32_t)tid)
			return p->threads[id];
	return NULL;
}

/* A thread that recorded nothing: a stream of its own (without pieces). */
static struct thread *add_thread(struct proc *p, uint32_t tid)
{
	struct thread *t = proc_thread(p, proc_stream_new(p)->index);
	if (!t)
		abort();
	t->tid = (int32_t)tid;
	return t;
}

static void add_slot(struct sysindex *x, uint32_t host, const struct run *r, struct thread *th)
{
	x->v = util_grow(x->v, &x->cap, x->n, sizeof(*x->v), 256);
	const struct proc *p = th->proc;
	/* a recorded image's run reaches back to the image's start (a process running when
	 * the sampler began was first seen after it started) */
	int64_t t0 = r->t0;
	if (!p->made && p->start_ns < t0)
		t0 = p->start_ns;
	x->v[x->n++] = (struct slot){ host, (uint32_t)th->tid, r->pid, t0, r->t1, th };
}

/* The threads of each run's process, made where missing, and their index entries. */
static void attach_threads(struct sysindex *x, const struct proc *sp, const struct sys_task *v,
			   struct run *r, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct proc *p = r[k].proc;
		for (size_t i = r[k].first; i < r[k].first + r[k].n; i++) {
			struct thread *t = find_thread(p, v[i].tid);
			if (!t)
				t = add_thread(p, v[i].tid);
			if (v[i].comm && (p->made || !t->name))
				t->name = v[i].comm;   /* a made thread takes its latest comm */
		}
		for (size_t id = 1; id < p->nstreams; id++)
			if (p->threads[id] && p->threads[id]->tid >= 0)
				add_slot(x, sp->host, &r[k], p->threads[id]);
	}
}

static void attach_image(struct trace *tr, struct sysindex *x, struct sysimage *si)
{
	struct proc *sp = si->proc;
	size_t cur = 0;
	for (size_t i = 0; i < si->ntasks; i++)
		si->tasks[i].ns = timebase_global(&sp->tb, si->tasks[i].ticks, &cur);
	if (si->ntasks > 1)
		qsort(si->tasks, si->ntasks, sizeof(*si->tasks), by_time);
	if (si->nmaps > 1)
		qsort(si->maps, si->nmaps, sizeof(*si->maps), map_cmp);
	if (si->nksyms > 1)
		qsort(si->ksyms, si->nksyms, sizeof(*si->ksyms), ksym_cmp);
	struct sys_task *v = xmallocarray(si->ntasks ? si->ntasks : 1, sizeof(*v));
	if (si->ntasks)   /* an image may hold no TASK record (tasks is then NULL) */
		memcpy(v, si->tasks, si->ntasks * sizeof(*v));
	if (si->ntasks > 1)
		qsort(v, si->ntasks, sizeof(*v), by_run);
	size_t n;
	struct run *r = runs_of(v, si->ntasks, &n);
	match_images(tr, sp, r, n);
	for (size_t k = 0; k < n; k++)
		if (!r[k].proc) {
			r[k].proc = make_proc(tr, sp, &r[k]);
			r[k].proc->unsampled = left_out(si, r, k);
		}
	attach_threads(x, sp, v, r, n);
	free(r);
	free(v);
}

/* A tid's entry ends where its next one (another thread: a later run) begins. */
static void clip_slots(struct sysindex *x)
{
	for (size_t i = 0; i + 1 < x->n; i++) {
		struct slot *s = &x->v[i], *next = &x->v[i + 1];
		if (next->host == s->host && next->tid == s->tid && next->th != s->th &&
		    next->t0 < s->t1 && next->t0 >= s->t0)
			s->t1 = next->t0;
	}
}

struct ranked {
	struct proc *p;
	size_t i;                        /* its place among the processes read */
};

/* The images that cover more first: the longer span, then the earlier start, then the
 * order read. */
static int by_cover(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int64_t dx = x->p->end_ns - x->p->start_ns, dy = y->p->end_ns - y->p->start_ns;
	if (dx != dy)
		return dx > dy ? -1 : 1;
	if (x->p->start_ns != y->p->start_ns)
		return x->p->start_ns < y->p->start_ns ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* An image draws its host's counters unless one that covers more on the same host, and
 * draws them, overlaps it in time (they would be drawn twice).  Images one after the other
 * (runs one after another into one directory) all draw theirs. */
static void choose_host_counters(struct trace *tr, size_t n)
{
	struct ranked *v = xmallocarray(n ? n : 1, sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (tr->procs[i]->sys)
			v[k++] = (struct ranked){ tr->procs[i], i };
	qsort(v, k, sizeof(*v), by_cover);
	for (size_t a = 0; a < k; a++) {
		struct proc *p = v[a].p;
		p->sys->host_counters = 1;
		for (size_t b = 0; b < a && p->sys->host_counters; b++) {
			const struct proc *q = v[b].p;
			if (q->sys->host_counters && q->host == p->host &&
			    q->start_ns < p->end_ns && p->start_ns < q->end_ns)
				p->sys->host_counters = 0;
		}
	}
	free(v);
}

void system_attach(struct trace *tr)
{
	struct sysindex *x = NULL;
	size_t n = tr->nprocs;   /* made processes are added behind */
	for (size_t i = 0; i < n; i++) {
		struct sysimage *si = tr->procs[i]->sys;
		if (!si)
			continue;
		if (!x)
			x = xcalloc(1, sizeof(*x));
		attach_image(tr, x, si);
	}
	if (x && x->n > 1) {
		qsort(x->v, x->n, sizeof(*x->v), slot_cmp);
		clip_slots(x);
	}
	tr->sysidx = x;
	choose_host_counters(tr, n);
}

struct thread *system_thread(const struct trace *tr, uint32_t host, uint32_t pid, uint32_t tid,
			     int64_t ns, int64_t *since)
{
	const struct sysindex *x = tr->sysidx;
	if (!x)
		return NULL;
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct slot *s = &x->v[mid];
		if (s->host < host || (s->host == host && s->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct slot *best = NULL;
	int64_t best_d = INT64_MAX;
	for (size_t i = lo; i < x->n && x->v[i].host == host && x->v[i].tid == tid; i++) {
		const struct slot *s = &x->v[i];
		if (pid && s->pid != pid)
			continue;
		if (ns >= s->t0 && ns < s->t1) {
			best = s;
			break;
		}
		int64_t d = ns < s->t0 ? s->t0 - ns : ns - s->t1;
		if (d < best_d) {
			best_d = d;
			best = s;
		}
	}
	if (best && since)
		*since = best->t0;
	return best ? best->th : NULL;
}

void system_free(struct trace *tr)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct sysimage *si = tr->procs[i]->sys;
		if (!si)
			continue;
		free(si->tasks);
		free(si->maps);
		free(si->ksyms);
		free(si);
		tr->procs[i]->sys = NULL;
	}
	if (tr->sysidx)
		free(tr->sysidx->v);
	free(tr->sysidx);
	tr->sysidx = NULL;
}

/* runtimes/sys/pipe.c — the system images' records in the pipeline.  Each names (pid, tid)
 * on the image's host; system_thread (read/sysattach.c) gives the thread of the trace it
 * belongs to at that time.  A SAMPLE becomes an EV_SAMPLE on that thread, its frames named
 * (symbols.c); SCHED records become EV_STATE spans, each emitted when the thread leaves the
 * state (the open one ends where the image's data ends); a SYSCTR becomes an EV_COUNTER:
 * per core and host memory on the system image's process (of the images chosen to draw
 * them: read/sysattach.c), RSS on the process, page faults and CPU time on the thread's
 * process, named with the thread.  A record that names no
 * followed thread is counted (struct sys_totals) and said once. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/emit.h"
#include "../../parallel/par.h"
#include "../../util/grow.h"
#include "../../util/u64map.h"
#include "../../model/runtime.h"
#include "symbols.h"
#include "sys.h"

#define MAX_CPUS 4096
#define SAMPLE_STATE_SLACK 1000000      /* ns: see on_sample */

struct sys_state {
	struct symbols *sy;
	/* The thread each (host, tid) was last seen as: a thread that execs goes on as a thread
	 * of the new image, and the state it is in goes on with it. */
	struct thread **seen;
	size_t nseen, capseen;
	struct u64map seen_at;           /* host << 32 | tid -> index in seen */
	uint32_t busy_name[MAX_CPUS];    /* "CPU N busy %", made on first use */
	uint32_t host_mem, rss;
};

const char *sys_state_name(unsigned state)
{
	static const char *const names[] = { NULL, "Running", "Runnable", "Sleeping",
					     "Blocked (I/O)", "Stopped", "Exited" };
	return state < sizeof(names) / sizeof(names[0]) ? names[state] : NULL;
}

/* This runtime's state in the pipeline. */
static struct sys_state **slot(struct pipeline *pl)
{
	return (struct sys_state **)pipeline_state(pl, &runtime_sys);
}

static struct sys_state *state(struct pipeline *pl)
{
	struct sys_state **s = slot(pl);
	if (!*s) {
		*s = xcalloc(1, sizeof(**s));
		(*s)->sy = symbols_new();
	}
	return *s;
}

static uint32_t str(const char *s)
{
	return strings_add(s, strlen(s));
}

static void state_end(struct pipeline *pl, struct thread *th, int64_t ns, unsigned flags);

/* Where the thread (host << 32 | tid) was last seen as is kept: NULL the first time. */
static struct thread **seen_slot(struct sys_state *st, uint64_t key)
{
	uint32_t *i = u64map_get(&st->seen_at, key);
	if (i)
		return &st->seen[*i];
	u64map_put(&st->seen_at, key, (uint32_t)st->nseen);
	st->seen = util_grow(st->seen, &st->capseen, st->nseen, sizeof(*st->seen), 64);
	st->seen[st->nseen] = NULL;
	return &st->seen[st->nseen++];
}

/* th is (host, tid) from `since` on: when it was another image's thread before (an exec),
 * that thread's state ends there and goes on on th. */
static void handover(struct pipeline *pl, uint32_t host, uint32_t tid, struct thread *th,
		     int64_t since)
{
	struct thread **seen = seen_slot(state(pl), (uint64_t)host << 32 | tid);
	struct thread *old = *seen;
	*seen = th;
	if (!old || old == th || !old->sched)
		return;
	uint8_t s = old->sched;
	uint32_t cpu = old->sched_cpu;
	state_end(pl, old, since, 0);
	if (!th->sched && s != TPROF_SCHED_EXITED) {
		th->sched = s;
		th->sched_t0 = since > old->sched_t0 ? since : old->sched_t0;
		th->sched_cpu = cpu;
	}
}

/* The thread a record names, or NULL (counted). */
static struct thread *target(struct pipeline *pl, const struct proc *sp, uint32_t pid,
			     uint32_t tid, int64_t ns)
{
	int64_t since = ns;
	struct thread *th = system_thread(pl->tr, sp->host, pid, tid, ns, &since);
	if (th && tid) {
		handover(pl, sp->host, tid, th, since < ns ? since : ns);
	} else if (!th) {
		struct sys_totals *t = &pl->tr->sys;
		if (!t->unattributed++) {
			t->first_pid = pid;
			t->first_tid = tid;
			t->first_ns = ns;
		}
	}
	return th;
}

/* ---- samples ------------------------------------------------------------------------------ */

static void on_sample(struct pipeline *pl, const struct proc *sp, const struct tprof_rec *r,
		      int64_t ns)
{
	uint32_t pid = (uint32_t)r->arg, tid = (uint32_t)r->t1;
	struct thread *th = target(pl, sp, pid, tid, ns);
	if (!th || r->ext < 1)
		return;
	struct sys_state *st = state(pl);
	struct tprof_sample_hdr h;
	memcpy(&h, r + 1, sizeof(h));
	const uint8_t *p = (const uint8_t *)(r + 1) + sizeof(h);
	size_t room = ((size_t)r->ext * TPROF_UNIT - sizeof(h)) / sizeof(uint64_t);
	uint32_t nk = h.nkernel <= TPROF_SAMPLE_MAX_FRAMES ? h.nkernel : TPROF_SAMPLE_MAX_FRAMES;
	uint32_t nu = h.nuser <= TPROF_SAMPLE_MAX_FRAMES ? h.nuser : TPROF_SAMPLE_MAX_FRAMES;
	if (nk > room)
		nk = (uint32_t)room;
	if (nu > room - nk)
		nu = (uint32_t)(room - nk);
	/* A frame-pointer walk that ran into a zeroed frame ends the stack with address 0: not a
	 * frame (nor is anything below the first page). */
	uint32_t frames[2 * TPROF_SAMPLE_MAX_FRAMES], n = 0, nkept = 0;
	for (uint32_t i = 0; i < nk + nu; i++) {
		uint64_t a;
		memcpy(&a, p + (size_t)i * sizeof(a), sizeof(a));
		if (a < 4096)
			continue;
		frames[n++] = i < nk ? symbols_kernel(st->sy, sp->sys, a, i > 0)
				     : symbols_user(st->sy, sp->sys, pid, th->proc->gen, a, i > nk);
		if (i < nk)
			nkept++;
	}
	struct sample_info si = { .frames = frames, .n = n, .nkernel = nkept,
				  .cpu = (uint32_t)(r->arg >> 32),
				  .user_trunc = !!(r->flags & TPROF_SAMPLE_USER_TRUNC) };
	/* A sample finds the thread on a CPU.  A state track that has said otherwise for a while
	 * missed the switch that put it there (seen on a busy machine: a thread that spins shown
	 * Runnable for 374 ms, its samples inside): it is Running from the sample on.  Within
	 * SAMPLE_STATE_SLACK of the state's start the sample may be the switch's own race (a
	 * sample taken as the thread leaves its CPU, stamped after the switch): left alone. */
	if (th->sched && th->sched != TPROF_SCHED_RUNNING && th->sched != TPROF_SCHED_EXITED &&
	    ns - th->sched_t0 > SAMPLE_STATE_SLACK) {
		state_end(pl, th, ns, 0);
		th->sched = TPROF_SCHED_RUNNING;
		th->sched_t0 = ns;
		th->sched_cpu = si.cpu;
	}
	int64_t t = ns - pl->tr->start_ns;
	struct event ev = { .kind = EV_SAMPLE, .proc = th->proc, .thread = th, .t0 = t, .t1 = t,
			    .name = si.n ? frames[0] : str("[no stack]"), .sample = &si };
	emit_event(pl, &ev);
}

/* ---- states ------------------------------------------------------------------------------- */

static void state_end(struct pipeline *pl, struct thread *th, int64_t ns, unsigned flags)
{
	if (!th->sched)
		return;
	int64_t base = pl->tr->start_ns;
	struct event ev = { .kind = EV_STATE, .flags = flags, .proc = th->proc, .thread = th,
			    .t0 = th->sched_t0 - base, .t1 = (ns < th->sched_t0 ? th->sched_t0 : ns) - base,
			    .state = th->sched, .cpu = th->sched_cpu,
			    .name = str(sys_state_name(th->sched)) };
	th->sched = 0;
	emit_event(pl, &ev);
}

static void on_sched(struct pipeline *pl, const struct proc *sp, const struct tprof_rec *r,
		     int64_t ns)
{
	uint32_t pid = (uint32_t)r->arg, tid = (uint32_t)r->t1;
	struct thread *th = target(pl, sp, pid, tid, ns);
	unsigned to = r->flags;
	if (!th || !sys_state_name(to) || to == th->sched)
		return;
	state_end(pl, th, ns, 0);
	if (to == TPROF_SCHED_EXITED)
		return;
	th->sched = (uint8_t)to;
	th->sched_t0 = ns;
	th->sched_cpu = to == TPROF_SCHED_RUNNING ? (uint32_t)(r->arg >> 32) : UINT32_MAX;
}

/* ---- counters ----------------------------------------------------------------------------- */

static void counter(struct pipeline *pl, struct proc *p, struct thread *th, uint32_t name,
		    unsigned what, uint32_t cpu, double v, int64_t ns)
{
	struct event ev = { .kind = EV_COUNTER, .proc = p, .thread = th, .name = name,
			    .t0 = ns - pl->tr->start_ns, .value = v, .sysctr = (uint8_t)what,
			    .cpu = cpu };
	emit_event(pl, &ev);
}

/* "page faults (worker, tid 12)": a thread's counter, named with the thread. */
static uint32_t thread_counter_name(const char *what, const struct thread *th)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s (%s, tid %d)", what, th->name ? strings_get(th->name) : "thread",
		 th->tid);
	return str(buf);
}

static void on_sysctr(struct pipeline *pl, struct proc *sp, const struct tprof_rec *r, int64_t ns)
{
	struct sys_state *st = state(pl);
	uint32_t of = (uint32_t)r->t1;
	struct thread *th;
	char buf[64];
	switch (r->flags) {
	case TPROF_SYSCTR_CPU_BUSY:
		if (of >= MAX_CPUS || !sp->sys->host_counters)
			return;
		if (!st->busy_name[of]) {
			snprintf(buf, sizeof(buf), "CPU %u busy %%", of);
			st->busy_name[of] = str(buf);
		}
		counter(pl, sp, NULL, st->busy_name[of], r->flags, of, (double)r->arg / 1e4, ns);
		return;
	case TPROF_SYSCTR_HOST_MEM:
		if (!sp->sys->host_counters)
			return;
		if (!st->host_mem)
			st->host_mem = str("host memory used");
		counter(pl, sp, NULL, st->host_mem, r->flags, 0, (double)r->arg, ns);
		return;
	case TPROF_SYSCTR_RSS:
		if ((th = target(pl, sp, of, of, ns))) {
			if (!st->rss)
				st->rss = str("RSS");
			counter(pl, th->proc, NULL, st->rss, r->flags, 0, (double)r->arg, ns);
		}
		return;
	case TPROF_SYSCTR_FAULTS:
		if ((th = target(pl, sp, 0, of, ns)))
			counter(pl, th->proc, th, thread_counter_name("page faults", th), r->flags, 0,
				(double)r->arg, ns);
		return;
	case TPROF_SYSCTR_CPU_TIME:
		if ((th = target(pl, sp, 0, of, ns)))
			counter(pl, th->proc, th, thread_counter_name("CPU time", th), r->flags, 0,
				(double)r->arg / 1e9, ns);
		return;
	default:
		pl->tr->unknown_kinds++;
		return;
	}
}

void sys_pipe_record(struct pipeline *pl, struct thread *t, const struct tprof_rec *r, int64_t ns)
{
	struct proc *sp = t->proc;
	if (!sp->sys) {
		pl->tr->unknown_kinds++;   /* system records in a program's image */
		return;
	}
	switch (r->kind) {
	case TPROF_K_SAMPLE:
		on_sample(pl, sp, r, ns);
		return;
	case TPROF_K_SCHED:
		on_sched(pl, sp, r, ns);
		return;
	case TPROF_K_SYSCTR:
		on_sysctr(pl, sp, r, ns);
		return;
	default:
		return;
	}
}

/* The end of the data of the system image of p's host (the latest, when several). */
static int64_t host_end(const struct trace *tr, const struct proc *p)
{
	int64_t end = INT64_MIN;
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->sys && tr->procs[i]->host == p->host && tr->procs[i]->end_ns > end)
			end = tr->procs[i]->end_ns;
	return end == INT64_MIN ? p->end_ns : end;
}

/* The records of unknown threads to say: under --parallel every analysis process's (tr->sys
 * stays this one's, for the summary's partial tables), the first of them the earliest (the
 * serial analyzer's first). */
static struct sys_totals unattributed_all(const struct sys_totals *mine)
{
	struct sys_totals t = *mine;
	if (par_size() < 2)
		return t;
	int64_t v[4] = { t.unattributed ? t.first_ns : INT64_MAX, t.first_pid, t.first_tid,
			 (int64_t)t.unattributed };
	size_t *len_of;
	int64_t *all = par_allgather(v, sizeof(v), &len_of);
	free(len_of);
	t.unattributed = 0;
	const int64_t *first = NULL;
	for (int a = 0; a < par_size(); a++) {
		const int64_t *w = all + 4 * a;
		t.unattributed += (uint64_t)w[3];
		if (w[3] && (!first || w[0] < first[0]))
			first = w;
	}
	if (first) {
		t.first_ns = first[0];
		t.first_pid = (uint32_t)first[1];
		t.first_tid = (uint32_t)first[2];
	}
	free(all);
	return t;
}

void sys_pipe_finish(struct pipeline *pl)
{
	struct trace *tr = pl->tr;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		for (size_t s = 1; s < p->nstreams; s++)
			if (p->threads[s] && p->threads[s]->sched)
				state_end(pl, p->threads[s], host_end(tr, p), 0);
	}
	/* under --parallel said once, by the first, in the serial analyzer's order: the files
	 * as met during the pass, then the records of unknown threads */
	struct sys_state *s = *slot(pl);
	tr->sys.missing_files = symbols_say(s ? s->sy : NULL);   /* every analysis process */
	struct sys_totals said = unattributed_all(&tr->sys);
	if (said.unattributed && par_rank() == 0)
		diag_error("warning: %" PRIu64 " system records name a thread that no TASK record or "
			   "process image describes (the first: pid %u, tid %u); left out",
			   said.unattributed, said.first_pid, said.first_tid);
	if (!s)
		return;
	tr->sys.unresolved = symbols_unresolved(s->sy);
	symbols_free(s->sy);
	free(s->seen);
	u64map_free(&s->seen_at);
	free(s);
	*slot(pl) = NULL;
}

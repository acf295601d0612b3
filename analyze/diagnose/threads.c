/* diagnose/threads.c — the thread states of the HTML report's system section (overview.h):
 * each thread's scheduling states (running, waiting for a CPU, sleeping, blocked) summed in
 * bins of its own over the trace's span as they come; at its process's end (after its
 * overview, diagnosis.c) the bytes of its OVERVIEW_THREADS busiest threads (by time on a
 * CPU), the others let go; under --parallel those travel with their process to the first
 * analysis process (join.c), which keeps the busiest of all. */
#include <stdlib.h>
#include <string.h>

#include "../../common/system-records.h"
#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "../util/strings.h"
#include "overview.h"
#include "state.h"

static int state_of(unsigned state)
{
	switch (state) {
	case TPROF_SCHED_RUNNING:
		return OVERVIEW_STATE_RUNNING;
	case TPROF_SCHED_RUNNABLE:
		return OVERVIEW_STATE_RUNNABLE;
	case TPROF_SCHED_SLEEPING:
		return OVERVIEW_STATE_SLEEPING;
	case TPROF_SCHED_BLOCKED: case TPROF_SCHED_STOPPED:
		return OVERVIEW_STATE_BLOCKED;
	default:
		return -1;
	}
}

void overview_state(struct diagnosis *dx, struct dproc *dp, const struct thread *th,
		    unsigned state, int64_t t0, int64_t t1)
{
	int st = state_of(state);
	struct ov_proc *o = &dp->ov;
	if (!dx->th_bins || !th || st < 0 || t1 <= t0 || o->finished)
		return;
	uint32_t *at = u64map_get(&o->thread_of, (uint64_t)(uintptr_t)th);
	struct ov_thread *t;
	if (at) {
		t = &o->threads[*at - 1];
	} else {
		o->threads = util_grow(o->threads, &o->capthreads, o->nthreads, sizeof(*o->threads),
				       4);
		t = &o->threads[o->nthreads++];
		*t = (struct ov_thread){ .tid = th->tid, .name = th->name };
		t->ns = xcalloc((size_t)dx->th_bins * OVERVIEW_STATES, sizeof(*t->ns));
		u64map_put(&o->thread_of, (uint64_t)(uintptr_t)th, (uint32_t)o->nthreads);
	}
	if (st == OVERVIEW_STATE_RUNNING)
		t->running += t1 - t0;
	overview_spread(t->ns, OVERVIEW_STATES, (unsigned)st, t0, t1, dx->th_bin_ns, dx->th_bins);
}

static int busier(const void *a, const void *b)
{
	const struct ov_thread *x = a, *y = b;
	if (x->running != y->running)
		return x->running > y->running ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

void threads_finish(const struct diagnosis *dx, struct ov_proc *o)
{
	if (!o->nthreads || o->threads[0].bins)
		return;         /* none, or done */
	qsort(o->threads, o->nthreads, sizeof(*o->threads), busier);
	for (size_t i = OVERVIEW_THREADS; i < o->nthreads; i++)
		free(o->threads[i].ns);
	if (o->nthreads > OVERVIEW_THREADS)
		o->nthreads = OVERVIEW_THREADS;
	for (size_t i = 0; i < o->nthreads; i++) {
		struct ov_thread *t = &o->threads[i];
		t->bins = xcalloc(dx->th_bins, 1);
		for (uint32_t k = 0; k < dx->th_bins; k++) {
			const float *v = &t->ns[(size_t)k * OVERVIEW_STATES];
			unsigned top = overview_top(v, OVERVIEW_STATES);
			t->bins[k] = overview_byte(top, v[top], dx->th_bin_ns);
		}
		free(t->ns);
		t->ns = NULL;
	}
	u64map_free(&o->thread_of);
}

void threads_free(struct ov_proc *o)
{
	for (size_t i = 0; i < o->nthreads; i++) {
		free(o->threads[i].ns);
		free(o->threads[i].bins);
	}
	free(o->threads);
	u64map_free(&o->thread_of);
	o->threads = NULL;
	o->nthreads = o->capthreads = 0;
}

void threads_pack(struct pack *b, const struct diagnosis *dx, const struct ov_proc *o)
{
	size_t n = o->finished ? o->nthreads : 0;     /* finished: their bytes made */
	pack_u64(b, dx->th_bins);
	pack_i64(b, dx->th_bin_ns);
	pack_u64(b, n);
	for (size_t i = 0; i < n; i++) {
		pack_i64(b, o->threads[i].tid);
		pack_name(b, o->threads[i].name);
		pack_i64(b, o->threads[i].running);
		pack_bytes(b, o->threads[i].bins, dx->th_bins);
	}
}

void threads_unpack(struct unpack *u, const struct diagnosis *dx, struct ov_proc *o)
{
	uint32_t bins = (uint32_t)unpack_u64(u);
	int64_t bin_ns = unpack_i64(u);
	if (bins != dx->th_bins || bin_ns != dx->th_bin_ns) {
		u->short_read = 1;      /* every analysis process's bins are the same */
		return;
	}
	size_t n = unpack_count(u, 3 + (size_t)bins);
	for (size_t i = 0; i < n && i < OVERVIEW_THREADS; i++) {
		o->threads = util_grow(o->threads, &o->capthreads, o->nthreads, sizeof(*o->threads),
				       4);
		struct ov_thread *t = &o->threads[o->nthreads++];
		*t = (struct ov_thread){ 0 };
		t->tid = (int32_t)unpack_i64(u);
		t->name = unpack_name(u);
		t->running = unpack_i64(u);
		t->bins = xcalloc(bins, 1);
		unpack_bytes(u, t->bins, bins);
	}
}

/* ---- the busiest of all, for the report ---- */

struct th_ref {
	const struct dproc *dp;
	const struct ov_thread *t;
};

static int ref_busier(const void *a, const void *b)
{
	const struct th_ref *x = a, *y = b;
	if (x->t->running != y->t->running)
		return x->t->running > y->t->running ? -1 : 1;
	if (x->dp->p->index != y->dp->p->index)
		return x->dp->p->index < y->dp->p->index ? -1 : 1;
	return (x->t->tid > y->t->tid) - (x->t->tid < y->t->tid);
}

uint32_t diagnosis_threads(const struct diagnosis *dx, int64_t *bin_ns, void *ctx,
			   void (*on_thread)(void *ctx, const struct overview_thread *t))
{
	*bin_ns = dx->th_bin_ns;
	size_t n = 0;
	for (size_t i = 0; i < dx->nprocs; i++)
		n += dx->procs[i]->ov.finished ? dx->procs[i]->ov.nthreads : 0;
	if (!dx->th_bins || !n || !on_thread)
		return n ? dx->th_bins : 0;
	struct th_ref *v = xmallocarray(n, sizeof(*v));
	size_t k = 0;
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct dproc *dp = dx->procs[i];
		for (size_t j = 0; dp->ov.finished && j < dp->ov.nthreads; j++)
			v[k++] = (struct th_ref){ dp, &dp->ov.threads[j] };
	}
	qsort(v, n, sizeof(*v), ref_busier);
	for (size_t i = 0; i < n && i < OVERVIEW_THREADS; i++) {
		const struct dproc *dp = v[i].dp;
		char buf[256];
		struct overview_thread t = {
			.process = dp->p->index, .rank = dp->p->rank,
			.label = dp->label ? strings_get(dp->label)
					   : proc_label(dp->p, buf, sizeof(buf)),
			.tid = v[i].t->tid,
			.name = v[i].t->name ? strings_get(v[i].t->name) : "",
			.running = v[i].t->running, .bins = v[i].t->bins,
		};
		on_thread(ctx, &t);
	}
	free(v);
	return dx->th_bins;
}

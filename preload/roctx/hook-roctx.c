/* hook-roctx.c — AMD's roctx annotations (libroctx64): ranges pushed and popped per thread,
 * marks, and ranges started on one thread and stopped on any (by process-wide id).  The
 * real functions run first, so return values (levels, ids) stay the library's own; each is
 * then one record, as for the tprof API, tagged as coming from roctx. */
#include <string.h>

#include "../../common/capture.h"
#include "../events/api.h"
#include "../events/capture.h"
#include "../spool/intern.h"
#include "../core/resolve.h"

typedef uint64_t roctx_range_id_t;
typedef uint64_t roctx_thread_id_t;

TPROF_REAL(void, roctxMarkA, (const char *))
TPROF_REAL(int, roctxRangePushA, (const char *))
TPROF_REAL(int, roctxRangePop, (void))
TPROF_REAL(roctx_range_id_t, roctxRangeStartA, (const char *))
TPROF_REAL(void, roctxRangeStop, (roctx_range_id_t))
TPROF_REAL(int, roctxProfilerPause, (roctx_thread_id_t))
TPROF_REAL(int, roctxProfilerResume, (roctx_thread_id_t))

TPROF_EXPORT void roctxMarkA(const char *message);
TPROF_EXPORT int roctxRangePushA(const char *message);
TPROF_EXPORT int roctxRangePop(void);
TPROF_EXPORT roctx_range_id_t roctxRangeStartA(const char *message);
TPROF_EXPORT void roctxRangeStop(roctx_range_id_t id);
TPROF_EXPORT int roctxProfilerPause(roctx_thread_id_t tid);
TPROF_EXPORT int roctxProfilerResume(roctx_thread_id_t tid);

/* One record of `kind` named `message` (or unnamed), from roctx, t->busy raised by the caller
 * (and lowered here); 0 when it was lost. */
static int note_busy(struct tprof_thread *t, uint16_t kind, const char *message, uint64_t arg)
{
	struct tprof_rec *r = tprof_reserve_busy(t, 1);
	if (!r)
		return 0;
	uint32_t id = message ? tprof_string_id(t, message) : 0;
	r->t0 = tprof_now();
	r->t1 = 0;
	r->arg = arg;
	tprof_commit(t, r, kind, 0, TPROF_SRC_ROCTX, id);
	return 1;
}

/* A record that names a range by id or starts a step: when it is lost, its kind is noted for
 * the thread's next GAP record. */
static void note(struct tprof_thread *t, uint16_t kind, const char *message, uint64_t arg)
{
	if (!tprof_annotating(t, kind))
		return;
	tprof_busy_enter(t);
	if (!note_busy(t, kind, message, arg))
		tprof_lost_what(t, kind, 0);
}

/* A range pushed (`push`) or popped: it counts in the thread's levels (core.h's depth) like
 * the tprof API's, so that both nest in one stack; the level changes inside the busy window,
 * with its record (annotate.c). */
static void note_level(struct tprof_thread *t, int push, const char *message)
{
	uint16_t kind = push ? TPROF_K_PUSH : TPROF_K_POP;
	int level = push ? t->depth : t->depth - 1;
	if (!__atomic_load_n(&tprof_active, __ATOMIC_RELAXED))
		return;
	if (push && !__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED)) {
		tprof_push_unrecorded(t);   /* outside the capture window (annotate.c's pop_cold) */
		return;
	}
	if (!push && level >= 0 && tprof_pop_unrecorded(t, level)) {
		t->depth = level;
		return;
	}
	if (!push && level < 0 && !__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED))
		return;
	if (!tprof_not_busy(t, kind)) {
		t->depth += push ? 1 : t->depth > 0 ? -1 : 0;
		return;
	}
	tprof_busy_enter(t);
	level = push ? t->depth : t->depth - 1;
	if (level >= 0)
		t->depth = push ? level + 1 : level;
	if (!note_busy(t, kind, message, level >= 0 ? (uint64_t)level + 1 : 0))
		tprof_lost_what(t, kind, level);
}

TPROF_EXPORT void roctxMarkA(const char *message)
{
	roctxMarkA_fn real = get_roctxMarkA();
	struct tprof_thread *t = &tprof_tls;
	if (real)
		real(message);
	note(t, TPROF_K_MARK, message, 0);
}

TPROF_EXPORT int roctxRangePushA(const char *message)
{
	roctxRangePushA_fn real = get_roctxRangePushA();
	int level = real ? real(message) : -1;
	note_level(&tprof_tls, 1, message);
	return level;
}

TPROF_EXPORT int roctxRangePop(void)
{
	roctxRangePop_fn real = get_roctxRangePop();
	note_level(&tprof_tls, 0, NULL);
	return real ? real() : -1;
}

TPROF_EXPORT roctx_range_id_t roctxRangeStartA(const char *message)
{
	roctxRangeStartA_fn real = get_roctxRangeStartA();
	roctx_range_id_t id = real ? real(message) : 0;
	note(&tprof_tls, TPROF_K_ABEGIN, message, id);
	return id;
}

TPROF_EXPORT void roctxRangeStop(roctx_range_id_t id)
{
	roctxRangeStop_fn real = get_roctxRangeStop();
	note(&tprof_tls, TPROF_K_AEND, NULL, id);
	if (real)
		real(id);
}

/* The program asks the profiler to pause or resume (rocprofiler-sdk's roctx): under
 * TPROF_CAPTURE_RANGE=api the capture window closes or opens, for the whole process (the
 * thread named is not looked at, as rocprofv3 does).  0, as the header asks of a tool that
 * pauses, unless the library's own call says otherwise. */
TPROF_EXPORT int roctxProfilerPause(roctx_thread_id_t tid)
{
	roctxProfilerPause_fn real = get_roctxProfilerPause();
	int rc = real ? real(tid) : 0;
	tprof_capture_runtime(0, TPROF_CAPTURE_ROCTX);
	return rc;
}

TPROF_EXPORT int roctxProfilerResume(roctx_thread_id_t tid)
{
	roctxProfilerResume_fn real = get_roctxProfilerResume();
	tprof_capture_runtime(1, TPROF_CAPTURE_ROCTX);
	return real ? real(tid) : 0;
}

#define ROCTX_API(X)                                                                      \
	X(roctxMarkA) X(roctxRangePushA) X(roctxRangePop) X(roctxRangeStartA) X(roctxRangeStop) \
	X(roctxProfilerPause) X(roctxProfilerResume)
#define ROCTX_ENTRY(name) { .domain = 0, .record = 1 },
struct tprof_hook tprof_roctx_hooks[] = {
	ROCTX_API(ROCTX_ENTRY)
};

static void tprof_roctx_hooks_fill(void)
{
	struct tprof_hook *h = tprof_roctx_hooks;
#define ROCTX_FILL(name) tprof_hook_set(h++, #name, NULL, (void *)name, (void **)&real_##name);
	ROCTX_API(ROCTX_FILL)
#undef ROCTX_FILL
}
TPROF_HOOK_TABLE(roctx, tprof_roctx_hooks,
		 sizeof(tprof_roctx_hooks) / sizeof(tprof_roctx_hooks[0]), tprof_roctx_hooks_fill, 0);

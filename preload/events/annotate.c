/* annotate.c — the tprof annotation API as recorded: each call is one record in the calling
 * thread's buffer, inside a wrapped runtime call too (the guard keeps out the runtime's own
 * calls, not the program's annotations).  These definitions interpose libtprof.so's empty
 * ones.  Ranges carry their nesting level, counted whether or not their record was kept, so
 * that a reader pairs them exactly across lost records.
 *
 * Each function is a fast path (recording, not busy, the name in the thread's cache, room in
 * its buffer: the time, then a few stores in the busy window) and, out of line, everything
 * else, so that the fast path keeps nothing across a call. */
#include <string.h>

#include <tprof/tprof.h>

#include "../spool/buffer.h"
#include "../core/clock.h"
#include "../core/core.h"
#include "../spool/intern.h"
#include "../../common/capture.h"
#include "../../common/recorder-api.h"
#include "capture.h"

#define COLD __attribute__((noinline, cold))

/* The rest of a record with t->busy raised by the caller (and lowered here), its level
 * already changed: the buffer had no room, or the name was not in the cache.  A name not
 * cached is interned after the record is reserved, since a thread's first record creates the
 * files and registers it, and only then may its names be interned; the time is taken after
 * the slow path, so that what the recorder spent there is not the program's.  Returns 0 when
 * the record was lost. */
static COLD int record_slow(struct tprof_thread *t, uint16_t kind, const char *name, int named,
			    uint64_t arg)
{
	struct tprof_rec *r = t->pos;
	if ((size_t)(t->end - r) >= 1)
		t->pos = r + 1;
	else if (!(r = tprof_reserve_slow(t, 1)))
		return 0;
	uint32_t id = named ? tprof_string_id(t, name) : 0;
	r->t0 = tprof_now();
	r->t1 = 0;
	r->arg = arg;
	tprof_commit(t, r, kind, 0, 0, id);
	return 1;
}

/* A push with t->busy raised, on the general path. */
static COLD int push_busy(struct tprof_thread *t, const char *name)
{
	int level = t->depth;
	t->depth = level + 1;
	if (!record_slow(t, TPROF_K_PUSH, name, 1, (uint64_t)level + 1))
		tprof_lost_what(t, TPROF_K_PUSH, level);
	return level;
}

/* Not active: nothing.  Outside the capture window: the level counted, not recorded.  Busy (a
 * signal handler interrupted the recorder): counted as lost, the level changed all the same.
 * Else the general path. */
static COLD int push_cold(struct tprof_thread *t, const char *name)
{
	if (!__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED))
		return __atomic_load_n(&tprof_active, __ATOMIC_RELAXED) ? tprof_push_unrecorded(t) : -1;
	if (!tprof_not_busy(t, TPROF_K_PUSH))
		return t->depth++;
	tprof_busy_enter(t);
	return push_busy(t, name);
}

/* The level changes inside the busy window, with its record: a signal handler sees both or
 * neither. */
TPROF_EXPORT int tprof_range_push(const char *name)
{
	struct tprof_thread *t = &tprof_tls;
	uint32_t id;
	if (TPROF_UNLIKELY(!__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED) || t->busy ||
			   !(id = tprof_string_id_cached(t, name))))
		return push_cold(t, name);
	uint64_t t0 = tprof_now();
	tprof_busy_enter(t);
	struct tprof_rec *r = t->pos;
	if (TPROF_UNLIKELY((size_t)(t->end - r) < 1))
		return push_busy(t, name);
	int level = t->depth;
	t->depth = level + 1;
	t->pos = r + 1;
	r->t0 = t0;
	r->t1 = 0;
	r->arg = (uint64_t)level + 1;
	tprof_publish(r, TPROF_K_PUSH, 0, 0, id);
	return tprof_busy_leave_ret(t, level);
}

/* Not active: nothing.  A range pushed outside the capture window: its level, unrecorded.
 * One pushed inside is popped on the record outside it too; with none open, a pop outside
 * is nothing.  Busy: counted as lost, the level changed all the same. */
static COLD int pop_cold(struct tprof_thread *t)
{
	int level = t->depth - 1;
	if (!__atomic_load_n(&tprof_active, __ATOMIC_RELAXED))
		return -1;
	if (level >= 0 && tprof_pop_unrecorded(t, level)) {
		t->depth = level;
		return level;
	}
	if (level < 0 && !__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED))
		return -1;
	if (!tprof_not_busy(t, TPROF_K_POP)) {
		if (level < 0)
			return -1;
		t->depth = level;
		return level;
	}
	tprof_busy_enter(t);
	level = t->depth - 1;
	if (level >= 0)
		t->depth = level;
	if (!record_slow(t, TPROF_K_POP, NULL, 0, level >= 0 ? (uint64_t)level + 1 : 0))
		tprof_lost_what(t, TPROF_K_POP, level);
	return level >= 0 ? level : -1;
}

TPROF_EXPORT int tprof_range_pop(void)
{
	struct tprof_thread *t = &tprof_tls;
	if (TPROF_UNLIKELY(!__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED) || t->busy))
		return pop_cold(t);
	uint64_t t0 = tprof_now();
	tprof_busy_enter(t);
	struct tprof_rec *r = t->pos;
	int level = t->depth - 1;
	if (TPROF_UNLIKELY(level < 0 || t->unrec || (size_t)(t->end - r) < 1)) {
		tprof_busy_leave(t);
		return pop_cold(t);
	}
	t->depth = level;
	t->pos = r + 1;
	r->t0 = t0;
	r->t1 = 0;
	r->arg = (uint64_t)level + 1;
	tprof_publish(r, TPROF_K_POP, 0, 0, 0);
	return tprof_busy_leave_ret(t, level);
}

/* A mark or a counter sample: one named record. */
static COLD void named_cold(struct tprof_thread *t, uint16_t kind, const char *name, uint64_t arg)
{
	if (!tprof_annotating(t, kind))
		return;
	tprof_busy_enter(t);
	record_slow(t, kind, name, 1, arg);
}

static inline void named(struct tprof_thread *t, uint16_t kind, const char *name, uint64_t arg)
{
	uint32_t id;
	if (TPROF_UNLIKELY(!__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED) || t->busy ||
			   !(id = tprof_string_id_cached(t, name)))) {
		named_cold(t, kind, name, arg);
		return;
	}
	uint64_t t0 = tprof_now();
	tprof_busy_enter(t);
	struct tprof_rec *r = t->pos;
	if (TPROF_UNLIKELY((size_t)(t->end - r) < 1)) {
		record_slow(t, kind, name, 1, arg);
		return;
	}
	t->pos = r + 1;
	r->t0 = t0;
	r->t1 = 0;
	r->arg = arg;
	tprof_publish(r, kind, 0, 0, id);
	tprof_busy_leave(t);
}

TPROF_EXPORT void tprof_mark(const char *name)
{
	named(&tprof_tls, TPROF_K_MARK, name, 0);
}

TPROF_EXPORT void tprof_counter(const char *name, double value)
{
	uint64_t bits;
	memcpy(&bits, &value, sizeof(bits));
	named(&tprof_tls, TPROF_K_COUNTER, name, bits);
}

/* The end of the open step, one record. */
static void step_end_record(struct tprof_thread *t)
{
	if (!tprof_annotating(t, TPROF_K_STEP))
		return;
	uint64_t t0 = tprof_now();
	struct tprof_rec *r = tprof_reserve(t, 1);
	if (TPROF_UNLIKELY(!r)) {
		tprof_lost_what(t, TPROF_K_STEP, 0);
		return;
	}
	r->t0 = t0;
	r->t1 = 0;
	r->arg = 0;
	tprof_commit(t, r, TPROF_K_STEP, 0, TPROF_STEP_END, 0);
}

/* Under TPROF_STEPS a step outside the window ends the window's last step and closes it; one
 * inside opens it (capture.c). */
static COLD int step_outside(struct tprof_thread *t, uint64_t step)
{
	if (!tprof_capture_step(step))
		return !__atomic_load_n(&tprof_recording, __ATOMIC_RELAXED);
	step_end_record(t);
	tprof_capture_gate(TPROF_GATE_STEPS, 0, TPROF_CAPTURE_STEPS);
	return 1;
}

TPROF_EXPORT void tprof_step(uint64_t step)
{
	struct tprof_thread *t = &tprof_tls;
	if (TPROF_UNLIKELY(tprof_capture_by_steps) && step_outside(t, step))
		return;
	if (!tprof_annotating(t, TPROF_K_STEP))
		return;
	uint64_t t0 = tprof_now();
	if (TPROF_UNLIKELY(!tprof_emit(t, TPROF_K_STEP, 0, t0, 0, step)))
		tprof_lost_what(t, TPROF_K_STEP, 0);
}

TPROF_EXPORT void tprof_step_end(void)
{
	struct tprof_thread *t = &tprof_tls;
	step_end_record(t);
	if (TPROF_UNLIKELY(tprof_capture_by_steps) && tprof_capture_step_end())
		tprof_capture_gate(TPROF_GATE_STEPS, 0, TPROF_CAPTURE_STEPS);
}

/* The program's capture window (capture.c): always acts, whatever TPROF_CAPTURE_RANGE. */
TPROF_EXPORT void tprof_start(void)
{
	tprof_capture_gate(TPROF_GATE_PROGRAM, 1, TPROF_CAPTURE_API);
}

TPROF_EXPORT void tprof_stop(void)
{
	tprof_capture_gate(TPROF_GATE_PROGRAM, 0, TPROF_CAPTURE_API);
}

/* For libtprof.so's own definitions, reached through its handle (common/recorder-api.h). */
TPROF_EXPORT const struct tprof_recorder_api tprof_recorder_api = {
	.size = sizeof(struct tprof_recorder_api),
	.range_push = tprof_range_push,
	.range_pop = tprof_range_pop,
	.mark = tprof_mark,
	.step = tprof_step,
	.counter = tprof_counter,
	.step_end = tprof_step_end,
	.start = tprof_start,
	.stop = tprof_stop,
};

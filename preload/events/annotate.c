/* annotate.c — the tprof annotation API as recorded: each call is one record in the calling
 * thread's buffer.  These definitions interpose libtprof.so's empty ones. */
#include <string.h>

#include <tprof/tprof.h>

#include "../spool/buffer.h"
#include "../core/clock.h"
#include "../core/core.h"
#include "../spool/intern.h"

/* Reserves the record first: a thread's first record creates the files and registers it,
 * and only then may its names be interned. */
static inline void named(struct tprof_thread *t, uint16_t kind, const char *name, uint64_t arg)
{
	struct tprof_rec *r = tprof_reserve(t, 1);
	if (TPROF_LIKELY(r != NULL)) {
		uint32_t id = tprof_string_id(t, name);
		r->t0 = tprof_now();
		r->t1 = 0;
		r->arg = arg;
		tprof_commit(r, kind, 0, 0, id);
	}
}

TPROF_EXPORT int tprof_range_push(const char *name)
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return -1;
	named(t, TPROF_K_PUSH, name, 0);
	return t->depth++;
}

TPROF_EXPORT int tprof_range_pop(void)
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return -1;
	tprof_emit(t, TPROF_K_POP, 0, tprof_now(), 0, 0);
	return t->depth > 0 ? --t->depth : -1;
}

TPROF_EXPORT void tprof_mark(const char *name)
{
	struct tprof_thread *t = &tprof_tls;
	if (tprof_should_record(t))
		named(t, TPROF_K_MARK, name, 0);
}

TPROF_EXPORT void tprof_step(uint64_t step)
{
	struct tprof_thread *t = &tprof_tls;
	if (tprof_should_record(t))
		tprof_emit(t, TPROF_K_STEP, 0, tprof_now(), 0, step);
}

TPROF_EXPORT void tprof_counter(const char *name, double value)
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return;
	uint64_t bits;
	memcpy(&bits, &value, sizeof(bits));
	named(t, TPROF_K_COUNTER, name, bits);
}

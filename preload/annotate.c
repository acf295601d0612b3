/* annotate.c — the tprof annotation API as recorded: each call is one record in the calling
 * thread's buffer.  These definitions interpose libtprof.so's empty ones. */
#include <string.h>

#include <tprof/tprof.h>

#include "buffer.h"
#include "clock.h"
#include "core.h"
#include "intern.h"

TPROF_EXPORT int tprof_range_push(const char *name)
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return -1;
	uint32_t id = tprof_string_id(t, name);
	tprof_emit(t, TPROF_K_PUSH, id, tprof_now(), 0, 0);
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
	if (!tprof_should_record(t))
		return;
	uint32_t id = tprof_string_id(t, name);
	tprof_emit(t, TPROF_K_MARK, id, tprof_now(), 0, 0);
}

TPROF_EXPORT void tprof_step(uint64_t step)
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return;
	tprof_emit(t, TPROF_K_STEP, 0, tprof_now(), 0, step);
}

TPROF_EXPORT void tprof_counter(const char *name, double value)
{
	struct tprof_thread *t = &tprof_tls;
	if (!tprof_should_record(t))
		return;
	uint32_t id = tprof_string_id(t, name);
	uint64_t bits;
	memcpy(&bits, &value, sizeof(bits));
	tprof_emit(t, TPROF_K_COUNTER, id, tprof_now(), 0, bits);
}

/* hook-roctx.c — AMD's roctx annotations (libroctx64): ranges pushed and popped per thread,
 * marks, and ranges started on one thread and stopped on any (by process-wide id).  The
 * real functions run first, so return values (levels, ids) stay the library's own; each is
 * then one record, as for the tprof API, tagged as coming from roctx. */
#include <string.h>

#include "../events/api.h"
#include "../spool/intern.h"
#include "../core/resolve.h"

typedef uint64_t roctx_range_id_t;

TPROF_REAL(void, roctxMarkA, (const char *))
TPROF_REAL(int, roctxRangePushA, (const char *))
TPROF_REAL(int, roctxRangePop, (void))
TPROF_REAL(roctx_range_id_t, roctxRangeStartA, (const char *))
TPROF_REAL(void, roctxRangeStop, (roctx_range_id_t))

TPROF_EXPORT void roctxMarkA(const char *message);
TPROF_EXPORT int roctxRangePushA(const char *message);
TPROF_EXPORT int roctxRangePop(void);
TPROF_EXPORT roctx_range_id_t roctxRangeStartA(const char *message);
TPROF_EXPORT void roctxRangeStop(roctx_range_id_t id);

/* One record of `kind` named `message` (or unnamed), from roctx. */
static void note(struct tprof_thread *t, uint16_t kind, const char *message, uint64_t arg)
{
	struct tprof_rec *r = tprof_reserve(t, 1);
	if (!r)
		return;
	uint32_t id = message ? tprof_string_id(t, message) : 0;
	r->t0 = tprof_now();
	r->t1 = 0;
	r->arg = arg;
	tprof_commit(r, kind, 0, TPROF_SRC_ROCTX, id);
}

TPROF_EXPORT void roctxMarkA(const char *message)
{
	roctxMarkA_fn real = get_roctxMarkA();
	struct tprof_thread *t = &tprof_tls;
	if (real)
		real(message);
	if (tprof_should_record(t))
		note(t, TPROF_K_MARK, message, 0);
}

TPROF_EXPORT int roctxRangePushA(const char *message)
{
	roctxRangePushA_fn real = get_roctxRangePushA();
	struct tprof_thread *t = &tprof_tls;
	int level = real ? real(message) : -1;
	if (tprof_should_record(t))
		note(t, TPROF_K_PUSH, message, 0);
	return level;
}

TPROF_EXPORT int roctxRangePop(void)
{
	roctxRangePop_fn real = get_roctxRangePop();
	struct tprof_thread *t = &tprof_tls;
	if (tprof_should_record(t))
		note(t, TPROF_K_POP, NULL, 0);
	return real ? real() : -1;
}

TPROF_EXPORT roctx_range_id_t roctxRangeStartA(const char *message)
{
	roctxRangeStartA_fn real = get_roctxRangeStartA();
	struct tprof_thread *t = &tprof_tls;
	roctx_range_id_t id = real ? real(message) : 0;
	if (tprof_should_record(t))
		note(t, TPROF_K_ABEGIN, message, id);
	return id;
}

TPROF_EXPORT void roctxRangeStop(roctx_range_id_t id)
{
	roctxRangeStop_fn real = get_roctxRangeStop();
	struct tprof_thread *t = &tprof_tls;
	if (tprof_should_record(t))
		note(t, TPROF_K_AEND, NULL, id);
	if (real)
		real(id);
}

#define ROCTX_ENTRY(name) { #name, NULL, (void *)name, (void **)&real_##name, 0, 1, 0, 0, 0 }
struct tprof_hook tprof_roctx_hooks[] = {
	ROCTX_ENTRY(roctxMarkA), ROCTX_ENTRY(roctxRangePushA), ROCTX_ENTRY(roctxRangePop),
	ROCTX_ENTRY(roctxRangeStartA), ROCTX_ENTRY(roctxRangeStop),
};
const size_t tprof_roctx_nhooks = sizeof(tprof_roctx_hooks) / sizeof(tprof_roctx_hooks[0]);

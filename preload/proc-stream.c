/* proc-stream.c — writes stream 0, the process stream: strings, process properties, thread
 * names, clock samples, drop counts.  Any thread may write it, always from a slow path, so
 * it is serialised by proc_lock and uses the same buffers as the threads. */
#include <string.h>

#include "buffer.h"
#include "clock.h"
#include "core.h"

static struct tprof_rec *reserve_locked(unsigned units)
{
	return tprof_reserve(&tprof_g.proc, units);
}

void tprof_proc_record(uint16_t kind, uint8_t flags, uint32_t name, uint64_t t0, uint64_t t1,
		       uint64_t arg)
{
	if (tprof_process_ensure() < 0)
		return;
	pthread_mutex_lock(&tprof_g.proc_lock);
	struct tprof_rec *r = reserve_locked(1);
	if (r) {
		r->t0 = t0;
		r->t1 = t1;
		r->arg = arg;
		tprof_commit(r, kind, 0, flags, name);
	}
	pthread_mutex_unlock(&tprof_g.proc_lock);
}

void tprof_proc_string(uint32_t id, const char *s, size_t len)
{
	if (len > TPROF_MAX_EXT * TPROF_UNIT)
		len = TPROF_MAX_EXT * TPROF_UNIT;
	unsigned ext = (unsigned)((len + TPROF_UNIT - 1) / TPROF_UNIT);
	if (tprof_process_ensure() < 0)
		return;
	pthread_mutex_lock(&tprof_g.proc_lock);
	struct tprof_rec *r = reserve_locked(1 + ext);
	if (r) {
		r->t0 = tprof_now();
		r->t1 = 0;
		r->arg = len;
		char *dst = (char *)(r + 1);
		memcpy(dst, s, len);
		memset(dst + len, 0, (size_t)ext * TPROF_UNIT - len);
		tprof_commit(r, TPROF_K_STRING, (uint8_t)ext, 0, id);
	}
	pthread_mutex_unlock(&tprof_g.proc_lock);
}

void tprof_proc_prop_str(const char *key, const char *value)
{
	uint32_t k = tprof_intern(key, strlen(key));
	uint32_t v = tprof_intern(value, strlen(value));
	tprof_proc_record(TPROF_K_PROP, 0, k, tprof_now(), 0, v);
}

void tprof_proc_prop_int(const char *key, int64_t value)
{
	uint32_t k = tprof_intern(key, strlen(key));
	tprof_proc_record(TPROF_K_PROP, TPROF_PROP_INT, k, tprof_now(), 0, (uint64_t)value);
}

void tprof_proc_clock(int when)
{
	struct tprof_clock_sample s;
	tprof_clock_sample(&s);
	tprof_proc_record(TPROF_K_CLOCK, (uint8_t)when, 0, s.ticks, s.mono, s.real);
}

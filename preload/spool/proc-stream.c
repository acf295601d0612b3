/* proc-stream.c — writes stream 0, the process stream: strings, process properties, thread
 * names, clock samples, drop counts, MPI communicators and clock offsets.  Any thread may write it, always from a slow path, so
 * it is serialised by proc_lock and takes its buffers from slots.c like the threads.  The
 * calling thread is busy (buffer.h) while it holds the lock: a signal handler that interrupts
 * it must not take the lock again. */
#include <string.h>

#include "guard.h"
#include "spool.h"
#include "../core/clock.h"
#include "../core/core.h"

/* Stream 0 is written only once the image is started (its writers all come after that);
 * it takes buffers like a thread, under proc_lock instead of being thread-local. */
static int writable(void)
{
	int phase = __atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE);
	return phase == TPROF_PHASE_STARTED || phase == TPROF_PHASE_FINISHED ||
	       (phase == TPROF_PHASE_FAILED && tprof_g.spool.path);
}

static struct tprof_rec *reserve_locked(unsigned units)
{
	struct tprof_thread *t = &tprof_g.proc;
	int reason;
	if ((size_t)(t->end - t->pos) >= units) {
		struct tprof_rec *r = t->pos;
		t->pos += units;
		return r;
	}
	struct tprof_rec *r = tprof_slot_next(t, units, 0, &reason);
	if (!r) {
		tprof_g.proc_dropped++;
		tprof_losses_count(t, (unsigned)reason, 1);
	}
	return r;
}

static void lock(void)
{
	tprof_busy_enter(&tprof_tls);
	pthread_mutex_lock(&tprof_g.proc_lock);
}

static void unlock(void)
{
	pthread_mutex_unlock(&tprof_g.proc_lock);
	tprof_busy_leave(&tprof_tls);
}

int tprof_proc_record(uint16_t kind, uint8_t flags, uint32_t name, uint64_t t0, uint64_t t1,
		      uint64_t arg)
{
	if (!writable())
		return 0;
	lock();
	struct tprof_rec *r = reserve_locked(1);
	if (r) {
		r->t0 = t0;
		r->t1 = t1;
		r->arg = arg;
		tprof_publish(r, kind, 0, flags, name);
	}
	unlock();
	return r != NULL;
}

void tprof_proc_record_ext(uint16_t kind, uint8_t flags, uint32_t name, uint64_t t0, uint64_t t1,
			   uint64_t arg, const void *ext, unsigned units)
{
	if (units > TPROF_MAX_EXT || !writable())
		return;
	lock();
	struct tprof_rec *r = reserve_locked(1 + units);
	if (r) {
		r->t0 = t0;
		r->t1 = t1;
		r->arg = arg;
		memcpy(r + 1, ext, (size_t)units * TPROF_UNIT);
		tprof_publish(r, kind, (uint8_t)units, flags, name);
	}
	unlock();
}

void tprof_proc_string(uint32_t id, const char *s, size_t len)
{
	if (len > TPROF_MAX_EXT * TPROF_UNIT)
		len = TPROF_MAX_EXT * TPROF_UNIT;
	unsigned ext = (unsigned)((len + TPROF_UNIT - 1) / TPROF_UNIT);
	if (!writable())
		return;
	lock();
	struct tprof_rec *r = reserve_locked(1 + ext);
	if (r) {
		r->t0 = tprof_now();
		r->t1 = 0;
		r->arg = len;
		char *dst = (char *)(r + 1);
		memcpy(dst, s, len);
		memset(dst + len, 0, (size_t)ext * TPROF_UNIT - len);
		tprof_publish(r, TPROF_K_STRING, (uint8_t)ext, 0, id);
	}
	unlock();
}

void tprof_proc_clock(int when)
{
	struct tprof_clock_sample s;
	tprof_clock_sample(&s);
	tprof_proc_record(TPROF_K_CLOCK, (uint8_t)when, 0, s.ticks, s.mono, s.real);
}

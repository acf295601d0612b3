/* guard.c — records lost on a thread: counted (losses.c), noted for the GAP record that marks
 * their place in the thread's stream, and that record written.  A record lost to a signal
 * handler while the thread was busy (guard.h) leaves its GAP record due until the thread
 * publishes the record it was making: it then goes right after that one when the buffer has
 * room; otherwise the buffer ends there and the thread's next buffer starts with it
 * (thread.c's take), as after any other loss. */
#include <string.h>
#include <unistd.h>

#include "../core/clock.h"
#include "../core/core.h"
#include "guard.h"
#include "spool.h"

void tprof_lost(struct tprof_thread *t, unsigned reason, uint64_t n)
{
	if (reason >= TPROF_DROP_REASONS)
		reason = TPROF_DROP_STOPPED;
	if (!t->tid && t != &tprof_g.proc)
		t->tid = (pid_t)gettid();
	__atomic_add_fetch(&t->pend[reason], n, __ATOMIC_RELAXED);
	tprof_losses_count(t, reason, n);
	uint64_t now = tprof_now(), none = 0;
	__atomic_compare_exchange_n(&t->gap.t0, &none, now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	__atomic_store_n(&t->gap.t1, now, __ATOMIC_RELAXED);
	__atomic_or_fetch(&t->gap.reasons, 1u << reason, __ATOMIC_RELAXED);
	__atomic_add_fetch(&t->gap.n, n, __ATOMIC_RELAXED);
	/* Lost while the code it interrupted is busy: the GAP record follows that code's record. */
	if (reason == TPROF_DROP_REENTERED)
		__atomic_or_fetch(&t->busy, TPROF_BUSY_GAP, __ATOMIC_RELAXED);
}

void tprof_lost_what(struct tprof_thread *t, uint16_t kind, int level)
{
	switch (kind) {
	case TPROF_K_PUSH:
	case TPROF_K_POP: {
		if (level < 0)
			return;
		uint32_t v = (uint32_t)level + 1, cur = __atomic_load_n(&t->gap.low, __ATOMIC_RELAXED);
		while ((cur == 0 || v < cur) &&
		       !__atomic_compare_exchange_n(&t->gap.low, &cur, v, 0, __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED))
			;
		return;
	}
	case TPROF_K_ABEGIN:
		__atomic_add_fetch(&t->gap.abegins, 1, __ATOMIC_RELAXED);
		return;
	case TPROF_K_AEND:
		__atomic_add_fetch(&t->gap.aends, 1, __ATOMIC_RELAXED);
		return;
	case TPROF_K_STEP:
		__atomic_add_fetch(&t->gap.steps, 1, __ATOMIC_RELAXED);
		return;
	default:
		return;
	}
}

/* The GAP record, into the two units at r: what was lost since the last one (each field taken
 * whole, so that what a signal handler adds meanwhile goes to this one or the next). */
void tprof_gap_write(struct tprof_thread *t, struct tprof_rec *r)
{
	struct tprof_gap g;
	memset(&g, 0, sizeof(g));
	uint64_t n = __atomic_exchange_n(&t->gap.n, 0, __ATOMIC_RELAXED);
	uint64_t t0 = __atomic_exchange_n(&t->gap.t0, 0, __ATOMIC_RELAXED);
	uint64_t t1 = __atomic_exchange_n(&t->gap.t1, 0, __ATOMIC_RELAXED);
	uint32_t reasons = __atomic_exchange_n(&t->gap.reasons, 0, __ATOMIC_RELAXED);
	g.low = __atomic_exchange_n(&t->gap.low, 0, __ATOMIC_RELAXED);
	g.abegins = __atomic_exchange_n(&t->gap.abegins, 0, __ATOMIC_RELAXED);
	g.aends = __atomic_exchange_n(&t->gap.aends, 0, __ATOMIC_RELAXED);
	g.steps = __atomic_exchange_n(&t->gap.steps, 0, __ATOMIC_RELAXED);
	memcpy(r + 1, &g, sizeof(g));
	r->t0 = t0 ? t0 : tprof_now();
	r->t1 = t1 ? t1 : r->t0;
	r->arg = n;
	tprof_publish(r, TPROF_K_GAP, 1, (uint8_t)reasons, 0);
}

int tprof_gap_here(struct tprof_thread *t)
{
	if (!t->slot || (size_t)(t->end - t->pos) < 2)
		return 0;
	struct tprof_rec *r = t->pos;
	t->pos = r + 2;
	tprof_gap_write(t, r);
	return 1;
}

/* t->busy fell to 0 (or to an outer level) with a GAP record due: a signal handler lost
 * records while this thread was busy.  Nothing is called here that could be wrapped or
 * record: the GAP record goes where the thread writes, or stays due. */
void tprof_busy_after(struct tprof_thread *t)
{
	for (;;) {
		uint32_t b = __atomic_load_n(&t->busy, __ATOMIC_RELAXED);
		if (b != TPROF_BUSY_GAP)
			return;   /* still busy at an outer level, or nothing due */
		if (!__atomic_compare_exchange_n(&t->busy, &b, 1, 0, __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		/* busy again (1), the flag taken */
		if (!tprof_gap_here(t) && t->slot)
			t->end = t->pos;   /* the next record takes a fresh buffer, the GAP first */
		/* 1 -> 0, unless a handler flagged another loss meanwhile: then round again */
		if (__atomic_sub_fetch(&t->busy, 1, __ATOMIC_RELAXED) == 0)
			return;
	}
}

int tprof_busy_after_ret(struct tprof_thread *t, int ret)
{
	tprof_busy_after(t);
	return ret;
}

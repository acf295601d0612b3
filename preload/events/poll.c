/* poll.c — the slow side of folding unsuccessful polls (poll.h): a new POLL record when no
 * run is open, or one more function unit on the open run's record, right after it in the
 * thread's buffer. */
#include <string.h>

#include "poll.h"

unsigned tprof_poll_arms_on = ~0u;

static void fn_first(struct tprof_poll_fn *f, struct tprof_hook *h, uint64_t t0, uint64_t t1)
{
	uint32_t d = tprof_poll_ticks32(t1 - t0);
	f->count = 1;
	f->busy = t1 - t0;
	f->name = tprof_hook_name(h);
	f->min = f->max = d;
	f->timed = 1;
}

/* The open run gets a unit for h, written before the header that counts it.  There is room:
 * a run begins where its buffer holds every unit it may need. */
static int extend(struct tprof_thread *t, struct tprof_rec *r, struct tprof_hook *h,
		  uint64_t t0, uint64_t t1)
{
	struct tprof_pollrun *run = &t->poll;
	if (run->n >= TPROF_POLL_FNS || t->pos >= t->end)
		return 0;   /* full: a new run begins */
	fn_first((struct tprof_poll_fn *)t->pos, h, t0, t1);
	t->pos++;
	run->end = t->pos;
	run->hooks[run->n++] = h;
	run->untimed = ++run->polls >= TPROF_POLL_EXACT ? TPROF_POLL_EVERY - 1 : 0;
	tprof_poll_arm(run, r);
	__atomic_store_n(&r->t1, t1, __ATOMIC_RELEASE);
	tprof_publish(r, TPROF_K_POLL, (uint8_t)run->n, run->hooks[0]->domain,
		     ((const struct tprof_poll_fn *)(r + 1))->name);
	return 1;
}

void tprof_poll_open(struct tprof_thread *t, struct tprof_hook *h, uint64_t t0, uint64_t t1)
{
	tprof_busy_enter(t);
	struct tprof_rec *open = tprof_poll_current(t);
	int extended = open && extend(t, open, h, t0, t1);
	tprof_busy_leave(t);
	if (extended)
		return;
	/* Room for every function the run may take, so that it never continues in another
	 * buffer; what it does not take is given back at once. */
	struct tprof_rec *r = tprof_reserve(t, 1 + TPROF_POLL_FNS);
	if (!r)
		return;
	t->pos = r + 2;
	struct tprof_poll_fn *f = (struct tprof_poll_fn *)(r + 1);
	fn_first(f, h, t0, t1);
	r->t0 = t0;
	r->t1 = t1;
	r->arg = 0;
	tprof_commit(t, r, TPROF_K_POLL, 1, h->domain, f->name);
	struct tprof_pollrun *run = &t->poll;
	run->rec = r;
	run->end = t->pos;
	run->seq = t->seq;
	run->flushed = &t->slot->hdr->flushed;
	run->flushed_then = __atomic_load_n(run->flushed, __ATOMIC_RELAXED);
	run->n = 1;
	run->hooks[0] = h;
	run->polls = 1;
	run->untimed = 0;
	tprof_poll_disarm(run);
}

int tprof_poll_count_unit(struct tprof_thread *t, struct tprof_hook *h)
{
	struct tprof_pollrun *run = &t->poll;
	tprof_busy_enter(t);
	struct tprof_rec *r = tprof_poll_current(t);
	if (TPROF_LIKELY(r != NULL && run->untimed)) {
		struct tprof_poll_fn *f = (struct tprof_poll_fn *)(r + 1);
		for (unsigned i = 0; i < run->n; i++, f++)
			if (run->hooks[i] == h) {
				f->count++;
				run->untimed--;
				tprof_poll_arm(run, r);
				tprof_busy_leave(t);
				return 1;
			}
	}
	run->untimed = 0;
	tprof_poll_disarm(run);
	tprof_busy_leave(t);
	return 0;
}

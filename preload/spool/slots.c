/* slots.c — handing buffers to writers: a full buffer goes to the flusher's queue and a fresh
 * one comes from the spool, in a grant that TPROF_MAX_EVENTS may make smaller.  Used by the
 * thread slow path and by the stream-0 writer alike.  A buffer that holds a record not yet
 * finished (a call in progress) is held back from the flusher until the next switch. */
#include <time.h>

#include "chunks.h"
#include "../core/core.h"
#include "spool.h"

/* With TPROF_MAX_EVENTS, buffers are granted in small pieces so that one thread holding an
 * unused grant cannot starve the others; unused units go back when the buffer is retired. */
#define BUDGET_GRANT 256

static int budgeted(const struct tprof_thread *t)
{
	return t != &tprof_g.proc && tprof_g.cfg.max_events;
}

/* Under tprof_g.lock: the current buffer, its unused grant back to the budget; returned. */
static struct tprof_slot *let_go_locked(struct tprof_thread *t)
{
	struct tprof_slot *s = t->slot;
	if (s && budgeted(t) && t->end > t->pos)
		tprof_g.budget += t->end - t->pos;
	t->slot = NULL;
	t->pos = t->end = NULL;
	tprof_pollrun_leave_buffer(&t->poll);   /* a run of polls stays in its buffer */
	return s;
}

/* Under tprof_g.lock: the current buffer goes to the flusher (or, with `hold`, is kept as
 * t->held); a buffer held before goes to the flusher. */
static void retire_locked(struct tprof_thread *t, int hold)
{
	struct tprof_slot *s = let_go_locked(t);
	if (t->held && (s || !hold)) {
		tprof_chunks_enqueue(t->held);
		t->held = NULL;
	}
	if (s && hold)
		t->held = s;
	else if (s)
		tprof_chunks_enqueue(s);
}

/* Under tprof_g.lock: a fresh buffer for t, or a drop reason. */
static int take_locked(struct tprof_thread *t)
{
	uint32_t grant = tprof_g.cfg.buffer_units;
	if (budgeted(t)) {
		if (tprof_g.budget <= 0)
			return TPROF_DROP_MAX_EVENTS;
		if (grant > BUDGET_GRANT)
			grant = BUDGET_GRANT;
		if (grant > tprof_g.budget)
			grant = (uint32_t)tprof_g.budget;
	}
	struct tprof_slot *s = tprof_spool_acquire();
	if (!s)
		return TPROF_DROP_NO_BUFFER;
	if (grant > s->hdr->capacity)
		grant = s->hdr->capacity;
	if (budgeted(t))
		tprof_g.budget -= grant;
	s->hdr->stream = t->stream;
	s->hdr->seq = t->seq++;
	s->hdr->flushed = 0;
	__atomic_store_n(&s->hdr->state, TPROF_SLOT_ACTIVE, __ATOMIC_RELEASE);
	t->slot = s;
	t->pos = s->units;
	t->end = s->units + grant;
	return 0;
}

struct tprof_rec *tprof_slot_next(struct tprof_thread *t, unsigned units, int hold, int *reason)
{
	int phase;
	pthread_mutex_lock(&tprof_g.lock);
	phase = tprof_g.phase;
	/* Stream 0 still takes the final records after the image is FINISHED. */
	if (phase != TPROF_PHASE_STARTED && !(t == &tprof_g.proc && phase == TPROF_PHASE_FINISHED)) {
		pthread_mutex_unlock(&tprof_g.lock);
		*reason = TPROF_DROP_STOPPED;
		return NULL;
	}
	int retired = t->slot != NULL;
	retire_locked(t, hold);
	*reason = take_locked(t);
	pthread_mutex_unlock(&tprof_g.lock);
	if (retired && tprof_g.cfg.slot_pause_us && t != &tprof_g.proc) {
		struct timespec pause = { 0, (long)tprof_g.cfg.slot_pause_us * 1000 };
		nanosleep(&pause, NULL);
	}
	if (*reason)
		return NULL;
	if ((size_t)(t->end - t->pos) < units) {
		/* A grant too small for the record: given back, so that the next record takes
		 * this path again (and its GAP record goes before it). */
		pthread_mutex_lock(&tprof_g.lock);
		struct tprof_slot *s = let_go_locked(t);
		if (s)
			tprof_chunks_enqueue(s);
		pthread_mutex_unlock(&tprof_g.lock);
		*reason = TPROF_DROP_MAX_EVENTS;
		return NULL;
	}
	struct tprof_rec *r = t->pos;
	t->pos += units;
	return r;
}

void tprof_slot_retire(struct tprof_thread *t)
{
	pthread_mutex_lock(&tprof_g.lock);
	retire_locked(t, 0);
	pthread_mutex_unlock(&tprof_g.lock);
}

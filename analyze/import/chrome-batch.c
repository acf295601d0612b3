/* chrome-batch.c — the queue of chrome-batch.h: NBATCH batches going round between the parsing
 * thread, which fills one, and the caller, which goes through the full ones in order, on the
 * analyzer's ring of slots (util/handoff.h). */
#include "chrome-batch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "../util/handoff.h"

#define NBATCH 4

struct chrome_queue {
	pthread_t thread;
	struct handoff ring;
	struct chrome_batch batch[NBATCH];
	struct chrome_batch *filling;   /* the producer's, or NULL */
	void (*fill)(void *ctx, struct chrome_queue *q);
	void *ctx;
};

static void *producer(void *arg)
{
	struct chrome_queue *q = arg;
	q->fill(q->ctx, q);
	return NULL;
}

static void queue_free(struct chrome_queue *q)
{
	for (size_t i = 0; i < NBATCH; i++) {
		chrome_arena_free(q->batch[i].arena);
		free(q->batch[i].e);
	}
	handoff_destroy(&q->ring);
	free(q);
}

struct chrome_queue *chrome_queue_start(void (*fill)(void *ctx, struct chrome_queue *q),
					void *ctx)
{
	struct chrome_queue *q = xcalloc(1, sizeof(*q));
	handoff_init(&q->ring, NBATCH);
	for (size_t i = 0; i < NBATCH; i++)
		q->batch[i].arena = chrome_arena_new();
	q->fill = fill;
	q->ctx = ctx;
	if (pthread_create(&q->thread, NULL, producer, q) != 0) {
		queue_free(q);
		return NULL;
	}
	return q;
}

struct chrome_batch *chrome_queue_filling(struct chrome_queue *q)
{
	if (q->filling)
		return q->filling;
	int slot = handoff_free_slot(&q->ring);
	if (slot < 0)
		return NULL;
	struct chrome_batch *b = &q->batch[slot];
	b->n = 0;
	chrome_arena_reset(b->arena);
	return q->filling = b;
}

struct chrome_entry *chrome_batch_add(struct chrome_batch *b)
{
	b->e = util_grow(b->e, &b->cap, b->n, sizeof(*b->e), 256);
	struct chrome_entry *e = &b->e[b->n++];
	/* all but the event, which its parse fills whole */
	e->is_error = e->rc = e->form = 0;
	e->fix = -1;
	e->bytes = e->offset = 0;
	e->key = e->text = NULL;
	e->len = 0;
	return e;
}

void chrome_queue_send(struct chrome_queue *q)
{
	if (!q->filling)
		return;
	q->filling = NULL;
	handoff_filled(&q->ring);
}

int chrome_queue_cancelled(struct chrome_queue *q)
{
	return handoff_cancelled(&q->ring);
}

struct chrome_batch *chrome_queue_take(struct chrome_queue *q)
{
	return &q->batch[handoff_full_slot(&q->ring)];
}

void chrome_queue_give(struct chrome_queue *q, struct chrome_batch *b)
{
	(void)b;        /* the one taken: batches go back in the order they came */
	handoff_taken(&q->ring);
}

void chrome_queue_finish(struct chrome_queue *q)
{
	if (!q)
		return;
	handoff_cancel(&q->ring);
	pthread_join(q->thread, NULL);
	queue_free(q);
}

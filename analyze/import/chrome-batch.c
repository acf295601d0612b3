/* chrome-batch.c — the queue of chrome-batch.h: NBATCH batches going round between the parsing
 * thread, which fills one, and the caller, which goes through the full ones in order. */
#include "chrome-batch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"

#define NBATCH 4

struct chrome_queue {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct chrome_batch batch[NBATCH];
	struct chrome_batch *free_b[NBATCH], *full[NBATCH];
	size_t nfree, nfull, head;      /* full: a ring from head */
	struct chrome_batch *filling;   /* the producer's, or NULL */
	int cancel;
	void (*fill)(void *ctx, struct chrome_queue *q);
	void *ctx;
};

static void *producer(void *arg)
{
	struct chrome_queue *q = arg;
	q->fill(q->ctx, q);
	return NULL;
}

struct chrome_queue *chrome_queue_start(void (*fill)(void *ctx, struct chrome_queue *q),
					void *ctx)
{
	struct chrome_queue *q = calloc(1, sizeof(*q));
	if (!q)
		abort();
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	for (size_t i = 0; i < NBATCH; i++) {
		q->batch[i].arena = chrome_arena_new();
		q->free_b[q->nfree++] = &q->batch[i];
	}
	q->fill = fill;
	q->ctx = ctx;
	if (pthread_create(&q->thread, NULL, producer, q) != 0) {
		for (size_t i = 0; i < NBATCH; i++)
			chrome_arena_free(q->batch[i].arena);
		pthread_mutex_destroy(&q->lock);
		pthread_cond_destroy(&q->cond);
		free(q);
		return NULL;
	}
	return q;
}

struct chrome_batch *chrome_queue_filling(struct chrome_queue *q)
{
	if (q->filling)
		return q->filling;
	pthread_mutex_lock(&q->lock);
	while (!q->nfree && !q->cancel)
		pthread_cond_wait(&q->cond, &q->lock);
	struct chrome_batch *b = q->cancel ? NULL : q->free_b[--q->nfree];
	pthread_mutex_unlock(&q->lock);
	if (b) {
		b->n = 0;
		chrome_arena_reset(b->arena);
	}
	return q->filling = b;
}

struct chrome_entry *chrome_batch_add(struct chrome_batch *b)
{
	b->e = util_grow(b->e, &b->cap, b->n, sizeof(*b->e), 256);
	struct chrome_entry *e = &b->e[b->n++];
	/* all but the event, which its parse fills whole */
	e->is_error = e->rc = e->form = 0;
	e->bytes = e->offset = 0;
	e->key = e->text = NULL;
	e->len = 0;
	return e;
}

void chrome_queue_send(struct chrome_queue *q)
{
	struct chrome_batch *b = q->filling;
	if (!b)
		return;
	q->filling = NULL;
	pthread_mutex_lock(&q->lock);
	q->full[(q->head + q->nfull++) % NBATCH] = b;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

int chrome_queue_cancelled(struct chrome_queue *q)
{
	pthread_mutex_lock(&q->lock);
	int c = q->cancel;
	pthread_mutex_unlock(&q->lock);
	return c;
}

struct chrome_batch *chrome_queue_take(struct chrome_queue *q)
{
	pthread_mutex_lock(&q->lock);
	while (!q->nfull)
		pthread_cond_wait(&q->cond, &q->lock);
	struct chrome_batch *b = q->full[q->head];
	q->head = (q->head + 1) % NBATCH;
	q->nfull--;
	pthread_mutex_unlock(&q->lock);
	return b;
}

void chrome_queue_give(struct chrome_queue *q, struct chrome_batch *b)
{
	pthread_mutex_lock(&q->lock);
	q->free_b[q->nfree++] = b;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void chrome_queue_finish(struct chrome_queue *q)
{
	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->cancel = 1;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	for (size_t i = 0; i < NBATCH; i++) {
		chrome_arena_free(q->batch[i].arena);
		free(q->batch[i].e);
	}
	pthread_mutex_destroy(&q->lock);
	pthread_cond_destroy(&q->cond);
	free(q);
}

/* handoff.c — handoff.h: a count of full slots under a mutex, two condition variables; and
 * the count of the outputs' busy threads. */
#include "handoff.h"

#include <unistd.h>

static int busy;        /* read and written atomically */

void handoff_busy(int delta)
{
	__atomic_add_fetch(&busy, delta, __ATOMIC_RELAXED);
}

int handoff_cores_left(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return (int)(n > 0 ? n : 1) - 1 - __atomic_load_n(&busy, __ATOMIC_RELAXED);
}

void handoff_init(struct handoff *h, unsigned n)
{
	h->n = n;
	h->full = h->fill_at = h->take_at = 0;
	h->cancelled = 0;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->filled, NULL);
	pthread_cond_init(&h->emptied, NULL);
}

void handoff_destroy(struct handoff *h)
{
	pthread_cond_destroy(&h->filled);
	pthread_cond_destroy(&h->emptied);
	pthread_mutex_destroy(&h->lock);
}

int handoff_free_slot(struct handoff *h)
{
	pthread_mutex_lock(&h->lock);
	while (h->full == h->n && !h->cancelled)
		pthread_cond_wait(&h->emptied, &h->lock);
	int slot = h->cancelled ? -1 : (int)h->fill_at;
	pthread_mutex_unlock(&h->lock);
	return slot;
}

void handoff_cancel(struct handoff *h)
{
	pthread_mutex_lock(&h->lock);
	h->cancelled = 1;
	pthread_cond_signal(&h->emptied);
	pthread_mutex_unlock(&h->lock);
}

int handoff_cancelled(struct handoff *h)
{
	pthread_mutex_lock(&h->lock);
	int c = h->cancelled;
	pthread_mutex_unlock(&h->lock);
	return c;
}

void handoff_filled(struct handoff *h)
{
	h->fill_at = (h->fill_at + 1) % h->n;
	pthread_mutex_lock(&h->lock);
	h->full++;
	pthread_cond_signal(&h->filled);
	pthread_mutex_unlock(&h->lock);
}

int handoff_full_slot(struct handoff *h)
{
	pthread_mutex_lock(&h->lock);
	while (!h->full)
		pthread_cond_wait(&h->filled, &h->lock);
	pthread_mutex_unlock(&h->lock);
	return (int)h->take_at;
}

void handoff_taken(struct handoff *h)
{
	h->take_at = (h->take_at + 1) % h->n;
	pthread_mutex_lock(&h->lock);
	h->full--;
	pthread_cond_signal(&h->emptied);
	pthread_mutex_unlock(&h->lock);
}

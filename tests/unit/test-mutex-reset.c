/* test-mutex-reset.c — tprof_mutex_reset and tprof_cond_reset (common/startup.h), what the
 * recorder's fork handlers do with its locks in the child: a lock held at the fork (by a thread
 * the child does not have) is usable again, and one as PTHREAD_MUTEX_INITIALIZER made it is
 * left unwritten; so is a condition variable that a thread of the parent was waiting on. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../preload/core/core.h"
#include "tap.h"

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t used = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t waited = PTHREAD_COND_INITIALIZER;
static pthread_cond_t fresh_cond = PTHREAD_COND_INITIALIZER;
static int waiting;

/* Waits on `waited` for good: at the fork the child's copy has a waiter it does not have. */
static void *wait_forever(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&wait_lock);
	waiting = 1;
	for (;;)
		pthread_cond_wait(&waited, &wait_lock);
	return NULL;
}

static void *hold(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&held);
	return NULL;   /* exits holding it, as a thread of the parent may at a fork */
}

/* In a child: 0 when each lock can be taken after the reset and `fresh` kept its bytes. */
static int child(void)
{
	pthread_mutex_t before;
	memcpy(&before, &fresh, sizeof(before));
	tprof_mutex_reset(&held);
	tprof_mutex_reset(&used);
	tprof_mutex_reset(&fresh);
	int rc = 0;
	if (memcmp(&before, &fresh, sizeof(before)))
		rc |= 8;
	if (pthread_mutex_trylock(&held) != 0)
		rc |= 1;
	if (pthread_mutex_trylock(&used) != 0)
		rc |= 2;
	if (pthread_mutex_trylock(&fresh) != 0)
		rc |= 4;
	/* The condition variable: usable again (a wait times out, a broadcast returns), and the
	 * one never used is left as it was. */
	pthread_cond_t cond_before;
	memcpy(&cond_before, &fresh_cond, sizeof(cond_before));
	tprof_mutex_reset(&wait_lock);
	tprof_cond_reset(&waited);
	tprof_cond_reset(&fresh_cond);
	if (memcmp(&cond_before, &fresh_cond, sizeof(cond_before)))
		rc |= 16;
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&wait_lock);
	if (pthread_cond_timedwait(&waited, &wait_lock, &until) != ETIMEDOUT)
		rc |= 32;
	pthread_mutex_unlock(&wait_lock);
	if (pthread_cond_broadcast(&waited) != 0)
		rc |= 32;
	return rc;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, hold, NULL);
	pthread_join(t, NULL);
	pthread_mutex_lock(&used);
	pthread_mutex_unlock(&used);
	pthread_t w;
	pthread_create(&w, NULL, wait_forever, NULL);
	for (;;) {   /* until the waiter waits: then the lock is free, the condition has a waiter */
		pthread_mutex_lock(&wait_lock);
		int now = waiting;
		pthread_mutex_unlock(&wait_lock);
		if (now)
			break;
		sched_yield();
	}
	ok(pthread_mutex_trylock(&held) != 0, "the parent's lock is held by a thread that is gone");
	pid_t pid = fork();
	if (pid == 0)
		_exit(child());
	int st = 0;
	waitpid(pid, &st, 0);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 255;
	ok(!(rc & 1), "the child can take a lock held at the fork once it is reset");
	ok(!(rc & 2), "the child can take a lock taken and given back before the fork");
	ok(!(rc & 4), "the child can take a lock never taken");
	ok(!(rc & 8), "a lock as PTHREAD_MUTEX_INITIALIZER made it is left as it is");
	ok(!(rc & 32), "a condition variable waited on at the fork is usable in the child once reset");
	ok(!(rc & 16), "a condition variable as PTHREAD_COND_INITIALIZER made it is left as it is");
	return tap_done();
}

/* flusher.c — the flusher thread: started with every signal blocked, it takes full buffers
 * off the queue, writes them as chunks and returns them to the spool, and every second adds
 * a clock sample to stream 0 so that ticks can be converted however the process ends. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/prctl.h>
#include <time.h>

#include "chunks.h"
#include "../core/core.h"
#include "spool.h"

#define CLOCK_PERIOD_NS 1000000000ull   /* a clock sample every second */
#define FIRST_CLOCK_NS 20000000ull      /* and one soon after start, to fix the TSC rate early */

static void deadline_after(struct timespec *ts, uint64_t ns)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	uint64_t t = (uint64_t)ts->tv_nsec + ns;
	ts->tv_sec += (time_t)(t / 1000000000u);
	ts->tv_nsec = (long)(t % 1000000000u);
}

/* Set by the flusher once it runs, and posted: see tprof_flusher_start. */
static int flusher_up;
static sem_t flusher_up_sem;

static void *flusher_main(void *arg)
{
	(void)arg;
	struct timespec next;
	__atomic_store_n(&flusher_up, 1, __ATOMIC_RELEASE);
	sem_post(&flusher_up_sem);
	prctl(PR_SET_NAME, "tprof-flush", 0, 0, 0);
	tprof_tls.guard = 1;  /* nothing this thread does is recorded */
	deadline_after(&next, FIRST_CLOCK_NS);
	for (;;) {
		pthread_mutex_lock(&tprof_g.lock);
		int timed_out = 0;
		while (!tprof_g.queue_head && !tprof_g.flusher_stop && !timed_out)
			timed_out = pthread_cond_timedwait(&tprof_g.flush_cond, &tprof_g.lock, &next) ==
				    ETIMEDOUT;
		struct tprof_slot *s = tprof_chunks_dequeue();
		int stop = tprof_g.flusher_stop && !s;
		pthread_mutex_unlock(&tprof_g.lock);
		if (s) {
			pthread_mutex_lock(&tprof_g.flush_lock);
			int rc = tprof_chunks_write(s);
			if (rc == 0)
				tprof_chunks_clear(s);
			pthread_mutex_unlock(&tprof_g.flush_lock);
			if (rc == 0) {
				pthread_mutex_lock(&tprof_g.lock);
				tprof_spool_release(s);
				pthread_mutex_unlock(&tprof_g.lock);
			}
		}
		if (!stop)
			tprof_spool_keep_reserve();
		if (timed_out && !stop) {
			tprof_proc_clock(TPROF_CLOCK_PERIODIC);
			deadline_after(&next, CLOCK_PERIOD_NS);
		}
		if (stop)
			break;
	}
	return NULL;
}

/* Before any thread can hand over a buffer, that is before the image is STARTED. */
void tprof_flusher_cond_init(void)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&tprof_g.flush_cond, &ca);
	pthread_condattr_destroy(&ca);
}

int tprof_flusher_start(void)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	tprof_g.flusher_stop = 0;
	__atomic_store_n(&flusher_up, 0, __ATOMIC_RELAXED);
	sem_init(&flusher_up_sem, 0, 0);
	int rc = pthread_create(&tprof_g.flusher, NULL, flusher_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	tprof_g.flusher_running = rc == 0;
	/* The program may fork right after its first record: let the new thread get through its
	 * start (where a sanitizer runtime holds its allocator's locks, which a fork child would
	 * find held forever) before going on.  At most a second, woken as soon as it runs rather
	 * than by polling (which slept 50 us at a time). */
	if (rc == 0) {
		int saved = errno;
		struct timespec deadline;
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_sec += 1;
		while (!__atomic_load_n(&flusher_up, __ATOMIC_ACQUIRE) &&
		       sem_timedwait(&flusher_up_sem, &deadline) < 0 && errno == EINTR)
			;
		errno = saved;
	}
	return rc == 0 ? 0 : -1;
}

void tprof_flusher_stop(void)
{
	if (!tprof_g.flusher_running)
		return;
	pthread_mutex_lock(&tprof_g.lock);
	tprof_g.flusher_stop = 1;
	pthread_cond_signal(&tprof_g.flush_cond);
	pthread_mutex_unlock(&tprof_g.lock);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	if (pthread_timedjoin_np(tprof_g.flusher, NULL, &ts) != 0)
		tprof_log_warn("the flusher did not stop within 10 s; finishing without it");
	tprof_g.flusher_running = 0;
}


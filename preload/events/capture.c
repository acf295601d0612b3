/* capture.c — the capture window: this process records while the recorder is active and
 * every gate asked for is open (capture.h): the job's (a word in tprof-inspect's gate file,
 * mapped here and waited on by a thread of ours, so that --delay, --duration, --start-paused
 * and the capture signal reach every process of the job at once), the program's (tprof_stop
 * and tprof_start; the runtimes' profiler calls too under TPROF_CAPTURE_RANGE=api) and the
 * steps' (TPROF_STEPS=A:B).  Outside the window the hot-path switch is 0, as with
 * TPROF_ENABLE=0, so calls cost what they cost then; what began inside finishes (device work
 * completes, ranges pushed inside are popped: devtime.c, annotate.c).  Each change is a
 * CAPTURE record in stream 0, so that the reader knows which parts of the run are left out
 * and why. */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../common/capture.h"
#include "../../common/ownfd.h"
#include "../../common/real-libc.h"
#include "../spool/buffer.h"
#include "../core/clock.h"
#include "../core/core.h"
#include "capture.h"

int tprof_capture_by_steps;

/* Every recording start takes the lock and reads the state: with the start's data. */
static pthread_mutex_t lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
static unsigned closed TPROF_START_DATA;             /* TPROF_GATE_* closed now */
static const uint32_t *gate TPROF_START_DATA;  /* the job's gate word, mapped; NULL when none */
static int watcher_up;               /* set by the watcher once it runs */
static uint64_t step_now;            /* the step that began last (TPROF_STEPS) */
static int in_step;                  /* it has not ended */

/* Under lock: the switch from the gates, and the record of a change.  Opening writes it
 * first, so that the window's first record is its opening; the record starts the image's
 * files when they are not there yet.  Closing writes it when they are. */
TPROF_START_CODE static void apply(unsigned why)
{
	int active = __atomic_load_n(&tprof_active, __ATOMIC_ACQUIRE);
	int on = active && !closed;
	if (on == __atomic_load_n(&tprof_recording, __ATOMIC_RELAXED))
		return;
	struct tprof_thread *t = &tprof_tls;
	t->guard++;
	if (on && tprof_image_ensure() == 0)
		tprof_proc_record(TPROF_K_CAPTURE, 1, 0, tprof_now(), 0, why);
	__atomic_store_n(&tprof_recording, on, __ATOMIC_RELEASE);
	if (!on && active)
		tprof_proc_record(TPROF_K_CAPTURE, 0, 0, tprof_now(), 0, why);
	t->guard--;
}

void tprof_capture_gate(unsigned g, int open, unsigned why)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&lock);
	__atomic_store_n(&closed, open ? closed & ~g : closed | g, __ATOMIC_RELEASE);
	apply(why);
	pthread_mutex_unlock(&lock);
}

void tprof_capture_runtime(int start, unsigned why)
{
	if (tprof_g.cfg.capture_api)
		tprof_capture_gate(TPROF_GATE_PROGRAM, start, why);
}

int tprof_capture_step(uint64_t step)
{
	int inside = step >= tprof_g.cfg.steps_first && step <= tprof_g.cfg.steps_last;
	pthread_mutex_lock(&lock);
	int was_open = !(closed & TPROF_GATE_STEPS);
	step_now = step;
	in_step = 1;
	pthread_mutex_unlock(&lock);
	if (inside && !was_open)
		tprof_capture_gate(TPROF_GATE_STEPS, 1, TPROF_CAPTURE_STEPS);
	return !inside && was_open;
}

int tprof_capture_step_end(void)
{
	pthread_mutex_lock(&lock);
	int last = in_step && !(closed & TPROF_GATE_STEPS) && step_now >= tprof_g.cfg.steps_last;
	in_step = 0;
	pthread_mutex_unlock(&lock);
	return last;
}

/* The watcher of the job's gate: applies the word, then sleeps until it changes (a shared
 * futex: tprof-inspect wakes every waiter on its host), or a second at most, where a file
 * system gives no wake-up. */
static void *watch(void *arg)
{
	(void)arg;
	__atomic_store_n(&watcher_up, 1, __ATOMIC_RELEASE);
	prctl(PR_SET_NAME, "tprof-gate", 0, 0, 0);
	tprof_tls.guard = 1;   /* nothing this thread does is recorded */
	for (;;) {
		uint32_t w = __atomic_load_n(gate, __ATOMIC_ACQUIRE);
		tprof_capture_gate(TPROF_GATE_JOB, w & TPROF_GATE_OPEN, tprof_gate_why(w));
		struct timespec second = { 1, 0 };
		tprof_real_syscall(SYS_futex, gate, FUTEX_WAIT, w, &second, NULL, 0);
	}
	return NULL;
}

static void watcher_start(void)
{
	pthread_t th;
	pthread_attr_t a;
	sigset_t all, old;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 << 10);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	__atomic_store_n(&watcher_up, 0, __ATOMIC_RELAXED);
	int rc = pthread_create(&th, &a, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
	/* As the flusher's start (flusher.c): a fork must not find the new thread in its start. */
	for (int i = 0; rc == 0 && i < 20000 && !__atomic_load_n(&watcher_up, __ATOMIC_ACQUIRE); i++) {
		struct timespec pause = { 0, 50000 };
		nanosleep(&pause, NULL);
	}
	if (rc)
		tprof_log_warn("cannot start the thread that follows tprof-inspect's capture window: "
			       "%s; recording all along", strerror(rc));
}

/* The job's gate file, mapped read-only; no descriptor kept. */
static const uint32_t *map_gate(const char *path)
{
	int fd = tprof_fd_open(path, O_RDONLY, 0);
	if (fd < 0) {
		tprof_log_warn("cannot open %s (tprof-inspect's capture window): %s; recording all "
			       "along", path, strerror(errno));
		return NULL;
	}
	void *m = mmap(NULL, TPROF_GATE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
	int e = errno;
	tprof_fd_close(fd);
	if (m == MAP_FAILED) {
		tprof_log_warn("cannot map %s (tprof-inspect's capture window): %s; recording all "
			       "along", path, strerror(e));
		return NULL;
	}
	return m;
}

/* An image whose files are made while the window is closed (for what a runtime says of the
 * process: procinfo.c) says that it started closed, and why; one made by the window's opening
 * is said to have been closed before by that opening's record. */
static unsigned start_why TPROF_START_DATA;

static void started_closed(void)
{
	if (__atomic_load_n(&closed, __ATOMIC_ACQUIRE))
		tprof_proc_record(TPROF_K_CAPTURE, TPROF_CAPTURE_AT_START, 0, tprof_now(), 0, start_why);
}

/* The switch as the gates say, after the image began (it turned it on). */
TPROF_START_CODE static void settle(void)
{
	pthread_mutex_lock(&lock);
	apply(0);
	pthread_mutex_unlock(&lock);
}

TPROF_START_CODE void tprof_capture_init(void)
{
	const struct tprof_config *c = &tprof_g.cfg;
	unsigned why0 = 0;   /* why it starts closed */
	if (c->capture_api) {
		closed |= TPROF_GATE_PROGRAM;
		why0 = TPROF_CAPTURE_RANGE;
	}
	if (c->steps) {
		tprof_capture_by_steps = 1;
		closed |= TPROF_GATE_STEPS;
		why0 = TPROF_CAPTURE_STEPS;
	}
	if (c->capture_gate && (gate = map_gate(c->capture_gate))) {
		uint32_t w = __atomic_load_n(gate, __ATOMIC_ACQUIRE);
		if (!(w & TPROF_GATE_OPEN)) {
			closed |= TPROF_GATE_JOB;
			why0 = tprof_gate_why(w);
		}
	}
	settle();
	start_why = why0;
	tprof_image_started_hook = started_closed;
	if (gate)
		watcher_start();
}

TPROF_START_CODE void tprof_capture_fork_child(void)
{
	tprof_mutex_reset(&lock);
	apply(0);   /* settle() without the lock: the child has no other thread to keep out */
	if (gate && __atomic_load_n(&tprof_active, __ATOMIC_RELAXED))
		watcher_start();
}

/* capture.c — tprof-inspect's side of the capture window.  The job's gate is one word in a
 * file of the output directory (".tprof-capture.<pid>"), mapped by tprof-inspect and by every
 * process of the job on its host: tprof-inspect changes it (a thread of its own times --delay
 * and --duration, the signal handler flips it for the capture signal) and wakes their
 * watchers (a shared futex), so that the whole job opens and closes at once.  Each change
 * says so in one line on stderr. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/capture.h"
#include "../common/outdir.h"
#include "../common/xalloc.h"
#include "capture.h"
#include "signal-name.h"
#include "fail.h"

#define MAX_SECONDS 1e7

static uint32_t *word;                 /* the gate, mapped; NULL when none */
static char *path;                     /* its file */
static struct capture_options opts;
static int ever_open;                  /* the window opened at some time */
static int over;                       /* --duration ran out: closed for good */

int capture_parse_seconds(const char *v, double *out)
{
	char *end;
	if ((*v < '0' || *v > '9') && *v != '.')
		return -1;
	errno = 0;
	double x = strtod(v, &end);
	if (*end || errno || !isfinite(x) || x > MAX_SECONDS)
		return -1;
	*out = x;
	return 0;
}

int capture_parse_signal(const char *v, int *out)
{
	int sig = inspect_signal_of(v);
	if (!sig || sig == SIGKILL || sig == SIGSTOP || sig == SIGCHLD || sig == SIGSEGV ||
	    sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT)
		return -1;
	*out = sig;
	return 0;
}

int capture_uses_gate(const struct capture_options *o)
{
	return o->delay > 0 || o->duration > 0 || o->paused || o->signal;
}

/* Async-signal-safe: the new word, the waiters woken, a line on stderr. */
static void set(int open, unsigned why)
{
	uint32_t old = __atomic_load_n(word, __ATOMIC_ACQUIRE), w;
	do {
		if (over || (!!(old & TPROF_GATE_OPEN) == !!open))
			return;
		w = tprof_gate_word(old, open, why);
	} while (!__atomic_compare_exchange_n(word, &old, w, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
	if (open)
		ever_open = 1;
	if (why == TPROF_CAPTURE_DURATION)
		over = 1;
	syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
	char line[160];
	const char *name = tprof_capture_why_name(why);
	size_t n = (size_t)snprintf(line, sizeof(line), PROG ": recording %s (%s)\n",
				    open ? "resumed" : why == TPROF_CAPTURE_DURATION ? "ended" : "paused",
				    name);
	ssize_t wr = write(STDERR_FILENO, line, n < sizeof(line) ? n : sizeof(line) - 1);
	(void)wr;
}

void capture_toggle(void)
{
	int saved = errno;
	if (word)
		set(!(__atomic_load_n(word, __ATOMIC_ACQUIRE) & TPROF_GATE_OPEN), TPROF_CAPTURE_SIGNAL);
	errno = saved;
}

static void __attribute__((noreturn)) fail(const char *what)
{
	fprintf(stderr, PROG ": cannot make the capture window's file %s: %s\n", path, what);
	exit(2);
}

void capture_setup(const struct capture_options *o, const char *dir)
{
	opts = *o;
	if (o->steps && setenv(TPROF_STEPS_VAR, o->steps, 1))
		fail(strerror(errno));
	if (o->range && setenv(TPROF_CAPTURE_RANGE_VAR, o->range, 1))
		fail(strerror(errno));
	if (!capture_uses_gate(o)) {
		ever_open = 1;
		return;
	}
	size_t n = strlen(dir) + 48;
	path = xmalloc(n);
	snprintf(path, n, "%s/.tprof-capture.%d", dir, (int)getpid());
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, tprof_file_mode());
	if (fd < 0)
		fail(strerror(errno));
	void *m = MAP_FAILED;
	if (ftruncate(fd, TPROF_GATE_SIZE) == 0)
		m = mmap(NULL, TPROF_GATE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int e = errno;
	close(fd);
	if (m == MAP_FAILED) {
		unlink(path);
		fail(strerror(e));
	}
	word = m;
	int closed = o->delay > 0 || o->paused;
	*word = tprof_gate_word(0, !closed, o->paused ? TPROF_CAPTURE_PAUSED : TPROF_CAPTURE_DELAY);
	ever_open = !closed;
	if (setenv(TPROF_CAPTURE_GATE_VAR, path, 1))
		fail(strerror(errno));
}

static void sleep_until(struct timespec *at, double seconds)
{
	double whole = floor(seconds);
	at->tv_sec += (time_t)whole;
	at->tv_nsec += (long)((seconds - whole) * 1e9);
	if (at->tv_nsec >= 1000000000L) {
		at->tv_sec++;
		at->tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, at, NULL) == EINTR)
		;
}

/* --delay, then --duration from the window's opening. */
static void *timer(void *arg)
{
	(void)arg;
	struct timespec at;
	clock_gettime(CLOCK_MONOTONIC, &at);
	if (opts.delay > 0) {
		sleep_until(&at, opts.delay);
		set(1, TPROF_CAPTURE_DELAY);
	}
	if (opts.duration > 0) {
		sleep_until(&at, opts.duration);
		set(0, TPROF_CAPTURE_DURATION);
	}
	return NULL;
}

void capture_started(void)
{
	if (!word || (opts.delay <= 0 && opts.duration <= 0))
		return;
	pthread_t th;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);   /* signals stay the main thread's */
	int rc = pthread_create(&th, NULL, timer, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		fprintf(stderr, PROG ": cannot time --delay and --duration: %s; recording as it is\n",
			strerror(rc));
	else
		pthread_detach(th);
}

int capture_done(void)
{
	if (path) {
		unlink(path);
		free(path);
		path = NULL;
	}
	return !ever_open;
}

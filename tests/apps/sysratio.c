/* sysratio.c — known CPU work for the system profile end to end (func/t-sample-bpf.sh).
 *   sysratio MS   a thread "ratio" alternates ratio_three (3 units) and a C++-named method,
 *                 tprof::test::Ratio::one() (1 unit), until it has used MS ms of CPU, and
 *                 prints the CPU time it spent in each by its own clock; a
 *                 thread "other" spins in other_spin for MS/3 ms of CPU; a thread "sleeper"
 *                 waits on a condition variable throughout; a forked child spins in
 *                 forked_spin and an exec'ed one in execd_spin, MS/4 ms of CPU each; the
 *                 main thread maps and touches 96 MiB, holds it and waits.  Prints the
 *                 pids and tids, when the touching and the ratio thread's spinning began
 *                 and ended (CLOCK_REALTIME ns), and how much time the host took from all
 *                 CPUs while it spun (steal and interrupts), as "KEY=VALUE" lines.
 *   sysratio exec MS   the exec'ed child's part.
 * Built with frame pointers, so that the sampler's stacks reach the callers.  Exits with 5. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define UNIT 20000
#define MIB 96

static volatile uint64_t sink, calls;
static long work_ms;

static double cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CLOCK_REALTIME in ns: the profile's own time base, to place the touching in the trace. */
static long long realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The time, in ms summed over all CPUs, that a thread on a CPU did not get as its own CPU time:
 * /proc/stat's irq, softirq and steal (a hypervisor running something else).  A thread's CPU
 * clock leaves these out, while the time between the scheduler's switches counts them. */
static double taken_ms(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return 0;
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		       &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	return n == 8 ? (v[5] + v[6] + v[7]) * 1e3 / sysconf(_SC_CLK_TCK) : 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

__attribute__((noinline)) void keep(uint64_t x);
void keep(uint64_t x) { sink = x; }

/* The loops are written out in each function, so that each is the innermost frame of its own
 * samples; each ends calling keep(), because a function that calls none (a leaf) gets no
 * frame of its own even with -fno-omit-frame-pointer, and a walk by frame pointers then
 * misses its caller. */
#define SPIN(n)                                                                                \
	do {                                                                                   \
		uint64_t x = sink;                                                             \
		for (long i = 0; i < (n); i++)                                                 \
			x = x * 6364136223846793005u + 1442695040888963407u;                   \
		keep(x);                                                                       \
		calls++;                                                                       \
	} while (0)

__attribute__((noinline)) void ratio_three(void);
__attribute__((noinline)) void ratio_one(void) __asm__("_ZN5tprof4test5Ratio3oneEv");
__attribute__((noinline)) void ratio_loop(void);
__attribute__((noinline)) void other_spin(void);
__attribute__((noinline)) void forked_spin(void);
__attribute__((noinline)) void execd_spin(void);

void ratio_three(void) { SPIN(3 * UNIT); }
void ratio_one(void) { SPIN(UNIT); }

/* The CPU time the ratio thread spent in each function, by its own clock: 3:1 on an idle
 * machine, and what the samples must show on a busy one, where the two need not keep it. */
static double three_ms, one_ms;

void ratio_loop(void)
{
	double t = cpu_ms(), end = t + (double)work_ms;
	while (t < end) {
		/* ~4 ms, then ~1.3 ms, between two reads of the CPU clock */
		for (int i = 0; i < 50; i++)
			ratio_three();
		double mid = cpu_ms();
		three_ms += mid - t;
		for (int i = 0; i < 50; i++)
			ratio_one();
		t = cpu_ms();
		one_ms += t - mid;
	}
}

static void spin_for(void (*fn)(void), double ms)
{
	double end = cpu_ms() + ms;
	while (cpu_ms() < end)
		for (int i = 0; i < 100; i++)
			fn();
}

void other_spin(void) { SPIN(UNIT); }
void forked_spin(void) { SPIN(UNIT); }
void execd_spin(void) { SPIN(UNIT); }

static void *ratio_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "ratio");
	printf("ratio_tid=%d\n", gettid());
	double taken = taken_ms();
	long long start = realtime_ns();
	ratio_loop();
	long long end = realtime_ns();
	printf("ratio_start_ns=%lld\nratio_end_ns=%lld\nratio_taken_ms=%.0f\n", start, end,
	       taken_ms() - taken);
	printf("three_cpu_us=%.0f\none_cpu_us=%.0f\n", three_ms * 1e3, one_ms * 1e3);
	return NULL;
}

static void *other_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "other");
	printf("other_tid=%d\n", gettid());
	spin_for(other_spin, work_ms / 3.0);
	return NULL;
}

static int done;
static pthread_mutex_t done_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;

/* Waits, without waking up, until main says it is done. */
static void *sleeper_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "sleeper");
	printf("sleeper_tid=%d\n", gettid());
	pthread_mutex_lock(&done_lock);
	while (!done)
		pthread_cond_wait(&done_cond, &done_lock);
	pthread_mutex_unlock(&done_lock);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exec")) {
		spin_for(execd_spin, atol(argv[2]) / 4.0);
		return 0;
	}
	if (argc != 2 || (work_ms = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: sysratio MS | sysratio exec MS\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid=%d\n", getpid());
	pthread_t t[3];
	pthread_create(&t[2], NULL, sleeper_main, NULL);
	sleep_ms(200);
	size_t bytes = (size_t)MIB << 20;
	printf("touch_start_ns=%lld\n", realtime_ns());
	char *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < bytes; i += 4096)
		mem[i] = 1;
	printf("touch_end_ns=%lld\n", realtime_ns());
	printf("touched_mib=%d\n", MIB);
	sleep_ms(200);
	pthread_create(&t[0], NULL, ratio_main, NULL);
	pthread_create(&t[1], NULL, other_main, NULL);
	pid_t forked = fork();
	if (forked == 0) {
		spin_for(forked_spin, work_ms / 4.0);
		_exit(0);
	}
	printf("forked_pid=%d\n", forked);
	pid_t execd = fork();
	if (execd == 0) {
		execl("/proc/self/exe", argv[0], "exec", argv[1], (char *)NULL);
		_exit(127);
	}
	printf("execd_pid=%d\n", execd);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	int st1, st2;
	waitpid(forked, &st1, 0);
	waitpid(execd, &st2, 0);
	pthread_mutex_lock(&done_lock);
	done = 1;
	pthread_cond_signal(&done_cond);
	pthread_mutex_unlock(&done_lock);
	pthread_join(t[2], NULL);
	munmap(mem, bytes);
	printf("children=%d,%d\n", WIFEXITED(st1) ? WEXITSTATUS(st1) : -1,
	       WIFEXITED(st2) ? WEXITSTATUS(st2) : -1);
	return 5;
}

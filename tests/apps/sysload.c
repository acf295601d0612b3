/* sysload.c — a program for the system profile's tests: known work the sampler must see.
 *   sysload threads MS   a thread named "busy" spins until it has used 600 ms of CPU, one named
 *                        "sleeper" sleeps MS ms; prints "threads done"
 *   sysload all MIB MS   waits 300 ms, maps and touches MIB MiB, waits 300 ms, then runs
 *                        "sysload threads MS" as a child (fork, 200 ms, exec: the /proc
 *                        sampler sees both) and waits for it, then forks a child that
 *                        exits after 150 ms and reaps it 300 ms later; prints "all done".
 *                        With SYSLOAD_RSS_FILE set, writes there its RSS in KiB (from
 *                        /proc/self/statm, as the sampler reads it) just before the touch
 *   sysload badexec MS   waits 50 ms, fails to exec a file that does not exist, then does what
 *                        "sysload threads MS" does
 *   sysload jitmap MS    writes /tmp/perf-PID.map as a JIT would (one symbol, jitted_fn) and
 *                        sleeps MS ms; prints the map's path
 *   sysload spawn MS     runs "sysload threads MS" as a child that execs 10 ms after the fork,
 *                        and waits for it; prints "spawn done"
 *   sysload leave MS     starts a thread named "left" that sleeps for a minute, sleeps MS ms
 *                        and returns from main while it still sleeps; prints "leave done"
 * Exits with 3, so that a test can tell its status came through. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0)
		;
}

static double thread_cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *busy(void *arg)
{
	volatile unsigned long x = 0;
	pthread_setname_np(pthread_self(), "busy");
	while (thread_cpu_s() < 0.6)
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
	return NULL;
}

static void *sleeper(void *arg)
{
	pthread_setname_np(pthread_self(), "sleeper");
	sleep_ms(*(long *)arg);
	return NULL;
}

static int threads(long ms)
{
	pthread_t a, b;
	pthread_create(&a, NULL, busy, NULL);
	pthread_create(&b, NULL, sleeper, &ms);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	puts("threads done");
	return 3;
}

static int all(char *self, long mib, const char *ms)
{
	sleep_ms(300);
	/* Straight from the kernel: no allocator (or sanitizer) adds memory of its own. */
	size_t n = (size_t)mib << 20;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	const char *rss_file = getenv("SYSLOAD_RSS_FILE");
	FILE *f = rss_file ? fopen("/proc/self/statm", "r") : NULL;
	unsigned long size, resident;
	if (f && fscanf(f, "%lu %lu", &size, &resident) == 2) {
		FILE *out = fopen(rss_file, "w");
		if (out) {
			fprintf(out, "%lu\n", resident * (unsigned long)sysconf(_SC_PAGESIZE) / 1024);
			fclose(out);
		}
	}
	if (f)
		fclose(f);
	for (size_t i = 0; i < n; i += 4096)   /* not memset: a sanitizer's would look at more */
		((volatile char *)p)[i] = 1;
	sleep_ms(300);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		sleep_ms(200);
		execl(self, self, "threads", ms, (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	/* A child that lives 150 ms and stays a zombie for 300 ms: followed once, not again. */
	pid_t z = fork();
	if (z == 0) {
		sleep_ms(150);
		_exit(0);
	}
	sleep_ms(450);
	waitpid(z, NULL, 0);
	printf("all done %d %d\n", p[n / 2], WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 3;
}

static int spawn(char *self, const char *ms)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		sleep_ms(10);
		execl(self, self, "threads", ms, (char *)NULL);
		_exit(127);
	}
	int st;
	waitpid(pid, &st, 0);
	puts("spawn done");
	return 3;
}

static int badexec(long ms)
{
	sleep_ms(50);
	execl("/nonexistent/sysload", "sysload", (char *)NULL);
	return threads(ms);
}

static void *left(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "left");
	sleep_ms(60000);
	return NULL;
}

static int leave(long ms)
{
	pthread_t a;
	pthread_create(&a, NULL, left, NULL);
	sleep_ms(ms);
	puts("leave done");
	return 3;
}

static int jitmap(long ms)
{
	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f)
		return 1;
	fprintf(f, "7f0000001000 40 jitted_fn\n");
	fclose(f);
	puts(path);
	sleep_ms(ms);
	return 3;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "jitmap"))
		return jitmap(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "badexec"))
		return badexec(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "spawn"))
		return spawn(argv[0], argv[2]);
	if (argc == 3 && !strcmp(argv[1], "threads"))
		return threads(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "leave"))
		return leave(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "all"))
		return all(argv[0], atol(argv[2]), argv[3]);
	fprintf(stderr, "usage: sysload threads MS | all MIB MS | spawn MS | badexec MS | "
		"jitmap MS | leave MS\n");
	return 2;
}

/* bpf-follow.c — drives the BPF loader (ebpf/loader.h) for func/t-bpf-loader.sh: follows a
 * child of known behaviour and prints every event the loader hands over, one per line.
 *
 * Usage: bpf-follow open       loads the programs: prints "opened" (exit 0), or the reason
 *                               the loader gave (exit 3)
 *        bpf-follow run HZ     follows a child that spins 300 ms of CPU in tprof_test_spin, stops
 *                               itself once, renames itself, forks a grandchild that execs
 *                               true, then lets a thread sleep ~200 ms and exits; a sibling
 *                               that spins meanwhile is not followed.  Prints:
 *   pids PARENT CHILD OTHER
 *   task NS WHAT PID TID PPID COMM
 *   sched NS PID TID CPU STATE
 *   sample NS PID TID CPU FLAGS NKERNEL NUSER SYM0 SYM1   (symbols of the first two user
 *                                                          frames, "?" when unknown)
 *   span T0 T1 LOST                                        (CLOCK_MONOTONIC ns around it) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../ebpf/loader.h"

static volatile uint64_t sink;

static uint64_t clock_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Spins for ns of its own CPU time (the machine may be busy). */
__attribute__((noinline, visibility("default"))) void tprof_test_spin(uint64_t ns)
{
	uint64_t end = clock_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 100000; i++)
			sink += (uint64_t)i;
}

static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 200 * 1000 * 1000 };

	nanosleep(&ts, NULL);
	return arg;
}

__attribute__((noinline, visibility("default"))) void tprof_test_child(int go)
{
	char c;
	pthread_t t;
	pid_t gc;

	if (read(go, &c, 1) != 1)
		_exit(1);
	tprof_test_spin(300 * 1000 * 1000);
	raise(SIGSTOP);
	prctl(PR_SET_NAME, "tp-renamed");
	gc = fork();
	if (gc == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	waitpid(gc, NULL, 0);
	pthread_create(&t, NULL, sleeper, NULL);
	pthread_join(t, NULL);
	_exit(0);
}

/* ---------------------------------------------------------------- the events, printed */

static const char *sym(uint64_t addr)
{
	Dl_info di;

	return dladdr((void *)(uintptr_t)addr, &di) && di.dli_sname ? di.dli_sname : "?";
}

static void on_task(void *ctx, uint64_t ns, unsigned what, uint32_t pid, uint32_t tid,
		    uint32_t ppid, const char *comm)
{
	printf("task %" PRIu64 " %u %u %u %u %s\n", ns, what, pid, tid, ppid, comm);
}

static void on_sched(void *ctx, uint64_t ns, uint32_t pid, uint32_t tid, uint32_t cpu,
		     unsigned state)
{
	printf("sched %" PRIu64 " %u %u %u %u\n", ns, pid, tid, cpu, state);
}

/* The first user frame is the IP; the next ones are return addresses (looked up at - 1). */
static void on_sample(void *ctx, uint64_t ns, uint32_t pid, uint32_t tid, uint32_t cpu,
		      unsigned flags, const uint64_t *kframes, unsigned nk,
		      const uint64_t *uframes, unsigned nu)
{
	printf("sample %" PRIu64 " %u %u %u %u %u %u %s %s\n", ns, pid, tid, cpu, flags, nk, nu,
	       nu > 0 ? sym(uframes[0]) : "-", nu > 1 ? sym(uframes[1] - 1) : "-");
}

static struct tprof_bpf *open_loader(unsigned hz)
{
	struct tprof_bpf_opts o = { TPROF_BPF_CPU | TPROF_BPF_SCHED, hz, 0 };
	struct tprof_bpf_events ev = { NULL, on_task, on_sched, on_sample };
	char why[256] = "";
	struct tprof_bpf *b = tprof_bpf_open(&o, &ev, why, sizeof(why));

	if (!b)
		printf("%s\n", why);
	return b;
}

/* ---------------------------------------------------------------- the run */

static pid_t start_child(int *go)
{
	int p[2];
	pid_t pid;

	if (pipe(p) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		tprof_test_child(p[0]);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* Polls until the child exits, continuing it when it stops, then drains the ring. */
static void follow_child(struct tprof_bpf *b, pid_t child)
{
	int st, idle = 0;

	for (;;) {
		pid_t w = waitpid(child, &st, WNOHANG | WUNTRACED);

		if (w == child && WIFSTOPPED(st))
			kill(child, SIGCONT);
		else if (w == child || w < 0)
			break;
		tprof_bpf_poll(b, 20);
	}
	while (idle < 3)
		idle = tprof_bpf_poll(b, 20) > 0 ? 0 : idle + 1;
}

static int run(unsigned hz)
{
	struct tprof_bpf *b = open_loader(hz);
	pid_t other, child;
	uint64_t t0;
	int go;

	if (!b)
		return 3;
	other = fork();
	if (other == 0) {
		tprof_test_spin(30ull * 1000 * 1000 * 1000);
		_exit(0);
	}
	child = start_child(&go);
	printf("pids %d %d %d\n", (int)getpid(), (int)child, (int)other);
	t0 = now_ns();
	if (child < 0 || tprof_bpf_follow(b, (uint32_t)child) != 0 || write(go, "g", 1) != 1) {
		printf("could not start or follow the child\n");
		return 1;
	}
	follow_child(b, child);
	printf("span %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", t0, now_ns(), tprof_bpf_lost(b));
	tprof_bpf_close(b);
	kill(other, SIGKILL);
	waitpid(other, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && strcmp(argv[1], "open") == 0) {
		struct tprof_bpf *b = open_loader(99);

		if (!b)
			return 3;
		printf("opened\n");
		tprof_bpf_close(b);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "run") == 0)
		return run((unsigned)atoi(argv[2]));
	fprintf(stderr, "usage: bpf-follow open | run HZ\n");
	return 2;
}

/* bpf-cost.c — what the BPF sampler (ebpf/) costs: the loader's own CPU while it follows busy
 * threads, and how much a followed CPU-bound loop slows down under sampling.
 *
 * Usage: bpf-cost loader [HZ [SECS]]   follows a child whose 2 threads spin for SECS (10) at
 *                                      HZ (99), polling every 20 ms on this thread; prints
 *                                      this thread's CPU time (getrusage) and share of a CPU
 *        bpf-cost slowdown [RUNS [N]]  runs a loop of N (1e9) steps in a child, plain and
 *                                      followed at 99 and 999 Hz, alternating, RUNS (5) times;
 *                                      prints the median CPU and wall times of the loop and
 *                                      the slowdowns (CPU time includes the probes' interrupt
 *                                      time, and not the waits of a busy machine)
 * Needs root (or CAP_BPF and CAP_PERFMON). */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../ebpf/loader.h"
#include "bench.h"

static volatile uint64_t sink;
static uint64_t events;

static void on_task(void *c, uint64_t ns, unsigned w, uint32_t p, uint32_t t, uint32_t pp,
		    const char *comm)
{
	events++;
}

static void on_sched(void *c, uint64_t ns, uint32_t p, uint32_t t, uint32_t cpu, unsigned s)
{
	events++;
}

static void on_sample(void *c, uint64_t ns, uint32_t p, uint32_t t, uint32_t cpu, unsigned f,
		      const uint64_t *k, unsigned nk, const uint64_t *u, unsigned nu)
{
	events++;
}

static struct tprof_bpf *open_bpf(unsigned hz)
{
	struct tprof_bpf_opts o = { TPROF_BPF_CPU | TPROF_BPF_SCHED, hz, 0 };
	struct tprof_bpf_events ev = { NULL, on_task, on_sched, on_sample };
	char why[256];
	struct tprof_bpf *b = tprof_bpf_open(&o, &ev, why, sizeof(why));

	if (!b) {
		fprintf(stderr, "bpf-cost: %s\n", why);
		exit(3);
	}
	return b;
}

static void spin(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		sink += i;
}

static void *spin_for(void *arg)
{
	uint64_t end = bench_now_ns() + *(uint64_t *)arg;

	while (bench_now_ns() < end)
		spin(100000);
	return NULL;
}

struct times {
	double wall, cpu;
};

/* Forks a child that waits for a byte on its pipe, runs fn(arg) and writes its times back. */
static pid_t start(struct times (*fn)(uint64_t), uint64_t arg, int *go, int *back)
{
	int g[2], r[2];
	pid_t pid;

	if (pipe(g) || pipe(r))
		exit(1);
	pid = fork();
	if (pid == 0) {
		char c;
		struct times v;

		if (read(g[0], &c, 1) != 1)
			_exit(1);
		v = fn(arg);
		_exit(write(r[1], &v, sizeof(v)) == sizeof(v) ? 0 : 1);
	}
	close(g[0]);
	close(r[1]);
	*go = g[1];
	*back = r[0];
	return pid;
}

/* Polls every 20 ms, as the sampler does, until the child ends; returns what it wrote. */
static struct times follow(struct tprof_bpf *b, struct times (*fn)(uint64_t), uint64_t arg)
{
	int go, back;
	struct times v = { 0, 0 };
	pid_t pid = start(fn, arg, &go, &back);

	if (b && tprof_bpf_follow(b, (uint32_t)pid))
		exit(1);
	if (write(go, "g", 1) != 1)
		exit(1);
	while (waitpid(pid, NULL, WNOHANG) == 0)
		if (b)
			tprof_bpf_poll(b, 20);
		else
			usleep(20000);
	if (read(back, &v, sizeof(v)) != sizeof(v))
		exit(1);
	close(go);
	close(back);
	while (b && tprof_bpf_poll(b, 0) > 0)
		;
	return v;
}

static struct times two_threads(uint64_t ns)
{
	pthread_t t[2];
	struct times none = { 0, 0 };

	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, spin_for, &ns);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return none;
}

static int loader_cpu(unsigned hz, unsigned secs)
{
	struct tprof_bpf *b = open_bpf(hz);
	struct rusage r0, r1;
	uint64_t t0 = bench_now_ns(), wall;
	double cpu;

	getrusage(RUSAGE_THREAD, &r0);
	follow(b, two_threads, (uint64_t)secs * 1000000000u);
	getrusage(RUSAGE_THREAD, &r1);
	wall = bench_now_ns() - t0;
	cpu = (double)(r1.ru_utime.tv_sec - r0.ru_utime.tv_sec + r1.ru_stime.tv_sec -
		       r0.ru_stime.tv_sec) * 1e9 +
	      (double)(r1.ru_utime.tv_usec - r0.ru_utime.tv_usec + r1.ru_stime.tv_usec -
		       r0.ru_stime.tv_usec) * 1e3;
	printf("loader_hz=%u\nloader_wall_ms=%.0f\nloader_cpu_ms=%.1f\nloader_cpu_pct=%.3f\n"
	       "events=%" PRIu64 "\nlost=%" PRIu64 "\n", hz, wall / 1e6, cpu / 1e6,
	       100.0 * cpu / (double)wall, events, tprof_bpf_lost(b));
	tprof_bpf_close(b);
	return 0;
}

static double cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static struct times timed_loop(uint64_t n)
{
	uint64_t t0 = bench_now_ns();
	double c0 = cpu_ns();
	struct times t;

	spin(n);
	t.cpu = cpu_ns() - c0;
	t.wall = (double)(bench_now_ns() - t0);
	return t;
}

static int slowdown(unsigned runs, uint64_t n)
{
	static const unsigned hz[3] = { 0, 99, 999 };
	double cpu[3][64], wall[3][64], c[3], w[3];

	if (runs > 64)
		runs = 64;
	for (unsigned r = 0; r < runs; r++)
		for (int i = 0; i < 3; i++) {
			struct tprof_bpf *b = hz[i] ? open_bpf(hz[i]) : NULL;
			struct times t = follow(b, timed_loop, n);

			cpu[i][r] = t.cpu;
			wall[i][r] = t.wall;
			if (b && tprof_bpf_lost(b))
				fprintf(stderr, "bpf-cost: events lost at %u Hz\n", hz[i]);
			tprof_bpf_close(b);
		}
	for (int i = 0; i < 3; i++) {
		c[i] = bench_median(cpu[i], runs);
		w[i] = bench_median(wall[i], runs);
	}
	for (int i = 0; i < 3; i++)
		printf("loop_%uhz_cpu_ms=%.1f\nloop_%uhz_wall_ms=%.1f\n", hz[i], c[i] / 1e6, hz[i],
		       w[i] / 1e6);
	for (int i = 1; i < 3; i++)
		printf("slowdown_%uhz_cpu_pct=%.2f\nslowdown_%uhz_wall_pct=%.2f\n", hz[i],
		       100.0 * (c[i] / c[0] - 1), hz[i], 100.0 * (w[i] / w[0] - 1));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "loader") == 0)
		return loader_cpu(argc > 2 ? (unsigned)bench_count(argv[2], "HZ") : 99,
				  argc > 3 ? (unsigned)bench_count(argv[3], "SECS") : 10);
	if (argc >= 2 && strcmp(argv[1], "slowdown") == 0)
		return slowdown(argc > 2 ? (unsigned)bench_count(argv[2], "RUNS") : 5,
				argc > 3 ? bench_count(argv[3], "N") : 1000000000u);
	fprintf(stderr, "usage: bpf-cost loader [HZ [SECS]] | slowdown [RUNS [N]]\n");
	return 2;
}

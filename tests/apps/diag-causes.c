/* diag-causes.c — an MPI job of training steps with one known cause of slowness injected, so
 * that tests can check that the diagnosis names it (rank, step, kind).  Built against the
 * stand-in HIP and NCCL runtimes (tests/stand-ins/README.md): a kernel lasts what
 * STANDIN_HIP_KERNEL_US gives its name ("step_kernel", "slow_kernel", "tiny_kernel"), a copy
 * bytes / STANDIN_HIP_COPY_GBPS.
 *
 * Usage: mpirun -np N diag-causes SCENARIO [ARGS...]   (N >= 2; DIAG_STEPS steps, default 10)
 * Steps 0..STEPS-1 each begin with tprof_step(s) on every rank (tprof_step_end after the last);
 * in each, by default, every rank launches "step_kernel" on a stream of its own, synchronizes
 * it, then MPI_Allreduces 1024 doubles on MPI_COMM_WORLD.  The scenarios (defaults in []):
 *   late-coll [RANK=2] [STEP=3] [MS=50]  rank RANK sleeps MS ms before the allreduce of STEP
 *   slow-kernel [RANK=1]                 rank RANK launches "slow_kernel" instead, every step
 *   late-sender [STEP=4] [MS=40]         after the allreduce rank 0 MPI_Sends 1 KiB to rank 1
 *                                        (MPI_Recv); in step STEP rank 0 sleeps MS ms first
 *   late-receiver [STEP=4] [MS=40]       the same with MPI_Ssend; rank 1 sleeps before MPI_Recv
 *                                        (ranks >= 2 meet either delay at the allreduce of STEP+1)
 *   host-bound [N=300] [HOST_US=100]     rank 0 launches N "tiny_kernel"s instead, spinning
 *                                        HOST_US us on the host between two, one sync at the end
 *   copy-block [MB=256]                  rank 0 hipMemcpyAsyncs MB MiB host to device (pinned)
 *                                        before its step_kernel, on the same stream
 *   nccl-late [RANK=2] [STEP=3] [MS=50]  ncclAllReduce (1024 float32, sum, the rank's stream,
 *                                        then a sync) instead of MPI; RANK sleeps MS ms before it
 *   cpu-contention [RANK=1] [STEP=5] [MS=60]
 *                                        rank RANK runs on CPU 0 (the others on the other CPUs)
 *                                        and in step STEP computes MS ms of CPU time on the host
 *                                        before the allreduce while a process it forked spins on
 *                                        CPU 0 too: it waits for the CPU about as long
 *   balanced                             nothing injected
 * At the end rank 0 prints the truth, one JSON line measured with CLOCK_MONOTONIC:
 *   {"scenario":S,"ranks":N,"steps":T,"rank":R,"step":P,...}
 * with "injected_ns" (the sleep as measured by the rank that slept, which MPI_Sends it to rank
 * 0 after the steps, tag 32767, unless it is rank 0) for the sleeping scenarios, "loop_ns"
 * (per step, first launch to the end of the sync; with "launches" and "host_us") for
 * host-bound, "copy_ns" (per step, copy + kernel + sync; with "bytes") for copy-block; rank
 * and step are -1 where they do not apply.  Any HIP, NCCL or MPI error: a
 * line on stderr and every rank exits 1 (MPI_Abort); bad arguments: exit 2. */
#define _GNU_SOURCE            /* sched_setaffinity */
#include <mpi.h>
#include <nccl.h>
#include <tprof/tprof.h>

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COUNT 1024
#define TRUTH_TAG 32767  /* the sleeper's measurement; the steps' messages have tag s */

struct job {
	int rank, size, steps, arg[3];
	int who, when, ms;       /* the cause's rank and step (-1: none), the sleep's length */
	hipStream_t stream;
	hipFunction_t step_k, slow_k, tiny_k;
	double send[COUNT], recv[COUNT];
	char msg[1024];
	ncclComm_t comm;
	void *dbuf, *hbuf;       /* nccl-late: COUNT floats; copy-block: the two copy buffers */
	int64_t injected_ns;     /* the sleep, on the rank that slept */
	int64_t *per_step;       /* host-bound, copy-block: rank 0's measurement of each step */
};

static const char job_name[] = "diag-causes";

#include "mpi-job.h"

static void fail(const char *what, const char *why)
{
	job_fail(job_name, what, why);
}

static int64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The injected delay, on the rank and in the step it is for: sleeps j->ms milliseconds and
 * keeps what it measured. */
static void inject_sleep(struct job *j, int s)
{
	struct timespec t = { j->ms / 1000, (long)(j->ms % 1000) * 1000000 };
	int64_t t0;
	if (j->rank != j->who || s != j->when)
		return;
	t0 = now_ns();
	while (nanosleep(&t, &t) && errno == EINTR)
		;
	j->injected_ns = now_ns() - t0;
}

static void launch(struct job *j, hipFunction_t f)
{
	HK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, j->stream, NULL, NULL));
}

static void compute(struct job *j, hipFunction_t f)
{
	launch(j, f);
	HK(hipStreamSynchronize(j->stream));
}

static void allreduce(struct job *j)
{
	MK(MPI_Allreduce(j->send, j->recv, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
}

/* ---- one function per scenario: step s of this rank ---------------------------------------- */

static void late_coll(struct job *j, int s)
{
	compute(j, j->step_k);
	inject_sleep(j, s);
	allreduce(j);
}

static void slow_kernel(struct job *j, int s)
{
	(void)s;
	compute(j, j->rank == j->who ? j->slow_k : j->step_k);
	allreduce(j);
}

/* late-sender and late-receiver: rank 0 sends 1 KiB to rank 1 after the allreduce. */
static void p2p(struct job *j, int s, int sync)
{
	compute(j, j->step_k);
	allreduce(j);
	inject_sleep(j, s);
	if (j->rank == 0 && sync)
		MK(MPI_Ssend(j->msg, sizeof j->msg, MPI_BYTE, 1, s, MPI_COMM_WORLD));
	else if (j->rank == 0)
		MK(MPI_Send(j->msg, sizeof j->msg, MPI_BYTE, 1, s, MPI_COMM_WORLD));
	else if (j->rank == 1)
		MK(MPI_Recv(j->msg, sizeof j->msg, MPI_BYTE, 0, s, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE));
}

static void late_sender(struct job *j, int s)
{
	p2p(j, s, 0);
}

static void late_receiver(struct job *j, int s)
{
	p2p(j, s, 1);
}

static void host_bound(struct job *j, int s)
{
	if (j->rank == 0) {
		int64_t t0 = now_ns();
		for (int i = 0; i < j->arg[0]; i++) {
			if (i) {
				int64_t until = now_ns() + (int64_t)j->arg[1] * 1000;
				while (now_ns() < until)
					;
			}
			launch(j, j->tiny_k);
		}
		HK(hipStreamSynchronize(j->stream));
		j->per_step[s] = now_ns() - t0;
	} else {
		compute(j, j->step_k);
	}
	allreduce(j);
}

static void copy_block(struct job *j, int s)
{
	if (j->rank == 0) {
		int64_t t0 = now_ns();
		HK(hipMemcpyAsync(j->dbuf, j->hbuf, (size_t)j->arg[0] << 20, hipMemcpyHostToDevice,
				  j->stream));
		compute(j, j->step_k);
		j->per_step[s] = now_ns() - t0;
	} else {
		compute(j, j->step_k);
	}
	allreduce(j);
}

static void nccl_late(struct job *j, int s)
{
	compute(j, j->step_k);
	inject_sleep(j, s);
	CK(ncclAllReduce(j->dbuf, j->dbuf, COUNT, ncclFloat32, ncclSum, j->comm, j->stream));
	HK(hipStreamSynchronize(j->stream));
}

static int64_t cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Rank `who` on CPU 0, the others on the rest (all on CPU 0 with a single CPU). */
static void pin(const struct job *j)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	CPU_ZERO(&set);
	if (j->rank == j->who || n < 2)
		CPU_SET(0, &set);
	else
		for (long c = 1; c < n && c < CPU_SETSIZE; c++)
			CPU_SET((int)c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("sched_setaffinity", strerror(errno));
}

static void cpu_contention(struct job *j, int s)
{
	compute(j, j->step_k);
	if (j->rank == j->who && s == j->when) {
		pid_t hog = fork();
		if (hog < 0)
			fail("fork", strerror(errno));
		if (hog == 0)
			for (;;)
				;       /* on CPU 0 with its parent (the affinity is inherited) */
		int64_t t0 = now_ns(), c0 = cpu_ns();
		while (cpu_ns() - c0 < (int64_t)j->ms * 1000000)
			;
		j->injected_ns = (now_ns() - t0) - (cpu_ns() - c0);
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
	}
	allreduce(j);
}

static void balanced(struct job *j, int s)
{
	(void)s;
	compute(j, j->step_k);
	allreduce(j);
}

/* The cause's rank is argument rank_arg, or the fixed rank when rank_arg is -1 (-1 too:
 * none); its step is argument step_arg, the sleep's milliseconds argument ms_arg (-1: none). */
static const struct scenario {
	const char *name;
	void (*step)(struct job *, int);
	int nargs, def[3], rank_arg, rank, step_arg, ms_arg;
} scenarios[] = {
	{ "late-coll", late_coll, 3, { 2, 3, 50 }, 0, 0, 1, 2 },
	{ "slow-kernel", slow_kernel, 1, { 1 }, 0, 0, -1, -1 },
	{ "late-sender", late_sender, 2, { 4, 40 }, -1, 0, 0, 1 },
	{ "late-receiver", late_receiver, 2, { 4, 40 }, -1, 1, 0, 1 },
	{ "host-bound", host_bound, 2, { 300, 100 }, -1, 0, -1, -1 },
	{ "copy-block", copy_block, 1, { 256 }, -1, 0, -1, -1 },
	{ "nccl-late", nccl_late, 3, { 2, 3, 50 }, 0, 0, 1, 2 },
	{ "cpu-contention", cpu_contention, 3, { 1, 5, 60 }, 0, 0, 1, 2 },
	{ "balanced", balanced, 0, { 0 }, -1, -1, -1, -1 },
};

static int usage(void)
{
	if (job_rank == 0) {
		fprintf(stderr, "usage: mpirun -np N (>= 2) diag-causes SCENARIO [ARGS...], "
				"DIAG_STEPS >= 1; SCENARIO:");
		for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++)
			fprintf(stderr, " %s", scenarios[i].name);
		fprintf(stderr, " (see the source's header for the arguments)\n");
	}
	MPI_Finalize();
	return 2;
}

static void print_steps(const char *key, const int64_t *v, int n)
{
	printf(",\"%s\":[", key);
	for (int i = 0; i < n; i++)
		printf("%s%lld", i ? "," : "", (long long)v[i]);
	printf("]");
}

/* The truth, on rank 0: the sleeper sends its measurement there first. */
static void truth(struct job *j, const struct scenario *sc)
{
	if (sc->ms_arg >= 0 && j->who != 0) {
		if (j->rank == j->who)
			MK(MPI_Send(&j->injected_ns, 1, MPI_INT64_T, 0, TRUTH_TAG, MPI_COMM_WORLD));
		else if (j->rank == 0)
			MK(MPI_Recv(&j->injected_ns, 1, MPI_INT64_T, j->who, TRUTH_TAG,
				    MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	}
	if (j->rank != 0)
		return;
	printf("{\"scenario\":\"%s\",\"ranks\":%d,\"steps\":%d,\"rank\":%d,\"step\":%d", sc->name,
	       j->size, j->steps, j->who, j->when);
	if (sc->ms_arg >= 0)
		printf(",\"injected_ns\":%lld", (long long)j->injected_ns);
	if (sc->step == host_bound) {
		printf(",\"launches\":%d,\"host_us\":%d", j->arg[0], j->arg[1]);
		print_steps("loop_ns", j->per_step, j->steps);
	} else if (sc->step == copy_block) {
		printf(",\"bytes\":%lld", (long long)j->arg[0] << 20);
		print_steps("copy_ns", j->per_step, j->steps);
	}
	printf("}\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	static struct job job;
	struct job *j = &job;
	const struct scenario *sc = NULL;
	const char *env = getenv("DIAG_STEPS");
	hipModule_t mod;

	job_start(&argc, &argv, &j->size, &j->stream, &mod);
	j->rank = job_rank;
	j->steps = env && *env ? atoi(env) : 10;
	for (size_t i = 0; argc > 1 && i < sizeof scenarios / sizeof *scenarios; i++)
		if (!strcmp(argv[1], scenarios[i].name))
			sc = &scenarios[i];
	if (!sc || argc > 2 + sc->nargs || j->size < 2 || j->steps < 1)
		return usage();
	for (int i = 0; i < 3; i++)
		j->arg[i] = 2 + i < argc ? atoi(argv[2 + i]) : sc->def[i];
	j->who = sc->rank_arg >= 0 ? j->arg[sc->rank_arg] : sc->rank;
	j->when = sc->step_arg >= 0 ? j->arg[sc->step_arg] : -1;
	j->ms = sc->ms_arg >= 0 ? j->arg[sc->ms_arg] : 0;
	if (j->who < -1 || j->who >= j->size || j->when < -1 || j->when >= j->steps || j->ms < 0 ||
	    (sc->step_arg >= 0 && j->when < 0) || (sc->rank_arg >= 0 && j->who < 0) ||
	    (sc->step == host_bound && (j->arg[0] < 1 || j->arg[1] < 0)) ||
	    (sc->step == copy_block && (j->arg[0] < 1 || j->arg[0] > 65536)))
		return usage();

	HK(hipModuleGetFunction(&j->step_k, mod, "step_kernel"));
	HK(hipModuleGetFunction(&j->slow_k, mod, "slow_kernel"));
	HK(hipModuleGetFunction(&j->tiny_k, mod, "tiny_kernel"));
	for (int i = 0; i < COUNT; i++)
		j->send[i] = j->rank + i;
	j->per_step = calloc((size_t)j->steps, sizeof *j->per_step);
	if (!j->per_step)
		fail("calloc", strerror(errno));
	if (sc->step == nccl_late) {
		ncclUniqueId id;
		if (j->rank == 0)
			CK(ncclGetUniqueId(&id));
		MK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
		CK(ncclCommInitRank(&j->comm, j->size, id, j->rank));
		HK(hipMalloc(&j->dbuf, COUNT * sizeof(float)));
		HK(hipMemset(j->dbuf, 0, COUNT * sizeof(float)));
	} else if (sc->step == copy_block && j->rank == 0) {
		size_t bytes = (size_t)j->arg[0] << 20;
		HK(hipMalloc(&j->dbuf, bytes));
		HK(hipHostMalloc(&j->hbuf, bytes, 0));
		memset(j->hbuf, 1, bytes);          /* touch both before the steps */
		HK(hipMemset(j->dbuf, 0, bytes));
		HK(hipDeviceSynchronize());
	}
	if (sc->step == cpu_contention)
		pin(j);
	MK(MPI_Barrier(MPI_COMM_WORLD));

	for (int s = 0; s < j->steps; s++) {
		tprof_step((uint64_t)s);
		sc->step(j, s);
	}
	tprof_step_end();

	truth(j, sc);
	if (j->comm)
		CK(ncclCommDestroy(j->comm));
	if (j->dbuf)
		HK(hipFree(j->dbuf));
	if (j->hbuf)
		HK(hipHostFree(j->hbuf));
	HK(hipModuleUnload(mod));
	HK(hipStreamDestroy(j->stream));
	free(j->per_step);
	MPI_Finalize();
	return 0;
}

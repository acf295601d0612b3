/* hang-job.c — an MPI job of training steps that hangs on purpose in one known way, so that
 * tests can profile it, kill it after a while and check that a hang report names the right
 * rank, call, collective and peer.  Built against the stand-in HIP and NCCL runtimes
 * (tests/stand-ins/README.md): a kernel lasts what STANDIN_HIP_KERNEL_US gives its name
 * ("step_kernel", "never_ends").
 *
 * Usage: mpirun -np N hang-job SCENARIO [ARGS...]   (N >= 2; slow: N >= 3)
 * Step s (0, 1, ...) begins with tprof_step(s) on every rank; in it every rank launches
 * "step_kernel" on a stream of its own, synchronizes the stream, then communicates: by default
 * it MPI_Allreduces 1024 doubles (sum) on MPI_COMM_WORLD.  The hang begins in step STEP; the
 * steps before it are normal.  The scenarios (defaults in []):
 *   nccl-skip [RANK=2] [STEP=3]    the communication is ncclAllReduce (1024 float32, sum, the
 *                                  rank's stream) then hipStreamSynchronize; in STEP rank RANK
 *                                  calls MPI_Barrier(MPI_COMM_WORLD) instead: it waits there,
 *                                  the others in hipStreamSynchronize for the all-reduce
 *   device-stuck [RANK=1] [STEP=3] in STEP rank RANK launches "never_ends" instead of
 *                                  "step_kernel" and waits in hipStreamSynchronize; the others
 *                                  wait in the MPI_Allreduce
 *   deadlock [STEP=3]              in STEP, before the MPI_Allreduce, rank 0 MPI_Recvs 1 KiB
 *                                  from rank 1 (tag 7) and rank 1 from rank 0, each before it
 *                                  would send to the other; ranks >= 2 wait in the MPI_Allreduce
 *   send-deadlock [STEP=3]         the same with MPI_Ssend: rank 0 sends 1 KiB to rank 1 (tag 7)
 *                                  and rank 1 to rank 0, each before it would receive
 *   posted-deadlock [STEP=3]       the same as deadlock, and before its MPI_Recv rank 0 posts
 *                                  POSTED MPI_Isends of 8 bytes to rank 1 (tag 11) and rank 1
 *                                  POSTED MPI_Irecvs from rank 0 (tag 12), none with its other
 *                                  end: one deadlock, and many messages without their other end
 *   mismatch [RANK=3] [STEP=3]     the communication is ncclAllReduce then hipStreamSynchronize
 *                                  as in nccl-skip; in STEP rank RANK passes 2048 elements, the
 *                                  others 1024, and all wait in hipStreamSynchronize.  Real NCCL
 *                                  does not check: the collective never completes (or corrupts);
 *                                  the stand-in does so under STANDIN_NCCL_MISMATCH=wait, which
 *                                  this program sets unless the environment has it (with
 *                                  STANDIN_NCCL_MISMATCH=error the call fails instead: abort).
 *                                  Open MPI's MPI_Allreduce with a mismatched count returns
 *                                  MPI_ERR_TRUNCATE or crashes (ring algorithms) rather than hang
 *   early-exit [RANK=3] [STEP=3]   in STEP, before the MPI_Allreduce, rank RANK calls
 *                                  MPI_Finalize and exits 0; the others wait in the MPI_Allreduce.
 *                                  Open MPI 4 synchronizes the ranks in MPI_Finalize, so the job
 *                                  needs `--mca async_mpi_finalize 1` (or MPICH's mpirun);
 *                                  without it RANK waits in MPI_Finalize
 *   icoll-skip [RANK=1] [STEP=3]   the communication is MPI_Iallreduce then MPI_Wait; in STEP rank
 *                                  RANK calls MPI_Recv from any rank (tag 9, which nobody sends)
 *                                  instead: it waits there, the others in MPI_Wait for an
 *                                  all-reduce it never entered
 *   slow [MS=300]                  no hang: in each of 20 steps rank 2 sleeps MS ms before the
 *                                  MPI_Allreduce; then the job ends normally (exit 0)
 * A hanging scenario hangs until killed: the NCCL ones as long as STANDIN_NCCL_TIMEOUT_S
 * (default 60 s; tests set it large), device-stuck as long as "never_ends" lasts
 * (STANDIN_HIP_KERNEL_US="never_ends:3600000000,..."), the others for ever.
 *
 * Right before the call it hangs in, each rank prints the truth, one JSON line on stdout,
 * flushed (no line for slow):
 *   {"rank":R,"in":CALL,"peer":P,"comm":C,"seq":Q,"step":S}
 * CALL: "MPI_Allreduce", "MPI_Barrier", "MPI_Recv", "MPI_Ssend", "MPI_Wait",
 * "hipStreamSynchronize" or "exit" (the rank that leaves in early-exit); P: the peer of
 * MPI_Recv (-1: any) or MPI_Ssend, else -1; C:
 * "world" (MPI_COMM_WORLD),
 * "nccl" (the NCCL communicator: hipStreamSynchronize waiting for its ncclAllReduce) or null
 * (a kernel, exit); Q: the number of the collective on C that the call is, or waits for:
 * 1-based, counting every collective call this rank made on C (MPI_COMM_WORLD's include the
 * MPI_Bcast of the NCCL id and the MPI_Barrier before step 0; MPI_Wait's is its
 * MPI_Iallreduce's), -1 for MPI_Recv, MPI_Ssend and null C.
 * Any HIP, NCCL or MPI error, or a hang that ends: a line on stderr and every rank exits 1
 * (MPI_Abort); bad arguments: exit 2. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include <mpi.h>
#include <nccl.h>
#include <tprof/tprof.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COUNT 1024
#define SLOW_STEPS 20
#define RECV_TAG 7
#define NOBODY_TAG 9             /* a tag nobody sends */
#define POSTED 3000              /* posted-deadlock's operations on each of ranks 0 and 1 */
#define POSTED_SEND_TAG 11
#define POSTED_RECV_TAG 12

struct job {
	int rank, size, arg[2];
	int who, when, ms;       /* the rank and step of the hang (-1: none), slow's sleep */
	int world_seq, nccl_seq; /* collective calls made on MPI_COMM_WORLD, on the NCCL comm */
	hipStream_t stream;
	hipFunction_t step_k, never_k;
	double send[COUNT], recv[COUNT];
	char msg[1024];
	ncclComm_t comm;
	float *dbuf;             /* 2 * COUNT floats: mismatch's RANK reduces 2 * COUNT */
};

static const char job_name[] = "hang-job";

#include "mpi-job.h"

static void fail(const char *what, const char *why)
{
	job_fail(job_name, what, why);
}

/* The truth: this rank is about to enter `in` and will not come back (comm NULL: null). */
static void truth(const struct job *j, int s, const char *in, int peer, const char *comm,
		  int seq)
{
	printf("{\"rank\":%d,\"in\":\"%s\",\"peer\":%d,\"comm\":%s%s%s,\"seq\":%d,\"step\":%d}\n",
	       j->rank, in, peer, comm ? "\"" : "", comm ? comm : "null", comm ? "\"" : "", seq,
	       s);
	if (fflush(stdout))
		fail("stdout", strerror(errno));
}

/* This rank is the one that causes the hang, and s its step. */
static int injects(const struct job *j, int s)
{
	return s == j->when && (j->who < 0 || j->rank == j->who);
}

static void launch(struct job *j, hipFunction_t f)
{
	HK(hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, j->stream, NULL, NULL));
}

static void compute(struct job *j)
{
	launch(j, j->step_k);
	HK(hipStreamSynchronize(j->stream));
}

static void allreduce(struct job *j)
{
	j->world_seq++;
	MK(MPI_Allreduce(j->send, j->recv, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
}

/* The step's MPI_Allreduce; in the hang's step, the truth first. */
static void allreduce_step(struct job *j, int s)
{
	if (s == j->when)
		truth(j, s, "MPI_Allreduce", -1, "world", j->world_seq + 1);
	allreduce(j);
}

static void nccl_allreduce(struct job *j, size_t count)
{
	j->nccl_seq++;
	CK(ncclAllReduce(j->dbuf, j->dbuf, count, ncclFloat32, ncclSum, j->comm, j->stream));
}

/* Waits for the stream, then for the communicator's asynchronous error (the stand-in ends a
 * collective that cannot complete with one, after STANDIN_NCCL_TIMEOUT_S). */
static void nccl_sync(struct job *j)
{
	ncclResult_t a;
	HK(hipStreamSynchronize(j->stream));
	CK(ncclCommGetAsyncError(j->comm, &a));
	if (a != ncclSuccess)
		fail("ncclAllReduce (asynchronous error)", ncclGetErrorString(a));
}

/* ---- one function per scenario: step s of this rank ---------------------------------------- */

static void nccl_skip(struct job *j, int s)
{
	compute(j);
	if (injects(j, s)) {
		truth(j, s, "MPI_Barrier", -1, "world", j->world_seq + 1);
		j->world_seq++;
		MK(MPI_Barrier(MPI_COMM_WORLD));
		return;
	}
	nccl_allreduce(j, COUNT);
	if (s == j->when)
		truth(j, s, "hipStreamSynchronize", -1, "nccl", j->nccl_seq);
	nccl_sync(j);
}

static void device_stuck(struct job *j, int s)
{
	if (injects(j, s)) {
		launch(j, j->never_k);
		truth(j, s, "hipStreamSynchronize", -1, NULL, -1);
		HK(hipStreamSynchronize(j->stream));
		return;
	}
	compute(j);
	allreduce_step(j, s);
}

static void deadlock(struct job *j, int s)
{
	compute(j);
	if (s == j->when && j->rank < 2) {
		int peer = 1 - j->rank;
		truth(j, s, "MPI_Recv", peer, "world", -1);
		MK(MPI_Recv(j->msg, sizeof j->msg, MPI_BYTE, peer, RECV_TAG, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE));
		MK(MPI_Send(j->msg, sizeof j->msg, MPI_BYTE, peer, RECV_TAG, MPI_COMM_WORLD));
		return;
	}
	allreduce_step(j, s);
}

static void posted_deadlock(struct job *j, int s)
{
	static MPI_Request rq[POSTED];
	static double one[POSTED];
	if (s == j->when && j->rank < 2)
		for (int i = 0; i < POSTED; i++)
			MK(j->rank == 0 ? MPI_Isend(&one[i], 1, MPI_DOUBLE, 1, POSTED_SEND_TAG,
						    MPI_COMM_WORLD, &rq[i])
					: MPI_Irecv(&one[i], 1, MPI_DOUBLE, 0, POSTED_RECV_TAG,
						    MPI_COMM_WORLD, &rq[i]));
	deadlock(j, s);
}

static void send_deadlock(struct job *j, int s)
{
	compute(j);
	if (s == j->when && j->rank < 2) {
		int peer = 1 - j->rank;
		truth(j, s, "MPI_Ssend", peer, "world", -1);
		MK(MPI_Ssend(j->msg, sizeof j->msg, MPI_BYTE, peer, RECV_TAG, MPI_COMM_WORLD));
		MK(MPI_Recv(j->msg, sizeof j->msg, MPI_BYTE, peer, RECV_TAG, MPI_COMM_WORLD,
			    MPI_STATUS_IGNORE));
		return;
	}
	allreduce_step(j, s);
}

static void mismatch(struct job *j, int s)
{
	compute(j);
	nccl_allreduce(j, injects(j, s) ? 2 * COUNT : COUNT);
	if (s == j->when)
		truth(j, s, "hipStreamSynchronize", -1, "nccl", j->nccl_seq);
	nccl_sync(j);
}

static void early_exit(struct job *j, int s)
{
	compute(j);
	if (injects(j, s)) {
		truth(j, s, "exit", -1, NULL, -1);
		MK(MPI_Finalize());
		exit(0);
	}
	allreduce_step(j, s);
}

static void icoll_skip(struct job *j, int s)
{
	MPI_Request rq;
	compute(j);
	if (injects(j, s)) {
		truth(j, s, "MPI_Recv", -1, "world", -1);
		MK(MPI_Recv(j->msg, sizeof j->msg, MPI_BYTE, MPI_ANY_SOURCE, NOBODY_TAG,
			    MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		return;
	}
	j->world_seq++;
	MK(MPI_Iallreduce(j->send, j->recv, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &rq));
	if (s == j->when)
		truth(j, s, "MPI_Wait", -1, "world", j->world_seq);
	MK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
}

static void slow(struct job *j, int s)
{
	(void)s;
	compute(j);
	if (j->rank == 2) {
		struct timespec t = { j->ms / 1000, (long)(j->ms % 1000) * 1000000 };
		while (nanosleep(&t, &t) && errno == EINTR)
			;
	}
	allreduce(j);
}

/* The rank that causes the hang is argument rank_arg (-1: none is chosen, the scenario's
 * function says who does what), the step it begins in argument step_arg (-1: no hang), slow's
 * milliseconds argument ms_arg (-1: none); nccl: the job makes an NCCL communicator. */
static const struct scenario {
	const char *name;
	void (*step)(struct job *, int);
	int nargs, def[2], rank_arg, step_arg, ms_arg, nccl, min_ranks;
} scenarios[] = {
	{ "nccl-skip", nccl_skip, 2, { 2, 3 }, 0, 1, -1, 1, 2 },
	{ "device-stuck", device_stuck, 2, { 1, 3 }, 0, 1, -1, 0, 2 },
	{ "deadlock", deadlock, 1, { 3 }, -1, 0, -1, 0, 2 },
	{ "send-deadlock", send_deadlock, 1, { 3 }, -1, 0, -1, 0, 2 },
	{ "posted-deadlock", posted_deadlock, 1, { 3 }, -1, 0, -1, 0, 2 },
	{ "mismatch", mismatch, 2, { 3, 3 }, 0, 1, -1, 1, 2 },
	{ "early-exit", early_exit, 2, { 3, 3 }, 0, 1, -1, 0, 2 },
	{ "icoll-skip", icoll_skip, 2, { 1, 3 }, 0, 1, -1, 0, 2 },
	{ "slow", slow, 1, { 300 }, -1, -1, 0, 0, 3 },
};

static int usage(void)
{
	if (job_rank == 0) {
		fprintf(stderr, "usage: mpirun -np N (>= 2; slow: >= 3) hang-job SCENARIO [ARGS...]; "
				"SCENARIO:");
		for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++)
			fprintf(stderr, " %s", scenarios[i].name);
		fprintf(stderr, " (see the source's header for the arguments)\n");
	}
	MPI_Finalize();
	return 2;
}

/* A non-negative decimal int, else -1. */
static int parse(const char *s)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || end == s || *end || v < 0 || v > INT_MAX ? -1 : (int)v;
}

static void nccl_setup(struct job *j)
{
	ncclUniqueId id;
	if (j->rank == 0)
		CK(ncclGetUniqueId(&id));
	j->world_seq++;
	MK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
	CK(ncclCommInitRank(&j->comm, j->size, id, j->rank));
	HK(hipMalloc((void **)&j->dbuf, 2 * COUNT * sizeof(float)));
	HK(hipMemset(j->dbuf, 0, 2 * COUNT * sizeof(float)));
	HK(hipDeviceSynchronize());
}

int main(int argc, char **argv)
{
	static struct job job;
	struct job *j = &job;
	const struct scenario *sc = NULL;
	int steps;
	hipModule_t mod;

	job_start(&argc, &argv, &j->size, &j->stream, &mod);
	j->rank = job_rank;
	for (size_t i = 0; argc > 1 && i < sizeof scenarios / sizeof *scenarios; i++)
		if (!strcmp(argv[1], scenarios[i].name))
			sc = &scenarios[i];
	if (!sc || argc > 2 + sc->nargs || j->size < sc->min_ranks)
		return usage();
	for (int i = 0; i < 2; i++)
		if ((j->arg[i] = 2 + i < argc ? parse(argv[2 + i]) : sc->def[i]) < 0)
			return usage();
	j->who = sc->rank_arg >= 0 ? j->arg[sc->rank_arg] : -1;
	j->when = sc->step_arg >= 0 ? j->arg[sc->step_arg] : -1;
	j->ms = sc->ms_arg >= 0 ? j->arg[sc->ms_arg] : 0;
	if (j->who >= j->size || j->ms > 3600000)
		return usage();
	steps = j->when >= 0 ? j->when + 1 : SLOW_STEPS;
	/* Real NCCL does not check that the ranks agree: make the stand-in wait, as it would. */
	if (sc->step == mismatch && setenv("STANDIN_NCCL_MISMATCH", "wait", 0))
		fail("setenv", strerror(errno));

	HK(hipModuleGetFunction(&j->step_k, mod, "step_kernel"));
	HK(hipModuleGetFunction(&j->never_k, mod, "never_ends"));
	for (int i = 0; i < COUNT; i++)
		j->send[i] = j->rank + i;
	if (sc->nccl)
		nccl_setup(j);
	j->world_seq++;
	MK(MPI_Barrier(MPI_COMM_WORLD));

	for (int s = 0; s < steps; s++) {
		tprof_step((uint64_t)s);
		sc->step(j, s);
	}
	if (j->when >= 0)
		fail(sc->name, "the hang ended: the step it began in returned");
	tprof_step_end();

	if (j->comm)
		CK(ncclCommDestroy(j->comm));
	if (j->dbuf)
		HK(hipFree(j->dbuf));
	HK(hipModuleUnload(mod));
	HK(hipStreamDestroy(j->stream));
	MPI_Finalize();
	return 0;
}

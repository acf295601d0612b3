/* nccl-fork.c — NCCL ranks made by fork, no MPI: the parent makes the unique id, forks N-1
 * children (default N = 4), and every process (rank 0 the parent) joins the communicator on
 * device rank % devices with its own stream, all-reduces (sum) floats at two sizes and int64
 * in place, checks every element against the values computed on the host, and destroys the
 * communicator.  The parent waits for the children; the exit status is 0 only when every rank
 * got the right results.  Usage: nccl-fork [N] [mismatch]
 * With "mismatch" the last rank's first all-reduce has one element more than the others':
 * the stand-in NCCL fails it on every rank, or under STANDIN_NCCL_MISMATCH=wait lets every
 * rank wait in hipStreamSynchronize until STANDIN_NCCL_TIMEOUT_S (or until a rank ends: the
 * others' collective then fails).  Before that call each rank prints the truth as
 * apps/hang-job does, one JSON line, flushed:
 *   {"rank":R,"in":"hipStreamSynchronize","peer":-1,"comm":"nccl","seq":1,"step":0} */
#include <nccl.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CK(call)                                                                             \
	do {                                                                                 \
		ncclResult_t r_ = (call);                                                    \
		if (r_ != ncclSuccess) {                                                     \
			fprintf(stderr, "rank %d: %s: %s (%s)\n", rank, #call,               \
				ncclGetErrorString(r_), ncclGetLastError(NULL));             \
			return 1;                                                            \
		}                                                                            \
	} while (0)
#define HK(call)                                                                             \
	do {                                                                                 \
		if ((call) != hipSuccess) {                                                  \
			fprintf(stderr, "rank %d: %s failed\n", rank, #call);                \
			return 1;                                                            \
		}                                                                            \
	} while (0)

static int mismatch;             /* the last rank's first all-reduce is one element longer */

static int check_floats(int rank, int n, size_t count, ncclComm_t comm, hipStream_t s)
{
	static int first = 1;
	size_t pass = count + (first && mismatch && rank == n - 1);
	float *h = malloc(count * sizeof(float)), *d;
	size_t i;
	int bad = 0;
	if (!h)
		return 1;
	for (i = 0; i < count; i++)
		h[i] = (float)(rank + 1 + (int)(i % 7));
	HK(hipMalloc((void **)&d, pass * sizeof(float)));
	HK(hipMemcpy(d, h, count * sizeof(float), hipMemcpyHostToDevice));
	CK(ncclAllReduce(d, d, pass, ncclFloat, ncclSum, comm, s));
	if (first && mismatch) {
		printf("{\"rank\":%d,\"in\":\"hipStreamSynchronize\",\"peer\":-1,\"comm\":\"nccl\","
		       "\"seq\":1,\"step\":0}\n", rank);
		fflush(stdout);
	}
	first = 0;
	HK(hipStreamSynchronize(s));
	HK(hipMemcpy(h, d, count * sizeof(float), hipMemcpyDeviceToHost));
	for (i = 0; i < count && !bad; i++) {
		float want = (float)(n * (n + 1) / 2 + n * (int)(i % 7));
		if (h[i] != want) {
			fprintf(stderr, "rank %d: allreduce of %zu floats: [%zu] = %g, want %g\n",
				rank, count, i, h[i], want);
			bad = 1;
		}
	}
	HK(hipFree(d));
	free(h);
	return bad;
}

static int check_int64(int rank, int n, size_t count, ncclComm_t comm, hipStream_t s)
{
	int64_t *h = malloc(count * sizeof(*h)), *d;
	size_t i;
	int bad = 0;
	if (!h)
		return 1;
	for (i = 0; i < count; i++)
		h[i] = ((int64_t)1 << 40) * rank + (int64_t)i;
	HK(hipMalloc((void **)&d, count * sizeof(*h)));
	HK(hipMemcpy(d, h, count * sizeof(*h), hipMemcpyHostToDevice));
	CK(ncclAllReduce(d, d, count, ncclInt64, ncclSum, comm, s));
	HK(hipMemcpy(h, d, count * sizeof(*h), hipMemcpyDeviceToHost)); /* null stream: waits */
	HK(hipStreamSynchronize(s));
	HK(hipMemcpy(h, d, count * sizeof(*h), hipMemcpyDeviceToHost));
	for (i = 0; i < count && !bad; i++) {
		int64_t want = ((int64_t)1 << 40) * (n * (n - 1) / 2) + (int64_t)n * (int64_t)i;
		if (h[i] != want) {
			fprintf(stderr, "rank %d: allreduce of %zu int64: [%zu] = %lld, want %lld\n",
				rank, count, i, (long long)h[i], (long long)want);
			bad = 1;
		}
	}
	HK(hipFree(d));
	free(h);
	return bad;
}

static int run(int rank, int n, ncclUniqueId id)
{
	ncclComm_t comm;
	hipStream_t s;
	int ndev = 1, got = -1, bad;
	HK(hipGetDeviceCount(&ndev));
	HK(hipSetDevice(rank % ndev));
	HK(hipStreamCreate(&s));
	CK(ncclCommInitRank(&comm, n, id, rank));
	CK(ncclCommUserRank(comm, &got));
	if (got != rank) {
		fprintf(stderr, "rank %d: ncclCommUserRank says %d\n", rank, got);
		return 1;
	}
	bad = check_floats(rank, n, 1000, comm, s) || check_floats(rank, n, 300000, comm, s) ||
	      check_int64(rank, n, 70000, comm, s);
	CK(ncclCommDestroy(comm));
	HK(hipStreamDestroy(s));
	return bad;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, rank = 0, i, failed = 0, st;
	ncclUniqueId id;
	pid_t *kids;
	mismatch = argc > 2 && !strcmp(argv[2], "mismatch");
	if (n < 1 || n > 64 || (argc > 2 && !mismatch) || argc > 3) {
		fprintf(stderr, "usage: nccl-fork [N] [mismatch], 1 <= N <= 64\n");
		return 2;
	}
	CK(ncclGetUniqueId(&id));
	kids = calloc((size_t)n, sizeof(*kids));
	if (!kids)
		return 1;
	for (i = 1; i < n; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			_exit(run(i, n, id));
		if (kids[i] < 0) {
			perror("fork");
			return 1;
		}
	}
	failed = run(0, n, id);
	for (i = 1; i < n; i++) {
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "nccl-fork: rank %d (pid %d) failed\n", i, (int)kids[i]);
			failed = 1;
		}
	}
	free(kids);
	if (!failed)
		printf("nccl-fork: %d ranks all-reduced correctly\n", n);
	return failed;
}

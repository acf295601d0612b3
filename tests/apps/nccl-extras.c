/* nccl-extras.c — what the recorder's NCCL tests need beyond apps/nccl-ranks: NCCL ranks made
 * by fork (no MPI; default 2), each on device rank % devices with two streams of its own,
 * running this fixed sequence once:
 *   1. ncclBcast, in place, root 0, 1024 float32 (NCCL's ncclBcast calls ncclBroadcast)
 *   2. a group of two ncclAllReduce (sum, float32) on two streams: 1000 on A, 3000 on B,
 *      its ncclGroupEnd called 20 ms after them (nothing of it runs before)
 *   3. nested groups on stream A: an inner group of ncclSend to rank+1 and ncclRecv from
 *      rank-1 (a ring, 512 float32), then ncclAllGather (256 float32 per rank) in the outer
 *   4. ncclAlltoAll (NCCL) or ncclAllToAll (RCCL), 128 float32 per peer, on stream B
 *   5. ncclAllReduce (max, int32, 64) on stream A
 * and checking every result exactly against values computed on the host.  Built three ways:
 * apps/nccl-extras (HIP streams, the stand-in libnccl.so.2), apps/rccl-extras (librccl.so.1)
 * and apps/nccl-cuda (-DEXTRAS_CUDA: streams, memory and copies through the CUDA runtime,
 * the stand-in libcudart.so.12, as an NCCL program on NVIDIA GPUs does).  Rank 0 prints
 * "streams=A,B" (its two streams, as %p prints them), then "nccl-extras: N ranks ok" when
 * every rank got the right results, the only case with exit status 0.
 * Usage: nccl-extras [N] */
#include <nccl.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef EXTRAS_CUDA
#include <cuda_runtime_api.h>
typedef cudaStream_t stream_t;
#define RT_OK cudaSuccess
#define rt_count cudaGetDeviceCount
#define rt_set cudaSetDevice
#define rt_stream_create cudaStreamCreate
#define rt_stream_sync cudaStreamSynchronize
#define rt_stream_destroy cudaStreamDestroy
#define rt_malloc cudaMalloc
#define rt_free cudaFree
#define rt_to_dev(d, h, n) cudaMemcpy(d, h, n, cudaMemcpyHostToDevice)
#define rt_to_host(h, d, n) cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost)
#define NS(s) ((hipStream_t)(void *)(s))
#else
typedef hipStream_t stream_t;
#define RT_OK hipSuccess
#define rt_count hipGetDeviceCount
#define rt_set hipSetDevice
#define rt_stream_create hipStreamCreate
#define rt_stream_sync hipStreamSynchronize
#define rt_stream_destroy hipStreamDestroy
#define rt_malloc hipMalloc
#define rt_free hipFree
#define rt_to_dev(d, h, n) hipMemcpy(d, h, n, hipMemcpyHostToDevice)
#define rt_to_host(h, d, n) hipMemcpy(h, d, n, hipMemcpyDeviceToHost)
#define NS(s) (s)
#endif

static int rank, nranks;

#define CK(call)                                                                             \
	do {                                                                                 \
		ncclResult_t r_ = (call);                                                    \
		if (r_ != ncclSuccess) {                                                     \
			fprintf(stderr, "rank %d: %s: %s\n", rank, #call,                    \
				ncclGetErrorString(r_));                                     \
			return 1;                                                            \
		}                                                                            \
	} while (0)
#define RK(call)                                                                             \
	do {                                                                                 \
		if ((call) != RT_OK) {                                                       \
			fprintf(stderr, "rank %d: %s failed\n", rank, #call);                \
			return 1;                                                            \
		}                                                                            \
	} while (0)

/* A device buffer of n floats, host values v(i). */
static float *dev_floats(size_t n, float (*v)(int r, size_t i), int r)
{
	float *h = malloc(n * sizeof(float)), *d = NULL;
	for (size_t i = 0; h && i < n; i++)
		h[i] = v ? v(r, i) : 0.0f;
	if (!h || rt_malloc((void **)&d, n * sizeof(float)) != RT_OK ||
	    rt_to_dev(d, h, n * sizeof(float)) != RT_OK)
		d = NULL;
	free(h);
	return d;
}

/* 0 when the device buffer holds want(i) everywhere. */
static int check(const char *what, const float *d, size_t n, float (*want)(size_t i))
{
	float *h = malloc(n * sizeof(float));
	int bad = !h || rt_to_host(h, d, n * sizeof(float)) != RT_OK;
	for (size_t i = 0; !bad && i < n; i++)
		if (h[i] != want(i)) {
			fprintf(stderr, "rank %d: %s: [%zu] = %g, want %g\n", rank, what, i, h[i],
				want(i));
			bad = 1;
		}
	free(h);
	return bad;
}

static float val(int r, size_t i)
{
	return (float)(r + 1) + (float)(i % 5);
}

static float want_bcast(size_t i)
{
	return val(0, i);
}

static float want_sum(size_t i)
{
	return (float)(nranks * (nranks + 1) / 2) + (float)nranks * (float)(i % 5);
}

static float want_ring(size_t i)
{
	return val((rank + nranks - 1) % nranks, i);
}

static float want_gather(size_t i)
{
	return val((int)(i / 256), i % 256);
}

static float want_alltoall(size_t i)
{
	/* Block p comes from rank p: its block `rank` of the values it sent. */
	return val((int)(i / 128), (size_t)rank * 128 + i % 128);
}

static int run(ncclUniqueId id)
{
	ncclComm_t comm;
	stream_t a, b;
	int ndev = 1, bad = 0;
	RK(rt_count(&ndev));
	RK(rt_set(rank % ndev));
	RK(rt_stream_create(&a));
	RK(rt_stream_create(&b));
	CK(ncclCommInitRank(&comm, nranks, id, rank));

	/* 1. ncclBcast in place */
	float *x = dev_floats(1024, val, rank);
	CK(ncclBcast(x, 1024, ncclFloat, 0, comm, NS(a)));
	RK(rt_stream_sync(a));
	bad |= !x || check("bcast", x, 1024, want_bcast);

	/* 2. a group over two streams, launched 20 ms after its calls */
	float *y = dev_floats(1000, val, rank), *z = dev_floats(3000, val, rank);
	CK(ncclGroupStart());
	CK(ncclAllReduce(y, y, 1000, ncclFloat, ncclSum, comm, NS(a)));
	CK(ncclAllReduce(z, z, 3000, ncclFloat, ncclSum, comm, NS(b)));
	usleep(20000);
	CK(ncclGroupEnd());
	RK(rt_stream_sync(a));
	RK(rt_stream_sync(b));
	bad |= !y || !z || check("group allreduce A", y, 1000, want_sum) ||
	       check("group allreduce B", z, 3000, want_sum);

	/* 3. nested groups: a send/recv ring inside, an allgather outside */
	float *s = dev_floats(512, val, rank), *r = dev_floats(512, NULL, 0);
	float *g = dev_floats(256, val, rank), *gg = dev_floats(256 * (size_t)nranks, NULL, 0);
	CK(ncclGroupStart());
	CK(ncclGroupStart());
	CK(ncclSend(s, 512, ncclFloat, (rank + 1) % nranks, comm, NS(a)));
	CK(ncclRecv(r, 512, ncclFloat, (rank + nranks - 1) % nranks, comm, NS(a)));
	CK(ncclGroupEnd());
	CK(ncclAllGather(g, gg, 256, ncclFloat, comm, NS(a)));
	CK(ncclGroupEnd());
	RK(rt_stream_sync(a));
	bad |= !s || !r || !gg || check("ring", r, 512, want_ring) ||
	       check("allgather", gg, 256 * (size_t)nranks, want_gather);

	/* 4. all-to-all: NCCL's spelling, or RCCL's */
	float *t = dev_floats(128 * (size_t)nranks, val, rank);
	float *tt = dev_floats(128 * (size_t)nranks, NULL, 0);
#ifdef STANDIN_RCCL
	CK(ncclAllToAll(t, tt, 128, ncclFloat, comm, NS(b)));
#else
	CK(ncclAlltoAll(t, tt, 128, ncclFloat, comm, NS(b)));
#endif
	RK(rt_stream_sync(b));
	bad |= !t || !tt || check("alltoall", tt, 128 * (size_t)nranks, want_alltoall);

	/* 5. max of int32 */
	int32_t hi[64], *di = NULL;
	for (int i = 0; i < 64; i++)
		hi[i] = rank * 100 + i;
	RK(rt_malloc((void **)&di, sizeof(hi)));
	RK(rt_to_dev(di, hi, sizeof(hi)));
	CK(ncclAllReduce(di, di, 64, ncclInt32, ncclMax, comm, NS(a)));
	RK(rt_stream_sync(a));
	RK(rt_to_host(hi, di, sizeof(hi)));
	for (int i = 0; i < 64 && !bad; i++)
		if (hi[i] != (nranks - 1) * 100 + i) {
			fprintf(stderr, "rank %d: max: [%d] = %d\n", rank, i, (int)hi[i]);
			bad = 1;
		}

	CK(ncclCommDestroy(comm));
	if (!rank)
		printf("streams=%p,%p\n", (void *)a, (void *)b);
	float *bufs[] = { x, y, z, s, r, g, gg, t, tt, (float *)(void *)di };
	for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
		if (bufs[i])
			rt_free(bufs[i]);
	RK(rt_stream_destroy(a));
	RK(rt_stream_destroy(b));
	return bad;
}

int main(int argc, char **argv)
{
	int failed, st;
	ncclUniqueId id;
	pid_t kids[64];
	nranks = argc > 1 ? atoi(argv[1]) : 2;
	if (nranks < 1 || nranks > 64) {
		fprintf(stderr, "usage: nccl-extras [N], 1 <= N <= 64\n");
		return 2;
	}
	CK(ncclGetUniqueId(&id));
	fflush(stdout);
	for (int i = 1; i < nranks; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			rank = i;
			_exit(run(id));
		}
		if (kids[i] < 0) {
			perror("fork");
			return 1;
		}
	}
	failed = run(id);
	for (int i = 1; i < nranks; i++)
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "nccl-extras: rank %d failed\n", i);
			failed = 1;
		}
	if (!failed)
		printf("nccl-extras: %d ranks ok\n", nranks);
	return failed;
}

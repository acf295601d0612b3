/* nccl-calls.c — the host cost of NCCL calls, for the overhead the profiler adds to them:
 * ncclCommCount (a query: the wrapper alone), ncclAllReduce of one float on a one-rank
 * communicator (onto a stream, 1000 at a time, then waiting outside the timed part), and two
 * hipEventRecord on a stream (what the profiler adds to each collective to time it, so that
 * its share of the added cost is known).  Runs against the stand-in libnccl.so.2 over the
 * stand-in HIP runtime; prints ns per call (median of batches), KEY=VALUE.
 * Usage: nccl-calls count|allreduce|events COUNT */
#include <nccl.h>

#include "bench.h"

#define BATCH 1000

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "count") && strcmp(argv[1], "allreduce") &&
			  strcmp(argv[1], "events"))) {
		fprintf(stderr, "usage: %s count|allreduce|events COUNT\n", argv[0]);
		return 2;
	}
	int allreduce = !strcmp(argv[1], "allreduce"), events = !strcmp(argv[1], "events");
	uint64_t n = bench_count(argv[2], "count");
	size_t batches = (size_t)(n / BATCH);
	double *ns = calloc(batches ? batches : 1, sizeof(double));
	ncclUniqueId id;
	ncclComm_t comm;
	hipStream_t s;
	hipEvent_t e0, e1;
	float *buf;
	int size = 0;
	if (hipSetDevice(0) != hipSuccess || hipStreamCreate(&s) != hipSuccess ||
	    hipMalloc((void **)&buf, sizeof(float)) != hipSuccess ||
	    hipEventCreate(&e0) != hipSuccess || hipEventCreate(&e1) != hipSuccess) {
		fprintf(stderr, "no HIP device\n");
		return 1;
	}
	if (ncclGetUniqueId(&id) != ncclSuccess || ncclCommInitRank(&comm, 1, id, 0) != ncclSuccess) {
		fprintf(stderr, "no NCCL communicator\n");
		return 1;
	}
	for (size_t b = 0; b < batches; b++) {
		uint64_t t0 = bench_now_ns();
		if (allreduce)
			for (int i = 0; i < BATCH; i++)
				ncclAllReduce(buf, buf, 1, ncclFloat, ncclSum, comm, s);
		else if (events)
			for (int i = 0; i < BATCH; i++) {
				hipEventRecord(e0, s);
				hipEventRecord(e1, s);
			}
		else
			for (int i = 0; i < BATCH; i++)
				ncclCommCount(comm, &size);
		ns[b] = (double)(bench_now_ns() - t0) / BATCH;
		if (allreduce || events)
			hipStreamSynchronize(s);
	}
	ncclCommDestroy(comm);
	hipFree(buf);
	hipStreamDestroy(s);
	printf("call=%s\ncalls=%llu\nns=%.3f\n", argv[1], (unsigned long long)(batches * BATCH),
	       bench_median(ns, batches));
	free(ns);
	return 0;
}

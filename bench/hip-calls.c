/* hip-calls.c — the host cost of HIP calls, for the overhead the profiler adds to them:
 * hipGetDevice (the cheapest call there is), hipLaunchKernel (onto a stream, 1000 at a time,
 * then waiting outside the timed part), and two hipEventRecord on a stream (what the
 * profiler adds to each launch to time it, so that its share of the added cost is known).
 * Runs against the stand-in runtime; prints ns per call (median of batches), KEY=VALUE.
 * Usage: hip-calls getdevice|launch|events COUNT */
#include <hip/hip_runtime_api.h>

#include "bench.h"

#define BATCH 1000

static void kernel_stand_in(void)
{
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "getdevice") && strcmp(argv[1], "launch") &&
			  strcmp(argv[1], "events"))) {
		fprintf(stderr, "usage: %s getdevice|launch|events COUNT\n", argv[0]);
		return 2;
	}
	int launch = !strcmp(argv[1], "launch"), events = !strcmp(argv[1], "events");
	hipEvent_t e0, e1;
	uint64_t n = bench_count(argv[2], "count");
	size_t batches = (size_t)(n / BATCH);
	double *ns = calloc(batches ? batches : 1, sizeof(double));
	hipStream_t s;
	int device = -1;
	if (hipSetDevice(0) != hipSuccess || hipStreamCreate(&s) != hipSuccess) {
		fprintf(stderr, "no HIP device\n");
		return 1;
	}
	if (events && (hipEventCreate(&e0) != hipSuccess || hipEventCreate(&e1) != hipSuccess))
		return 1;
	dim3 grid = { 1, 1, 1 }, block = { 64, 1, 1 };
	void *args[1] = { NULL };
	for (size_t b = 0; b < batches; b++) {
		uint64_t t0 = bench_now_ns();
		if (launch)
			for (int i = 0; i < BATCH; i++)
				hipLaunchKernel((const void *)kernel_stand_in, grid, block, args, 0, s);
		else if (events)
			for (int i = 0; i < BATCH; i++) {
				hipEventRecord(e0, s);
				hipEventRecord(e1, s);
			}
		else
			for (int i = 0; i < BATCH; i++)
				hipGetDevice(&device);
		ns[b] = (double)(bench_now_ns() - t0) / BATCH;
		if (launch || events)
			hipStreamSynchronize(s);
	}
	hipStreamDestroy(s);
	printf("call=%s\ncalls=%llu\nns=%.3f\n", argv[1], (unsigned long long)(batches * BATCH),
	       bench_median(ns, batches));
	free(ns);
	return 0;
}

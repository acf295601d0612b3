/* hip-calls.c — the host cost of HIP calls, for the overhead the profiler adds to them:
 * hipGetDevice (the cheapest call there is), hipLaunchKernel (onto a stream, 1000 at a time,
 * then waiting outside the timed part), two hipEventRecord on a stream (what the profiler adds
 * to each launch to time it), and "bracketed": each launch between two hipEventRecord on its
 * stream, events taken in turn from a pool as the profiler does — the runtime's whole share of
 * a recorded launch, so that recorded launch - bracketed launch is the profiler's own work.
 * Runs against the stand-in runtime (or any libamdhip64.so.5 on the library path); prints ns
 * per call (median of batches) and the calling thread's CPU ns per call, KEY=VALUE.  PAUSE_US
 * (default 0) is slept between batches, outside the timed part: on a runtime whose launches
 * cost almost nothing, the profiler's timing thread needs it to keep up (every launch timed).
 * Usage: hip-calls getdevice|launch|events|bracketed COUNT [PAUSE_US] */
#include <hip/hip_runtime_api.h>

#include "bench.h"

#define BATCH 1000
#define POOL 64

enum mode { GETDEVICE, LAUNCH, EVENTS, BRACKETED };
static const char *const modes[] = { "getdevice", "launch", "events", "bracketed" };

static void kernel_stand_in(void)
{
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One batch of `mode`. */
static void batch(enum mode mode, hipStream_t s, hipEvent_t *ev)
{
	static const dim3 grid = { 1, 1, 1 }, block = { 64, 1, 1 };
	static unsigned next;
	void *args[1] = { NULL };
	int device;
	for (int i = 0; i < BATCH; i++) {
		switch (mode) {
		case GETDEVICE:
			hipGetDevice(&device);
			break;
		case LAUNCH:
			hipLaunchKernel((const void *)kernel_stand_in, grid, block, args, 0, s);
			break;
		case EVENTS:
			hipEventRecord(ev[0], s);
			hipEventRecord(ev[1], s);
			break;
		case BRACKETED:
			hipEventRecord(ev[next++ % POOL], s);
			hipLaunchKernel((const void *)kernel_stand_in, grid, block, args, 0, s);
			hipEventRecord(ev[next++ % POOL], s);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	int mode = -1;
	for (int m = 0; (argc == 3 || argc == 4) && m < 4; m++)
		if (!strcmp(argv[1], modes[m]))
			mode = m;
	if (mode < 0) {
		fprintf(stderr, "usage: %s getdevice|launch|events|bracketed COUNT [PAUSE_US]\n",
			argv[0]);
		return 2;
	}
	uint64_t n = bench_count(argv[2], "count");
	uint64_t pause_us = argc == 4 ? bench_count(argv[3], "pause") : 0;
	struct timespec pause = { (time_t)(pause_us / 1000000), (long)(pause_us % 1000000) * 1000 };
	size_t batches = (size_t)(n / BATCH);
	double *ns = calloc(batches ? batches : 1, sizeof(double));
	double *cpu = calloc(batches ? batches : 1, sizeof(double));
	hipEvent_t ev[POOL];
	hipStream_t s;
	if (!ns || !cpu || hipSetDevice(0) != hipSuccess || hipStreamCreate(&s) != hipSuccess) {
		fprintf(stderr, "no HIP device\n");
		return 1;
	}
	for (int i = 0; (mode == EVENTS || mode == BRACKETED) && i < POOL; i++)
		if (hipEventCreateWithFlags(&ev[i], hipEventDefault) != hipSuccess)
			return 1;
	for (size_t b = 0; b < batches; b++) {
		uint64_t t0 = bench_now_ns(), c0 = thread_cpu_ns();
		batch((enum mode)mode, s, ev);
		ns[b] = (double)(bench_now_ns() - t0) / BATCH;
		cpu[b] = (double)(thread_cpu_ns() - c0) / BATCH;
		if (mode != GETDEVICE)
			hipStreamSynchronize(s);
		if (pause_us)
			nanosleep(&pause, NULL);
	}
	hipStreamDestroy(s);
	printf("call=%s\ncalls=%llu\nns=%.3f\ncpu_ns=%.3f\n", argv[1],
	       (unsigned long long)(batches * BATCH), bench_median(ns, batches),
	       bench_median(cpu, batches));
	free(ns);
	free(cpu);
	return 0;
}

/* hip-minimal.c — a program that launches kernels on the minimal HIP runtime
 * (apps/minimal/libamdhip64.so.5, hip-minimal-rt.c: no event functions): it names its kernel
 * as hipcc's module constructors do, then launches it COUNT times on a stream of its own.  With
 * EVENTS_LIB it then dlopen()s that library (the event functions, hip-minimal-events.c) and
 * launches COUNT times more.  Prints "launched=N" when every launch succeeded.
 * Usage: hip-minimal COUNT [EVENTS_LIB] */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hip-minimal.h"

void __hipRegisterFunction(void **modules, const void *host, char *device_fn,
			   const char *device_name, unsigned int limit, void *tid, void *bid,
			   void *block, void *grid, int *wsize);

static void minimal_kernel(void)
{
}

static long launch(hipStream_t s, long n)
{
	dim3 grid = { 4, 1, 1 }, block = { 64, 1, 1 };
	void *args[1] = { NULL };
	long ok = 0;
	for (long i = 0; i < n; i++)
		ok += hipLaunchKernel((const void *)minimal_kernel, grid, block, args, 0, s) == 0;
	return ok;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3 || atol(argv[1]) <= 0) {
		fprintf(stderr, "usage: %s COUNT [EVENTS_LIB]\n", argv[0]);
		return 2;
	}
	long n = atol(argv[1]), ok;
	hipStream_t s;
	__hipRegisterFunction(NULL, (const void *)minimal_kernel, "minimal_kernel", "minimal_kernel",
			      (unsigned)-1, NULL, NULL, NULL, NULL, NULL);
	if (hipSetDevice(1) || hipStreamCreate(&s)) {
		fprintf(stderr, "hip-minimal: no device\n");
		return 1;
	}
	ok = launch(s, n);
	if (argc == 3) {
		if (!dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL)) {
			fprintf(stderr, "hip-minimal: %s\n", dlerror());
			return 1;
		}
		ok += launch(s, n);
		n *= 2;
	}
	if (hipStreamSynchronize(s) || hipStreamDestroy(s) || ok != n) {
		fprintf(stderr, "hip-minimal: %ld of %ld launches failed\n", n - ok, n);
		return 1;
	}
	printf("launched=%ld\n", ok);
	return 0;
}

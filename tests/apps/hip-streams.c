/* hip-streams.c — streams made and destroyed in turn on the two devices of the minimal HIP
 * runtime (hip-minimal-rt.c), LAUNCHES launches on each, so that a destroyed stream's handle
 * comes back for a stream of the other device (the allocator reuses it).  Prints, for each
 * round, the device and the handle, then "reused=N" (rounds whose handle the other device had
 * before) and "ok".  Usage: hip-streams ROUNDS LAUNCHES */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hip-minimal.h"

static void stream_kernel(void)
{
}

int main(int argc, char **argv)
{
	int rounds = argc == 3 ? atoi(argv[1]) : 0, launches = argc == 3 ? atoi(argv[2]) : 0;
	if (rounds <= 0 || rounds > 64 || launches <= 0) {
		fprintf(stderr, "usage: %s ROUNDS LAUNCHES\n", argv[0]);
		return 2;
	}
	dim3 grid = { 2, 1, 1 }, block = { 32, 1, 1 };
	void *args[1] = { NULL }, *seen[64];
	int reused = 0;
	for (int r = 0; r < rounds; r++) {
		hipStream_t s;
		if (hipSetDevice(r % 2) != hipSuccess || hipStreamCreate(&s) != hipSuccess)
			return 1;
		for (int k = 0; k < launches; k++)
			if (hipLaunchKernel((const void *)stream_kernel, grid, block, args, 0, s) != hipSuccess)
				return 1;
		if (hipStreamSynchronize(s) != hipSuccess)
			return 1;
		int again = 0;
		for (int k = r - 1; k >= 0; k -= 2)
			again |= seen[k] == (void *)s;
		reused += again;
		seen[r] = (void *)s;
		printf("round %d device %d stream %p\n", r, r % 2, (void *)s);
		if (hipStreamDestroy(s) != hipSuccess)
			return 1;
	}
	printf("reused=%d\nok\n", reused);
	return 0;
}

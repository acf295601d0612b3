/* libtoy.c — the toy runtime's library (toy.h): toyMake makes its widgets, taking about a
 * microsecond for each, and says so on no stream; the hooks of hook-toy.c wrap it. */
#include <time.h>

#include "toy.h"

int toyMake(uint64_t widgets, const char *gadget)
{
	if (!widgets || !gadget)
		return -1;
	struct timespec ts = { 0, (long)(widgets < 1000000 ? widgets : 1000000) * 1000 };
	nanosleep(&ts, NULL);
	return 0;
}

/* roctx-async.c — ranges by id (roctxRangeStart/Stop) that overlap without nesting: three
 * named "load" started in turn, each still open when the next starts, stopped in the order
 * they began; a fourth "load" started after the first ended; a "save" inside the last.  Their
 * tracks must keep them apart (the Perfetto output's lanes).  Prints "ranges=5". */
#include <stdio.h>
#include <time.h>
#include <roctracer/roctx.h>

static void pause_us(long us)
{
	struct timespec ts = { 0, us * 1000 };
	nanosleep(&ts, NULL);
}

int main(void)
{
	roctx_range_id_t a = roctxRangeStartA("load");
	pause_us(200);
	roctx_range_id_t b = roctxRangeStartA("load");
	pause_us(200);
	roctx_range_id_t c = roctxRangeStartA("load");
	pause_us(200);
	roctxRangeStop(a);
	pause_us(200);
	roctx_range_id_t d = roctxRangeStartA("load");
	pause_us(200);
	roctxRangeStop(b);
	pause_us(200);
	roctxRangeStop(c);
	roctx_range_id_t s = roctxRangeStartA("save");
	pause_us(200);
	roctxRangeStop(s);
	pause_us(200);
	roctxRangeStop(d);
	printf("ranges=5\n");
	return 0;
}

/* onemark.c — a program that records one mark and exits: what a process that records
 * anything at all costs to start and end (its files made, written and closed). */
#include <tprof/tprof.h>

int main(void)
{
	tprof_mark("started");
	return 0;
}

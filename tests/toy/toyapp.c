/* toyapp.c — a program of the toy runtime (toy.h): three toyMake calls on its main thread
 * (5, 7 and 30 sprockets), one that fails (none asked for); prints what they returned. */
#include <stdio.h>

#include "toy.h"

int main(void)
{
	static const uint64_t widgets[] = { 5, 7, 30, 0 };
	int rc[4];
	for (int i = 0; i < 4; i++)
		rc[i] = toyMake(widgets[i], "sprocket");
	printf("toyapp %d %d %d %d\n", rc[0], rc[1], rc[2], rc[3]);
	return 0;
}

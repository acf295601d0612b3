/* fail.c — tprof-inspect stops before the command runs (fail.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "fail.h"

void inspect_fail(const char *fmt, ...)
{
	va_list ap;
	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_SETUP);
}

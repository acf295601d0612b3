/* fail.c — tprof-inspect stops before the command runs, and sets the command's variables or
 * stops (fail.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void inspect_set_var(const char *name, const char *value)
{
	if (setenv(name, value, 1))
		inspect_fail("cannot set %s: %s", name, strerror(errno));
}

/* handles.c — what the handle tables (handles.h) keep out of line: the warning of a full
 * table, said once per table.  Lookups and claims are all inline. */
#include <stdarg.h>
#include <stdio.h>

#include "core.h"
#include "handles.h"

void tprof_handles_full(int *warned, const char *fmt, ...)
{
	TPROF_KEEP_ERRNO;
	char msg[512];
	va_list ap;
	if (__atomic_exchange_n(warned, 1, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tprof_log_warn("%s", msg);
}

/* diag.c — messages about the input: a warning names the file and the offset where the
 * trouble is, so a damaged trace can be looked at by hand. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "../util/progress.h"
#include "trace.h"

int diag_verbose;
uint64_t diag_warnings;
uint64_t diag_records_lost;

void diag_warn(const char *path, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	diag_warnings++;
	progress_clear();
	fprintf(stderr, "tprof-analyze: warning: %s: offset %" PRIu64 ": ", path, offset);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;
	if (!diag_verbose)
		return;
	progress_clear();
	fputs("tprof-analyze: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;
	progress_clear();
	fputs("tprof-analyze: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

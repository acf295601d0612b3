/* diag.c — messages about the input: a warning names the file and the offset where the
 * trouble is, so a damaged trace can be looked at by hand.  Any thread may say one (the merge
 * reads the streams on a thread of its own): each message is written whole. */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "../util/progress.h"
#include "trace.h"

int diag_verbose;
int diag_quiet;
uint64_t diag_warnings;
uint64_t diag_records_lost;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void diag_warn(const char *path, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	if (diag_quiet)
		return;
	pthread_mutex_lock(&lock);
	diag_warnings++;
	progress_clear();
	fprintf(stderr, "tprof-analyze: warning: %s: offset %" PRIu64 ": ", path, offset);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&lock);
}

void diag_lost(uint64_t records)
{
	pthread_mutex_lock(&lock);
	diag_records_lost += records;
	pthread_mutex_unlock(&lock);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;
	if (!diag_verbose || diag_quiet)
		return;
	pthread_mutex_lock(&lock);
	progress_clear();
	fputs("tprof-analyze: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&lock);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;
	pthread_mutex_lock(&lock);
	progress_clear();
	fputs("tprof-analyze: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&lock);
}

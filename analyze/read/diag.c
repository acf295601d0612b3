/* diag.c — messages about the input: a warning names the file and the offset where the
 * trouble is, so a damaged trace can be looked at by hand.  Any thread may say one (the merge
 * reads the streams on a thread of its own): each message is written whole, in one write, so
 * that the lines of the parallel analyzer's processes, which share a stderr, never mix. */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "../util/progress.h"
#include "trace.h"

int diag_verbose;
int diag_quiet;
int diag_muted;
uint64_t diag_warnings;
uint64_t diag_records_lost;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* head, then the message, then a newline, to stderr at once (under the lock). */
static void line(const char *head, const char *fmt, va_list ap)
{
	char small[1024], *buf = small;
	size_t h = strlen(head);
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		n = 0;
	size_t len = h + (size_t)n + 1;
	if (len >= sizeof(small))
		buf = xmalloc(len + 1);
	memcpy(buf, head, h);
	vsnprintf(buf + h, (size_t)n + 1, fmt, ap);
	buf[len - 1] = '\n';
	fwrite(buf, 1, len, stderr);
	if (buf != small)
		free(buf);
}

void diag_warn(const char *path, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	if (diag_quiet || diag_muted)
		return;
	pthread_mutex_lock(&lock);
	diag_warnings++;
	progress_clear();
	char *head = offset == DIAG_NO_OFFSET ?
		xasprintf("tprof-analyze: warning: %s: ", path) :
		xasprintf("tprof-analyze: warning: %s: offset %" PRIu64 ": ", path, offset);
	va_start(ap, fmt);
	line(head, fmt, ap);
	va_end(ap);
	free(head);
	pthread_mutex_unlock(&lock);
}

static char **unreadable;
static size_t nunreadable, capunreadable;

void diag_unreadable(const char *path, const char *fmt, ...)
{
	va_list ap;
	if (diag_muted)
		return;
	pthread_mutex_lock(&lock);
	diag_warnings++;
	progress_clear();
	char *head = xasprintf("tprof-analyze: warning: %s: ", path);
	va_start(ap, fmt);
	line(head, fmt, ap);
	va_end(ap);
	free(head);
	/* a file is said once by each reader that fails on it: one after the other */
	if (!nunreadable || strcmp(unreadable[nunreadable - 1], path)) {
		unreadable = util_grow(unreadable, &capunreadable, nunreadable, sizeof(*unreadable), 16);
		unreadable[nunreadable++] = xstrdup(path);
	}
	pthread_mutex_unlock(&lock);
}

/* The files named by diag_unreadable, in the order they were; read once every reader is done. */
const char *const *diag_unreadable_list(size_t *n)
{
	*n = nunreadable;
	return (const char *const *)unreadable;
}

void diag_lost(uint64_t records)
{
	pthread_mutex_lock(&lock);
	diag_records_lost += records;
	pthread_mutex_unlock(&lock);
}

/* One line "tprof-analyze: ..." on stderr, whole among the other threads' and the progress
 * line's. */
static void say(const char *fmt, va_list ap)
{
	if (diag_muted)
		return;
	pthread_mutex_lock(&lock);
	progress_clear();
	line("tprof-analyze: ", fmt, ap);
	pthread_mutex_unlock(&lock);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;
	if (!diag_verbose || diag_quiet)
		return;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(fmt, ap);
	va_end(ap);
}

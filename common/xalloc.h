/* xalloc.h — allocation that does not come back empty-handed, for tprof's own programs (the
 * analyzer, tprof-inspect, the test tools); never for the recorder (preload/), which must not
 * end the program it records and handles each failure itself.  When memory is out, one line
 * on stderr names the program, the bytes asked for and the function, file and line that asked
 * ("tprof-analyze: out of memory: 1048576 bytes in read_chunk (analyze/read/load.c:123)"),
 * and the program exits with XALLOC_STATUS (1 unless the program's build sets it: tprof-inspect
 * makes it its status for a failure before the command runs).  The array forms check that
 * n * size fits a size_t. */
#ifndef TPROF_XALLOC_H
#define TPROF_XALLOC_H

#include <errno.h>              /* program_invocation_short_name */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef XALLOC_STATUS
#define XALLOC_STATUS 1
#endif

#define XALLOC_AT __func__, __FILE__, __LINE__
#define XALLOC_WHERE const char *func, const char *file, int line

#define xmalloc(n) xrealloc_at(NULL, (n), XALLOC_AT)
#define xcalloc(n, size) xcalloc_at((n), (size), XALLOC_AT)
#define xrealloc(p, n) xrealloc_at((p), (n), XALLOC_AT)
#define xmallocarray(n, size) xreallocarray_at(NULL, (n), (size), XALLOC_AT)
#define xreallocarray(p, n, size) xreallocarray_at((p), (n), (size), XALLOC_AT)
#define xstrdup(s) xstrdup_at((s), XALLOC_AT)
#define xstrndup(s, n) xstrndup_at((s), (n), XALLOC_AT)
#define xasprintf(...) xasprintf_at(XALLOC_AT, __VA_ARGS__)

/* A library could not allocate what it needed (what: "zlib's inflate state"...): says so
 * and exits. */
#define xalloc_failed(what) xalloc_failed_at((what), XALLOC_AT)

/* The source file, without the "../" of a build outside the source tree. */
static inline const char *xalloc_file(const char *file)
{
	while (!strncmp(file, "../", 3))
		file += 3;
	return file;
}

static inline void __attribute__((noreturn, cold)) xalloc_failed_at(const char *what,
								    XALLOC_WHERE)
{
	fprintf(stderr, "%s: out of memory: %s in %s (%s:%d)\n", program_invocation_short_name,
		what, func, xalloc_file(file), line);
	exit(XALLOC_STATUS);
}

/* n elements of size bytes could not be had: says so and exits. */
static inline void __attribute__((noreturn, cold)) xalloc_fail(size_t n, size_t size,
							       XALLOC_WHERE)
{
	size_t bytes;
	file = xalloc_file(file);
	if (__builtin_mul_overflow(n, size, &bytes))
		fprintf(stderr, "%s: out of memory: %zu elements of %zu bytes (more than the address "
			"space) in %s (%s:%d)\n", program_invocation_short_name, n, size, func, file,
			line);
	else
		fprintf(stderr, "%s: out of memory: %zu bytes in %s (%s:%d)\n",
			program_invocation_short_name, bytes, func, file, line);
	exit(XALLOC_STATUS);
}

/* (Never 0 bytes: realloc(p, 0) may free p and give NULL.) */
static inline void *xrealloc_at(void *p, size_t n, XALLOC_WHERE)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		xalloc_fail(n, 1, func, file, line);
	return q;
}

static inline void *xcalloc_at(size_t n, size_t size, XALLOC_WHERE)
{
	void *q = calloc(n ? n : 1, size ? size : 1);
	if (!q)
		xalloc_fail(n, size, func, file, line);
	return q;
}

static inline void *xreallocarray_at(void *p, size_t n, size_t size, XALLOC_WHERE)
{
	size_t bytes;
	if (__builtin_mul_overflow(n, size, &bytes))
		xalloc_fail(n, size, func, file, line);
	return xrealloc_at(p, bytes, func, file, line);
}

/* The first len bytes of s, ended by a 0. */
static inline char *xmemdup0_at(const char *s, size_t len, XALLOC_WHERE)
{
	char *q = xrealloc_at(NULL, len + 1, func, file, line);
	memcpy(q, s, len);
	q[len] = 0;
	return q;
}

static inline char *xstrdup_at(const char *s, XALLOC_WHERE)
{
	return xmemdup0_at(s, strlen(s), func, file, line);
}

/* The first n bytes of s at most. */
static inline char *xstrndup_at(const char *s, size_t n, XALLOC_WHERE)
{
	return xmemdup0_at(s, strnlen(s, n), func, file, line);
}

/* A string printed as printf would. */
static inline char * __attribute__((format(printf, 4, 5))) xasprintf_at(XALLOC_WHERE,
									   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	size_t n = len < 0 ? 1 : (size_t)len + 1;
	char *q = xrealloc_at(NULL, n, func, file, line);
	*q = 0;
	va_start(ap, fmt);
	vsnprintf(q, n, fmt, ap);
	va_end(ap);
	return q;
}

#endif

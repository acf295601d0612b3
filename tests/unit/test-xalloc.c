/* test-xalloc.c — what tprof's own programs do when memory is out (common/xalloc.h): in a
 * child each, an array whose size overflows a size_t, and an allocation larger than can be
 * had (the address space left by setrlimit; under AddressSanitizer, whose shadow memory needs
 * more, one over its allocator's largest), and a library's own failure; each prints one line
 * naming the program, the size (or what the library lacked) and the caller's function, file
 * and line, and exits with status 1.  The forms that succeed give
 * what they say. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/xalloc.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

static int too_many(void)
{
	return xmallocarray(SIZE_MAX / 2, 4) != NULL;
}

#ifdef ASAN
/* AddressSanitizer's shadow needs more address space than a limit would leave, and its
 * allocator refuses a request over its largest (1 TiB here): with this option it then gives
 * NULL, as malloc would, rather than stop the program.  The runtime looks the function up by
 * name, so it is exported although the build hides symbols by default. */
const char *__asan_default_options(void);
__attribute__((visibility("default"), used)) const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#define TOO_LARGE ((size_t)1 << 45)
#define TOO_LARGE_TEXT "35184372088832 bytes"
#else
#define TOO_LARGE ((size_t)1 << 30)
#define TOO_LARGE_TEXT "1073741824 bytes"
#endif

static int too_large(void)
{
#ifndef ASAN
	struct rlimit r = { 256 << 20, 256 << 20 };
	if (setrlimit(RLIMIT_AS, &r) != 0)
		return 3;
#endif
	return xmalloc(TOO_LARGE) != NULL;
}

/* A library that could not allocate. */
static int library(void)
{
	xalloc_failed("a library's state");
}

/* Runs fn in a child; its status, and its stderr in err. */
static int run(int (*fn)(void), char *err, size_t len)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		_exit(fn());
	}
	close(fds[1]);
	size_t n = 0;
	ssize_t k;
	while (n + 1 < len && (k = read(fds[0], err + n, len - 1 - n)) > 0)
		n += (size_t)k;
	err[n] = 0;
	close(fds[0]);
	/* AddressSanitizer says it refused the allocation first, on lines of its own (a warning,
	 * a stack): what is checked is from the program's own line on */
	const char *own = strstr(err, "test-xalloc: ");
	if (own && own != err && own[-1] == '\n')
		memmove(err, own, strlen(own) + 1);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* err is one line: "test-xalloc: out of memory: WHAT in FUNC (...unit/test-xalloc.c:N)". */
static int one_line(const char *err, const char *what, const char *func)
{
	char head[160], tail[80];
	snprintf(head, sizeof(head), "test-xalloc: out of memory: %s in %s (", what, func);
	snprintf(tail, sizeof(tail), "unit/test-xalloc.c:");
	const char *at = strstr(err, tail);
	return !strncmp(err, head, strlen(head)) && at && strchr(err, '\n') == err + strlen(err) - 1
	       && !strstr(err, "../");
}

/* err without its newline, to be shown. */
static const char *shown(char *err)
{
	err[strcspn(err, "\n")] = 0;
	return err;
}

int main(void)
{
	char err[16384];         /* room for a sanitizer's report before the line */
	int st = run(too_many, err, sizeof(err));
	is_u64(st, 1, "an array beyond a size_t: exit status 1");
	ok(one_line(err, "9223372036854775807 elements of 4 bytes (more than the address space)",
		    "too_many"), "... and one line naming the count, size and caller: %s", shown(err));

	st = run(too_large, err, sizeof(err));
	is_u64(st, 1, "more than can be had: exit status 1");
	ok(one_line(err, TOO_LARGE_TEXT, "too_large"),
	   "... and one line naming the bytes and caller: %s", shown(err));

	st = run(library, err, sizeof(err));
	is_u64(st, 1, "a library out of memory: exit status 1");
	ok(one_line(err, "a library's state", "library"),
	   "... and one line naming what it could not have and the caller: %s", shown(err));

	char *s = xasprintf("%s-%d", "run", 12);
	ok(!strcmp(s, "run-12"), "xasprintf prints as printf: %s", s);
	free(s);
	s = xstrndup("abcdef", 3);
	ok(!strcmp(s, "abc"), "xstrndup stops at n: %s", s);
	free(s);
	s = xstrdup("");
	ok(s && !*s, "xstrdup of an empty string");
	free(s);
	int *v = xcalloc(0, sizeof(int));
	ok(v != NULL, "xcalloc of nothing is still a pointer to free");
	v = xreallocarray(v, 4, sizeof(int));
	v[3] = 7;
	v = xrealloc(v, 0);
	ok(v != NULL, "xrealloc to 0 bytes keeps a pointer (realloc alone may free it)");
	free(v);
	return tap_done();
}

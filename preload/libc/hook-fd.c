/* hook-fd.c — the program's calls that could take the recorder's descriptors
 * (common/ownfd.h): close, close_range, closefrom, dup2, dup3, and libc's syscall() for their
 * numbers; and pipe, whose descriptors are the recorder's when a library makes them for it.
 * As far as the program can tell, a descriptor of the recorder is not open: closing it fails
 * with EBADF and leaves it, a range closes everything in it but the recorder's, and a
 * dup2 or dup3 onto one moves the recorder's file elsewhere first.  Anything else goes straight
 * to libc, after one compare. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../common/ownfd.h"
#include "../../common/real-libc.h"
#include "../core/core.h"
#include "../core/resolve.h"

TPROF_REAL_AT_START(int, close, (int))
TPROF_REAL_AT_START(int, close_range, (unsigned, unsigned, int))
TPROF_REAL_AT_START(void, closefrom, (int))
TPROF_REAL_AT_START(int, dup2, (int, int))
TPROF_REAL_AT_START(int, dup3, (int, int, int))
TPROF_REAL_AT_START(long, syscall, (long, ...))
TPROF_REAL_AT_START(int, pipe, (int[2]))
TPROF_REAL_AT_START(int, pipe2, (int[2], int))

TPROF_EXPORT int close(int fd);
TPROF_EXPORT int close_range(unsigned first, unsigned last, int flags);
TPROF_EXPORT void closefrom(int lowfd);
TPROF_EXPORT int dup2(int oldfd, int newfd);
TPROF_EXPORT int dup3(int oldfd, int newfd, int flags);
TPROF_EXPORT long syscall(long nr, ...);
TPROF_EXPORT int pipe(int fds[2]);
TPROF_EXPORT int pipe2(int fds[2], int flags);

/* At load: libc's functions found now, not on first use, so that a program's close, dup2 or
 * syscall in a signal handler never has to look them up (dlsym is not async-signal-safe).
 * Also when not recording: the hooks are there all the same. */
__attribute__((constructor(102))) static void find_libc(void)
{
	TPROF_KEEP_ERRNO;
	tprof_real_close_is(get_close());   /* the recorder's own descriptors close with it too */
	get_close_range();
	get_closefrom();
	get_dup2();
	get_dup3();
	get_syscall();
	get_pipe();
	get_pipe2();
}

static int no_libc(void)
{
	errno = ENOSYS;
	return -1;
}

static int close_call(int fd)
{
	close_fn real = get_close();
	if (TPROF_UNLIKELY(tprof_fd_owned(fd))) {
		if (tprof_fd_adopting)   /* the library that made it, working for the recorder */
			return tprof_fd_close(fd);
		errno = EBADF;
		return -1;
	}
	return real ? real(fd) : no_libc();
}

/* Whether [first, last] may hold a descriptor of the recorder. */
static int may_hold_ours(unsigned first, unsigned last)
{
	int low = __atomic_load_n(&tprof_fd_lowest, __ATOMIC_RELAXED);
	return low != INT32_MAX && first <= last && (unsigned)low <= last;
}

static int close_range_libc(unsigned first, unsigned last, int flags)
{
	close_range_fn real = get_close_range();
	return real ? real(first, last, flags) : no_libc();
}

static int close_range_call(unsigned first, unsigned last, int flags)
{
	if (TPROF_LIKELY(!may_hold_ours(first, last)))
		return close_range_libc(first, last, flags);
	return tprof_fd_close_range(first, last, flags, close_range_libc);
}

/* closefrom as glibc does it, on close_range, but leaving the recorder's descriptors; where
 * the kernel has no close_range, one descriptor at a time up to the limit. */
static void closefrom_call(int lowfd)
{
	int e = errno;
	unsigned first = lowfd < 0 ? 0 : (unsigned)lowfd;
	closefrom_fn real = get_closefrom();
	if (TPROF_LIKELY(!may_hold_ours(first, ~0U)) && real) {
		real(lowfd);
		return;
	}
	if (tprof_fd_close_range(first, ~0U, 0, close_range_libc) && errno == ENOSYS) {
		struct rlimit rl;
		unsigned end = getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur > (1u << 20)
				       ? 1u << 20 : (unsigned)rl.rlim_cur;
		for (unsigned fd = first; fd < end; fd++)
			close((int)fd);
	}
	errno = e;
}

static int dup3_libc(int oldfd, int newfd, int flags)
{
	dup3_fn real = get_dup3();
	return real ? real(oldfd, newfd, flags) : no_libc();
}

static int dup2_call(int oldfd, int newfd)
{
	dup2_fn real = get_dup2();
	if (TPROF_UNLIKELY(tprof_fd_owned(oldfd))) {
		errno = EBADF;
		return -1;
	}
	if (TPROF_UNLIKELY(tprof_fd_owned(newfd)))
		return tprof_fd_dup_onto(oldfd, newfd, 0, dup3_libc);
	return real ? real(oldfd, newfd) : no_libc();
}

static int dup3_call(int oldfd, int newfd, int flags)
{
	if (TPROF_UNLIKELY(tprof_fd_owned(oldfd))) {
		errno = EBADF;
		return -1;
	}
	if (TPROF_UNLIKELY(tprof_fd_owned(newfd)) && oldfd != newfd)
		return tprof_fd_dup_onto(oldfd, newfd, flags, dup3_libc);
	return dup3_libc(oldfd, newfd, flags);
}

/* The calls themselves, each with no open of the recorder's half done meanwhile (ownfd.h). */
TPROF_EXPORT int close(int fd)
{
	tprof_fd_call_begin();
	int rc = close_call(fd);
	tprof_fd_call_end();
	return rc;
}

TPROF_EXPORT int close_range(unsigned first, unsigned last, int flags)
{
	tprof_fd_call_begin();
	int rc = close_range_call(first, last, flags);
	tprof_fd_call_end();
	return rc;
}

TPROF_EXPORT void closefrom(int lowfd)
{
	tprof_fd_call_begin();
	closefrom_call(lowfd);
	tprof_fd_call_end();
}

TPROF_EXPORT int dup2(int oldfd, int newfd)
{
	tprof_fd_call_begin();
	int rc = dup2_call(oldfd, newfd);
	tprof_fd_call_end();
	return rc;
}

TPROF_EXPORT int dup3(int oldfd, int newfd, int flags)
{
	tprof_fd_call_begin();
	int rc = dup3_call(oldfd, newfd, flags);
	tprof_fd_call_end();
	return rc;
}

/* A pipe a library makes while it works for the recorder (libunwind's, for call stacks) is
 * the recorder's: above the program's numbers, and listed. */
static int pipe_adopted(int rc, int fds[2])
{
	if (rc == 0 && TPROF_UNLIKELY(tprof_fd_adopting)) {
		fds[0] = tprof_fd_adopt(fds[0]);
		fds[1] = tprof_fd_adopt(fds[1]);
	}
	return rc;
}

TPROF_EXPORT int pipe(int fds[2])
{
	pipe_fn real = get_pipe();
	return pipe_adopted(real ? real(fds) : no_libc(), fds);
}

TPROF_EXPORT int pipe2(int fds[2], int flags)
{
	pipe2_fn real = get_pipe2();
	return pipe_adopted(real ? real(fds, flags) : no_libc(), fds);
}

/* The same calls made through syscall(); every other number goes on as it came (six
 * arguments, as libc's syscall passes them). */
TPROF_EXPORT long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	va_start(ap, nr);
	tprof_syscall_args(ap, a);
	va_end(ap);
	switch (nr) {
	case SYS_close:
		return close((int)a[0]);
#ifdef SYS_close_range
	case SYS_close_range:
		return close_range((unsigned)a[0], (unsigned)a[1], (int)a[2]);
#endif
#ifdef SYS_dup2
	case SYS_dup2:
		return dup2((int)a[0], (int)a[1]);
#endif
	case SYS_dup3:
		return dup3((int)a[0], (int)a[1], (int)a[2]);
	}
	syscall_fn real = get_syscall();
	return real ? real(nr, a[0], a[1], a[2], a[3], a[4], a[5]) : no_libc();
}

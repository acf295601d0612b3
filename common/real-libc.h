/* real-libc.h — libc's own close, syscall, dlopen and dlsym, for the calls tprof's code makes
 * on its own behalf.  The recorder wraps these for the program (preload/libc/), and its own
 * calls must not pass through its wrappers: a dlopen there would start a library generation,
 * a dlsym on a handle would answer a wrapper, a close or a syscall would be checked against
 * the recorder's own descriptors.  The same code runs in the analyzer and tprof-inspect,
 * where nothing wraps them, and gets libc's there too.
 *
 * dlsym is found by its version with dlvsym, which nothing wraps; the others by it, after
 * the calling object (RTLD_NEXT), at their first call.  The recorder hands over the close it
 * found for its hook as it starts (tprof_real_close_is): no second lookup, and none later in
 * a signal handler (dlsym is not async-signal-safe). */
#ifndef TPROF_REAL_LIBC_H
#define TPROF_REAL_LIBC_H

#include <stdarg.h>

int tprof_real_close(int fd);
/* Up to six arguments, each a long or a pointer. */
long tprof_real_syscall(long nr, ...);
/* A syscall()'s six arguments, taken as longs from ap (as libc's syscall takes them). */
static inline void tprof_syscall_args(va_list ap, long a[6])
{
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
}
void *tprof_real_dlopen(const char *file, int mode);
/* RTLD_NEXT and RTLD_DEFAULT are answered for the object that holds this code. */
void *tprof_real_dlsym(void *handle, const char *name);

/* libc's close, found by a program that wraps it (preload/libc/hook-fd.c), for these. */
void tprof_real_close_is(int (*libc_close)(int));

/* Finds libc's dlsym now and returns it (NULL: there is none to find). */
void *tprof_real_libc_find(void);

#endif

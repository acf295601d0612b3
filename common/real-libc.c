/* real-libc.c — libc's own close, syscall, dlopen and dlsym (real-libc.h), each found once,
 * at its first call (the recorder's close as it starts, from its hook), so that a process
 * start pays for no lookup it does not use. */
#include "real-libc.h"

#include <dlfcn.h>
#include <errno.h>

#include "startup.h"

typedef void *(*dlsym_fn)(void *, const char *);
typedef void *(*dlopen_fn)(const char *, int);
typedef int (*close_fn)(int);
typedef long (*syscall_fn)(long, ...);

static dlsym_fn real_dlsym TPROF_START_DATA;
static void *real_close TPROF_START_DATA;
static void *real_dlopen;
static void *real_syscall;

/* The function called name after this object, kept in *slot; NULL when there is none. */
static void *found(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (f)
		return f;
	dlsym_fn sym = (dlsym_fn)tprof_real_libc_find();
	if (!sym)
		return NULL;
	int e = errno;
	f = sym(RTLD_NEXT, name);
	errno = e;
	__atomic_store_n(slot, f, __ATOMIC_RELEASE);
	return f;
}

TPROF_START_CODE void *tprof_real_libc_find(void)
{
	dlsym_fn sym = __atomic_load_n(&real_dlsym, __ATOMIC_ACQUIRE);
	if (sym)
		return (void *)sym;
	int e = errno;
	/* the newest version first; RTLD_NEXT is after this object, where libc is */
	sym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!sym)
		sym = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	if (sym)
		__atomic_store_n(&real_dlsym, sym, __ATOMIC_RELEASE);
	errno = e;
	return (void *)sym;
}

TPROF_START_CODE void tprof_real_close_is(int (*libc_close)(int))
{
	if (libc_close)
		__atomic_store_n(&real_close, (void *)libc_close, __ATOMIC_RELEASE);
}

int tprof_real_close(int fd)
{
	close_fn f = (close_fn)found(&real_close, "close");
	if (!f) {
		errno = ENOSYS;
		return -1;
	}
	return f(fd);
}

long tprof_real_syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	va_start(ap, nr);
	tprof_syscall_args(ap, a);
	va_end(ap);
	syscall_fn f = (syscall_fn)found(&real_syscall, "syscall");
	if (!f) {
		errno = ENOSYS;
		return -1;
	}
	return f(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

void *tprof_real_dlopen(const char *file, int mode)
{
	dlopen_fn f = (dlopen_fn)found(&real_dlopen, "dlopen");
	return f ? f(file, mode) : NULL;
}

void *tprof_real_dlsym(void *handle, const char *name)
{
	dlsym_fn f = (dlsym_fn)tprof_real_libc_find();
	return f ? f(handle, name) : NULL;
}

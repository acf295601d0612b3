/* hook-proc.c — process and thread life-cycle hooks: the exec family (flush everything first;
 * keep the profiler's environment), posix_spawn (environment only), thread names, and dlclose
 * (string literals of an unloaded object may not be cached by address any more). */
#include <alloca.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "../core/core.h"
#include "../core/env-carry.h"
#include "../core/resolve.h"
#include "../spool/spool.h"
#include "../init.h"

extern char **environ;

/* The two a fork child calls (a shell's, for every command it runs): looked up by the parent
 * before it forks (bind_exec), kept with the start's data. */
TPROF_REAL_AT_START(int, execve, (const char *, char *const[], char *const[]))
TPROF_REAL_AT_START(int, execvpe, (const char *, char *const[], char *const[]))
TPROF_REAL(int, fexecve, (int, char *const[], char *const[]))
TPROF_REAL(int, posix_spawn, (pid_t *, const char *, const posix_spawn_file_actions_t *,
			      const posix_spawnattr_t *, char *const[], char *const[]))
TPROF_REAL(int, posix_spawnp, (pid_t *, const char *, const posix_spawn_file_actions_t *,
			       const posix_spawnattr_t *, char *const[], char *const[]))
TPROF_REAL(int, pthread_setname_np, (pthread_t, const char *))
TPROF_REAL(int, dlclose, (void *))

#define MAX_ENV_SLOTS 16384
#define PRELOAD_BUF 4096

/* Before a fork (init.c's handler calls it): a child that execs finds the real functions
 * bound.  Each child would otherwise look them up again (the parent never execs), and the
 * lookup would fault in pages of the loader, of libc and of this library in every child. */
TPROF_START_CODE static void bind_exec(void)
{
	get_execve();
	get_execvpe();
}

__attribute__((constructor(102))) static void exec_at_fork(void)
{
	if (tprof_g.cfg.enable)
		tprof_fork_prepare_hook = bind_exec;
}

/* Only the process image itself flushes: a vfork child shares its parent's memory and must
 * not touch the parent's buffers (its pid differs). */
TPROF_START_CODE static void before_exec(void)
{
	if (tprof_g.cfg.enable && getpid() == tprof_g.pid)
		tprof_prepare_exec();
}

/* The exec failed and the program goes on: so does its system profile (a new image). */
TPROF_START_CODE static int after_exec(int rc)
{
	int e = errno;
	if (tprof_g.cfg.enable && getpid() == tprof_g.pid)
		tprof_sampling_exec_failed();
	errno = e;
	return rc;
}

/* Fills `slots` (on the caller's stack) with envp plus the profiler's variables. */
#define WITH_ENV(envp, out)                                                             \
	size_t n_##out = tprof_env_extra(envp);                                         \
	if (n_##out > MAX_ENV_SLOTS || !tprof_g.cfg.enable)                             \
		n_##out = 0;                                                            \
	char **slots_##out = n_##out ? alloca(n_##out * sizeof(char *)) : NULL;        \
	char *pbuf_##out = n_##out ? alloca(PRELOAD_BUF) : NULL;                        \
	char *const *out = n_##out ? tprof_env_fill(envp, slots_##out, n_##out, pbuf_##out, \
						   PRELOAD_BUF)                         \
				   : envp

TPROF_EXPORT TPROF_START_CODE int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn real = get_execve();
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	WITH_ENV(envp, env);
	return after_exec(real(path, argv, env));
}

TPROF_EXPORT TPROF_START_CODE int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execvpe_fn real = get_execvpe();
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	WITH_ENV(envp, env);
	return after_exec(real(file, argv, env));
}

TPROF_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	fexecve_fn real = get_fexecve();
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	before_exec();
	WITH_ENV(envp, env);
	return after_exec(real(fd, argv, env));
}

TPROF_EXPORT TPROF_START_CODE int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

TPROF_EXPORT TPROF_START_CODE int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

/* The execl family: collect the variadic arguments into an array on the stack. */
#define COLLECT_ARGS(first, ap, argv)                                                   \
	size_t argc_ = 1;                                                               \
	va_start(ap, first);                                                            \
	while (va_arg(ap, char *) != NULL)                                              \
		argc_++;                                                                \
	va_end(ap);                                                                     \
	if (argc_ > 1u << 20) {                                                         \
		errno = E2BIG;                                                          \
		return -1;                                                              \
	}                                                                               \
	char **argv = alloca((argc_ + 1) * sizeof(char *));                             \
	argv[0] = (char *)(first);                                                      \
	va_start(ap, first);                                                            \
	for (size_t i_ = 1; i_ <= argc_; i_++)                                          \
		argv[i_] = va_arg(ap, char *);

TPROF_EXPORT int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	return execve(path, argv, environ);
}

TPROF_EXPORT int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	COLLECT_ARGS(arg, ap, argv);
	va_end(ap);
	return execvpe(file, argv, environ);
}

TPROF_EXPORT int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	COLLECT_ARGS(arg, ap, argv);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, argv, envp);
}

TPROF_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			     const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	posix_spawn_fn real = get_posix_spawn();
	if (!real)
		return ENOSYS;
	WITH_ENV(envp, env);
	return real(pid, path, fa, attr, argv, env);
}

TPROF_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			      const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	posix_spawnp_fn real = get_posix_spawnp();
	if (!real)
		return ENOSYS;
	WITH_ENV(envp, env);
	return real(pid, file, fa, attr, argv, env);
}

TPROF_EXPORT int pthread_setname_np(pthread_t thread, const char *name)
{
	pthread_setname_np_fn real = get_pthread_setname_np();
	if (!real)
		return ENOSYS;
	int rc = real(thread, name);
	if (rc == 0 && __atomic_load_n(&tprof_active, __ATOMIC_RELAXED) && !tprof_tls.guard) {
		tprof_tls.guard++;
		struct tprof_thread *target = tprof_thread_find(thread);
		if (target)
			tprof_thread_note_name(target, name);
		tprof_tls.guard--;
	}
	return rc;
}

TPROF_EXPORT int dlclose(void *handle)
{
	dlclose_fn real = get_dlclose();
	if (!real)
		return -1;
	int rc = real(handle);
	if (rc == 0)
		tprof_intern_invalidate();
	return rc;
}

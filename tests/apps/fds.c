/* fds.c — a program that treats every descriptor above 2 as its own, as daemons, shells, MPI
 * launchers and test harnesses do: it records marks, takes the descriptors back in one of
 * several ways, then opens and writes files of its own while it goes on recording, and checks
 * them byte for byte.  Other modes check errno across the recorder's first records and hooks,
 * and the number of the program's first open().  The verdict goes to stderr (stdout may be
 * closed): "fds MODE: ok marks=N", or "fds MODE: FAIL ..." and exit status 1.
 *
 * Usage: fds MODE DIR [HIPLIB]
 *   closeloop   close() every fd from 3 to 1023
 *   closerange  close_range(3, ~0U, 0)
 *   closefrom   closefrom(3)
 *   dup2        dup2() a file of its own onto every fd from 3 to the soft limit - 16
 *   syscall     libc's syscall(): close_range, then dup2 and dup3 onto the numbers it freed
 *   raw         close_range and dup3 by raw system calls (no libc): the fds the program did
 *               not open are closed and its own file put in their place
 *   rawlink     the same, and then its own process's files in $TPROF_OUTPUT_DIR replaced by
 *               links to a file of its own (DIR/victim), which must stay as it was
 *   stdout      started with stdout closed: fd 1 stays closed, the first open() gets 1
 *   errno       errno is the program's across first records (process, thread, fork child),
 *               roctx, HIP (HIPLIB: the minimal runtime, dlopen'ed), exec, atexit, names
 *   firstopen   after the first record, open() returns the lowest number free before it (3
 *               when the program inherited nothing more than stdin, stdout and stderr)
 *   lowest      for a second, while threads come and go (new files for a sampler to read),
 *               every open() returns the lowest number free, and so with stdout closed: 1 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tprof/tprof.h>

#define NFILES 6
#define ROUNDS 20
#define CHUNK 4096
#define MARKS_BEFORE 20000
#define MARKS_PER_ROUND 500

static const char *mode;
static long marks_made;

static void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dprintf(2, "fds %s: FAIL %s\n", mode, msg);
	_exit(1);
}

static void marks(int n)
{
	for (int i = 0; i < n; i++)
		tprof_mark("fds");
	marks_made += n;
}

/* A system call without libc: nothing the recorder interposes sees it. */
static long raw_syscall(long nr, long a, long b, long c)
{
#if defined(__x86_64__)
	long ret;
	register long r10 __asm__("r10") = 0;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#else
	(void)nr, (void)a, (void)b, (void)c;
	return -ENOSYS;
#endif
}

static unsigned char pattern(int file, int round, int i)
{
	return (unsigned char)(file * 131 + round * 17 + i * 7 + (i >> 8));
}

static int open_own(const char *dir, const char *name, int flags)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, flags, 0600);
	if (fd < 0)
		fail("cannot open %s: %s", path, strerror(errno));
	return fd;
}

/* The program's own files, written while it records, then read back byte for byte. */
static void own_files(const char *dir)
{
	int fds[NFILES];
	unsigned char buf[CHUNK];
	char name[64];
	for (int f = 0; f < NFILES; f++) {
		snprintf(name, sizeof(name), "own-%s-%d", mode, f);
		fds[f] = open_own(dir, name, O_RDWR | O_CREAT | O_TRUNC);
	}
	for (int r = 0; r < ROUNDS; r++) {
		for (int f = 0; f < NFILES; f++) {
			for (int i = 0; i < CHUNK; i++)
				buf[i] = pattern(f, r, i);
			if (write(fds[f], buf, CHUNK) != CHUNK)
				fail("write to own file %d (fd %d): %s", f, fds[f], strerror(errno));
		}
		marks(MARKS_PER_ROUND);
	}
	for (int f = 0; f < NFILES; f++)
		if (close(fds[f]))
			fail("close of own file %d (fd %d): %s", f, fds[f], strerror(errno));
	for (int f = 0; f < NFILES; f++) {
		snprintf(name, sizeof(name), "own-%s-%d", mode, f);
		int fd = open_own(dir, name, O_RDONLY);
		for (int r = 0; r < ROUNDS; r++) {
			ssize_t n = read(fd, buf, CHUNK);
			if (n != CHUNK)
				fail("own file %d: %zd bytes in round %d", f, n, r);
			for (int i = 0; i < CHUNK; i++)
				if (buf[i] != pattern(f, r, i))
					fail("own file %d: byte %d of round %d changed", f, i, r);
		}
		if (read(fd, buf, 1) != 0)
			fail("own file %d: longer than written", f);
		close(fd);
	}
}

/* The descriptors above 2 that the program did not open itself, from /proc/self/fd. */
static int others(int *out, int max)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		fail("opendir /proc/self/fd: %s", strerror(errno));
	struct dirent *e;
	while ((e = readdir(d)) && n < max) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] != '.' && fd > 2 && fd != dirfd(d))
			out[n++] = fd;
	}
	closedir(d);
	return n;
}

static const char victim_text[] = "the program's own file\n";

/* The recorder's files of this process ("<host>.<pid>.*") replaced by links to DIR/victim. */
static void links_to_victim(const char *dir)
{
	char victim[4096], host[256] = "host", prefix[300];
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	int fd = open(victim, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, victim_text, sizeof(victim_text) - 1) != sizeof(victim_text) - 1)
		fail("cannot write %s", victim);
	raw_syscall(SYS_close, fd, 0, 0);
	gethostname(host, sizeof(host) - 1);
	for (char *c = host; *c; c++)
		if (*c == '/')
			*c = '_';
	snprintf(prefix, sizeof(prefix), "%s.%d.", host, (int)getpid());
	const char *out = getenv("TPROF_OUTPUT_DIR");
	DIR *d = out ? opendir(out) : NULL;
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", out, e->d_name);
		if (unlink(path) || symlink(victim, path))
			fail("cannot replace %s by a link", path);
		n++;
	}
	if (d)
		closedir(d);
	if (!n)
		fail("no file of the recorder in %s", out ? out : "(TPROF_OUTPUT_DIR unset)");
}

/* DIR/victim as links_to_victim wrote it. */
static void victim_intact(const char *dir)
{
	char victim[4096], buf[256];
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	int fd = open(victim, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	if (n != sizeof(victim_text) - 1 || memcmp(buf, victim_text, (size_t)n))
		fail("%s was written to (%zd bytes)", victim, n);
	close(fd);
}

static void take_back(const char *dir)
{
	if (!strcmp(mode, "closeloop")) {
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
	} else if (!strcmp(mode, "closerange")) {
		if (close_range(3, ~0U, 0))
			fail("close_range: %s", strerror(errno));
	} else if (!strcmp(mode, "closefrom")) {
		closefrom(3);
	} else if (!strcmp(mode, "dup2")) {
		struct rlimit rl;
		getrlimit(RLIMIT_NOFILE, &rl);
		int last = rl.rlim_cur > 1040 ? 1023 : (int)rl.rlim_cur - 16;
		int src = open_own(dir, "dup-source", O_RDWR | O_CREAT | O_TRUNC);
		for (int fd = 3; fd <= last; fd++)
			if (fd != src && dup2(src, fd) != fd)
				fail("dup2(%d, %d): %s", src, fd, strerror(errno));
		if (write(last, "dup2", 4) != 4)
			fail("write through fd %d: %s", last, strerror(errno));
		for (int fd = 3; fd <= last; fd++)
			if (fd != src && close(fd))
				fail("close(%d) of its own duplicate: %s", fd, strerror(errno));
		close(src);
	} else if (!strcmp(mode, "syscall")) {
		int theirs[64], n = others(theirs, 64);
		if (syscall(SYS_close_range, 3, ~0U, 0))
			fail("syscall(close_range): %s", strerror(errno));
		int src = open_own(dir, "syscall-source", O_RDWR | O_CREAT | O_TRUNC);
		for (int i = 0; i < n; i++)
			if (theirs[i] != src &&
			    syscall(i % 2 ? SYS_dup3 : SYS_dup2, src, theirs[i], 0) != theirs[i])
				fail("syscall(dup) onto %d: %s", theirs[i], strerror(errno));
		for (int i = 0; i < n; i++)
			if (theirs[i] != src && syscall(SYS_close, theirs[i]))
				fail("syscall(close) of %d: %s", theirs[i], strerror(errno));
		close(src);
	} else if (!strcmp(mode, "raw") || !strcmp(mode, "rawlink")) {
		int theirs[64], n = others(theirs, 64);
		if (n == 0)
			fail("no descriptor of the recorder to take");
		if (raw_syscall(SYS_close_range, 3, ~0L & 0xffffffffL, 0))
			fail("raw close_range failed");
		int src = open_own(dir, "raw-source", O_RDWR | O_CREAT | O_TRUNC);
		for (int i = 0; i < n; i++)
			if (theirs[i] != src && raw_syscall(SYS_dup3, src, theirs[i], 0) != theirs[i])
				fail("raw dup3 onto %d failed", theirs[i]);
		if (write(src, "raw-source", 10) != 10)
			fail("write raw-source: %s", strerror(errno));
		if (!strcmp(mode, "rawlink"))
			links_to_victim(dir);
		own_files(dir);
		for (int i = 0; i < n; i++)
			if (theirs[i] != src)
				raw_syscall(SYS_close, theirs[i], 0, 0);
		char buf[32];
		ssize_t k = pread(src, buf, sizeof(buf), 0);
		if (k != 10 || memcmp(buf, "raw-source", 10))
			fail("raw-source holds %zd bytes, not its own 10", k);
		close(src);
	} else if (!strcmp(mode, "stdout")) {
		errno = 0;
		if (write(1, "PROGRAM-OUTPUT\n", 15) != -1 || errno != EBADF)
			fail("write to the closed stdout did not fail with EBADF (errno %d)", errno);
		int fd = open_own(dir, "stdout-own", O_RDWR | O_CREAT | O_TRUNC);
		if (fd != 1)
			fail("the first open() with stdout closed returned %d, not 1", fd);
		close(fd);
	}
}

/* ---- errno -------------------------------------------------------------------------------- */

static int exit_errno = -1;

static void check_errno(int want, const char *what)
{
	if (errno != want)
		fail("errno after %s: %d (%s), not %d", what, errno, strerror(errno), want);
}

static void *thread_first(void *arg)
{
	(void)arg;
	errno = 78;
	tprof_mark("thread's first");
	check_errno(78, "a thread's first record");
	errno = 78;
	tprof_range_push("thread range");
	tprof_range_pop();
	check_errno(78, "a thread's range");
	return NULL;
}

static void at_exit_check(void)
{
	if (errno != exit_errno) {
		dprintf(2, "fds errno: FAIL errno in an atexit handler: %d, not %d\n", errno,
			exit_errno);
		_exit(1);
	}
}

typedef int (*hip_int_fn)(int);
typedef int (*hip_stream_fn)(void **);
typedef int (*hip_sync_fn)(void *);
typedef struct {
	uint32_t x, y, z;
} dim3;
typedef int (*hip_launch_fn)(const void *, dim3, dim3, void **, size_t, void *);
typedef void (*hip_register_fn)(void **, const void *, char *, const char *, unsigned, void *,
				void *, void *, void *, int *);

static void kernel(void)
{
}

static void hip_calls(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fail("dlopen %s: %s", lib, dlerror());
	hip_int_fn set_device = (hip_int_fn)dlsym(h, "hipSetDevice");
	hip_stream_fn stream_create = (hip_stream_fn)dlsym(h, "hipStreamCreate");
	hip_sync_fn sync = (hip_sync_fn)dlsym(h, "hipStreamSynchronize");
	hip_launch_fn launch = (hip_launch_fn)dlsym(h, "hipLaunchKernel");
	hip_register_fn reg = (hip_register_fn)dlsym(h, "__hipRegisterFunction");
	if (!set_device || !stream_create || !sync || !launch || !reg)
		fail("%s lacks a HIP function", lib);
	check_errno(77, "dlopen and dlsym");
	reg(NULL, (const void *)kernel, "fds_kernel", "fds_kernel", (unsigned)-1, NULL, NULL, NULL,
	    NULL, NULL);
	check_errno(77, "__hipRegisterFunction");
	if (set_device(0))
		fail("hipSetDevice failed");
	check_errno(77, "the first HIP call, the process's first record");
	void *s = NULL;
	if (stream_create(&s))
		fail("hipStreamCreate failed");
	check_errno(77, "hipStreamCreate");
	dim3 g = { 1, 1, 1 }, b = { 64, 1, 1 };
	void *args[1] = { NULL };
	for (int i = 0; i < 3; i++)
		if (launch((const void *)kernel, g, b, args, 0, s))
			fail("hipLaunchKernel failed");
	check_errno(77, "hipLaunchKernel");
	if (sync(s))
		fail("hipStreamSynchronize failed");
	check_errno(77, "hipStreamSynchronize");
}

static void errno_checks(const char *hiplib)
{
	exit_errno = 80;
	atexit(at_exit_check);
	errno = 77;
	if (hiplib)
		hip_calls(hiplib);
	tprof_mark("process's first");
	check_errno(77, "the first mark");
	errno = 77;
	tprof_counter("counter", 1.5);
	tprof_step(1);
	check_errno(77, "a counter and a step");
	void (*roctx_mark)(const char *) = (void (*)(const char *))dlsym(RTLD_DEFAULT, "roctxMarkA");
	if (roctx_mark) {
		roctx_mark("roctx mark");
		check_errno(77, "roctxMarkA");
	}
	pthread_t th;
	errno = 77;
	if (pthread_create(&th, NULL, thread_first, NULL) || pthread_join(th, NULL))
		fail("pthread_create");
	check_errno(77, "pthread_create and join");
	pthread_setname_np(pthread_self(), "fds-named");
	check_errno(77, "pthread_setname_np");
	errno = 79;
	pid_t pid = fork();
	if (pid == 0) {
		if (errno != 79)
			_exit(10);
		tprof_mark("child's first");
		_exit(errno == 79 ? 0 : 11);
	}
	check_errno(79, "fork (parent)");
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		fail("the fork child found errno changed (status %d)", WEXITSTATUS(st));
	char *argv[] = { "/nonexistent/fds", NULL };
	errno = 0;
	execv(argv[0], argv);
	check_errno(ENOENT, "a failed exec");
	errno = 77;
	void *self = dlopen(NULL, RTLD_NOW);
	if (self)
		dlclose(self);
	check_errno(77, "dlopen(NULL) and dlclose");
	errno = exit_errno;
}

/* lowest: threads that live 3 ms each, one after the other, while the main thread opens and
 * closes /dev/null for a second. */
static volatile int churn_done;

static void *brief(void *arg)
{
	nanosleep(&(struct timespec){ 0, 3 * 1000 * 1000 }, NULL);
	return arg;
}

static void *churn(void *arg)
{
	while (!churn_done) {
		pthread_t t;
		if (pthread_create(&t, NULL, brief, NULL) == 0)
			pthread_join(t, NULL);
	}
	return arg;
}

static int lowest(void)
{
	int expect = 0;
	while (fcntl(expect, F_GETFD) >= 0)
		expect++;
	tprof_mark("first");
	pthread_t c;
	if (pthread_create(&c, NULL, churn, NULL) != 0)
		fail("cannot start a thread");
	long n = 0, other = 0;
	int seen = expect;
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 1000; i++, n++) {
			int fd = open("/dev/null", O_RDONLY);
			if (fd != expect) {
				other++;
				seen = fd;
			}
			close(fd);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1000000000L);
	churn_done = 1;
	pthread_join(c, NULL);
	if (other)
		fail("%ld of %ld open() calls did not return %d (one returned %d)", other, n, expect,
		     seen);
	dprintf(2, "fds %s: ok fd=%d opens=%ld\n", mode, expect, n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: fds MODE DIR [HIPLIB]\n");
		return 2;
	}
	mode = argv[1];
	const char *dir = argv[2];
	if (!strcmp(mode, "errno")) {
		errno_checks(argc > 3 ? argv[3] : NULL);
		dprintf(2, "fds %s: ok\n", mode);
		exit(0);
	}
	if (!strcmp(mode, "firstopen")) {
		int expect = 0;
		while (fcntl(expect, F_GETFD) >= 0)
			expect++;
		tprof_mark("first");
		/* The program's own system profile begins 20 ms after the start: past it. */
		struct timespec pause = { 0, 200 * 1000 * 1000 };
		nanosleep(&pause, NULL);
		int fd = open("/dev/null", O_RDONLY);
		if (fd != expect)
			fail("the first open() returned %d, not %d", fd, expect);
		dprintf(2, "fds %s: ok fd=%d\n", mode, fd);
		return 0;
	}
	if (!strcmp(mode, "lowest"))
		return lowest();
	marks(MARKS_BEFORE);
	/* Past the start of the program's own system profile (20 ms), when there is one. */
	nanosleep(&(struct timespec){ 0, 150 * 1000 * 1000 }, NULL);
	take_back(dir);
	if (strcmp(mode, "raw") && strcmp(mode, "rawlink"))
		own_files(dir);
	marks(1);
	if (!strcmp(mode, "rawlink"))
		victim_intact(dir);
	dprintf(2, "fds %s: ok marks=%ld\n", mode, marks_made);
	return 0;
}

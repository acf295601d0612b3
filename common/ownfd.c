/* ownfd.c — tprof's descriptors in a program (ownfd.h): opened close-on-exec, moved above the
 * floor and listed.  The list is read without a lock (the close hook) and changed under
 * own_lock, which is also held from an open to its listing and around the hooks' close_range
 * and dup onto a listed descriptor, so that neither falls in between.  own_lock comes last in
 * every lock order: the lock of a held file, when one is needed, is taken before it. */
#include "ownfd.h"
#include "real-libc.h"
#include "startup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif

#define MAX_OWN 64          /* descriptors listed at once: a few held, a few being read */
#define LOW_LIMIT 1024      /* the floor lies below the soft limit, and below this */
#define ABOVE_FLOOR 64      /* room for tprof's descriptors between the floor and the limit */
#define MOVE_WAIT_S 2       /* how long a dup onto tprof's descriptor waits for it */

struct own {
	int fd1;                    /* the descriptor + 1; 0: a free entry */
	struct tprof_held *held;    /* NULL: a file opened and closed again soon ... */
	int adopted;                /* ... or another library's, kept for good (its number
				     * cannot be changed behind its back) */
};

static struct own owns[MAX_OWN];
/* entries from here on are free: a lookup stops here */
static int owns_end TPROF_START_DATA;
static int guest TPROF_START_DATA;
/* Taken at every fork: with the start's data (startup.h), as is what a fork writes. */
static pthread_mutex_t own_lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t released TPROF_START_DATA = PTHREAD_COND_INITIALIZER;
int tprof_fd_lowest TPROF_START_DATA = INT32_MAX;
__thread int tprof_fd_adopting __attribute__((tls_model("initial-exec")));
/* This thread holds own_lock: a signal handler that interrupts it and calls a hook goes
 * straight through rather than wait for itself. */
static __thread int busy __attribute__((tls_model("initial-exec")));

/* ---- a number briefly tprof's -------------------------------------------------------------
 * open() gives the lowest free number, below the floor, until the file moves up: a program's
 * close or dup2 onto that number in that moment (a close loop, dup2 onto every number) would
 * close or replace tprof's file, or fail with EBUSY.  So a program's call on numbers and an
 * opening of tprof's never overlap: each side counts itself in, then looks at the other (the
 * program's side steps back and waits while tprof opens).  A thread never waits for itself: a
 * signal handler that records inside one of its thread's calls goes through. */
/* Written by every fork child that closes or dups (a shell's redirections): with the start's
 * data, a cache line of their own, for any thread of the program may write them at any time. */
static int program_calls TPROF_START_DATA __attribute__((aligned(64)));
static int tprof_opens TPROF_START_DATA;
static __thread int my_program_calls __attribute__((tls_model("initial-exec")));
static __thread int my_tprof_opens __attribute__((tls_model("initial-exec")));
#define OPEN_WAIT_NS 5000000   /* a program's call that blocks (a close on NFS, a dup2 onto a
				* held file whose lock the opener holds) is not waited for
				* beyond this */

void tprof_fd_call_begin(void)
{
	my_program_calls++;
	__atomic_add_fetch(&program_calls, 1, __ATOMIC_SEQ_CST);
	while (__builtin_expect(__atomic_load_n(&tprof_opens, __ATOMIC_SEQ_CST) > my_tprof_opens, 0)) {
		__atomic_sub_fetch(&program_calls, 1, __ATOMIC_SEQ_CST);
		while (__atomic_load_n(&tprof_opens, __ATOMIC_SEQ_CST) > my_tprof_opens)
			sched_yield();
		__atomic_add_fetch(&program_calls, 1, __ATOMIC_SEQ_CST);
	}
}

void tprof_fd_call_end(void)
{
	__atomic_sub_fetch(&program_calls, 1, __ATOMIC_RELEASE);
	my_program_calls--;
}

/* Around each open of tprof's (before own_lock, which a program's call may take). */
static void opening_begin(void)
{
	my_tprof_opens++;
	__atomic_add_fetch(&tprof_opens, 1, __ATOMIC_SEQ_CST);
	struct timespec t0, t;
	int timed = 0;
	while (__atomic_load_n(&program_calls, __ATOMIC_SEQ_CST) > my_program_calls) {
		if (!timed++)
			clock_gettime(CLOCK_MONOTONIC, &t0);
		else if (clock_gettime(CLOCK_MONOTONIC, &t) == 0 &&
			 (t.tv_sec - t0.tv_sec) * 1000000000ll + (t.tv_nsec - t0.tv_nsec) > OPEN_WAIT_NS)
			break;
		sched_yield();
	}
}

static void opening_end(void)
{
	__atomic_sub_fetch(&tprof_opens, 1, __ATOMIC_RELEASE);
	my_tprof_opens--;
}

int tprof_fd_open_brief(const char *path, int flags, mode_t mode)
{
	opening_begin();
	int fd = open(path, flags | O_CLOEXEC, mode);
	opening_end();
	return fd;
}

TPROF_START_CODE void tprof_fd_guest(void)
{
	__atomic_store_n(&guest, 1, __ATOMIC_RELEASE);
}

/* This thread has a table of descriptors of its own (tprof_fd_private_table). */
static __thread int private_table __attribute__((tls_model("initial-exec")));

/* The program's table is the one this thread's descriptors go to. */
static int is_guest(void)
{
	return !private_table && __atomic_load_n(&guest, __ATOMIC_ACQUIRE);
}

/* ---- a table of the thread's own ---------------------------------------------------------- */

int tprof_fd_private_table(void)
{
	if (unshare(CLONE_FILES) < 0)
		return -1;
	private_table = 1;
	/* The copies of the program's descriptors, closed: listed from /proc (the listing's own
	 * descriptor is the one number left open until the end). */
	DIR *d = opendir("/proc/thread-self/fd");
	if (!d) {
		/* no /proc: every number up to the limit */
		struct rlimit rl;
		long top = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
				   rl.rlim_cur < (1u << 20) ? (long)rl.rlim_cur : 1L << 20;
		for (long fd = 0; fd < top; fd++)
			tprof_real_close((int)fd);
		return 0;
	}
	int self = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && atoi(e->d_name) != self)
			tprof_real_close(atoi(e->d_name));
	closedir(d);
	return 0;
}

void tprof_fd_write_stderr(const char *buf, size_t len)
{
	int e = errno;
	int fd = private_table ? open("/proc/self/fd/2", O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC)
			       : STDERR_FILENO;
	if (fd >= 0) {
		ssize_t w = write(fd, buf, len);
		(void)w;
	}
	if (fd >= 0 && private_table)
		tprof_real_close(fd);
	errno = e;
}

void tprof_fd_say(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0)
		tprof_fd_write_stderr(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static void lock(void)
{
	pthread_mutex_lock(&own_lock);
	busy = 1;
}

static void unlock(void)
{
	busy = 0;
	pthread_mutex_unlock(&own_lock);
}

/* The lowest number tprof's descriptors take: 64 below the soft limit, or below 1024 when
 * the limit is higher, so that a program's descriptors stay contiguous from 3 up. */
static int fd_floor(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 3;
	rlim_t lim = rl.rlim_cur < LOW_LIMIT ? rl.rlim_cur : LOW_LIMIT;
	int f = lim >= 2 * ABOVE_FLOOR ? (int)lim - ABOVE_FLOOR : (int)lim / 2;
	return f > 3 ? f : 3;
}

/* fd moved to the lowest free number from the floor up (else from 3 up); -1 (fd closed) when
 * it is below 3 and there is no room. */
static int move_up(int fd)
{
	int floor = fd_floor();
	if (fd >= floor)
		return fd;
	int to = fcntl(fd, F_DUPFD_CLOEXEC, floor);
	if (to < 0 && fd > 2)
		return fd;
	if (to < 0)
		to = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	int e = errno;
	tprof_real_close(fd);
	errno = e;
	return to;
}

static int same_file(int fd, const struct tprof_held *h)
{
	struct stat st;
	return fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == h->dev && st.st_ino == h->ino;
}

/* ---- the list, changed under own_lock ----------------------------------------------------- */

/* After a change: the lowest descriptor and the end of the entries in use. */
static void update_lowest(void)
{
	int low = INT32_MAX, end = 0;
	for (int i = 0; i < MAX_OWN; i++)
		if (owns[i].fd1) {
			end = i + 1;
			if (owns[i].fd1 - 1 < low)
				low = owns[i].fd1 - 1;
		}
	__atomic_store_n(&owns_end, end, __ATOMIC_RELEASE);
	__atomic_store_n(&tprof_fd_lowest, low, __ATOMIC_RELEASE);
}

static int list_add(int fd, struct tprof_held *h)
{
	for (int i = 0; i < MAX_OWN; i++)
		if (!owns[i].fd1) {
			__atomic_store_n(&owns[i].held, h, __ATOMIC_RELAXED);
			__atomic_store_n(&owns[i].fd1, fd + 1, __ATOMIC_RELEASE);
			if (i >= owns_end)
				__atomic_store_n(&owns_end, i + 1, __ATOMIC_RELEASE);
			update_lowest();
			return 0;
		}
	errno = EMFILE;
	return -1;
}

static struct own *list_find(int fd)
{
	int end = __atomic_load_n(&owns_end, __ATOMIC_ACQUIRE);
	for (int i = 0; i < end; i++)
		if (__atomic_load_n(&owns[i].fd1, __ATOMIC_ACQUIRE) == fd + 1)
			return &owns[i];
	return NULL;
}

static void list_remove(struct own *o)
{
	o->adopted = 0;
	__atomic_store_n(&o->fd1, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&o->held, NULL, __ATOMIC_RELAXED);
	update_lowest();
	pthread_cond_broadcast(&released);
}

/* Under own_lock: fd above the floor and listed; -1 (fd closed) when it cannot be. */
static int settle(int fd, struct tprof_held *h)
{
	fd = move_up(fd);
	if (fd >= 0 && list_add(fd, h) < 0) {
		tprof_real_close(fd);
		errno = EMFILE;
		fd = -1;
	}
	return fd;
}

/* ---- opening and closing ------------------------------------------------------------------ */

int tprof_fd_open(const char *path, int flags, mode_t mode)
{
	if (!is_guest())
		return open(path, flags | O_CLOEXEC, mode);
	opening_begin();
	lock();
	int fd = open(path, flags | O_CLOEXEC, mode);
	if (fd >= 0)
		fd = settle(fd, NULL);
	int e = errno;
	unlock();
	opening_end();
	errno = e;
	return fd;
}

int tprof_fd_close(int fd)
{
	if (!is_guest())
		return tprof_real_close(fd);
	lock();
	struct own *o = list_find(fd);
	int rc = tprof_real_close(fd);
	int e = errno;
	if (o)
		list_remove(o);
	unlock();
	errno = e;
	return rc;
}

FILE *tprof_fd_fopen_read(const char *path)
{
	int fd = tprof_fd_open(path, O_RDONLY, 0);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "re");
	if (!f) {
		int e = errno;
		tprof_fd_close(fd);
		errno = e;
	}
	return f;
}

int tprof_fd_fclose(FILE *f)
{
	if (!is_guest())
		return fclose(f);
	lock();
	struct own *o = list_find(fileno(f));
	int rc = fclose(f);
	if (o)
		list_remove(o);
	unlock();
	return rc;
}

DIR *tprof_fd_opendir(const char *path)
{
	int fd = tprof_fd_open(path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return NULL;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		tprof_fd_close(fd);
		errno = e;
	}
	return d;
}

int tprof_fd_closedir(DIR *d)
{
	if (!is_guest())
		return closedir(d);
	lock();
	struct own *o = list_find(dirfd(d));
	int rc = closedir(d);
	if (o)
		list_remove(o);
	unlock();
	return rc;
}

int tprof_fd_adopt(int fd)
{
	if (!is_guest() || fd < 0)
		return fd;
	lock();
	int to = move_up(fd);
	struct own *o = NULL;
	if (to >= 0 && list_add(to, NULL) == 0 && (o = list_find(to)))
		o->adopted = 1;
	unlock();
	return to;
}

/* ---- held files --------------------------------------------------------------------------- */

int tprof_held_create(struct tprof_held *h, const char *path, int flags, mode_t mode,
		      pthread_mutex_t *hold_lock)
{
	struct stat st, at;
	int guest_now = is_guest();
	h->fd = -1;
	h->flags = flags & (O_ACCMODE | O_APPEND);
	h->lock = hold_lock;
	if (!(h->path = strdup(path))) {
		errno = ENOMEM;
		return -1;
	}
	if (guest_now) {
		opening_begin();
		lock();
	}
	int fd = open(path, flags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd >= 0 && guest_now)
		fd = move_up(fd);
	int ok = fd >= 0 && fstat(fd, &st) == 0;
	/* The file at path, not one of the program's that took a number closed meanwhile. */
	if (ok && (lstat(path, &at) || st.st_dev != at.st_dev || st.st_ino != at.st_ino)) {
		ok = 0;
		errno = EAGAIN;
	}
	if (ok) {
		h->dev = st.st_dev;
		h->ino = st.st_ino;
		if (guest_now && list_add(fd, h) < 0)
			ok = 0;
	}
	int e = errno;
	if (!ok && fd >= 0) {
		tprof_real_close(fd);
		unlink(path);
	}
	if (ok)
		h->fd = fd;
	if (guest_now) {
		unlock();
		opening_end();
	}
	if (!ok) {
		free(h->path);
		h->path = NULL;
	}
	errno = e;
	return ok ? 0 : -1;
}

int tprof_held_check(struct tprof_held *h)
{
	if (h->fd >= 0 && same_file(h->fd, h))
		return 0;
	if (!h->path) {
		errno = EBADF;
		return -1;
	}
	int guest_now = is_guest();
	if (guest_now) {
		opening_begin();
		lock();
	}
	/* The number is not ours any more (it may be the program's now): forgotten, not closed. */
	struct own *o = guest_now && h->fd >= 0 ? list_find(h->fd) : NULL;
	if (o && o->held == h)
		list_remove(o);
	h->fd = -1;
	int fd = open(h->path, h->flags | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && guest_now)
		fd = move_up(fd);
	int ok = fd >= 0 && same_file(fd, h);
	if (fd >= 0 && !ok)
		errno = ESTALE;   /* another file is at the path */
	if (ok && guest_now && list_add(fd, h) < 0)
		ok = 0;
	int e = errno;
	if (fd >= 0 && !ok)
		tprof_real_close(fd);
	if (ok)
		h->fd = fd;
	if (guest_now) {
		unlock();
		opening_end();
	}
	errno = e;
	return ok ? 0 : -1;
}

TPROF_START_CODE void tprof_held_close(struct tprof_held *h)
{
	if (h->fd < 0 && !h->path)
		return;   /* nothing held: a fork child of a process that recorded nothing */
	int guest_now = is_guest();
	if (guest_now)
		lock();
	if (h->fd >= 0) {
		struct own *o = guest_now ? list_find(h->fd) : NULL;
		if (same_file(h->fd, h))
			tprof_real_close(h->fd);
		if (o && o->held == h)
			list_remove(o);
	}
	h->fd = -1;
	free(h->path);
	h->path = NULL;
	if (guest_now)
		unlock();
}

/* ---- the hooks' side ---------------------------------------------------------------------- */

int tprof_fd_owned_slow(int fd)
{
	struct own *o = list_find(fd);
	if (!o)
		return 0;
	const struct tprof_held *h = __atomic_load_n(&o->held, __ATOMIC_RELAXED);
	/* A held file whose number the program took by other means is the program's now. */
	return !h || same_file(fd, h);
}

static void deadline(struct timespec *ts, int seconds)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += seconds;
}

/* Under own_lock, entry o (on newfd) being tprof's: the file moves to another number (or, with
 * no number free, is forgotten until the next check reopens it), and newfd is closed. */
static void move_away(struct own *o, int newfd)
{
	struct tprof_held *h = o->held;
	int to = fcntl(newfd, F_DUPFD_CLOEXEC, fd_floor());
	if (to < 0)
		to = fcntl(newfd, F_DUPFD_CLOEXEC, 3);
	list_remove(o);
	if (to >= 0 && list_add(to, h) < 0) {
		tprof_real_close(to);
		to = -1;
	}
	h->fd = to;
	tprof_real_close(newfd);
}

int tprof_fd_dup_onto(int oldfd, int newfd, int flags, int (*dup3_fn)(int, int, int))
{
	if (busy)
		return dup3_fn(oldfd, newfd, flags);
	struct timespec until;
	deadline(&until, MOVE_WAIT_S);
	for (int tries = 0; tries < 4; tries++) {
		lock();
		struct own *o = list_find(newfd);
		struct tprof_held *h = o ? o->held : NULL;
		unlock();
		/* The held file's writers first, then the list: the order of every other path. */
		if (h && h->lock && pthread_mutex_timedlock(h->lock, &until)) {
			errno = EBUSY;
			return -1;
		}
		lock();
		int rc = 0;
		while ((o = list_find(newfd)) && !o->held && !o->adopted && !rc)   /* being read */
			rc = pthread_cond_timedwait(&released, &own_lock, &until);
		int done = 1;
		if (o && o->adopted) {
			/* Another library's: its number cannot follow a move.  The program's wins. */
			list_remove(o);
			o = NULL;
		}
		if (o && !o->held) {
			errno = EBUSY;
			unlock();
			if (h && h->lock)
				pthread_mutex_unlock(h->lock);
			return -1;
		}
		if (o && o->held != h)
			done = 0;   /* another file took the number meanwhile: again, with its lock */
		else if (o && same_file(newfd, h))
			move_away(o, newfd);
		else if (o)
			list_remove(o);   /* the program's already */
		int r = done ? dup3_fn(oldfd, newfd, flags) : 0;
		int e = errno;
		unlock();
		if (h && h->lock)
			pthread_mutex_unlock(h->lock);
		errno = e;
		if (done)
			return r;
	}
	errno = EBUSY;
	return -1;
}

static int by_number(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int tprof_fd_close_range(unsigned first, unsigned last, int flags,
			 int (*close_range_fn)(unsigned, unsigned, int))
{
	int ours[MAX_OWN], n = 0, calls = 0, rc = 0, e = 0;
	if (first > last)
		return close_range_fn(first, last, flags);
	int locked = !busy;
	if (locked)
		lock();
	for (int i = 0; i < MAX_OWN; i++) {
		int fd = owns[i].fd1 - 1;
		if (fd >= 0 && (unsigned)fd >= first && (unsigned)fd <= last &&
		    tprof_fd_owned_slow(fd))
			ours[n++] = fd;
	}
	qsort(ours, (size_t)n, sizeof(ours[0]), by_number);
	unsigned from = first;
	for (int k = 0; k <= n; k++) {
		unsigned to = k < n ? (unsigned)ours[k] - 1 : last;
		if ((k == n || (unsigned)ours[k] > from) && from <= to) {
			calls++;
			if (close_range_fn(from, to, flags) && !rc) {
				rc = -1;
				e = errno;
			}
		}
		if (k < n)
			from = (unsigned)ours[k] + 1;
	}
	/* Nothing but tprof's in the range: the table is still to be unshared if asked. */
	if (!calls && (flags & CLOSE_RANGE_UNSHARE) && unshare(CLONE_FILES) && !rc) {
		rc = -1;
		e = errno;
	}
	if (locked)
		unlock();
	errno = e;
	return rc;
}

/* ---- fork --------------------------------------------------------------------------------- */

TPROF_START_CODE void tprof_fd_fork_prepare(void)
{
	lock();
}

TPROF_START_CODE void tprof_fd_fork_parent(void)
{
	unlock();
}

/* The only thread of the child: a file being read by another thread of the parent is the
 * child's to close; held files are closed by their owners. */
TPROF_START_CODE void tprof_fd_fork_child(void)
{
	int closed = 0;
	tprof_mutex_reset(&own_lock);
	tprof_cond_reset(&released);
	busy = 0;
	for (int i = 0; i < owns_end; i++)   /* not the free entries: their pages stay unread */
		if (owns[i].fd1 && !owns[i].held && !owns[i].adopted) {
			tprof_real_close(owns[i].fd1 - 1);
			owns[i].fd1 = 0;
			closed = 1;
		}
	if (closed)
		update_lowest();
}

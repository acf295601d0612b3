/* fdcache.c — descriptors for the chunk files (or parts of one: an import's images share a
 * file).  The merge reads every process image's chunk file piece by piece for the whole run,
 * and a profile may hold more files than the process may open (`ulimit -n`), so only a few are
 * open at once: the least recently read is closed when another must be opened, and reopened
 * when read again (checked to be the same file, by device and inode).  Any open of the reader
 * that finds no descriptor left closes the cached ones and tries again.  Reads may come from
 * the merge's thread and the caller's, so the list is under a lock; a descriptor being read is
 * pinned and never closed under it. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"

/* At most this many cached, and at most half of what the descriptor limit leaves once the
 * outputs and libraries have theirs. */
#define CACHE_MAX 256
#define RESERVED 24

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cfile *newest, *oldest;
static size_t nopen, cap;

static size_t capacity(void)
{
	struct rlimit rl;
	if (cap)
		return cap;
	cap = CACHE_MAX;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		rlim_t room = rl.rlim_cur > 2 * RESERVED ? (rl.rlim_cur - RESERVED) / 2 : rl.rlim_cur / 4;
		cap = room < 1 ? 1 : room < CACHE_MAX ? (size_t)room : CACHE_MAX;
	}
	return cap;
}

static void unlink_file(struct cfile *f)
{
	if (f->newer)
		f->newer->older = f->older;
	else
		newest = f->older;
	if (f->older)
		f->older->newer = f->newer;
	else
		oldest = f->newer;
	f->newer = f->older = NULL;
}

static void link_newest(struct cfile *f)
{
	f->older = newest;
	f->newer = NULL;
	if (newest)
		newest->newer = f;
	newest = f;
	if (!oldest)
		oldest = f;
}

/* Closes the oldest unpinned descriptors until at most `keep` are open; how many closed. */
static size_t shrink_locked(size_t keep)
{
	size_t closed = 0;
	for (struct cfile *f = oldest, *next; f && nopen > keep; f = next) {
		next = f->newer;
		if (f->pins)
			continue;
		unlink_file(f);
		close(f->fd);
		f->fd = -1;
		nopen--;
		closed++;
	}
	return closed;
}

static int open_locked(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);
	if (fd < 0 && (errno == EMFILE || errno == ENFILE) && shrink_locked(0))
		fd = open(path, flags | O_CLOEXEC);
	return fd;
}

int fdcache_open(const char *path, int flags)
{
	pthread_mutex_lock(&lock);
	int fd = open_locked(path, flags);
	int e = errno;
	pthread_mutex_unlock(&lock);
	errno = e;
	return fd;
}

void cfile_init(struct cfile *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->fd = -1;
}

void cfile_init_part(struct cfile *f, struct cfile *whole, uint64_t base, uint64_t len)
{
	cfile_init(f, whole->path);
	f->whole = whole;
	f->base = base;
	f->len = len;
}

int cfile_size(const struct cfile *f, const char *path, uint64_t *size)
{
	struct stat st;
	if (f->whole) {
		*size = f->len;
		return 0;
	}
	if (stat(path, &st) < 0)
		return -1;
	*size = (uint64_t)st.st_size;
	return 0;
}

static void adopt_locked(struct cfile *f, int fd)
{
	f->fd = fd;
	link_newest(f);
	nopen++;
	if (nopen > capacity())
		shrink_locked(capacity());
}

void cfile_adopt(struct cfile *f, int fd)
{
	struct stat st;
	if (fstat(fd, &st) == 0) {
		f->dev = (uint64_t)st.st_dev;
		f->ino = (uint64_t)st.st_ino;
	}
	pthread_mutex_lock(&lock);
	f->pins++;               /* not the one closed to make room */
	adopt_locked(f, fd);
	f->pins--;
	pthread_mutex_unlock(&lock);
}

/* Opens f again (under the lock); -1, f->failed set and said, when it cannot be. */
static int reopen_locked(struct cfile *f)
{
	struct stat st;
	int fd = open_locked(f->path, O_RDONLY);
	if (fd < 0) {
		int e = errno;
		f->failed = 1;
		diag_unreadable(f->path, "cannot open it again: %s; the rest of its records are "
				"left out", strerror(e));
		return -1;
	}
	if (fstat(fd, &st) < 0 || (f->ino && ((uint64_t)st.st_dev != f->dev ||
					    (uint64_t)st.st_ino != f->ino))) {
		close(fd);
		f->failed = 1;
		diag_unreadable(f->path, "replaced by another file while being read; the rest of "
				"its records are left out");
		return -1;
	}
	f->pins++;
	adopt_locked(f, fd);
	f->pins--;
	return 0;
}

ssize_t cfile_pread(struct cfile *f, void *buf, size_t n, uint64_t off)
{
	if (f->whole) {
		if (off >= f->len)
			return 0;
		ssize_t got = cfile_pread(f->whole, buf, n < f->len - off ? n : (size_t)(f->len - off),
					  f->base + off);
		f->failed = f->whole->failed;
		return got;
	}
	pthread_mutex_lock(&lock);
	if (f->failed || (f->fd < 0 && reopen_locked(f) < 0)) {
		pthread_mutex_unlock(&lock);
		errno = EIO;
		return -1;
	}
	if (newest != f) {
		unlink_file(f);
		link_newest(f);
	}
	f->pins++;
	int fd = f->fd;
	pthread_mutex_unlock(&lock);
	ssize_t got = pread(fd, buf, n, (off_t)off);
	int e = errno;
	pthread_mutex_lock(&lock);
	f->pins--;
	pthread_mutex_unlock(&lock);
	errno = e;
	return got;
}

void cfile_close(struct cfile *f)
{
	pthread_mutex_lock(&lock);
	if (f->fd >= 0) {
		unlink_file(f);
		close(f->fd);
		f->fd = -1;
		nopen--;
	}
	pthread_mutex_unlock(&lock);
}

/* outname.c — outputs written under a temporary name and renamed when complete (outname.h):
 * the rule for what may be at the final name, the temporaries and the registry of those not
 * yet in place, which the signal thread removes before the program dies of SIGINT, SIGTERM or
 * SIGHUP, and which a held set (a split trace) puts in place together. */
#include "outname.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../common/xalloc.h"

struct outname {
	struct outname *prev, *next;    /* the registry, in the order outputs began */
	char *path;                     /* the final name */
	char *tmp;                      /* the temporary; NULL when written directly */
	const struct out_format *fmt;
	int waiting;                    /* complete, waiting for the release of a hold */
	char *made;                     /* the first directory above it made for it, or NULL */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct outname *head, *tail;     /* under lock */
static int held, hold_failed;           /* under lock */

/* The last message of this thread (outname_error). */
static __thread char message[1024];

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
}

const char *outname_error(void)
{
	return message;
}

/* ---- removing ----------------------------------------------------------------------------- */

/* Removes name under dirfd, a directory with everything in it; never follows a link. */
static void remove_at(int dirfd, const char *name, int depth)
{
	if (unlinkat(dirfd, name, 0) == 0 || (errno != EISDIR && errno != EPERM) || depth > 16)
		return;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			remove_at(fd, e->d_name, depth + 1);
	closedir(d);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

static void remove_path(const char *path)
{
	remove_at(AT_FDCWD, path, 0);
}

/* ---- names -------------------------------------------------------------------------------- */

/* This host, as 8 hex digits (FNV-1a of its name): temporaries of other hosts sharing the
 * directory are never taken for stale. */
static unsigned host_hash(void)
{
	char h[256] = "";
	gethostname(h, sizeof(h) - 1);
	uint32_t x = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)h; *p; p++)
		x = (x ^ *p) * 16777619u;
	return x;
}

static char *temp_name(const char *path)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long count;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t r = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid() << 32 ^
		     __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED) * 0xbf58476d1ce4e5b9ull;
	char rnd[7];
	for (int i = 0; i < 6; i++, r /= sizeof(set) - 1)
		rnd[i] = set[r % (sizeof(set) - 1)];
	rnd[6] = 0;
	size_t n = strlen(path) + sizeof(OUTNAME_TMP) + 40;
	char *t = xmalloc(n);
	snprintf(t, n, "%s" OUTNAME_TMP "%08x-%ld-%s", path, host_hash(), (long)getpid(), rnd);
	return t;
}

/* The directory path is in ("." when none), to be freed; *base: its last component. */
static char *dir_of(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* Removes base's temporaries in dir left by processes of this host that are gone. */
static void remove_stale(const char *path)
{
	const char *base;
	char *dir = dir_of(path, &base);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return;
	}
	size_t nb = strlen(base), nt = strlen(OUTNAME_TMP);
	unsigned host = host_hash();
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *s = e->d_name;
		if (strncmp(s, base, nb) || strncmp(s + nb, OUTNAME_TMP, nt))
			continue;
		s += nb + nt;
		char *end;
		unsigned long h = strtoul(s, &end, 16);
		if (end != s + 8 || *end != '-' || h != host)
			continue;
		long pid = strtol(end + 1, &end, 10);
		if (*end != '-' || pid <= 0 || pid == getpid() || pid > INT_MAX ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		remove_at(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	free(dir);
}

/* ---- the rule ----------------------------------------------------------------------------- */

enum { ABSENT, REPLACE, DIRECT };

static int dir_empty(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return 0;
	struct dirent *e;
	int empty = 1;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

static int refuse(const char *path, const char *why)
{
	say("%s: %s; not replacing it (remove it or choose another name)", path, why);
	return -1;
}

/* What is at path, and whether fmt may take its place (ABSENT, REPLACE, DIRECT) or not (-1,
 * why said); *st is what is there. */
static int judge(const char *path, const struct out_format *f, struct stat *st)
{
	const char *why = NULL;
	if (lstat(path, st) < 0) {
		if (errno == ENOENT)
			return ABSENT;
		say("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISLNK(st->st_mode)) {
		struct stat t;
		if (f->stream && stat(path, &t) == 0 && (S_ISFIFO(t.st_mode) || S_ISCHR(t.st_mode))) {
			*st = t;
			return DIRECT;          /* /dev/stdout */
		}
		return refuse(path, "is a symbolic link (give the name it points to)");
	}
	if (f->stream && (S_ISFIFO(st->st_mode) || S_ISCHR(st->st_mode)))
		return DIRECT;
	if (f->dir && !S_ISDIR(st->st_mode)) {
		say("%s: exists and is not a directory (%s is a directory); not replacing "
			    "it", path, f->what);
		return -1;
	}
	if (!f->dir && S_ISDIR(st->st_mode)) {
		say("%s: is a directory (%s is a file); not replacing it", path, f->what);
		return -1;
	}
	if (!f->dir && !S_ISREG(st->st_mode))
		return refuse(path, "exists and is not a regular file");
	if (f->dir ? dir_empty(path) : st->st_size == 0)
		return REPLACE;
	if (f->foreign && (why = f->foreign(path)))
		return refuse(path, why);
	return REPLACE;
}

/* The directory the output goes in must take new entries; where it is missing, the nearest
 * directory above it that exists must, and with make the missing ones are made (as mkdir -p
 * would).  *made (with make): the first directory made, to be freed; NULL when none was. */
static int check_parent(const char *path, int make, char **made)
{
	const char *base;
	char *dir = dir_of(path, &base);
	struct stat st;
	int err = 0;
	if (made)
		*made = NULL;
	/* up to the nearest that exists */
	size_t n = strlen(dir), missing = 0;
	char *top = xstrdup(dir);
	while (stat(top, &st) < 0 && errno == ENOENT) {
		char *slash = strrchr(top, '/');
		if (!strcmp(top, ".") || !strcmp(top, "/"))
			break;
		missing++;
		if (!slash)
			strcpy(top, ".");
		else if (slash == top)
			slash[1] = 0;
		else
			*slash = 0;
	}
	if (!*base)
		err = EISDIR;
	else if (stat(top, &st) < 0)
		err = errno;
	else if (!S_ISDIR(st.st_mode))
		err = ENOTDIR;
	else if (access(top, W_OK | X_OK) < 0)
		err = errno;
	/* then down again, making each */
	for (size_t i = 0; !err && make && missing && i <= n; i++) {
		if (dir[i] != '/' && dir[i])
			continue;
		if (i == 0)
			continue;
		char c = dir[i];
		dir[i] = 0;
		if (mkdir(dir, 0777) == 0) {
			if (made && !*made)
				*made = xstrdup(dir);
		} else if (errno != EEXIST) {
			err = errno;
		}
		dir[i] = c;
	}
	if (err)
		say("cannot write %s: %s: %s", path, missing && !make ? top : dir, strerror(err));
	free(top);
	free(dir);
	return err ? -1 : 0;
}

/* Removes the directories made for o that are empty, from its own up to the first made. */
static void remove_made(const char *path, const char *made)
{
	const char *base;
	char *dir = dir_of(path, &base);
	size_t n = strlen(made);
	while (strlen(dir) >= n && !strncmp(dir, made, n) && rmdir(dir) == 0) {
		char *slash = strrchr(dir, '/');
		if (!slash || strlen(dir) == n)
			break;
		*slash = 0;
	}
	free(dir);
}

int outname_check(const char *path, const struct out_format *fmt)
{
	struct stat st;
	if (!strcmp(path, "-"))
		return 0;
	int r = judge(path, fmt, &st);
	if (r < 0)
		return -1;
	return r == DIRECT ? 0 : check_parent(path, 0, NULL);
}

/* ---- the registry ------------------------------------------------------------------------- */

static void link_in(struct outname *o)
{
	o->prev = tail;
	o->next = NULL;
	if (tail)
		tail->next = o;
	else
		head = o;
	tail = o;
}

static void unlink_out(struct outname *o)
{
	if (o->prev)
		o->prev->next = o->next;
	else
		head = o->next;
	if (o->next)
		o->next->prev = o->prev;
	else
		tail = o->prev;
}

static void free_out(struct outname *o)
{
	free(o->made);
	free(o->path);
	free(o->tmp);
	free(o);
}

/* Under lock: creates the temporary, and registers it before a signal can be taken. */
static int create_temp(struct outname *o, const struct stat *old, int *fd)
{
	for (int tries = 0; tries < 64; tries++) {
		free(o->tmp);
		o->tmp = temp_name(o->path);
		int rc = o->fmt->dir ? mkdir(o->tmp, 0777)
				     : (*fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
							   O_CLOEXEC, 0666));
		if (rc >= 0) {
			link_in(o);
			/* an output that replaces another keeps its permissions */
			if (old && o->fmt->dir)
				chmod(o->tmp, old->st_mode & 07777);
			else if (old)
				fchmod(*fd, old->st_mode & 07777);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	say("cannot write %s: %s", o->path, strerror(errno));
	return -1;
}

struct outname *outname_begin(const char *path, const struct out_format *fmt, int *fd)
{
	struct stat st;
	*fd = -1;
	int r = strcmp(path, "-") ? judge(path, fmt, &st) : DIRECT;
	if (r < 0)
		return NULL;
	struct outname *o = xcalloc(1, sizeof(*o));
	o->path = xstrdup(path);
	o->fmt = fmt;
	if (!strcmp(path, "-")) {
		fflush(stdout);
		if ((*fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0) {
			say("cannot write standard output: %s", strerror(errno));
			free_out(o);
			return NULL;
		}
		return o;
	}
	if (r == DIRECT) {
		if ((*fd = open(path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC)) < 0) {
			say("cannot write %s: %s", path, strerror(errno));
			free_out(o);
			return NULL;
		}
		return o;
	}
	if (check_parent(path, 1, &o->made) < 0) {
		if (o->made)
			remove_made(path, o->made);
		free_out(o);
		return NULL;
	}
	remove_stale(path);
	pthread_mutex_lock(&lock);
	int rc = create_temp(o, r == REPLACE ? &st : NULL, fd);
	pthread_mutex_unlock(&lock);
	if (rc < 0) {
		if (o->made)
			remove_made(path, o->made);
		free_out(o);
		return NULL;
	}
	return o;
}

const char *outname_path(const struct outname *o)
{
	return o->tmp ? o->tmp : o->path;
}

/* Puts a directory in place of one that is not empty: the two exchanged at once where the
 * file system can, else the old one moved aside first; the old one is then removed. */
static int replace_dir(struct outname *o)
{
	if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_EXCHANGE) == 0) {
		remove_path(o->tmp);
		return 0;
	}
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	char *old = temp_name(o->path);
	if (rename(o->path, old) < 0) {
		free(old);
		return -1;
	}
	int rc = rename(o->tmp, o->path);
	int err = errno;
	if (rc < 0)
		rename(old, o->path);
	else
		remove_path(old);
	free(old);
	errno = err;
	return rc;
}

/* Under lock: o, complete, in place of whatever may be at its name now. */
static int place(struct outname *o)
{
	struct stat st;
	int r = judge(o->path, o->fmt, &st);
	int rc = r < 0 ? -1 : 0;
	if (r == DIRECT) {
		say("%s: is now a FIFO or a device; not replacing it", o->path);
		rc = -1;
	} else if (r == REPLACE && o->fmt->dir && !dir_empty(o->path)) {
		if ((rc = replace_dir(o)) < 0)
			say("cannot write %s: %s", o->path, strerror(errno));
	} else if (r >= 0 && (rc = rename(o->tmp, o->path)) < 0) {
		say("cannot write %s: %s", o->path, strerror(errno));
	}
	if (rc < 0)
		remove_path(o->tmp);
	return rc;
}

static const char *shown(const char *path)
{
	return strcmp(path, "-") ? path : "standard output";
}

/* Under lock: o, not complete (err: why, when known), is removed; the message says so and
 * what is left at its name. */
static void discard(struct outname *o, int err)
{
	struct stat st;
	remove_path(o->tmp);
	if (o->made)
		remove_made(o->path, o->made);
	const char *left = lstat(o->path, &st) < 0	  ? ""
			   : S_ISDIR(st.st_mode) ? "; a directory of that name is left as it was"
						 : "; a file of that name is left as it was";
	say("%s was not written%s%s%s", o->path, err ? ": " : "", err ? strerror(err) : "", left);
}

/* For testing only: TPROF_TEST_OUTPUT_PAUSE_MS keeps a complete output that long under its
 * temporary name before it is put in place, so that a test's signal surely comes while the
 * output is being written, whatever the machine's load. */
static void test_pause(void)
{
	const char *v = getenv("TPROF_TEST_OUTPUT_PAUSE_MS");
	long ms = v ? strtol(v, NULL, 10) : 0;
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
	while (ms > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int outname_end(struct outname *o, int ok, int err)
{
	int rc = 0;
	if (ok && o->tmp)
		test_pause();
	if (!o->tmp) {                  /* written directly */
		if (!ok)
			say("cannot write %s%s%s", shown(o->path), err ? ": " : "",
			    err ? strerror(err) : "");
		free_out(o);
		return ok ? 0 : -1;
	}
	pthread_mutex_lock(&lock);
	if (ok && held) {
		o->waiting = 1;
		pthread_mutex_unlock(&lock);
		return 0;
	}
	if (ok)
		rc = place(o);
	else
		discard(o, err), rc = -1;
	unlink_out(o);
	pthread_mutex_unlock(&lock);
	free_out(o);
	return rc;
}

void outname_hold(void)
{
	pthread_mutex_lock(&lock);
	held++;
	pthread_mutex_unlock(&lock);
}

int outname_release(int keep)
{
	int rc = 0;
	pthread_mutex_lock(&lock);
	if (!keep)
		hold_failed = 1;
	if (--held > 0) {
		pthread_mutex_unlock(&lock);
		return keep ? 0 : -1;
	}
	keep = !hold_failed;
	hold_failed = 0;
	struct outname *o = head, *next;
	for (; o; o = next) {
		next = o->next;
		if (!o->waiting)
			continue;
		if (keep && rc == 0)
			rc = place(o);
		else
			remove_path(o->tmp);
		unlink_out(o);
		free_out(o);
	}
	pthread_mutex_unlock(&lock);
	return keep ? rc : -1;
}

int outname_retarget(char *const *from, char *const *to, size_t n)
{
	struct outname **o = xcalloc(n ? n : 1, sizeof(*o));
	int rc = 0;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n; i++) {
		for (o[i] = head; o[i] && (!o[i]->waiting || strcmp(o[i]->path, from[i]));)
			o[i] = o[i]->next;
		if (!o[i]) {
			say("%s: no output written there is waiting to be put in place",
			    shown(from[i]));
			rc = -1;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	for (size_t i = 0; i < n && !rc; i++)
		if (strcmp(from[i], to[i]) && outname_check(to[i], o[i]->fmt) < 0)
			rc = -1;
	for (size_t i = 0; i < n && !rc; i++) {
		char *path = xstrdup(to[i]);
		pthread_mutex_lock(&lock);
		free(o[i]->path);
		o[i]->path = path;
		pthread_mutex_unlock(&lock);
	}
	free(o);
	return rc;
}

char *outname_where(const char *path)
{
	char *p = NULL;
	pthread_mutex_lock(&lock);
	for (struct outname *o = head; o && !p; o = o->next)
		if (!strcmp(o->path, path))
			p = xstrdup(o->tmp);
	pthread_mutex_unlock(&lock);
	if (!p)
		p = xstrdup(path);
	return p;
}

/* ---- signals ------------------------------------------------------------------------------ */

static sigset_t caught;

/* Waits for a signal; then removes every temporary (holding the lock, so that nothing is put
 * in place meanwhile) and dies of the signal. */
static void *signal_thread(void *arg)
{
	(void)arg;
	int sig;
	while (sigwait(&caught, &sig) != 0)
		;
	pthread_mutex_lock(&lock);
	for (int round = 0; round < 3; round++)         /* a writer may still add a file */
		for (struct outname *o = head; o; o = o->next)
			remove_path(o->tmp);
	signal(sig, SIG_DFL);
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	raise(sig);
	_exit(128 + sig);
}

void outname_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static int once;
	if (once++)
		return;
	sigemptyset(&caught);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;
		if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
			sigaddset(&caught, sigs[i]);
	}
	pthread_t t;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 << 10);
	if (pthread_sigmask(SIG_BLOCK, &caught, NULL) == 0 &&
	    pthread_create(&t, &a, signal_thread, NULL) != 0)
		pthread_sigmask(SIG_UNBLOCK, &caught, NULL);
	pthread_attr_destroy(&a);
}

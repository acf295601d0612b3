/* ownfd.h — the descriptors tprof holds inside a program it records (the recorder's chunk file
 * and spool, the program's own system profile, the /proc files its sampler reads): opened
 * close-on-exec, never 0-2, moved above a floor so that small numbers stay the program's, and
 * listed, so that the recorder's hooks of close, close_range, closefrom, dup2 and dup3
 * (preload/libc/hook-fd.c) leave them alone.  A file kept open for the whole run is "held":
 * before each write its descriptor is checked to still be the file created, and the file is
 * reopened by path (without following links) when the program took the descriptor by means no
 * hook sees.  In tprof's own programs (tprof-inspect, the analyzer) the same calls just open
 * close-on-exec.  One way to open: every descriptor of tprof's comes from here. */
#ifndef TPROF_OWNFD_H
#define TPROF_OWNFD_H

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/types.h>

/* From now on this process is a program being recorded: descriptors go above the floor and
 * are listed.  Once, at load, before any thread of tprof's starts. */
void tprof_fd_guest(void);

/* open(2) with O_CLOEXEC added; -1 and errno on failure.  Closed with tprof_fd_close. */
int tprof_fd_open(const char *path, int flags, mode_t mode);
int tprof_fd_close(int fd);
/* A file read as a stream, a directory listed: the same, through stdio and dirent. */
FILE *tprof_fd_fopen_read(const char *path);
int tprof_fd_fclose(FILE *f);
DIR *tprof_fd_opendir(const char *path);
int tprof_fd_closedir(DIR *d);

/* A thread of tprof's that works alone (the recorder's sampler) takes a table of descriptors of
 * its own, with nothing open in it, not even 0-2 (a copy of the program's stdout would keep
 * a pipe open behind the program's back): what it opens then takes no number of the
 * program's, not even for a moment, and nothing the program does to its numbers reaches it;
 * its descriptors are plain ones, as in tprof's own programs.  Nothing but that thread may use
 * them.  0, or -1 (the thread shares the program's table as before). */
int tprof_fd_private_table(void);
/* A message of tprof's on stderr in one write(2): the program's stderr as it is now when this
 * thread has a table of its own (reopened for the message; lost where it cannot be, a
 * socket).  errno is kept. */
void tprof_fd_write_stderr(const char *buf, size_t len);
/* The same, formatted (a line: the caller gives its newline). */
void tprof_fd_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A file written for the whole run.  `lock` is the lock every write through fd is made
 * under (NULL when one thread alone uses it): a program's dup2 onto fd takes it to move the
 * file elsewhere, so that no write ever goes to the program's file. */
struct tprof_held {
	int fd;                  /* -1: none (lost, or not open) */
	int flags;               /* the access flags it is reopened with */
	dev_t dev;               /* what it is */
	ino_t ino;
	char *path;              /* where it is */
	pthread_mutex_t *lock;
};

/* Creates path, which must not exist (O_CREAT | O_EXCL | O_NOFOLLOW), with `mode`, and holds
 * it.  0, or -1 and errno. */
int tprof_held_create(struct tprof_held *h, const char *path, int flags, mode_t mode,
		      pthread_mutex_t *lock);
/* Before a write through h->fd, under h->lock: 0 when h->fd is the file created (reopened by
 * path if the program took its descriptor), -1 and errno when it cannot be had again (the
 * caller stops writing it). */
int tprof_held_check(struct tprof_held *h);
/* Closes the file (when h->fd is still it) and forgets it. */
void tprof_held_close(struct tprof_held *h);

/* A descriptor another library opened for tprof (libunwind's pipe, made during a call with
 * tprof_fd_adopting set): moved above the floor and listed for good; the new number, or fd
 * itself when it cannot be moved. */
int tprof_fd_adopt(int fd);
/* Set by a thread while a library works for tprof: pipes it makes are adopted. */
extern __thread int tprof_fd_adopting __attribute__((tls_model("initial-exec")));

/* ---- for the hooks of the program's descriptor calls ------------------------------------ */

/* Around each of the program's calls that acts on descriptor numbers it may not hold (close,
 * close_range, closefrom, dup2, dup3): no open of tprof's is half done meanwhile. */
void tprof_fd_call_begin(void);
void tprof_fd_call_end(void);
/* open(2) of a file tprof closes again at once, where it cannot be listed (a signal handler):
 * with O_CLOEXEC, and no program's call on numbers meanwhile. */
int tprof_fd_open_brief(const char *path, int flags, mode_t mode);

/* The lowest descriptor listed (INT32_MAX when none): anything below is the program's. */
extern int tprof_fd_lowest;
int tprof_fd_owned_slow(int fd);

/* Whether fd is tprof's: close and dup2 must not touch it.  A compare when it is not. */
static inline int tprof_fd_owned(int fd)
{
	return fd >= __atomic_load_n(&tprof_fd_lowest, __ATOMIC_RELAXED) && tprof_fd_owned_slow(fd);
}

/* dup3(oldfd, newfd, flags) where newfd is tprof's: tprof's file moves first.  The result of
 * `dup3`, or -1 and EBUSY when tprof's file could not be moved. */
int tprof_fd_dup_onto(int oldfd, int newfd, int flags, int (*dup3_fn)(int, int, int));
/* close_range(first, last, flags) leaving tprof's descriptors open. */
int tprof_fd_close_range(unsigned first, unsigned last, int flags,
			 int (*close_range_fn)(unsigned, unsigned, int));

/* fork: no open half done across it; the child keeps the list (each owner closes its own). */
void tprof_fd_fork_prepare(void);
void tprof_fd_fork_parent(void);
void tprof_fd_fork_child(void);

#endif

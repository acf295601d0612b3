/* outname.h — every output tprof-analyze writes is whole or absent: it is written under a
 * temporary name beside its final one and renamed to it once complete.  A failed output's
 * temporary is removed, and so is every temporary when the program is stopped by SIGINT,
 * SIGTERM or SIGHUP (it then dies of that signal).  A temporary is named
 * NAME.tprof-tmp-HOST-PID-XXXXXX (HOST: a hash of the host name); one that a killed run left
 * is removed by the next run that writes NAME, once its process is gone.  What may already be
 * at NAME is the same rule for every format: nothing, an empty file (an empty directory for a
 * directory), or an earlier output of the same format that tprof wrote (the format recognises
 * it), which the new one replaces when complete; anything else is refused and left as it was.
 * A FIFO or a character device at NAME (/dev/null) takes a stream format directly. */
#ifndef TPROF_ANALYZE_OUTNAME_H
#define TPROF_ANALYZE_OUTNAME_H

#include <stddef.h>

struct out_format {
	const char *what;       /* "a Chrome trace", for messages */
	int dir;                /* the output is a directory (an OTF2 archive) */
	int stream;             /* written front to back: may go to a FIFO or a device */
	/* Whether the non-empty file (or directory) at path is an earlier output of this
	 * format: NULL when it is (it may be replaced), else why not ("is not an SQLite
	 * database").  NULL for a format that replaces any file. */
	const char *(*foreign)(const char *path);
};

/* The marker in a temporary's name: NAME + OUTNAME_TMP + "HOST-PID-XXXXXX". */
#define OUTNAME_TMP ".tprof-tmp-"

struct outname;

/* Temporaries are removed on SIGINT, SIGTERM and SIGHUP (those not ignored): the signals are
 * blocked and a thread waits for them.  Call before any other thread starts; later calls do
 * nothing. */
void outname_catch_signals(void);

/* What went wrong last in this thread, as a message ("cannot write X: ..."). */
const char *outname_error(void);

/* 0 when path may be written as fmt; else -1 (outname_error says why).  Creates nothing. */
int outname_check(const char *path, const struct out_format *fmt);

/* Claims path: checks it, removes the temporaries of path that killed runs on this host left,
 * and creates the temporary: a file open for writing (*fd) or a directory (*fd is -1).  A
 * FIFO or device at path is opened as it is, and "-" is standard output (*fd a duplicate of
 * it).  NULL on failure. */
struct outname *outname_begin(const char *path, const struct out_format *fmt, int *fd);
/* Where the output is being written (the temporary, or path itself when written directly). */
const char *outname_path(const struct outname *o);
/* Writing is over, and was complete (ok) or not (err: the error, when one is known).
 * Complete: put in place now, or at outname_release while held.  Not complete: the
 * temporary is removed.  Frees o; -1 when the output is not (and will not be) in place,
 * outname_error saying so, why, and what is left at its name. */
int outname_end(struct outname *o, int ok, int err);

/* Outputs that end from now on wait, complete, until the matching release (holds nest): then
 * all are put in place in the order they were begun (keep), or all removed.  The parts of a
 * split trace and its index appear together, the index last.  -1 when something could not
 * be put in place (it stays absent, and so does what follows it), or when !keep. */
void outname_hold(void);
int outname_release(int keep);

/* The outputs begun at from[0..n), complete and waiting for a release, are to be put at
 * to[0..n) instead (each checked as outname_begin checks a name; a name may be another's
 * old one): for names known only once every output is written.  -1 (outname_error says
 * why) when one cannot be, and then none is moved. */
int outname_retarget(char *const *from, char *const *to, size_t n);

/* The file an output being written to path is in now (its temporary while it waits), to be
 * freed; path itself when none is. */
char *outname_where(const char *path);

#endif

/* transcode.h — a Chrome trace rewritten as imported images (transcode.c): each process of the file
 * becomes a process image of its own (common/import-records.h), the images one after another in one
 * scratch file, which the analyzer then reads as it reads the recorders' images.  What is needed to
 * put the file on the profile's time axis (its kind of time, its steps) comes back beside the
 * images. */
#ifndef TPROF_ANALYZE_TRANSCODE_H
#define TPROF_ANALYZE_TRANSCODE_H

#include <stddef.h>
#include <stdint.h>

#include "fixes.h"

struct proc;

/* A step of the file: a slice whose name matched the step pattern (ProfilerStep#N). */
struct imp_step {
	uint64_t n;
	int64_t t0, t1;                 /* the file's own ns */
};

/* How the file's times read. */
enum imp_time {
	IMP_TIME_RELATIVE = 0,          /* from some start of the tool's: no absolute time */
	IMP_TIME_EPOCH,                 /* ns since the epoch (epoch-µs timestamps) */
	IMP_TIME_BASE,                  /* baseTimeNanoseconds + ts */
};

/* One process of the file, as an image. */
struct imp_image {
	uint64_t offset, size;          /* where it is in the file's images (imp_file.pack) */
	struct proc *proc;              /* the profile's process it is, once added (import.c) */
	int64_t pid;                    /* the file's pid (a string pid: a number made up) */
	char *pid_str;                  /* the pid as a string when it was one, else NULL */
	struct imp_step *steps;
	size_t nsteps;
	uint64_t events;
};

struct imp_file {
	char *source;                   /* the file as given */
	char *host;                     /* from its "tprof" member, else NULL */
	int64_t rank;                   /* distributedInfo.rank, or -1 */
	int64_t tprof_pid;              /* "tprof": {"pid"}, or -1 */
	enum imp_time time;
	int64_t base_ns;                /* IMP_TIME_BASE */
	int has_hint;                   /* "tprof": {"base_us"}: the realtime ns of ns 0, a first
					 * estimate that steps or --import-offset overrule */
	int64_t hint_ns;
	int64_t first_ns, last_ns;      /* the file's own ns, over every event */
	char *pack;                     /* the scratch file of its images, one after another */
	struct imp_image *images;
	size_t nimages;
	uint64_t events;
	struct imp_fixes fixes;         /* what was changed or left out, by cause */
	int failed;                     /* the read ended early (what came before is kept) */
};

struct imp_opts {
	const char *scratch;            /* the directory the images' file goes into */
	const char *step_pattern;       /* extended regex, group 1 = the step; NULL: default */
	size_t run_bytes;               /* events held before a sorted run goes to disk */
};

/* Reads path into images in a file under o->scratch.  -1 when nothing could be read (the reason has
 * been said); otherwise 0, with f->failed set when the read ended early. */
int imp_transcode(const char *path, const struct imp_opts *o, struct imp_file *f);
void imp_file_free(struct imp_file *f);

#endif

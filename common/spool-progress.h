/* spool-progress.h — whether a running process got on since last asked, from its spool alone:
 * its threads' buffers gained a record, or the call a thread was in returned.  The process's
 * own stream (strings, the clock sample taken every second) does not count, nor a run of
 * polls counting one more unsuccessful poll.  Read with pread(2), never written, never mapped:
 * the process is neither stopped nor slowed.  For tprof-inspect --hang-report. */
#ifndef TPROF_SPOOL_PROGRESS_H
#define TPROF_SPOOL_PROGRESS_H

#include <stdint.h>

/* What was seen of one slot of the spool. */
struct spool_slot_seen {
	uint32_t stream, seq;
	uint32_t last;          /* the unit where its last record starts */
	uint32_t units;         /* units written */
	uint64_t last_t1;       /* the last record's t1 when it is a call */
};

struct spool_progress {
	int fd;                 /* -1: the spool could not be read (or is gone) */
	uint32_t slot_bytes;
	uint64_t created_ns;    /* from the spool's header: when its process made it */
	uint64_t job;           /* the job its process belongs to (0: not known) */
	struct spool_slot_seen *slots;
	uint32_t nslots;
};

/* Opens the spool at path; -1 when it is not one (or cannot be read). */
int spool_progress_open(struct spool_progress *sp, const char *path);
/* 1 when a thread got on since the last call (the first call: 1), 0 when none did, -1 when
 * the spool can no longer be read. */
int spool_progress_poll(struct spool_progress *sp);
void spool_progress_close(struct spool_progress *sp);

#endif

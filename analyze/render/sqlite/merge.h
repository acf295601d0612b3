/* render/sqlite/merge.h — the parts of a parallel analysis copied into the first analysis
 * process's database (merge.c), before its links, indexes and views are made. */
#ifndef TPROF_ANALYZE_SQLITE_MERGE_H
#define TPROF_ANALYZE_SQLITE_MERGE_H

#include <stdint.h>

struct sqldb;

/* Before the first part: what the copies match rows by. */
int sqlite_merge_begin(struct sqldb *d);
/* Copies the rows of the database at path (closed, complete) into d. */
int sqlite_merge_part(struct sqldb *d, const char *path);
/* After the last: the threads other analysis processes read and the arrows they drew half of,
 * settled (those arrows are the flows whose ids are above *flows_since: their slices are
 * still to be found).  Each -1 (said, d->failed set) on error. */
int sqlite_merge_end(struct sqldb *d, int64_t *flows_since);

#endif

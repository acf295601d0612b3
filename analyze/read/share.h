/* read/share.h — loading in the parallel analyzer (mpirun -np K tprof-analyze --parallel):
 * each analysis process reads its share of the profile's processes (parallel/partition.h),
 * and they exchange what loading needs of the others' processes: the timebases of the ranks
 * clock offsets were measured against, the trace's span, each process's number.  With one
 * analysis process each of these does nothing. */
#ifndef TPROF_ANALYZE_SHARE_H
#define TPROF_ANALYZE_SHARE_H

#include <stdint.h>

struct trace;

/* After the scan: keeps this analysis process's share of tr->procs, frees the rest. */
void share_select(struct trace *tr);
/* After the jobs are described: each job's command, from the analysis process that read its
 * first process. */
void share_jobs(struct trace *tr);
/* Before clock alignment: the processes of the others that measurements were made against,
 * as references only (tr->refs: their host, pid, rank and timebase). */
void share_references(struct trace *tr);
/* The trace's span over every analysis process's (in place). */
void share_span(int64_t *start_ns, int64_t *end_ns);
/* After trace_order: every process numbered as the serial analyzer numbers them, and
 * tr->procs in that order. */
void share_order(struct trace *tr);

#endif

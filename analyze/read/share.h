/* read/share.h — loading in the parallel analyzer (mpirun -np K tprof-analyze --parallel):
 * each analysis process reads its share of the profile's processes (parallel/partition.h),
 * and they exchange what loading needs of the others' processes: the timebases of the ranks
 * clock offsets were measured against, the trace's span, each process's number.  With one
 * analysis process each of these does nothing. */
#ifndef TPROF_ANALYZE_SHARE_H
#define TPROF_ANALYZE_SHARE_H

#include <stddef.h>
#include <stdint.h>

struct trace;
struct timebase;
struct clock_point;

/* After the scan: keeps this analysis process's share of tr->procs, frees the rest; by_pid:
 * a host and pid's images in one share (imports are placed on them). */
void share_select(struct trace *tr, int by_pid);
/* The analysis process that reads the images of host (NULL: the host of every file, when
 * they have one) and pid, by the files' names; -1 when none does.  0 serially. */
int share_reader_of(const char *host, int64_t pid);
/* Once loaded: the name of a host with a system image whose processes more than one analysis
 * process read (their files not named by their host), or NULL (every one says the same).  The
 * system image names all of its host's processes, so that it can only be read with them. */
const char *share_system_split(const struct trace *tr);
/* After the jobs are described: each job's command, from the analysis process that read its
 * first process. */
void share_jobs(struct trace *tr);
/* Before the process images without files are merged (read/losses.c): every analysis
 * process's that its processes' loss tables counted, after the marker files every one found,
 * in the serial analyzer's order. */
void share_lost(struct trace *tr);
/* Before clock alignment: the processes of the others that measurements were made against,
 * as references only (tr->refs: their host, pid, rank and timebase). */
void share_references(struct trace *tr);
/* Every analysis process's n items of `size` bytes, concatenated in their order (malloc'd;
 * *total: how many); with one analysis process a copy of its own. */
void *share_all(const void *mine, size_t n, size_t size, size_t *total);
/* Bits set by any analysis process (in place). */
void share_or(uint32_t *bits, size_t n);
/* The clocks of the hosts (read/time-axis.c), hosts[0..n) by string id.  A rate to borrow:
 * rates[i] is this analysis process's candidate for hosts[i] (its first process with two clock
 * samples or more) or NULL; on return, every analysis process's first candidate (in their
 * order, the serial analyzer's order of processes), as a copy to free with share_rates_free
 * where it is another's. */
void share_host_rates(const uint32_t *hosts, const struct timebase **rates, size_t n);
void share_rates_free(void);
/* The earliest first clock sample of a host's processes: earliest[i] (when has[i]) this
 * analysis process's; on return the least over all, by monotonic time, then realtime. */
void share_host_earliest(const uint32_t *hosts, struct clock_point *earliest, int *has, size_t n);
/* The MPI communicators as every analysis process's COMM records describe them (tr->comms),
 * this one's among them, in the order of the analysis processes (the serial analyzer's
 * order): *n of them, each with its members, to free (read/mpi-comms.c merges them). */
struct mpi_comm *share_comms(const struct trace *tr, size_t *n);
/* The trace's span over every analysis process's (in place). */
void share_span(int64_t *start_ns, int64_t *end_ns);
/* After trace_order: every process numbered as the serial analyzer numbers them, and
 * tr->procs in that order. */
void share_order(struct trace *tr);
/* Then: every process with a rank, whoever reads it (tr->homes; also in the serial
 * analyzer). */
void share_ranks(struct trace *tr);

#endif

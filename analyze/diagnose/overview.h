/* diagnose/overview.h — the job at a glance, for the HTML report: its overview strips (each
 * process's time split into the same fixed bins of the trace's span, the categories of
 * diagnose/timeline.h, and each of its device streams' busy time in them, one byte a bin a
 * track), the thread states of its busiest threads, and its step map (each process's step times and waits by step number, binned).  The diagnosis keeps it when asked, as it diagnoses each step, so that memory
 * follows the bins, not the events; under --parallel each process's bins travel with what
 * its reader found (join.c). */
#ifndef TPROF_ANALYZE_DIAGNOSE_OVERVIEW_H
#define TPROF_ANALYZE_DIAGNOSE_OVERVIEW_H

#include <stdint.h>

struct diagnosis;

/* A bin's byte: 0 when the track has no time in the bin, else (category << 5) | q, the
 * category (enum cat, part_key: "compute"...) that most of the bin's time went to and q in
 * 1..31 its share of the bin in 31sts (a stream: the kind of work with the most time, q its
 * busy share). */
#define OVERVIEW_LEVELS 31

/* Streams of a process drawn each on its own, at most; the rest are summed into one track
 * (OVERVIEW_OTHER_STREAMS). */
#define OVERVIEW_STREAMS 8
#define OVERVIEW_OTHER_STREAMS UINT64_MAX

struct overview_stream {
	uint64_t stream;                 /* OVERVIEW_OTHER_STREAMS: the process's other streams */
	const uint8_t *bins;
};

struct overview_process {
	int64_t process;                 /* its number (index) */
	int64_t rank;                    /* -1: none */
	const char *label;
	const uint8_t *bins;             /* NULL: none of its own (its streams only) */
	size_t nstreams;
	const struct overview_stream *streams;   /* in the order first met */
};

/* The thread states of the busiest threads (by time on a CPU), OVERVIEW_THREADS at most, in
 * bins of their own over the trace's span: a bin's byte 0 when the thread has no state
 * recorded in it, else (state << 5) | q, the state (OVERVIEW_STATE_*) it spent most of the
 * bin in and q in 1..31 that state's share of the bin in 31sts. */
#define OVERVIEW_THREADS 16
enum {
	OVERVIEW_STATE_RUNNING,          /* on a CPU */
	OVERVIEW_STATE_RUNNABLE,         /* ready, waiting for a CPU */
	OVERVIEW_STATE_SLEEPING,         /* waiting for an event */
	OVERVIEW_STATE_BLOCKED,          /* waiting uninterruptibly (I/O), or stopped */
	OVERVIEW_STATES
};

struct overview_thread {
	int64_t process, rank;           /* rank -1: none */
	const char *label;               /* the process's */
	int32_t tid;
	const char *name;                /* the thread's; "" when it has none */
	int64_t running;                 /* ns on a CPU in all */
	const uint8_t *bins;
};

/* The step map: each process's steps by step number, in the same columns of `per` step
 * numbers for every process (per doubles as the steps come, so that a process keeps
 * `columns` bins whatever their number): in each, how many steps it had and their times
 * and waits for other processes, summed, and its longest. */
struct stepmap_cell {
	uint64_t n;
	int64_t time, wait, longest;
};

struct stepmap_process {
	int64_t process, rank;           /* rank -1: none */
	const char *label;
	const struct stepmap_cell *cells;   /* columns of them */
};

/* Before the events: keep the overview in as many bins as about `budget` bytes allow over
 * the trace's processes and about two streams each (at most 4096, at least 4), and the step
 * map in as many columns as 32768 cells allow over them (at most 256, at least 2). */
void diagnosis_keep_overview(struct diagnosis *dx, uint64_t budget);

/* After diagnosis_settle: the number of bins (0: not kept), each bin_ns long from the trace's
 * start, and each process with its streams, in order of process (on_process NULL: none). */
uint32_t diagnosis_overview(const struct diagnosis *dx, int64_t *bin_ns, void *ctx,
			    void (*on_process)(void *ctx, const struct overview_process *p));

/* After diagnosis_settle: the thread states' bins (0: none recorded, or not kept), each
 * *bin_ns long from the trace's start, and the busiest threads, busiest first. */
uint32_t diagnosis_threads(const struct diagnosis *dx, int64_t *bin_ns, void *ctx,
			   void (*on_thread)(void *ctx, const struct overview_thread *t));

/* After diagnosis_settle: the step map's columns (0: no steps, or not kept), the first
 * column from step *first, each *per step numbers, and each process with steps in order of
 * process (on_process NULL: none). */
uint32_t diagnosis_stepmap(const struct diagnosis *dx, uint64_t *first, uint64_t *per,
			   void *ctx,
			   void (*on_process)(void *ctx, const struct stepmap_process *p));

#endif

/* summary/procs.h — what the summary says of each process (its header lists them; per-rank
 * tables name them), as rows that do not need the process read: the serial analyzer makes
 * them from its processes, and each analysis process of the parallel one from its share,
 * the first gathering them all (summary/gather.c). */
#ifndef TPROF_ANALYZE_SUMMARY_PROCS_H
#define TPROF_ANALYZE_SUMMARY_PROCS_H

#include <stddef.h>
#include <stdint.h>

#include "../read/trace.h"

struct pack;
struct unpack;

/* Records one thread lost (JSON only): one with a stream, or one that never had one. */
struct sum_loss {
	int has_stream;
	uint64_t stream;
	int64_t tid;
	char *name;
	struct drop_count d;
};

enum {
	SP_LISTED = 1 << 0,      /* in the header's list (not a process made for a followed one
				  * without events, nor an import folded into another) */
	SP_ENDED = 1 << 1,       /* with a final flush */
	SP_FROM_SPOOL = 1 << 2,
	SP_LIVE = 1 << 3,
	SP_SYSTEM = 1 << 4,
	SP_MADE = 1 << 5,        /* sampled only */
	SP_IMPORTED = 1 << 6,
};

struct sum_proc {
	int64_t index, rank, pid;       /* rank -1: none */
	int64_t start_ns, end_ns;       /* on the trace's axis */
	char *host, *label;
	unsigned flags;                 /* SP_* */
	uint64_t records;               /* thread records read */
	uint64_t threads;               /* threads the header counts */
	struct drop_count drops, stream0, unattributed;
	struct sum_loss *losses;        /* threads that lost records */
	size_t nlosses;
	char **imported;                /* files imported into it (their base names) */
	size_t nimported;
};

struct sum_procs {
	struct sum_proc *v;             /* by index */
	size_t n;
};

/* The rows of tr's processes, in their order. */
void sum_procs_of(struct sum_procs *s, const struct trace *tr);
void sum_procs_pack(const struct sum_procs *s, struct pack *b);
/* Adds the rows another analysis process packed (then sum_procs_sort). */
void sum_procs_unpack(struct sum_procs *s, struct unpack *u);
void sum_procs_sort(struct sum_procs *s);
/* The row of the process numbered index, or NULL. */
const struct sum_proc *sum_procs_at(const struct sum_procs *s, int64_t index);
void sum_procs_free(struct sum_procs *s);

#endif

/* diagnose/rows.h — the diagnosis as the rows of tables, for an output that writes tables
 * (the SQLite database's diag_* tables, render/sqlite/diagnosis.c): each process's split of
 * each step, the steps over the ranks, their critical paths, the wait states and the
 * findings.  Times are ns from the trace start; names are trace string ids (0: none). */
#ifndef TPROF_ANALYZE_DIAGNOSE_ROWS_H
#define TPROF_ANALYZE_DIAGNOSE_ROWS_H

#include <stdint.h>

#include "diagnosis.h"

struct proc;

struct diag_split_row {              /* a process's step, or its run (has_step 0) */
	const struct proc *proc;
	int has_step;
	uint64_t step;
	int64_t start_ns, end_ns;
	int64_t ns[DIAG_PARTS];          /* diagnosis_part_words(i) */
};

struct diag_step_row {               /* a step number over the ranks */
	uint64_t step;
	uint32_t ranks;
	int64_t start_ns, end_ns;        /* earliest start, latest end */
	int64_t longest_ns;
	const struct proc *longest;
	int64_t compute_max_ns, compute_mean_ns, wait_max_ns, wait_mean_ns;
	const struct proc *compute_max, *compute_min, *wait_max, *wait_min;
	int64_t late_start_ns;
	int64_t ns[DIAG_PARTS];          /* summed over its ranks */
	int slow;                        /* longer than 110 % of the median */
	const char *cause;
};

struct diag_link_row {               /* one link of a step's critical path */
	uint64_t step;
	uint32_t link;                   /* from 1, first link first */
	const struct proc *proc;
	int64_t start_ns, end_ns;
	unsigned part;                   /* the part with the most of it */
	int64_t part_ns;
	uint32_t top, after;             /* its kernel or call; for host time, the call before */
	int has_via;                     /* it ended late into something others waited for: */
	uint32_t via_site, via_seq;      /* the collective (0: a message) and its number */
	uint64_t via_comm;
	uint32_t via_waiters;
	int64_t via_waited_ns;
};

struct diag_wait_row {               /* the waits of one process of a kind at one place */
	const char *kind;                /* wait_kind_key */
	const struct proc *proc;
	uint32_t site;
	uint32_t caller;                 /* the program's function that made the call (0: not
					  * known) */
	uint64_t comm;
	uint64_t count;
	int64_t ns;
};

struct diag_finding_row {
	uint32_t rank_order;             /* 1: the costliest */
	const char *kind;                /* as in the JSON */
	int64_t cost_ns;
	const struct proc *proc;         /* the late one, the one with the cost (or the most) */
	int has_step;                    /* its longest instance: in this step, at this time */
	uint64_t step;
	int64_t start_ns, end_ns;
	int is_wait;                     /* a wait state: site, caller, comm and instances say */
	uint32_t site, caller;
	uint64_t comm;
	uint64_t instances;
	const char *text;                /* its lines in the text */
	const char *look;                /* the command that writes its time as a Perfetto trace */
};

struct diag_rows {
	void *ctx;
	void (*on_split)(void *ctx, const struct diag_split_row *r);
	void (*on_step)(void *ctx, const struct diag_step_row *r);
	void (*on_link)(void *ctx, const struct diag_link_row *r);
	void (*on_wait)(void *ctx, const struct diag_wait_row *r);
	void (*on_finding)(void *ctx, const struct diag_finding_row *r);
};

/* Settles dx (diagnosis_settle) and hands out every row, table by table, each in order
 * (splits by process and step; steps and links by step; wait states largest first; findings
 * by rank); dir: the profile, for the commands of the findings. */
void diagnosis_rows(struct diagnosis *dx, const char *dir, const struct diag_rows *out);

#endif

/* hang/findings.h — what the hang analysis finds (findings.c) and the report says
 * (report.c): each finding names the process it is about, whom it makes wait, since when,
 * and in what. */
#ifndef TPROF_ANALYZE_HANG_FINDINGS_H
#define TPROF_ANALYZE_HANG_FINDINGS_H

#include "state.h"

#define CYCLE_MAX 8              /* processes of a cycle named */
#define MISSING_MAX 8            /* members that never entered, named */

/* One process waiting for another (an edge of the wait-for graph). */
struct hedge {
	struct hproc *from, *to;
	uint8_t how;                     /* HE_* */
	uint32_t name;                   /* the call it waits in (or the collective's) */
	uint64_t comm;
	uint32_t comm_name, seq;
	int64_t since;
};
enum { HE_RECV = 1, HE_SEND, HE_COLL };

struct hfinding {
	uint8_t kind;                    /* enum hfinding_kind */
	uint8_t follows;                 /* what it is about waits for others in turn: a
					  * consequence, said after the causes */
	int64_t since;                   /* the oldest wait it explains (ns from the trace start) */
	struct hcoll *coll;              /* HF_NOT_ENTERED, HF_NONE_LEFT */
	uint32_t name;                   /* the waiters' call */
	uint32_t waiters;                /* processes waiting */
	struct hproc *missing[MISSING_MAX];   /* HF_NOT_ENTERED: who never entered (NULL: a rank
					  * no process of the profile is) */
	int32_t missing_rank[MISSING_MAX];
	uint32_t nmissing;
	struct hedge cycle[CYCLE_MAX];   /* HF_CYCLE: the waits around it; HF_WAITS_PEER,
					  * HF_GONE: cycle[0] alone */
	uint32_t ncycle;
	struct hmismatch *mismatch;      /* HF_MISMATCH */
	struct hproc *who;               /* HF_DEVICE: the process waiting for its device */
	const struct hcall *call;        /* ... in this call */
	const struct hstream *stream;    /* ... for this stream's work (NULL: any) */
};

/* The oldest work launched on stream s of hp and not seen to end, NULL when none (or when the
 * process's device work is not timed). */
const struct hwork *hang_stuck_work(const struct hproc *hp, const struct hstream *s);
/* The stream a waiting call waits for, NULL when it names none that has work held. */
const struct hstream *hang_call_stream(const struct hproc *hp, const struct hcall *c);
/* The oldest collective run on its device that process hp entered and has not left, NULL
 * when none. */
const struct hcoll *hang_device_coll(const struct hang *h, const struct hproc *hp);
/* Whether the process is gone (ended, or not running any more). */
int hang_gone(const struct hproc *hp);

#endif

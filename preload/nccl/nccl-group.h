/* nccl-group.h — NCCL groups on the calling thread (ncclGroupStart/End nest per thread, as
 * in NCCL) and their device timing.  Between the outermost ncclGroupStart and its
 * ncclGroupEnd nothing is put on a stream: NCCL (and RCCL) launch a group's work in the
 * outermost ncclGroupEnd.  So the group is timed per stream around that call: its operations
 * only say which streams it uses; before the real outermost ncclGroupEnd a start event is
 * recorded on each of them, after it an end event, and the completion thread writes one
 * DEVICE record per (group, stream) with the operations it held. */
#ifndef TPROF_NCCL_GROUP_H
#define TPROF_NCCL_GROUP_H

#include <stdint.h>

#include "../core/core.h"
#include "../events/devtime.h"
#include "nccl-comm.h"

/* The calling thread's group nesting.  id: the group (the correlation id of its outermost
 * ncclGroupStart), 0 when that call was not recorded. */
struct tprof_nccl_gstate {
	int depth;
	uint64_t id;
	struct tprof_nccl_gstreams *s;   /* the group's streams, allocated at the first group */
};
extern __thread struct tprof_nccl_gstate tprof_nccl_gs __attribute__((tls_model("initial-exec")));

static inline int tprof_nccl_in_group(void)
{
	return tprof_nccl_gs.depth > 0;
}

/* One operation as its group records it. */
struct tprof_nccl_gop {
	struct tprof_nccl_comm *comm;    /* NULL: unknown (untimed) */
	uint64_t stream;
	uint64_t bytes;
	uint32_t seq;
	uint32_t name;                   /* its call's name id */
	uint8_t op, dtype;
};

/* ncclGroupStart succeeded (corr: its correlation id, 0 when not recorded). */
void tprof_nccl_group_start(uint64_t corr);
/* An operation of the open group is about to be called: its stream becomes one of the
 * group's.  Returns its stream's place in the group (for _added), or -1 when it is not timed
 * (no runtime offers events for it, too many streams). */
int tprof_nccl_group_add(const struct tprof_nccl_gop *op);
/* The operation returned: it counts in its stream's record when it succeeded. */
void tprof_nccl_group_added(int place, const struct tprof_nccl_gop *op, int ok);
/* ncclGroupEnd is about to be called (the thread's guard up): when it closes the outermost
 * group, the start event is recorded on each stream that holds an operation of the group. */
void tprof_nccl_group_launch(struct tprof_thread *t);
/* ncclGroupEnd returned (ok: it launched the group).  When it closed the outermost group,
 * the end event is recorded on each of the group's timed streams and each becomes a DEVICE
 * record: arg = corr (the ncclGroupEnd call), launched at t0, named `name` when it held more
 * than one operation (else its operation's name). */
void tprof_nccl_group_end(struct tprof_thread *t, uint64_t corr, uint64_t t0, uint32_t name,
			  int ok);

#endif

/* hangs.h — what a job was in the middle of where its data ends, in neutral terms, for the
 * hang analysis (hang/): collectives with the members that entered them, left them or never
 * came, and point-to-point operations still waiting for their other end.  Only a runtime
 * knows what its events mean: it says so through struct runtime's `hangs` hook (model/
 * runtime.h), for its collectives as they are emitted and for its calls still in progress,
 * and, for what it still holds when the data ends (a receive posted and never completed, a
 * send nobody received), through the pipeline's hang sink (struct pipeline's `hangs`) from
 * its pipe_finish.  The hang analysis reads these structs, never a runtime's.  Times are ns
 * from the trace start. */
#ifndef TPROF_ANALYZE_HANGS_H
#define TPROF_ANALYZE_HANGS_H

#include "output.h"

/* One member's part in a collective. */
struct hang_member {
	struct proc *proc;               /* NULL when its process was not read */
	struct thread *thread;           /* of the call that entered it, NULL when not known */
	int32_t rank;                    /* in the communicator */
	uint32_t name;                   /* the call that entered it (string id) */
	uint32_t caller;                 /* the program's function that made it (0: not known) */
	uint64_t size;                   /* what every member must ask alike (an all-reduce's
					  * elements or bytes), 0: nothing to compare */
	const char *unit;                /* what size counts ("bytes", "elements") */
	int64_t t0;                      /* entered */
	int64_t t1;                      /* left (its call returned, its device work ended);
					  * -1: it had not when the data ends */
};

/* A collective: the members seen in one event (not always all of them; the hang analysis
 * puts together the parts of one (comm, seq)). */
struct hang_coll {
	uint64_t comm;
	uint32_t comm_name;              /* string id ("MPI_COMM_WORLD"), 0: none */
	uint32_t seq;                    /* its number on comm, from 1 */
	uint32_t size;                   /* members the communicator has, 0: not known */
	const int32_t *world;            /* the world rank of each of its ranks (nworld of
					  * them), NULL when not listed */
	uint32_t nworld;
	uint8_t ranks_are_world;         /* its ranks are the world ranks (MPI_COMM_WORLD) */
	uint8_t on_device;               /* left means its device work ended (NCCL) */
	const struct hang_member *m;
	uint32_t nm;
};

enum hang_p2p_kind {
	HANG_RECV = 1,                   /* a receive from peer, not completed */
	HANG_SEND,                       /* a send to peer nobody received */
};

/* A point-to-point operation without its other end when the data ends. */
struct hang_p2p {
	uint8_t kind;                    /* enum hang_p2p_kind */
	uint8_t blocking;                /* posted by a call still in progress (MPI_Recv) */
	struct proc *proc;
	struct thread *thread;           /* of the call that posted it, NULL when not known */
	int32_t peer;                    /* the other end, a world rank; -1: any */
	int32_t tag;                     /* -1: any */
	uint64_t comm;
	uint32_t comm_name;              /* string id, 0: none */
	uint64_t bytes;                  /* 0: not known */
	uint32_t name;                   /* the call that posted it (string id) */
	uint32_t caller;
	int64_t t0;                      /* posted */
};

/* Where a runtime puts what it says of hangs. */
struct hang_sink {
	void *ctx;
	void (*coll)(void *ctx, const struct hang_coll *c);
	void (*p2p)(void *ctx, const struct hang_p2p *p);
};

#endif

/* nccl-comm.h — NCCL/RCCL communicators as the recorder knows them: a 64-bit id that every
 * rank computes alike without communicating (from the ncclUniqueId, or from the parent of a
 * split), the rank, size and device, the events that time its work, and the counters its
 * records number operations with (collectives so far; sends to and receives from each peer
 * so far; splits so far).  Entries are made on the slow path (communicator creation) and
 * read on the hot path without a lock: a handle table (core/handles.h) keyed by the
 * ncclComm_t, each entry published with a release store of its key once filled. */
#ifndef TPROF_NCCL_COMM_H
#define TPROF_NCCL_COMM_H

#include <stdint.h>

#include "../core/core.h"
#include "../core/handles.h"
#include "../events/devtime.h"

#define TPROF_NCCL_UNIQUE_ID_BYTES 128

struct tprof_nccl_comm {
	void *handle;                    /* the key: TPROF_HANDLE_EMPTY, _GONE or the handle */
	uint64_t id;
	int32_t rank, nranks;
	int32_t device;                  /* its GPU ordinal, -1 when unknown */
	uint32_t coll_seq;               /* collectives called on it so far (atomic) */
	uint32_t splits;                 /* ncclCommSplit calls over it so far (atomic) */
	const struct tprof_devrt *rt;    /* events that time its work; NULL: untimed */
	uint32_t *p2p;                   /* per peer: [2p] sends to p, [2p+1] receives from p
					  * so far (atomic); NULL when it could not be had */
};

#define TPROF_NCCL_COMM_SLOTS 4096u

extern struct tprof_nccl_comm tprof_nccl_comms[TPROF_NCCL_COMM_SLOTS];
TPROF_HANDLES_CHECK(tprof_nccl_comms, handle);
/* A lookup or an entry may go through the whole table. */
#define TPROF_NCCL_COMMS TPROF_HANDLES(tprof_nccl_comms, TPROF_NCCL_COMM_SLOTS)

/* The entry of a communicator handle, or NULL (none, or not known: never created through
 * the wrappers, or the table is full). */
static inline struct tprof_nccl_comm *tprof_nccl_comm_find(const void *handle)
{
	if (TPROF_UNLIKELY(!tprof_handle_is_key(handle)))
		return NULL;
	return tprof_handle_find(TPROF_NCCL_COMMS, handle);
}

/* The collective about to be called on e: its number on e, from 1. */
static inline uint32_t tprof_nccl_coll_seq(struct tprof_nccl_comm *e)
{
	return e ? __atomic_add_fetch(&e->coll_seq, 1, __ATOMIC_RELAXED) : 0;
}

/* The send to (recv = 0) or receive from (recv = 1) `peer` about to be called on e: its
 * number among those, from 1. */
static inline uint32_t tprof_nccl_p2p_seq(struct tprof_nccl_comm *e, int peer, int recv)
{
	if (!e || !e->p2p || peer < 0 || peer >= e->nranks)
		return 0;
	return __atomic_add_fetch(&e->p2p[2 * (size_t)peer + (recv ? 1 : 0)], 1, __ATOMIC_RELAXED);
}

/* A split about to be made over parent: how many came before it. */
static inline uint32_t tprof_nccl_split_number(struct tprof_nccl_comm *parent)
{
	return parent ? __atomic_fetch_add(&parent->splits, 1, __ATOMIC_RELAXED) : 0;
}

/* ---- ids ---------------------------------------------------------------------------------- */

/* ncclCommInitRank(Config): a hash of the 128-byte ncclUniqueId. */
uint64_t tprof_nccl_id_unique(const void *unique_id);
/* ncclCommInitRankScalable: a hash of its n ids. */
uint64_t tprof_nccl_id_uniques(const void *unique_ids, int n);
/* ncclCommSplit: the `number`-th split over `parent` (from 0), to `color`. */
uint64_t tprof_nccl_id_split(uint64_t parent, uint32_t number, int color);
/* A communicator no other process shares or can name alike (ncclCommInitAll, one first
 * seen in some call): this process image, and a counter. */
uint64_t tprof_nccl_id_local(void);

/* ---- entries (slow path) ----------------------------------------------------------------- */

/* Enters `handle` with the id, rank, size, device and runtime of *desc (its counters
 * start at 0); NULL when the table is full (said once).  A handle entered before is
 * replaced. */
struct tprof_nccl_comm *tprof_nccl_comm_add(void *handle, const struct tprof_nccl_comm *desc);
/* The communicator was destroyed: its handle may come back for another one. */
void tprof_nccl_comm_forget(void *handle);

#endif

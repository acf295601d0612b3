/* nccl-comm.c — NCCL/RCCL communicator identity without communication, and the table of
 * communicators (lookups are in nccl-comm.h).  Every rank computes the same id from what all
 * ranks have alike:
 *   ncclCommInitRank(Config)     hash(the 128 bytes of the ncclUniqueId)
 *   ncclCommInitRankScalable     hash(its nId unique ids)
 *   ncclCommSplit                hash(parent id, how many splits over the parent came
 *                                before, color): the same on every rank because NCCL makes
 *                                all ranks of the parent take part in each split, in order
 *   ncclCommInitAll, or a        hash(this process image, a counter): one process holds
 *   communicator first seen      every rank of it, or no other process can name it
 * Changes are rare and take comm_lock; ids are never one of the small fixed values. */
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"

#include "nccl-comm.h"

struct tprof_nccl_comm tprof_nccl_comms[TPROF_NCCL_COMM_SLOTS];

static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static int table_full_warned;
static uint32_t local_ids;

/* A fork while another thread held the lock must not leave the child stuck. */
static void child_after_fork(void)
{
	pthread_mutex_init(&comm_lock, NULL);
}

static void fork_handler(void)
{
	pthread_atfork(NULL, NULL, child_after_fork);
}

/* ---- ids ---------------------------------------------------------------------------------- */

#define MIX(h, v) ((h) = tprof_hash_more((h), &(v), sizeof(v)))

uint64_t tprof_nccl_id_unique(const void *unique_id)
{
	return tprof_hash_id(tprof_hash_more(TPROF_HASH_SEED, unique_id, TPROF_NCCL_UNIQUE_ID_BYTES));
}

uint64_t tprof_nccl_id_uniques(const void *unique_ids, int n)
{
	uint64_t h = TPROF_HASH_SEED;
	MIX(h, n);
	if (unique_ids && n > 0)
		h = tprof_hash_more(h, unique_ids, (size_t)n * TPROF_NCCL_UNIQUE_ID_BYTES);
	return tprof_hash_id(h);
}

uint64_t tprof_nccl_id_split(uint64_t parent, uint32_t number, int color)
{
	uint64_t h = TPROF_HASH_SEED;
	static const char tag[] = "split";
	h = tprof_hash_more(h, tag, sizeof(tag));
	MIX(h, parent);
	MIX(h, number);
	MIX(h, color);
	return tprof_hash_id(h);
}

uint64_t tprof_nccl_id_local(void)
{
	uint64_t h = TPROF_HASH_SEED;
	static const char tag[] = "local";
	uint32_t n = __atomic_add_fetch(&local_ids, 1, __ATOMIC_RELAXED);
	uint64_t instance = tprof_image_instance();
	h = tprof_hash_more(h, tag, sizeof(tag));
	MIX(h, instance);
	MIX(h, tprof_g.pid);
	MIX(h, n);
	return tprof_hash_id(h);
}

/* ---- the table ---------------------------------------------------------------------------- */

struct tprof_nccl_comm *tprof_nccl_comm_add(void *handle, const struct tprof_nccl_comm *desc)
{
	TPROF_KEEP_ERRNO;
	if (!tprof_handle_is_key(handle))
		return NULL;
	uint32_t *p2p = desc->nranks > 0 ? calloc(2 * (size_t)desc->nranks, sizeof(uint32_t)) : NULL;
	pthread_once(&fork_once, fork_handler);
	pthread_mutex_lock(&comm_lock);
	/* Readers skip the slot while it is rewritten; its old counters go now (a communicator
	 * destroyed earlier: nobody may use it any more). */
	struct tprof_nccl_comm *slot = tprof_handle_reserve(TPROF_NCCL_COMMS, handle);
	if (!slot) {
		pthread_mutex_unlock(&comm_lock);
		tprof_handles_full(&table_full_warned, "more than %u NCCL communicators at once: the "
				   "others are recorded without a communicator id", TPROF_NCCL_COMM_SLOTS);
		free(p2p);
		return NULL;
	}
	free(slot->p2p);
	slot->id = desc->id;
	slot->rank = desc->rank;
	slot->nranks = desc->nranks;
	slot->device = desc->device;
	slot->rt = desc->rt;
	__atomic_store_n(&slot->coll_seq, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&slot->splits, 0, __ATOMIC_RELAXED);
	slot->p2p = p2p;
	tprof_handle_publish(slot, handle);
	pthread_mutex_unlock(&comm_lock);
	return slot;
}

void tprof_nccl_comm_forget(void *handle)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&comm_lock);
	struct tprof_nccl_comm *e = handle ? tprof_nccl_comm_find(handle) : NULL;
	if (e)
		tprof_handle_remove(e);
	pthread_mutex_unlock(&comm_lock);
}

/* split.c — ncclCommSplit: collective over the parent, on the host (not on a stream).  The
 * ranks exchange (color, key) through their control blocks in the parent's segment; those of
 * one color form a child, ranked by (key, parent rank).  The child's id is the parent's with
 * its last 32 bytes replaced by ("SPLT", the parent's split number, the color, the parent's
 * hash), so every member derives the same id, and the child meets in the segment named after
 * it.  NCCL_SPLIT_NOCOLOR takes part in the exchange and gets no communicator. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Waits until every rank's ctl_wrote (which = 1) or ctl_read (0) reaches `want`. */
static ncclResult_t wait_ctl(struct ncclComm *c, int which, uint64_t want)
{
	uint64_t deadline = sn_now_ns() + sn_cfg.timeout_ns;
	for (;;) {
		uint32_t seen = sn_bell_read(c->seg);
		int q, late = -1;
		uint64_t now;
		for (q = 0; q < c->nranks && late < 0; q++) {
			struct sn_seg_rank *k = sn_seg_rank(c->seg, q);
			if (atomic_load(which ? &k->ctl_wrote : &k->ctl_read) < want)
				late = q;
		}
		if (late < 0)
			return ncclSuccess;
		if (sn_seg_rank_gone(c->seg, late))
			return sn_fail(ncclRemoteError, "ncclCommSplit : rank %d exited or left the "
				       "communicator", late);
		now = sn_now_ns();
		if (now > deadline)
			return sn_fail(ncclSystemError, "ncclCommSplit : timed out after %.3g s waiting "
				       "for rank %d (STANDIN_NCCL_TIMEOUT_S)",
				       sn_cfg.timeout_ns / 1e9, late);
		sn_bell_wait(c->seg, seen, deadline - now < 100000000u ? deadline - now : 100000000u);
	}
}

/* Every rank's (color, key), in cs and ks. */
static ncclResult_t exchange(struct ncclComm *c, uint64_t k, int color, int key, int *cs, int *ks)
{
	struct sn_seg_rank *me = sn_seg_rank(c->seg, c->rank);
	ncclResult_t r = wait_ctl(c, 0, k - 1); /* all have read the previous exchange */
	int q;
	if (r != ncclSuccess)
		return r;
	me->ctl[0] = color;
	me->ctl[1] = key;
	atomic_store(&me->ctl_wrote, k);
	sn_bell_ring(c->seg);
	r = wait_ctl(c, 1, k);
	if (r != ncclSuccess)
		return r;
	for (q = 0; q < c->nranks; q++) {
		cs[q] = (int)sn_seg_rank(c->seg, q)->ctl[0];
		ks[q] = (int)sn_seg_rank(c->seg, q)->ctl[1];
	}
	atomic_store(&me->ctl_read, k);
	sn_bell_ring(c->seg);
	return ncclSuccess;
}

SN_API(ncclResult_t, ncclCommSplit, ncclComm_t comm, int color, int key, ncclComm_t *newcomm,
       ncclConfig_t *config)
{
	int *cs, *ks, q, n = 0, mine = 0, blocking;
	uint32_t k;
	ncclUniqueId id;
	struct ncclComm *child;
	ncclResult_t r;
	sn_init();
	r = sn_comm_check(comm, "ncclCommSplit");
	if (r != ncclSuccess)
		return r;
	if (!newcomm)
		return sn_fail(ncclInvalidArgument, "ncclCommSplit : newcomm argument is NULL");
	if (color < 0 && color != NCCL_SPLIT_NOCOLOR)
		return sn_fail(ncclInvalidArgument, "ncclCommSplit : invalid color %d", color);
	if (config && (config->magic != 0xcafebeefu))
		return sn_fail(ncclInvalidArgument, "ncclCommSplit : config is not an ncclConfig_t");
	blocking = config && config->blocking != NCCL_CONFIG_UNDEF_INT ? config->blocking != 0
								       : comm->blocking;
	*newcomm = NULL;
	cs = calloc((size_t)comm->nranks, sizeof(int));
	ks = calloc((size_t)comm->nranks, sizeof(int));
	if (!cs || !ks) {
		free(cs);
		free(ks);
		return sn_fail(ncclSystemError, "standin-nccl: out of memory");
	}
	k = (uint32_t)++comm->nsplits;
	r = exchange(comm, k, color, key, cs, ks);
	for (q = 0; r == ncclSuccess && q < comm->nranks; q++)
		if (cs[q] == color) {
			n++;
			if (ks[q] < key || (ks[q] == key && q < comm->rank))
				mine++;
		}
	free(cs);
	free(ks);
	if (r != ncclSuccess) {
		sn_comm_set_error(comm, r);
		return r;
	}
	if (color == NCCL_SPLIT_NOCOLOR)
		return ncclSuccess;
	id = comm->id;
	memcpy(id.internal + 96, "SPLT", 4);
	memcpy(id.internal + 100, &k, 4);
	memcpy(id.internal + 104, &color, 4);
	memcpy(id.internal + 108, &comm->hash, 8);
	memset(id.internal + 116, 0, 12);
	child = sn_comm_new(&id, n, mine, comm->device);
	if (!child)
		return sn_fail(ncclSystemError, "standin-nccl: out of memory");
	child->blocking = blocking;
	r = sn_comm_join(child);
	if (r != ncclSuccess) {
		sn_comm_leave(child);
		return r;
	}
	*newcomm = child;
	return ncclSuccess;
}

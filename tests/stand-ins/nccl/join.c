/* join.c — a communicator's life below the API: the object, joining its segment (blocking
 * until every rank has joined, as ncclCommInitRank does, or until STANDIN_NCCL_TIMEOUT_S),
 * several joined at once by threads (ncclCommInitAll, initialisations inside a group), the
 * checks every operation makes, its asynchronous error, and leaving.  The segment's name is
 * removed as soon as the last rank has joined (each keeps its mapping), so nothing is left in
 * /dev/shm whatever happens to the processes afterwards. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t all_mu = PTHREAD_MUTEX_INITIALIZER;
static struct ncclComm *all_comms; /* never freed: a stale handle stays recognisable */

struct ncclComm *sn_comm_new(const ncclUniqueId *id, int nranks, int rank, int device)
{
	struct ncclComm *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->send_seq = calloc((size_t)nranks, sizeof(*c->send_seq));
	c->recv_seq = calloc((size_t)nranks, sizeof(*c->recv_seq));
	c->send_done = calloc((size_t)nranks, sizeof(*c->send_done));
	c->recv_done = calloc((size_t)nranks, sizeof(*c->recv_done));
	if (!c->send_seq || !c->recv_seq || !c->send_done || !c->recv_done) {
		free(c->send_seq);
		free(c->recv_seq);
		free((void *)c->send_done);
		free((void *)c->recv_done);
		free(c);
		return NULL;
	}
	c->magic = SN_COMM_MAGIC;
	c->id = *id;
	c->hash = sn_hash(id, sizeof(*id));
	c->rank = rank;
	c->nranks = nranks;
	c->device = device;
	c->blocking = 1;
	atomic_init(&c->state, SN_COMM_INIT);
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	pthread_mutex_lock(&all_mu);
	c->all_next = all_comms;
	all_comms = c;
	pthread_mutex_unlock(&all_mu);
	return c;
}

/* "1, 3 and 5": the ranks that have not joined (or `all`). */
static void missing_ranks(struct sn_seg *s, int n, char *buf, size_t len)
{
	size_t used = 0;
	int r, k = 0;
	buf[0] = '\0';
	for (r = 0; r < n && used + 16 < len; r++)
		if (atomic_load(&sn_seg_rank(s, r)->state) == SN_RANK_ABSENT)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", k++ ? ", " : "", r);
}

static ncclResult_t wait_all_joined(struct ncclComm *c, uint64_t deadline)
{
	struct sn_seg *s = c->seg;
	char who[256];
	for (;;) {
		uint32_t seen = sn_bell_read(s);
		uint64_t now;
		if (atomic_load(&s->hdr->joined) >= c->nranks)
			return ncclSuccess;
		if (atomic_load(&c->abort))
			return sn_fail(ncclRemoteError, "standin-nccl: aborted while it formed");
		if (atomic_load(&s->hdr->aborted))
			return sn_fail(ncclRemoteError,
				       "standin-nccl: rank %d aborted the communicator while it formed",
				       atomic_load(&s->hdr->aborted) - 1);
		now = sn_now_ns();
		if (now > deadline)
			break;
		sn_bell_wait(s, seen, deadline - now < 100000000u ? deadline - now : 100000000u);
	}
	missing_ranks(s, c->nranks, who, sizeof(who));
	return sn_fail(ncclSystemError,
		       "standin-nccl: rank %d of %d timed out after %.3g s waiting for rank(s) %s "
		       "to join (STANDIN_NCCL_TIMEOUT_S)",
		       c->rank, c->nranks, sn_cfg.timeout_ns / 1e9, who);
}

ncclResult_t sn_comm_join(struct ncclComm *c)
{
	uint64_t deadline = sn_now_ns() + sn_cfg.timeout_ns;
	struct sn_seg_rank *me;
	int expect = SN_RANK_ABSENT;
	ncclResult_t r = sn_seg_open(c->hash, c->nranks, deadline, &c->seg);
	if (r != ncclSuccess)
		goto fail;
	me = sn_seg_rank(c->seg, c->rank);
	if (!atomic_compare_exchange_strong(&me->state, &expect, SN_RANK_JOINED)) {
		r = sn_fail(ncclInvalidUsage, "standin-nccl: rank %d of the communicator joined twice",
			    c->rank);
		sn_seg_close(c->seg);
		c->seg = NULL;
		goto fail;
	}
	me->device = c->device;
	atomic_store(&me->pid, (int32_t)getpid());
	if (atomic_fetch_add(&c->seg->hdr->joined, 1) + 1 == c->nranks)
		sn_seg_unlink(c->seg); /* everyone has it mapped */
	sn_bell_ring(c->seg);
	r = wait_all_joined(c, deadline);
	if (r != ncclSuccess) {
		atomic_store(&me->state, SN_RANK_LEFT);
		sn_bell_ring(c->seg);
		sn_seg_unlink(c->seg); /* late ranks start afresh and time out in turn */
		sn_seg_close(c->seg);
		c->seg = NULL;
		goto fail;
	}
	atomic_store(&c->state, SN_COMM_READY);
	return ncclSuccess;
fail:
	atomic_store(&c->async_err, r);
	atomic_store(&c->state, SN_COMM_FAILED);
	return r;
}

struct join_job {
	struct ncclComm *c;
	ncclResult_t r;
	pthread_t th;
	int started;
};

static void *join_main(void *arg)
{
	struct join_job *j = arg;
	j->r = sn_comm_join(j->c);
	return NULL;
}

ncclResult_t sn_comm_join_all(struct ncclComm **cs, int n)
{
	struct join_job *jobs;
	ncclResult_t r = ncclSuccess;
	int i;
	if (n == 1)
		return sn_comm_join(cs[0]);
	jobs = calloc((size_t)n, sizeof(*jobs));
	if (!jobs)
		return sn_fail(ncclSystemError, "standin-nccl: out of memory");
	for (i = 0; i < n; i++) {
		jobs[i].c = cs[i];
		jobs[i].started = pthread_create(&jobs[i].th, NULL, join_main, &jobs[i]) == 0;
		if (!jobs[i].started)
			jobs[i].r = sn_comm_join(cs[i]); /* the others will time out */
	}
	for (i = 0; i < n; i++) {
		if (jobs[i].started)
			pthread_join(jobs[i].th, NULL);
		if (r == ncclSuccess)
			r = jobs[i].r;
	}
	free(jobs);
	return r;
}

ncclResult_t sn_comm_check(struct ncclComm *c, const char *fn)
{
	ncclResult_t e;
	if (!c)
		return sn_fail(ncclInvalidArgument, "%s : comm argument is NULL", fn);
	if (c->magic != SN_COMM_MAGIC)
		return sn_fail(ncclInvalidArgument, "%s : comm %p is not a communicator", fn,
			       (void *)c);
	switch (atomic_load(&c->state)) {
	case SN_COMM_INIT:
		if (c->deferred)
			return ncclSuccess; /* joins at ncclGroupEnd, before its operations run */
		return sn_fail(ncclInvalidArgument, "%s : communicator still initialising", fn);
	case SN_COMM_FINALIZED:
		return sn_fail(ncclInvalidArgument, "%s : communicator %p was finalized", fn,
			       (void *)c);
	case SN_COMM_DEAD:
		return sn_fail(ncclInvalidArgument, "%s : communicator %p was destroyed", fn,
			       (void *)c);
	}
	e = atomic_load(&c->async_err);
	if (e != ncclSuccess)
		return sn_fail(e, "%s : communicator has an error: %s", fn, sn_error_string(e));
	return ncclSuccess;
}

void sn_comm_set_error(struct ncclComm *c, ncclResult_t r)
{
	int expect = ncclSuccess;
	atomic_compare_exchange_strong(&c->async_err, &expect, r);
}

void sn_comm_wait_idle(struct ncclComm *c)
{
	pthread_mutex_lock(&c->mu);
	while (c->pending > 0)
		pthread_cond_wait(&c->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
}

void sn_comm_leave(struct ncclComm *c)
{
	if (c->seg) {
		atomic_store(&sn_seg_rank(c->seg, c->rank)->state, SN_RANK_LEFT);
		sn_bell_ring(c->seg);
		sn_seg_close(c->seg);
		c->seg = NULL;
	}
	atomic_store(&c->state, SN_COMM_DEAD);
	free(c->send_seq);
	free(c->recv_seq);
	free((void *)c->send_done);
	free((void *)c->recv_done);
	c->send_seq = c->recv_seq = NULL;
	c->send_done = c->recv_done = NULL;
}

/* launch.c — operations onto their streams.  The operations launched together (one call, or
 * a group) are split by stream; each stream gets one host callback (hipStreamAddCallback of
 * the HIP runtime: it runs on the stream's worker, in stream order) that advances all of its
 * operations together until their data has moved, then holds the stream until the latest of
 * their modelled ends, writes their trace lines and lets the stream go on — one "kernel" per
 * stream per group, as NCCL launches.  While nothing moves it sleeps on the communicator's
 * bell; a peer that is gone, an abort, or STANDIN_NCCL_TIMEOUT_S without progress ends the
 * operations with an error instead of hanging. */
#include "internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK_EVERY_NS 50000000u  /* peers' liveness, aborts, timeouts: every 50 ms */

struct launch {
	struct sn_op *ops;           /* linked by next, in call order */
	struct sn_op **tail;
	hipStream_t stream;
	int device;
	int nops;
	struct launch *next;
};

static const char *status_name(enum sn_status st)
{
	static const char *const names[] = {"ok", "timeout", "remote-error", "mismatch",
					    "aborted", "skipped"};
	return names[st];
}

static const char *redop_name(const struct sn_op *op)
{
	static const char *const names[] = {"sum", "prod", "max", "min", "avg"};
	if (op->redop < 0)
		return "none";
	return op->redop < ncclNumOps ? names[op->redop] : "premulsum";
}

static void trace(const struct launch *l, const struct sn_op *op)
{
	char line[768];
	int n;
	int p2p = op->kind == SN_SEND || op->kind == SN_RECV;
	if (!sn_cfg.trace_path)
		return;
	n = snprintf(line, sizeof(line),
		     "%s comm=%016" PRIx64 " rank=%d nranks=%d seq=%u count=%zu dtype=%s "
		     "bytes=%" PRIu64 " start_ns=%" PRIu64 " end_ns=%" PRIu64 " ready_ns=%" PRIu64
		     " redop=%s root=%d peer=%d nops=%d stream=%p device=%d pid=%d status=%s\n",
		     sn_kind_name(op->kind), op->comm->hash, op->comm->rank, op->comm->nranks,
		     op->seq, op->count, sn_dtype_name(op->dtype), op->model_bytes, op->t_start,
		     op->t_end, op->t_ready, redop_name(op), p2p ? -1 : op->root,
		     p2p ? op->root : -1, l->nops, (void *)l->stream, op->comm->device, (int)getpid(),
		     status_name(op->status));
	if (n > 0 && (size_t)n < sizeof(line))
		sn_trace_line(line, (size_t)n);
}

static int progress(struct sn_op *op)
{
	return op->kind == SN_SEND || op->kind == SN_RECV ? sn_p2p_progress(op)
							  : sn_coll_progress(op);
}

/* Ends, with an error, what can no longer complete.  `stalled`: ns without progress. */
static void check_stuck(struct sn_op *ops, uint64_t stalled)
{
	struct sn_op *op;
	for (op = ops; op; op = op->next) {
		struct ncclComm *c = op->comm;
		int ab = atomic_load(&c->seg->hdr->aborted);
		if (op->data_done)
			continue;
		if (atomic_load(&c->abort)) {
			sn_op_finish(op, SN_ABORTED);
		} else if (ab && ab - 1 != c->rank) {
			sn_warn("rank %d of comm %016llx: %s #%u: rank %d aborted the communicator",
				c->rank, (unsigned long long)c->hash, sn_kind_name(op->kind), op->seq,
				ab - 1);
			sn_op_finish(op, SN_REMOTE);
		} else if (op->started && op->waiting_on >= 0 &&
			   sn_seg_rank_gone(c->seg, op->waiting_on)) {
			sn_warn("rank %d of comm %016llx: %s #%u: rank %d exited or left the "
				"communicator", c->rank, (unsigned long long)c->hash,
				sn_kind_name(op->kind), op->seq, op->waiting_on);
			sn_op_finish(op, SN_REMOTE);
		} else if (stalled > sn_cfg.timeout_ns) {
			char who[32] = "an earlier operation";
			if (op->started && op->waiting_on >= 0)
				snprintf(who, sizeof(who), "rank %d", op->waiting_on);
			sn_warn("rank %d of comm %016llx: %s #%u timed out after %.3g s waiting for "
				"%s (STANDIN_NCCL_TIMEOUT_S)", c->rank, (unsigned long long)c->hash,
				sn_kind_name(op->kind), op->seq, sn_cfg.timeout_ns / 1e9, who);
			sn_op_finish(op, SN_TIMEOUT);
		}
	}
}

/* Advances every operation until each has moved its data (or failed). */
static void run_data(struct launch *l)
{
	uint64_t last_move = sn_now_ns(), last_check = last_move;
	for (;;) {
		struct sn_op *op, *first = NULL;
		int moved = 0, segs = 0;
		uint32_t seen = 0;
		for (op = l->ops; op; op = op->next)
			if (!op->data_done) {
				if (!first) {
					first = op;
					seen = sn_bell_read(op->comm->seg);
				}
				segs |= op->comm->seg != first->comm->seg;
			}
		if (!first)
			return;
		for (op = first; op; op = op->next)
			if (!op->data_done)
				moved |= progress(op);
		if (moved) {
			last_move = sn_now_ns();
			continue;
		}
		if (sn_now_ns() - last_check >= CHECK_EVERY_NS) {
			last_check = sn_now_ns();
			check_stuck(first, last_check - last_move);
			continue;
		}
		/* One bell per communicator: with several, poll the others briefly. */
		sn_bell_wait(first->comm->seg, seen, segs ? 200000u : CHECK_EVERY_NS);
	}
}

static void finish(struct launch *l)
{
	struct sn_op *op, *next;
	uint64_t end = 0;
	for (op = l->ops; op; op = op->next) {
		op->t_end = op->deadline > op->t_data ? op->deadline : op->t_data;
		if (op->t_end > end)
			end = op->t_end;
	}
	sn_sleep_until(end); /* the stream is held until the modelled end */
	for (op = l->ops; op; op = op->next)
		trace(l, op);
	for (op = l->ops; op; op = next) {
		struct ncclComm *c = op->comm;
		next = op->next;
		free(op->v);
		free(op);
		pthread_mutex_lock(&c->mu);
		if (--c->pending == 0)
			pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
	}
	free(l);
}

static void run_launch(hipStream_t stream, hipError_t status, void *arg)
{
	struct launch *l = arg;
	run_data(l);
	finish(l);
}

/* ------------------------------------------------------------------ queueing */
static int uses_current_device(hipStream_t s)
{
	return s == NULL || s == hipStreamPerThread;
}

static struct launch *launch_for(struct launch **ls, struct sn_op *op)
{
	struct launch *l, **pp;
	int dev = uses_current_device(op->stream) ? op->comm->device : -1;
	for (pp = ls; (l = *pp); pp = &l->next)
		if (l->stream == op->stream && l->device == dev)
			return l;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->stream = op->stream;
	l->device = dev;
	l->tail = &l->ops;
	*pp = l;
	return l;
}

/* The null and per-thread streams are those of the communicator's device, as in NCCL. */
static hipError_t add_callback(struct launch *l)
{
	int cur = -1;
	hipError_t e;
	if (l->device >= 0 && hipGetDevice(&cur) == hipSuccess && cur != l->device)
		hipSetDevice(l->device);
	else
		cur = -1;
	e = hipStreamAddCallback(l->stream, run_launch, l, 0);
	if (cur >= 0)
		hipSetDevice(cur);
	return e;
}

static void drop(struct launch *l)
{
	struct sn_op *op, *next;
	for (op = l->ops; op; op = next) {
		next = op->next;
		pthread_mutex_lock(&op->comm->mu);
		if (--op->comm->pending == 0)
			pthread_cond_broadcast(&op->comm->cv);
		pthread_mutex_unlock(&op->comm->mu);
		sn_comm_set_error(op->comm, ncclUnhandledCudaError);
		free(op->v);
		free(op);
	}
	free(l);
}

ncclResult_t sn_launch(struct sn_op *ops)
{
	struct launch *ls = NULL, *l, *next;
	struct sn_op *op, *nop;
	ncclResult_t r = ncclSuccess;
	for (op = ops; op; op = nop) {
		nop = op->next;
		op->next = NULL;
		op->waiting_on = -1;
		l = launch_for(&ls, op);
		if (!l) {
			free(op->v);
			free(op);
			r = sn_fail(ncclSystemError, "standin-nccl: out of memory");
			continue;
		}
		*l->tail = op;
		l->tail = &op->next;
		l->nops++;
		pthread_mutex_lock(&op->comm->mu);
		op->comm->pending++;
		pthread_mutex_unlock(&op->comm->mu);
	}
	for (l = ls; l; l = next) {
		hipError_t e;
		next = l->next;
		for (op = l->ops; op; op = op->next)
			op->nops = l->nops;
		e = add_callback(l);
		if (e != hipSuccess) {
			r = sn_fail(ncclUnhandledCudaError,
				    "standin-nccl: hipStreamAddCallback(stream %p) failed: %d",
				    (void *)l->stream, (int)e);
			drop(l);
		}
	}
	return r;
}

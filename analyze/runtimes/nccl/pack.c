/* runtimes/nccl/pack.c — a launch's operations and device spans packed for another analysis
 * process of the parallel analyzer (util/pack.h), and read back: the launches the matching
 * spreads (runtimes/nccl/coll.c) and the instances it sends back to their launches'
 * analysis processes (runtimes/nccl/copies.c) carry them alike. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../util/pack.h"
#include "nccl.h"

void nccl_ops_pack(struct pack *b, const struct nccl_op *ops, uint32_t n)
{
	pack_u64(b, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct nccl_op *o = &ops[i];
		pack_name(b, o->name);
		pack_name(b, o->caller);
		pack_u64(b, (uint64_t)o->op << 24 | (uint64_t)o->dtype << 16 | (uint64_t)o->redop << 8 |
				    o->flags);
		pack_u64(b, o->comm);
		pack_u64(b, o->count);
		pack_u64(b, o->bytes);
		pack_u64(b, o->seq);
		pack_i64(b, o->peer);
		pack_i64(b, o->rank);
		pack_i64(b, o->nranks);
		pack_u64(b, o->stream);
		pack_u64(b, o->corr);
		pack_i64(b, o->t0);
		pack_i64(b, o->t1);
		pack_u64(b, (uint64_t)o->matched);
	}
}

struct nccl_op *nccl_ops_unpack(struct unpack *u, uint32_t *n)
{
	*n = (uint32_t)unpack_count(u, 15 * sizeof(uint64_t));
	struct nccl_op *ops = xcalloc(*n ? *n : 1, sizeof(*ops));
	for (uint32_t i = 0; i < *n; i++) {
		struct nccl_op *o = &ops[i];
		o->name = unpack_name(u);
		o->caller = unpack_name(u);
		uint64_t kinds = unpack_u64(u);
		o->op = (uint8_t)(kinds >> 24);
		o->dtype = (uint8_t)(kinds >> 16);
		o->redop = (uint8_t)(kinds >> 8);
		o->flags = (uint8_t)kinds;
		o->comm = unpack_u64(u);
		o->count = unpack_u64(u);
		o->bytes = unpack_u64(u);
		o->seq = (uint32_t)unpack_u64(u);
		o->peer = (int32_t)unpack_i64(u);
		o->rank = (int32_t)unpack_i64(u);
		o->nranks = (int32_t)unpack_i64(u);
		o->stream = unpack_u64(u);
		o->corr = unpack_u64(u);
		o->t0 = unpack_i64(u);
		o->t1 = unpack_i64(u);
		o->matched = (int)unpack_u64(u);
	}
	return ops;
}

void nccl_spans_pack(struct pack *b, const struct nccl_span *spans, uint32_t n)
{
	pack_u64(b, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct nccl_span *sp = &spans[i];
		pack_u64(b, sp->stream);
		pack_u64(b, sp->device);
		pack_name(b, sp->name);
		pack_i64(b, sp->t0);
		pack_i64(b, sp->t1);
		pack_u64(b, (uint64_t)sp->kept);
	}
}

struct nccl_span *nccl_spans_unpack(struct unpack *u, uint32_t *n)
{
	*n = (uint32_t)unpack_count(u, 6 * sizeof(uint64_t));
	struct nccl_span *spans = xcalloc(*n ? *n : 1, sizeof(*spans));
	for (uint32_t i = 0; i < *n; i++) {
		struct nccl_span *sp = &spans[i];
		sp->stream = unpack_u64(u);
		sp->device = (uint32_t)unpack_u64(u);
		sp->name = unpack_name(u);
		sp->t0 = unpack_i64(u);
		sp->t1 = unpack_i64(u);
		sp->kept = unpack_u64(u) != 0;
	}
	return spans;
}

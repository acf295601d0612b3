/* runtimes/nccl/ops.c — what the numbers in NCCL records mean: the names of operations, datatypes
 * and reduction operators (ncclDataType_t and ncclRedOp_t of NCCL 2.30, which RCCL shares
 * up to its optional FP8 types), the datatypes' sizes, and the bandwidth formulas of
 * nccl-tests (its src/ directory, doc/PERFORMANCE.md): algorithm bandwidth S / t and bus bandwidth
 * S / t x factor, with S and the factor per collective as that suite defines them. */
#include "nccl.h"

const char *nccl_op_name(unsigned op)
{
	switch (op) {
	case TPROF_NCCL_COMM_INIT: return "CommInit";
	case TPROF_NCCL_COMM_SPLIT: return "CommSplit";
	case TPROF_NCCL_COMM_END: return "CommEnd";
	case TPROF_NCCL_GROUP_START: return "GroupStart";
	case TPROF_NCCL_GROUP_END: return "GroupEnd";
	case TPROF_NCCL_ALLREDUCE: return "AllReduce";
	case TPROF_NCCL_BROADCAST: return "Broadcast";
	case TPROF_NCCL_REDUCE: return "Reduce";
	case TPROF_NCCL_ALLGATHER: return "AllGather";
	case TPROF_NCCL_REDUCESCATTER: return "ReduceScatter";
	case TPROF_NCCL_ALLTOALL: return "AlltoAll";
	case TPROF_NCCL_GATHER: return "Gather";
	case TPROF_NCCL_SCATTER: return "Scatter";
	case TPROF_NCCL_SEND: return "Send";
	case TPROF_NCCL_RECV: return "Recv";
	case TPROF_NCCL_ALLTOALLV: return "AllToAllv";
	default: return "Other";
	}
}

static const struct {
	const char *name;
	unsigned size;
} dtypes[] = {
	{ "int8", 1 }, { "uint8", 1 }, { "int32", 4 }, { "uint32", 4 }, { "int64", 8 },
	{ "uint64", 8 }, { "float16", 2 }, { "float32", 4 }, { "float64", 8 }, { "bfloat16", 2 },
	{ "float8e4m3", 1 }, { "float8e5m2", 1 },
};

const char *nccl_dtype_name(unsigned dtype)
{
	return dtype < sizeof(dtypes) / sizeof(*dtypes) ? dtypes[dtype].name : "?";
}

unsigned nccl_dtype_size(unsigned dtype)
{
	return dtype < sizeof(dtypes) / sizeof(*dtypes) ? dtypes[dtype].size : 0;
}

const char *nccl_redop_name(unsigned redop)
{
	static const char *const names[] = { "sum", "prod", "max", "min", "avg" };
	if (redop == 0xff)
		return NULL;
	return redop < 5 ? names[redop] : "user";
}

int nccl_op_is_coll(unsigned op)
{
	return op >= TPROF_NCCL_ALLREDUCE && op <= TPROF_NCCL_ALLTOALLV && !nccl_op_is_p2p(op);
}

int nccl_op_is_p2p(unsigned op)
{
	return op == TPROF_NCCL_SEND || op == TPROF_NCCL_RECV;
}

/* bytes = count x size as recorded, count being the argument passed (per rank for
 * AllGather, ReduceScatter, AlltoAll, Gather, Scatter; the largest count for AllToAllv). */
double nccl_alg_bytes(unsigned op, uint64_t bytes, int32_t nranks)
{
	double b = (double)bytes, n = nranks > 0 ? nranks : 1;
	switch (op) {
	case TPROF_NCCL_REDUCESCATTER:
	case TPROF_NCCL_ALLGATHER:
	case TPROF_NCCL_ALLTOALL:
	case TPROF_NCCL_GATHER:
	case TPROF_NCCL_SCATTER:
		return b * n;
	default:   /* AllReduce, Broadcast, Reduce, AllToAllv, Send, Recv */
		return b;
	}
}

double nccl_bus_factor(unsigned op, int32_t nranks)
{
	double n = nranks > 0 ? nranks : 1;
	switch (op) {
	case TPROF_NCCL_ALLREDUCE:
		return 2.0 * (n - 1) / n;
	case TPROF_NCCL_REDUCESCATTER:
	case TPROF_NCCL_ALLGATHER:
	case TPROF_NCCL_ALLTOALL:
	case TPROF_NCCL_GATHER:
	case TPROF_NCCL_SCATTER:
	case TPROF_NCCL_ALLTOALLV:
		return (n - 1) / n;
	default:   /* Broadcast, Reduce, Send, Recv */
		return 1.0;
	}
}

void nccl_launch_bytes(const struct nccl_op *ops, uint32_t n, double *alg, double *bus)
{
	double a = 0, b = 0, sent = 0, recvd = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct nccl_op *o = &ops[i];
		if (o->op == TPROF_NCCL_SEND)
			sent += (double)o->bytes;
		else if (o->op == TPROF_NCCL_RECV)
			recvd += (double)o->bytes;
		else if (nccl_op_is_coll(o->op)) {
			double s = nccl_alg_bytes(o->op, o->bytes, o->nranks);
			a += s;
			b += s * nccl_bus_factor(o->op, o->nranks);
		}
	}
	double p2p = sent > recvd ? sent : recvd;
	*alg = a + p2p;
	*bus = b + p2p;
}

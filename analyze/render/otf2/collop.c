/* render/otf2/collop.c — the model's collective operations (enum msgpass_coll) as OTF2's,
 * which two parts of the OTF2 writer need: the MPI records (the operation of a
 * MpiCollectiveEnd or a NonBlockingCollectiveComplete, render/otf2/mpi.c) and the region
 * definitions (the role of a collective call's region, render/otf2/defs.c).  A leaf: it
 * calls none of the other render/otf2 files. */
#include "state.h"

static const int ops[] = {
	[MPC_BARRIER] = OTF2_COLLECTIVE_OP_BARRIER,
	[MPC_BCAST] = OTF2_COLLECTIVE_OP_BCAST,
	[MPC_GATHER] = OTF2_COLLECTIVE_OP_GATHER,
	[MPC_GATHERV] = OTF2_COLLECTIVE_OP_GATHERV,
	[MPC_SCATTER] = OTF2_COLLECTIVE_OP_SCATTER,
	[MPC_SCATTERV] = OTF2_COLLECTIVE_OP_SCATTERV,
	[MPC_ALLGATHER] = OTF2_COLLECTIVE_OP_ALLGATHER,
	[MPC_ALLGATHERV] = OTF2_COLLECTIVE_OP_ALLGATHERV,
	[MPC_ALLTOALL] = OTF2_COLLECTIVE_OP_ALLTOALL,
	[MPC_ALLTOALLV] = OTF2_COLLECTIVE_OP_ALLTOALLV,
	[MPC_ALLTOALLW] = OTF2_COLLECTIVE_OP_ALLTOALLW,
	[MPC_ALLREDUCE] = OTF2_COLLECTIVE_OP_ALLREDUCE,
	[MPC_REDUCE] = OTF2_COLLECTIVE_OP_REDUCE,
	[MPC_REDUCE_SCATTER] = OTF2_COLLECTIVE_OP_REDUCE_SCATTER,
	[MPC_REDUCE_SCATTER_BLOCK] = OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK,
	[MPC_SCAN] = OTF2_COLLECTIVE_OP_SCAN,
	[MPC_EXSCAN] = OTF2_COLLECTIVE_OP_EXSCAN,
};

int otf2_coll_op(unsigned coll)
{
	return coll != MPC_NONE && coll < sizeof(ops) / sizeof(ops[0]) ? ops[coll] : -1;
}

/* render/otf2/collop.c — MPI collectives by name as OTF2's collective operations, which two
 * parts of the OTF2 writer need: the MPI records (the operation of a MpiCollectiveEnd or a
 * NonBlockingCollectiveComplete, render/otf2/mpi.c) and the region definitions (the role of a
 * collective call's region, render/otf2/defs.c).  A leaf: it calls none of the other out-otf2
 * files. */
#include <ctype.h>
#include <string.h>

#include "state.h"

static const struct {
	const char *name;
	int op;
} colls[] = {
	{ "Barrier", OTF2_COLLECTIVE_OP_BARRIER },
	{ "Bcast", OTF2_COLLECTIVE_OP_BCAST },
	{ "Gather", OTF2_COLLECTIVE_OP_GATHER },
	{ "Gatherv", OTF2_COLLECTIVE_OP_GATHERV },
	{ "Scatter", OTF2_COLLECTIVE_OP_SCATTER },
	{ "Scatterv", OTF2_COLLECTIVE_OP_SCATTERV },
	{ "Allgather", OTF2_COLLECTIVE_OP_ALLGATHER },
	{ "Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV },
	{ "Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL },
	{ "Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV },
	{ "Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW },
	{ "Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE },
	{ "Reduce", OTF2_COLLECTIVE_OP_REDUCE },
	{ "Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER },
	{ "Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK },
	{ "Scan", OTF2_COLLECTIVE_OP_SCAN },
	{ "Exscan", OTF2_COLLECTIVE_OP_EXSCAN },
};

/* (<strings.h> is shadowed by the analyzer's own strings.h.) */
static int same_nocase(const char *a, const char *b)
{
	while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b))
		a++, b++;
	return !*a && !*b;
}

/* MPI_Allreduce and MPI_Iallreduce: OTF2_COLLECTIVE_OP_ALLREDUCE; -1 for anything else. */
int otf2_mpi_coll_op(const char *name)
{
	if (strncmp(name, "MPI_", 4))
		return -1;
	const char *s = name + 4;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(colls) / sizeof(colls[0]); i++)
			if (same_nocase(s, colls[i].name))
				return colls[i].op;
		if (*s != 'I')
			break;
		s++;
	}
	return -1;
}

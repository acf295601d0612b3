/* render/otf2/comms.c — the MPI side of the definitions, written at the end: a group of the
 * location that stands for each world rank (decided by render/otf2/system.c), one group per
 * communicator listing its members' world ranks (an inter-communicator has two),
 * MPI_COMM_SELF's group, and the communicators themselves in the order of the refs the
 * definitions registry (render/otf2/defs.c) handed out while events were written. */
#include <stdio.h>
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "state.h"

/* A member's index in group 0 (the location of each world rank). */
static uint64_t world_member(const struct otf2 *o, int32_t world_rank)
{
	if (world_rank < 0 || (size_t)world_rank >= o->world)
		return o->world;     /* the slot of members no record names */
	return (uint64_t)world_rank;
}

static OTF2_StringRef comm_name(struct otf2 *o, const struct mpi_comm *c)
{
	char buf[64];
	if (c->name)
		return otf2_tstr(o->defs, c->name);
	if (c->id == TPROF_COMM_WORLD)
		return otf2_str(o->defs, "MPI_COMM_WORLD");
	snprintf(buf, sizeof(buf), "MPI_Comm %#llx", (unsigned long long)c->id);
	return otf2_str(o->defs, buf);
}

static OTF2_GroupRef comm_group(struct otf2 *o, OTF2_GlobalDefWriter *gw, OTF2_GroupRef *next,
				const int32_t *ranks, size_t n)
{
	uint64_t *m = xmallocarray(n ? n : 1, sizeof(*m));
	for (size_t i = 0; i < n; i++)
		m[i] = world_member(o, ranks[i]);
	OTF2_GroupRef g = (*next)++;
	otf2_check(o, OTF2_GlobalDefWriter_WriteGroup(gw, g, otf2_str(o->defs, ""),
						      OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
						      OTF2_GROUP_FLAG_NONE, (uint32_t)n, m));
	free(m);
	return g;
}

static OTF2_CommRef parent_ref(struct otf2 *o, const struct mpi_comm *c)
{
	if (!c->parent || c->parent == c->id)
		return OTF2_UNDEFINED_COMM;
	const struct mpi_comm *pc = trace_comm(o->tr, c->parent, c->self_rank);
	return otf2_comm(o->defs, pc, c->parent);
}

static void write_comm(struct otf2 *o, OTF2_GlobalDefWriter *gw, OTF2_GroupRef *next,
		       const struct mpi_comm *c)
{
	/* the members the records listed (all of them, unless a record was lost) */
	size_t local = c->known < c->size ? c->known : c->size;
	size_t remote = c->known - local;
	OTF2_CommRef ref = otf2_comm(o->defs, c, c->id);
	OTF2_GroupRef a = comm_group(o, gw, next, c->members, local);
	if (c->kind == TPROF_COMMK_INTER) {
		OTF2_GroupRef b = comm_group(o, gw, next, c->members + local, remote);
		otf2_check(o, OTF2_GlobalDefWriter_WriteInterComm(gw, ref, comm_name(o, c), a, b,
								  parent_ref(o, c),
								  OTF2_COMM_FLAG_NONE));
	} else {
		otf2_check(o, OTF2_GlobalDefWriter_WriteComm(gw, ref, comm_name(o, c), a,
							     parent_ref(o, c), OTF2_COMM_FLAG_NONE));
	}
}

void otf2_comms_write(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	if (!o->mpi)
		return;
	struct otf2_defs *d = o->defs;
	/* Group 0: the location of each world rank; communicators list indices into it. */
	uint64_t *locs = xmallocarray(o->nrank_locs ? o->nrank_locs : 1, sizeof(*locs));
	for (size_t r = 0; r < o->nrank_locs; r++)
		locs[r] = o->rank_refs[r];
	otf2_check(o, OTF2_GlobalDefWriter_WriteGroup(gw, 0, otf2_str(d, ""),
						      OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
						      OTF2_GROUP_FLAG_NONE, (uint32_t)o->nrank_locs, locs));
	free(locs);
	OTF2_GroupRef next = 1;
	for (OTF2_CommRef ref = 0; ref < otf2_comm_count(d); ref++) {
		int world, self;
		const struct mpi_comm *c = otf2_comm_at(d, ref, &world, &self);
		if (c) {
			write_comm(o, gw, &next, c);
		} else if (self) {
			OTF2_GroupRef g = next++;
			otf2_check(o, OTF2_GlobalDefWriter_WriteGroup(gw, g, otf2_str(d, ""),
								      OTF2_GROUP_TYPE_COMM_SELF,
								      OTF2_PARADIGM_MPI,
								      OTF2_GROUP_FLAG_NONE, 0, NULL));
			otf2_check(o, OTF2_GlobalDefWriter_WriteComm(gw, ref, otf2_str(d, "MPI_COMM_SELF"),
								     g, OTF2_UNDEFINED_COMM,
								     OTF2_COMM_FLAG_NONE));
		} else if (world) {
			int32_t *ranks = xmallocarray(o->world ? o->world : 1, sizeof(*ranks));
			for (size_t r = 0; r < o->world; r++)
				ranks[r] = (int32_t)r;
			OTF2_GroupRef g = comm_group(o, gw, &next, ranks, o->world);
			free(ranks);
			otf2_check(o, OTF2_GlobalDefWriter_WriteComm(gw, ref, otf2_str(d, "MPI_COMM_WORLD"),
								     g, OTF2_UNDEFINED_COMM,
								     OTF2_COMM_FLAG_NONE));
		}
	}
}

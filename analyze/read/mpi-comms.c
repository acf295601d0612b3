/* mpi-comms.c — the MPI communicators of a trace, put together from the COMM records in
 * every process's stream 0.  Each member of a communicator describes it the same way (its
 * id is computed alike on every member), so the records of all members merge into one
 * entry; a member whose process was not recorded stays -1 in the list.  Ranks recorded in
 * MPI calls are translated to world ranks through these lists. */
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static struct mpi_comm *find(const struct trace *tr, uint64_t id, int32_t self_rank)
{
	for (size_t i = 0; i < tr->ncomms; i++) {
		struct mpi_comm *c = tr->comms[i];
		if (c->id == id && (id != TPROF_COMM_SELF || c->self_rank == self_rank))
			return c;
	}
	return NULL;
}

static int cmp_key(uint64_t id, int32_t self, const struct mpi_comm *c)
{
	if (id != c->id)
		return id < c->id ? -1 : 1;
	if (id != TPROF_COMM_SELF || self == c->self_rank)
		return 0;
	return self < c->self_rank ? -1 : 1;
}

static int by_key(const void *a, const void *b)
{
	const struct mpi_comm *x = *(struct mpi_comm *const *)a, *y = *(struct mpi_comm *const *)b;
	return cmp_key(x->id, x->self_rank, y);
}

/* Once every process stream is read: sorted, for lookups by id from then on. */
void mpi_comms_finish(struct trace *tr)
{
	if (tr->ncomms > 1)
		qsort(tr->comms, tr->ncomms, sizeof(*tr->comms), by_key);
}

const struct mpi_comm *trace_comm(const struct trace *tr, uint64_t id, int32_t self_rank)
{
	size_t lo = 0, hi = tr->ncomms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_key(id, self_rank, tr->comms[mid]);
		if (!c)
			return tr->comms[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static struct mpi_comm *comm_new(struct trace *tr, const struct tprof_comm_def *d, uint8_t kind,
				 int32_t self_rank)
{
	struct mpi_comm *c = calloc(1, sizeof(*c));
	struct mpi_comm **nc = realloc(tr->comms, (tr->ncomms + 1) * sizeof(*nc));
	if (!c || !nc)
		abort();
	tr->comms = nc;
	tr->comms[tr->ncomms++] = c;
	c->id = d->id;
	c->parent = d->parent;
	c->kind = kind;
	c->size = d->size;
	c->remote_size = kind == TPROF_COMMK_INTER ? d->remote_size : 0;
	c->self_rank = self_rank;
	size_t n = (size_t)c->size + c->remote_size;
	c->members = malloc((n ? n : 1) * sizeof(*c->members));
	if (!c->members)
		abort();
	for (size_t i = 0; i < n; i++)
		c->members[i] = -1;
	return c;
}

/* A COMM record of process p (stream 0). */
void mpi_comms_add(struct trace *tr, struct proc *p, const struct tprof_rec *r)
{
	if (r->ext < 1)
		return;
	struct tprof_comm_def d;
	memcpy(&d, r + 1, sizeof(d));
	uint8_t kind = r->flags;
	if (d.id != r->arg || d.size > (1u << 24) || d.remote_size > (1u << 24))
		return;
	/* A process whose environment named no rank still has one in MPI_COMM_WORLD. */
	if (kind == TPROF_COMMK_WORLD && p->rank < 0 && d.my_rank >= 0)
		p->rank = d.my_rank;
	int32_t self_rank = d.id == TPROF_COMM_SELF ? (int32_t)p->rank : 0;
	struct mpi_comm *c = find(tr, d.id, self_rank);
	if (!c)
		c = comm_new(tr, &d, kind, self_rank);
	else if (c->size != d.size || c->remote_size != (kind == TPROF_COMMK_INTER ? d.remote_size : 0))
		return;   /* two communicators under one id: the first description stands */
	if (!c->name && r->name)
		c->name = proc_string(p, r->name);
	if (!c->parent)
		c->parent = d.parent;
	const int32_t *ranks = (const int32_t *)((const uint8_t *)(r + 1) + TPROF_UNIT);
	size_t listed = (size_t)(r->ext - 1) * (TPROF_UNIT / sizeof(int32_t));
	size_t total = (size_t)c->size + c->remote_size;
	for (size_t i = 0; i < listed && d.first + i < total; i++)
		if (c->members[d.first + i] < 0)
			c->members[d.first + i] = ranks[i];
}

/* A rank within communicator c (of its remote group when `remote`) as a world rank;
 * TPROF_MPI_* values and ranks out of range come back as they are (negative) or -1. */
int32_t mpi_comm_world_rank(const struct mpi_comm *c, int32_t rank, int remote)
{
	if (rank < 0)
		return rank;
	if (!c)
		return TPROF_MPI_NONE;
	if (c->kind == TPROF_COMMK_SELF)
		return rank == 0 ? c->self_rank : TPROF_MPI_NONE;
	uint32_t base = remote && c->kind == TPROF_COMMK_INTER ? c->size : 0;
	uint32_t n = remote && c->kind == TPROF_COMMK_INTER ? c->remote_size : c->size;
	if ((uint32_t)rank >= n)
		return TPROF_MPI_NONE;
	return c->members[base + (uint32_t)rank];
}

void mpi_comms_free(struct trace *tr)
{
	for (size_t i = 0; i < tr->ncomms; i++) {
		free(tr->comms[i]->members);
		free(tr->comms[i]);
	}
	free(tr->comms);
	tr->comms = NULL;
	tr->ncomms = 0;
}

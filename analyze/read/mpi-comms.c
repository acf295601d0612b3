/* mpi-comms.c — the MPI communicators of a trace, put together from the COMM records in
 * every process's stream 0.  Each member of a communicator describes it the same way (its
 * id is computed alike on every member), so the records of all members merge into one
 * entry; a member whose process was not recorded stays -1 in the list.  Ranks recorded in
 * MPI calls are translated to world ranks through these lists. */
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"
#include "../../common/xalloc.h"
#include "../parallel/par.h"
#include "../util/grow.h"
#include "share.h"
#include "trace.h"

/* The key of a communicator in tr->comm_of: its id, and for MPI_COMM_SELF whose it is. */
static uint64_t comm_key(uint64_t id, int32_t self_rank)
{
	return id == TPROF_COMM_SELF ? tprof_hash_more(id, &self_rank, sizeof(self_rank)) : id;
}

static struct mpi_comm *find(struct trace *tr, uint64_t id, int32_t self_rank)
{
	uint32_t *at = u64map_get(&tr->comm_of, comm_key(id, self_rank));
	if (!at)
		return NULL;
	struct mpi_comm *c = tr->comms[*at];
	if (c->id == id && (id != TPROF_COMM_SELF || c->self_rank == self_rank))
		return c;
	for (size_t i = 0; i < tr->ncomms; i++) {   /* two keys alike: never seen */
		c = tr->comms[i];
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

static int by_rank(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* How many members of each communicator have their process in the trace, counted once (in
 * the parallel analyzer, the processes of every analysis process). */
static void count_recorded(struct trace *tr)
{
	int64_t *mine = xmallocarray(tr->nprocs ? tr->nprocs : 1, sizeof(*mine));
	size_t n = 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->rank >= 0)
			mine[n++] = tr->procs[i]->rank;
	int64_t *ranks = share_all(mine, n, sizeof(*mine), &n);
	free(mine);
	qsort(ranks, n, sizeof(*ranks), by_rank);
	for (size_t i = 0; i < tr->ncomms; i++) {
		struct mpi_comm *c = tr->comms[i];
		c->recorded = 0;
		for (uint32_t k = 0; k < c->known; k++) {
			int64_t r = c->members[k];
			c->recorded += r >= 0 && bsearch(&r, ranks, n, sizeof(*ranks), by_rank) != NULL;
		}
	}
	free(ranks);
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
	struct mpi_comm *c = xcalloc(1, sizeof(*c));
	tr->comms = util_grow(tr->comms, &tr->capcomms, tr->ncomms, sizeof(*tr->comms), 16);
	u64map_put(&tr->comm_of, comm_key(d->id, self_rank), (uint32_t)tr->ncomms);
	tr->comms[tr->ncomms++] = c;
	c->id = d->id;
	c->parent = d->parent;
	c->kind = kind;
	c->size = d->size;
	c->remote_size = kind == TPROF_COMMK_INTER ? d->remote_size : 0;
	c->self_rank = self_rank;
	return c;
}

/* Members [first, first + n) listed by a record: kept when they follow on from those known
 * (each member lists them in order, from 0), so that memory follows the ranks listed, never
 * the size a record claims. */
static void add_members(struct mpi_comm *c, uint32_t first, const int32_t *ranks, size_t n)
{
	size_t total = (size_t)c->size + c->remote_size;
	if (first > c->known || first >= total)
		return;
	if (n > total - first)
		n = total - first;
	if (first + n > c->known) {
		size_t cap = c->capmembers;
		c->members = util_grow_index(c->members, &cap, first + n - 1, sizeof(*c->members), 8,
					     0xff);
		c->capmembers = (uint32_t)cap;
	}
	for (size_t i = 0; i < n; i++)
		if (first + i >= c->known || c->members[first + i] < 0)
			c->members[first + i] = ranks[i];
	if (first + n > c->known)
		c->known = (uint32_t)(first + n);
}

/* A communicator's description d (members [d->first, d->first + n) in ranks): a new entry, or
 * what an entry of its id does not know yet (the first description of an id stands). */
static void merge(struct trace *tr, const struct tprof_comm_def *d, uint8_t kind,
		  int32_t self_rank, uint32_t name, const int32_t *ranks, size_t n)
{
	struct mpi_comm *c = find(tr, d->id, self_rank);
	if (!c)
		c = comm_new(tr, d, kind, self_rank);
	else if (c->size != d->size ||
		 c->remote_size != (kind == TPROF_COMMK_INTER ? d->remote_size : 0))
		return;   /* two communicators under one id: the first description stands */
	if (!c->name && name)
		c->name = name;
	if (!c->parent)
		c->parent = d->parent;
	add_members(c, d->first, ranks, n);
}

/* Another analysis process's communicator c merged in as its COMM records would be. */
static void comm_merge(struct trace *tr, const struct mpi_comm *c)
{
	struct tprof_comm_def d = { .id = c->id, .parent = c->parent, .size = c->size,
				    .remote_size = c->remote_size, .first = 0 };
	merge(tr, &d, c->kind, c->self_rank, c->name, c->members, c->known);
}

/* Once every process stream is read: every analysis process's (share.h), sorted, for lookups
 * by id from then on. */
void mpi_comms_finish(struct trace *tr)
{
	if (par_size() > 1) {
		size_t n;
		struct mpi_comm *all = share_comms(tr, &n);
		mpi_comms_free(tr);
		for (size_t i = 0; i < n; i++) {
			comm_merge(tr, &all[i]);
			free(all[i].members);
		}
		free(all);
	}
	u64map_free(&tr->comm_of);
	if (tr->ncomms > 1)
		qsort(tr->comms, tr->ncomms, sizeof(*tr->comms), by_key);
	count_recorded(tr);
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
	const int32_t *ranks = (const int32_t *)((const uint8_t *)(r + 1) + TPROF_UNIT);
	merge(tr, &d, kind, self_rank, r->name ? proc_string(p, r->name) : 0, ranks,
	      (size_t)(r->ext - 1) * (TPROF_UNIT / sizeof(int32_t)));
}

/* Member i (of both groups, local first) as a world rank; -1 where no record said. */
int32_t mpi_comm_member(const struct mpi_comm *c, size_t i)
{
	return i < c->known ? c->members[i] : -1;
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
	return mpi_comm_member(c, (size_t)base + (uint32_t)rank);
}

void mpi_comms_free(struct trace *tr)
{
	for (size_t i = 0; i < tr->ncomms; i++) {
		free(tr->comms[i]->members);
		free(tr->comms[i]);
	}
	free(tr->comms);
	tr->comms = NULL;
	tr->ncomms = tr->capcomms = 0;
	u64map_free(&tr->comm_of);
}

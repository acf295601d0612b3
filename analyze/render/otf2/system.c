/* render/otf2/system.c — where every location sits, decided and written at the end: which
 * location stands for each MPI rank (ranks and processes that have none get an empty one),
 * the system tree (the machine, one node per host, one per GPU and per NeuronCore of a host),
 * a location group per process (ranked processes first, in rank order, group id = rank)
 * holding its threads, its steps, its lanes of ranges across threads and its counters, one
 * per (process, device) holding that device's streams and one per (process, NeuronCore)
 * holding that core's lanes; and the local definitions every location wants.
 *
 * Under `mpirun -np K tprof-analyze --parallel` each analysis process has its share's
 * processes and their locations: they agree on the world and on which process holds each
 * rank, each describes its processes (their labels, their locations in the order they are
 * written, the devices they used), and the first writes the definitions from every
 * description, in the serial analyzer's order.  One process describes itself to itself the
 * same way.  The MPI groups naming these locations are render/otf2/comms.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../parallel/par.h"
#include "../../util/pack.h"
#include "../../util/u64map.h"
#include "state.h"

/* Locations with events, and those MPI or a process group cannot do without. */
int otf2_loc_defined(const struct loc *l)
{
	return l->events > 0 || l->rank_loc || l->kind == LOC_STUB;
}

static int proc_has_events(struct otf2 *o, const struct proc *p)
{
	for (size_t i = 0; i < o->nlocs; i++)
		if (o->locs[i]->proc == p && o->locs[i]->events)
			return 1;
	return 0;
}

/* A process group needs a CPU thread among its locations (not a device, not counters). */
static int has_cpu_location(struct otf2 *o, const struct proc *p)
{
	for (size_t i = 0; i < o->nlocs; i++) {
		const struct loc *l = o->locs[i];
		if (l->proc == p && l->kind != LOC_DEVICE && l->kind != LOC_COUNTERS &&
		    l->kind != LOC_NEURONCORE &&
		    otf2_loc_defined(l))
			return 1;
	}
	return 0;
}

static struct loc *stub(struct otf2 *o, const struct proc *p, int32_t rank)
{
	struct loc *l = otf2_loc_new(o, LOC_STUB, p);
	l->rank = rank;
	return l;
}

/* The thread that stands for a process in MPI: the first that wrote MPI records, else its
 * main thread, else its first thread with events, else an empty one. */
static struct loc *rank_loc(struct otf2 *o, struct proc *p)
{
	struct pstate *ps = otf2_pstate(o, p);
	if (ps->mpi_loc)
		return ps->mpi_loc;
	struct loc *first = NULL;
	for (size_t s = 0; s < ps->nthreads; s++) {
		struct loc *l = ps->threads[s];
		if (!l || !l->events)
			continue;
		if (l->th->tid == p->pid)
			return l;
		if (!first)
			first = l;
	}
	if (first)
		return first;
	ps->stub = stub(o, p, (int32_t)p->rank);
	return ps->stub;
}

/* ---- which location stands for each rank ---------------------------------------------------- */

/* Ranks past those MPI_COMM_WORLD's records list and the processes' own, each of which
 * costs a location: a process claiming a rank beyond them has none (its records name no rank
 * the archive knows), so that no claim in a file makes locations its bytes do not justify. */
#define RANKS_UNLISTED_MAX 4096

/* The world: every rank MPI_COMM_WORLD's records list, and every process's rank (of every
 * analysis process's processes). */
static size_t world_size(const struct otf2 *o)
{
	const struct trace *tr = o->tr;
	size_t w = 0;
	for (size_t i = 0; i < tr->ncomms; i++)
		if (tr->comms[i]->id == TPROF_COMM_WORLD && tr->comms[i]->known > w)
			w = tr->comms[i]->known;
	int64_t procs = (int64_t)tr->nprocs, top = -1;
	par_sum_u64((uint64_t *)&procs, 1);
	size_t limit = w + (size_t)procs + RANKS_UNLISTED_MAX;
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->rank >= 0 && (uint64_t)tr->procs[i]->rank < limit &&
		    tr->procs[i]->rank > top)
			top = tr->procs[i]->rank;
	par_max_i64(&top, 1);
	return top >= 0 && (size_t)top + 1 > w ? (size_t)top + 1 : w;
}

static int ranked(const struct otf2 *o, const struct proc *p)
{
	return p->rank >= 0 && (uint64_t)p->rank < o->world;
}

static int unknown_members(const struct otf2 *o)
{
	const struct trace *tr = o->tr;
	int64_t unknown = 0;
	for (size_t i = 0; i < tr->ncomms && !unknown; i++) {
		const struct mpi_comm *c = tr->comms[i];
		if (c->kind == TPROF_COMMK_SELF)
			continue;
		if (c->known < (size_t)c->size + c->remote_size)
			unknown = 1;
		for (size_t k = 0; k < c->known; k++)
			if (c->members[k] < 0 || (size_t)c->members[k] >= o->world)
				unknown = 1;
	}
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->rank >= 0 && !ranked(o, tr->procs[i]))
			unknown = 1;
	par_max_i64(&unknown, 1);
	return unknown != 0;
}

/* A ranked process's claim to its rank: the first in the serial order that wrote MPI
 * records holds it, else the first. */
struct claim {
	int64_t rank, index, mpi;
};

static int by_index(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Each world rank's holder, by process number (0: none), agreed by every analysis process. */
static int64_t *rank_owners(struct otf2 *o)
{
	const struct trace *tr = o->tr;
	struct claim *mine = xcalloc(tr->nprocs ? tr->nprocs : 1, sizeof(*mine));
	size_t n = 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		if (ranked(o, tr->procs[i]))
			mine[n++] = (struct claim){ tr->procs[i]->rank, tr->procs[i]->index,
						    otf2_pstate(o, tr->procs[i])->mpi_loc != NULL };
	size_t *len_of = NULL, total = 0;
	struct claim *all = mine;
	if (par_size() > 1) {
		all = par_allgather(mine, n * sizeof(*mine), &len_of);
		for (int k = 0; k < par_size(); k++)
			total += len_of[k];
		n = total / sizeof(*all);
		free(mine);
		free(len_of);
	}
	qsort(all, n, sizeof(*all), by_index);
	int64_t *owner = xcalloc(o->world ? o->world : 1, sizeof(*owner));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (!owner[all[i].rank] && (pass || all[i].mpi))
				owner[all[i].rank] = all[i].index;
	free(all);
	return owner;
}

/* Each world rank's location: its holder's (made where it is read), or an empty one the
 * first analysis process makes. */
static void assign_ranks(struct otf2 *o)
{
	const struct trace *tr = o->tr;
	o->world = world_size(o);
	o->nrank_locs = o->world + (unknown_members(o) ? 1 : 0);
	o->rank_refs = xcalloc(o->nrank_locs ? o->nrank_locs : 1, sizeof(*o->rank_refs));
	int64_t *owner = rank_owners(o);
	for (size_t r = 0; r < o->world; r++) {
		struct proc *p = owner[r] ? (struct proc *)trace_proc_at(tr, owner[r]) : NULL;
		struct loc *l = NULL;
		if (p) {
			otf2_pstate(o, p)->rank_slot = 1;
			l = rank_loc(o, p);
			otf2_pstate(o, p)->rank_ref = l->ref;
		} else if (!owner[r] && par_rank() == 0) {
			l = stub(o, NULL, (int32_t)r);
		}
		if (l) {
			l->rank_loc = 1;
			o->rank_refs[r] = l->ref;
		}
	}
	if (o->nrank_locs > o->world && par_rank() == 0) {
		struct loc *l = stub(o, NULL, -1);
		l->rank_loc = 1;
		o->rank_refs[o->world] = l->ref;
	}
	free(owner);
}

/* Which location stands for each MPI rank, and locations for ranks and processes that
 * have none of their own; before the event writers close. */
void otf2_system_prepare(struct otf2 *o)
{
	const struct trace *tr = o->tr;
	int64_t mpi = tr->ncomms > 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		mpi |= otf2_pstate(o, tr->procs[i])->mpi_loc != NULL;
	par_max_i64(&mpi, 1);
	o->mpi = mpi != 0;
	if (o->mpi)
		assign_ranks(o);
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		struct pstate *ps = otf2_pstate(o, p);
		ps->defined = ps->rank_slot || proc_has_events(o, p);
		if (ps->defined && !has_cpu_location(o, p))
			ps->stub = stub(o, p, -1);
	}
}

/* ---- what names a location ---------------------------------------------------------------- */

/* What a location is within its process: its track's name, its thread's... */
static void loc_what(const struct loc *l, char *buf, size_t len)
{
	if (l->kind == LOC_THREAD) {       /* named as the scene names its track, and its tid */
		const char *n = l->name ? l->name : l->th->name ? strings_get(l->th->name) : "thread";
		if (l->th->tid >= 0)
			snprintf(buf, len, "%s (tid %d)", n, l->th->tid);
		else
			snprintf(buf, len, "%s", n);
		return;
	}
	if (l->name) {                     /* a track's: named as the scene names it */
		snprintf(buf, len, "%s", l->name);
		return;
	}
	switch (l->kind) {
	case LOC_THREAD:
		break;
	case LOC_STEPS:
		snprintf(buf, len, "steps");
		return;
	case LOC_ASYNC:
		if (l->lane == 1)
			snprintf(buf, len, "ranges across threads");
		else
			snprintf(buf, len, "ranges across threads %d", l->lane);
		return;
	case LOC_COUNTERS:
		snprintf(buf, len, "counters");
		return;
	case LOC_STUB:
		snprintf(buf, len, l->proc ? "thread" : "not recorded");
		return;
	case LOC_DEVICE:
		snprintf(buf, len, "GPU %u", l->device);
		return;
	case LOC_NEURONCORE:
		snprintf(buf, len, "nc %u", l->device);
		return;
	case LOC_OTHER:
		break;
	}
	snprintf(buf, len, "track");
}

static OTF2_LocationType loc_type(const struct loc *l)
{
	if (l->kind == LOC_DEVICE || l->kind == LOC_NEURONCORE)
		return OTF2_LOCATION_TYPE_ACCELERATOR_STREAM;
	if (l->kind == LOC_COUNTERS)
		return OTF2_LOCATION_TYPE_METRIC;
	return OTF2_LOCATION_TYPE_CPU_THREAD;
}

/* ---- descriptions: a process, its locations, the devices it used ------------------------- */

/* A location as the definitions name it. */
struct sloc {
	OTF2_LocationRef ref;
	uint64_t events;
	uint32_t type;                   /* OTF2_LocationType */
	uint32_t what;                   /* a trace string: loc_what */
};

/* The locations of one group: the process's own (dev UINT32_MAX), or those of one of its
 * GPUs or NeuronCores. */
struct sgroup {
	uint32_t dev;
	int nc;
	struct sloc *locs;
	size_t nlocs;
};

struct sproc {
	int64_t index, rank, pid, ppid;  /* rank: -1 unless it holds its rank's slot */
	int64_t named_rank;              /* the rank that names its locations (-1: none) */
	uint32_t host, label;            /* trace strings */
	struct { uint32_t dev; int nc; } *tree;  /* its devices as the tree lists them */
	size_t ntree;
	struct sgroup *groups;           /* its own first */
	size_t ngroups;
	OTF2_LocationGroupRef group;     /* decided by the writer */
	OTF2_LocationRef rank_ref;       /* the location standing for its rank */
};

static void pack_loc(struct pack *b, const struct loc *l)
{
	char what[400];
	loc_what(l, what, sizeof(what));
	pack_u64(b, l->ref);
	pack_u64(b, l->events);
	pack_u64(b, loc_type(l));
	pack_str(b, what);
}

/* A group's locations that are defined: the count, then each. */
static void pack_group(struct pack *b, uint32_t dev, int nc, struct loc *const *ls, size_t n,
		       const struct loc *also)
{
	uint64_t count = also && otf2_loc_defined(also);
	for (size_t i = 0; i < n; i++)
		count += ls[i] && otf2_loc_defined(ls[i]);
	pack_u64(b, dev);
	pack_u64(b, (uint64_t)nc);
	pack_u64(b, count);
	for (size_t i = 0; i < n; i++)
		if (ls[i] && otf2_loc_defined(ls[i]))
			pack_loc(b, ls[i]);
	if (also && otf2_loc_defined(also))
		pack_loc(b, also);
}

/* Per (process, device) with work, a group of the device's streams (or NeuronCore's
 * lanes): the count of such groups first. */
static void pack_devices(struct pack *b, struct loc **ds, size_t n, int nc)
{
	struct loc **mine = xcalloc(n ? n : 1, sizeof(*mine));
	size_t groups = 0, at = b->n;
	pack_u64(b, 0);
	for (size_t k = 0; k < n; k++) {
		uint32_t dev = ds[k]->device;
		int first = 1, any = 0;
		for (size_t j = 0; j < n; j++) {
			if (ds[j]->device != dev)
				continue;
			first &= j >= k;
			any |= ds[j]->events > 0;
		}
		if (!first || !any)
			continue;
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (ds[j]->device == dev)
				mine[m++] = ds[j];
		pack_group(b, dev, nc, mine, m, NULL);
		groups++;
	}
	memcpy(b->v + at, &groups, sizeof(uint64_t));
	free(mine);
}

/* A process with locations worth defining, as the writer wants it. */
static void pack_proc(struct otf2 *o, struct pack *b, struct proc *p)
{
	struct pstate *ps = otf2_pstate(o, p);
	char label[512];
	proc_label(p, label, sizeof(label));
	pack_i64(b, p->index);
	pack_i64(b, ps->rank_slot ? p->rank : -1);
	pack_i64(b, p->rank);
	pack_i64(b, p->pid);
	pack_i64(b, p->ppid);
	pack_name(b, p->host);
	pack_str(b, label);
	pack_u64(b, ps->rank_slot ? ps->rank_ref : 0);
	/* the tree's devices: those with events, streams then NeuronCores */
	size_t ndev = 0;
	for (size_t k = 0; k < ps->ndevs; k++)
		ndev += ps->devs[k]->events > 0;
	for (size_t k = 0; k < ps->nncs; k++)
		ndev += ps->ncs[k]->events > 0;
	pack_u64(b, ndev);
	for (size_t k = 0; k < ps->ndevs; k++)
		if (ps->devs[k]->events) {
			pack_u64(b, ps->devs[k]->device);
			pack_u64(b, 0);
		}
	for (size_t k = 0; k < ps->nncs; k++)
		if (ps->ncs[k]->events) {
			pack_u64(b, ps->ncs[k]->device);
			pack_u64(b, 1);
		}
	/* its own group: threads (the main one first), an empty thread, steps, lanes, other
	 * tracks, counters */
	struct loc **own = xcalloc(ps->nthreads + ps->nlanes + ps->nothers + 3, sizeof(*own));
	size_t n = 0;
	for (int main_first = 1; main_first >= 0; main_first--)
		for (size_t s = 0; s < ps->nthreads; s++)
			if (ps->threads[s] && (ps->threads[s]->th->tid == p->pid) == main_first)
				own[n++] = ps->threads[s];
	own[n++] = ps->stub;
	own[n++] = ps->steps;
	for (size_t i = 0; i < ps->nlanes; i++)
		own[n++] = ps->lanes[i];
	for (size_t i = 0; i < ps->nothers; i++)
		own[n++] = ps->others[i];
	pack_group(b, UINT32_MAX, 0, own, n, ps->counters);
	free(own);
	pack_devices(b, ps->devs, ps->ndevs, 0);
	pack_devices(b, ps->ncs, ps->nncs, 1);
}

static void unpack_group(struct unpack *u, struct sgroup *g)
{
	g->dev = (uint32_t)unpack_u64(u);
	g->nc = (int)unpack_u64(u);
	g->nlocs = unpack_count(u, 4 * sizeof(uint64_t));
	g->locs = xcalloc(g->nlocs ? g->nlocs : 1, sizeof(*g->locs));
	for (size_t i = 0; i < g->nlocs; i++) {
		struct sloc *l = &g->locs[i];
		l->ref = unpack_u64(u);
		l->events = unpack_u64(u);
		l->type = (uint32_t)unpack_u64(u);
		size_t len;
		const char *s = unpack_str(u, &len);
		l->what = strings_add(s, len);
	}
}

/* The process packed next: 0 when the bytes end. */
static int unpack_proc(struct unpack *u, struct sproc *p)
{
	if (!unpack_more(u))
		return 0;
	memset(p, 0, sizeof(*p));
	p->index = unpack_i64(u);
	p->rank = unpack_i64(u);
	p->named_rank = unpack_i64(u);
	p->pid = unpack_i64(u);
	p->ppid = unpack_i64(u);
	p->host = unpack_name(u);
	p->label = unpack_name(u);
	p->rank_ref = unpack_u64(u);
	p->ntree = unpack_count(u, 2 * sizeof(uint64_t));
	p->tree = xcalloc(p->ntree ? p->ntree : 1, sizeof(*p->tree));
	for (size_t i = 0; i < p->ntree; i++) {
		p->tree[i].dev = (uint32_t)unpack_u64(u);
		p->tree[i].nc = (int)unpack_u64(u);
	}
	size_t ngpu, nnc;
	struct sgroup own;
	unpack_group(u, &own);
	ngpu = unpack_count(u, 3 * sizeof(uint64_t));
	struct sgroup *gpus = xcalloc(ngpu ? ngpu : 1, sizeof(*gpus));
	for (size_t i = 0; i < ngpu; i++)
		unpack_group(u, &gpus[i]);
	nnc = unpack_count(u, 3 * sizeof(uint64_t));
	p->ngroups = 1 + ngpu + nnc;
	p->groups = xcalloc(p->ngroups, sizeof(*p->groups));
	p->groups[0] = own;
	memcpy(p->groups + 1, gpus, ngpu * sizeof(*gpus));
	free(gpus);
	for (size_t i = 0; i < nnc; i++)
		unpack_group(u, &p->groups[1 + ngpu + i]);
	return !u->short_read;
}

static int by_proc_index(const void *a, const void *b)
{
	const struct sproc *x = a, *y = b;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Every analysis process's processes, in the serial order, to the first one (*n of them;
 * NULL on the others). */
static struct sproc *describe(struct otf2 *o, size_t *n)
{
	struct pack b = { 0 };
	for (size_t i = 0; i < o->nprocs; i++)
		if (otf2_pstate(o, o->tr->procs[i])->defined)
			pack_proc(o, &b, o->tr->procs[i]);
	char *all = b.v;
	size_t total = b.n, *len_of = NULL;
	if (par_size() > 1) {
		all = par_gather(b.v, b.n, 0, &len_of);
		total = 0;
		for (int k = 0; all && k < par_size(); k++)
			total += len_of[k];
		pack_free(&b);
		free(len_of);
	}
	*n = 0;
	if (par_rank() != 0)
		return NULL;
	struct sproc *ps = NULL;
	size_t cap = 0;
	struct unpack u = unpack_of(all, total);
	for (;;) {
		if (*n == cap)
			ps = xreallocarray(ps, cap = cap ? 2 * cap : 64, sizeof(*ps));
		if (!unpack_proc(&u, &ps[*n]))
			break;
		(*n)++;
	}
	free(all);
	qsort(ps, *n, sizeof(*ps), by_proc_index);
	return ps;
}

static void sprocs_free(struct sproc *ps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t g = 0; g < ps[i].ngroups; g++)
			free(ps[i].groups[g].locs);
		free(ps[i].groups);
		free(ps[i].tree);
	}
	free(ps);
}

/* ---- the system tree ---------------------------------------------------------------------- */

struct tree {
	uint32_t *hosts;                 /* string ids; node id = 1 + index */
	size_t nhosts, caphosts;
	struct u64map host_of;           /* string id -> index */
	struct {
		uint32_t host, device;
		int nc;                  /* a NeuronCore, not a GPU */
	} *devs;                         /* node id = 1 + nhosts + index */
	size_t ndevs, capdevs;
	struct u64map dev_of[2];         /* (host, device) -> index, of GPUs and NeuronCores */
	struct u64map loc_names;         /* location names given (string ids), to keep them
					  * unique */
};

static OTF2_SystemTreeNodeRef host_node(struct tree *t, uint32_t host)
{
	uint32_t *v = u64map_get(&t->host_of, host);
	if (v)
		return (OTF2_SystemTreeNodeRef)(1 + *v);
	if (t->nhosts == t->caphosts)
		t->hosts = xreallocarray(t->hosts, t->caphosts = t->caphosts ? 2 * t->caphosts : 16,
					 sizeof(*t->hosts));
	u64map_put(&t->host_of, host, (uint32_t)t->nhosts);
	t->hosts[t->nhosts++] = host;
	return (OTF2_SystemTreeNodeRef)t->nhosts;
}

static size_t dev_index(struct tree *t, uint32_t host, uint32_t device, int nc)
{
	uint64_t key = (uint64_t)host << 32 | device;
	uint32_t *v = u64map_get(&t->dev_of[!!nc], key);
	if (v)
		return *v;
	if (t->ndevs == t->capdevs)
		t->devs = xreallocarray(t->devs, t->capdevs = t->capdevs ? 2 * t->capdevs : 16,
					sizeof(*t->devs));
	t->devs[t->ndevs].host = host;
	t->devs[t->ndevs].device = device;
	t->devs[t->ndevs].nc = nc;
	u64map_put(&t->dev_of[!!nc], key, (uint32_t)t->ndevs);
	return t->ndevs++;
}

static void tree_build(struct tree *t, const struct sproc *ps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		host_node(t, ps[i].host);
		for (size_t k = 0; k < ps[i].ntree; k++)
			dev_index(t, ps[i].host, ps[i].tree[k].dev, ps[i].tree[k].nc);
	}
}

static void tree_write(struct otf2 *o, OTF2_GlobalDefWriter *gw, const struct tree *t)
{
	struct otf2_defs *d = o->defs;
	char buf[64];
	otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, 0, otf2_str(d, "machine"),
							       otf2_str(d, "machine"),
							       OTF2_UNDEFINED_SYSTEM_TREE_NODE));
	otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(gw, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE));
	for (size_t i = 0; i < t->nhosts; i++) {
		OTF2_SystemTreeNodeRef id = (OTF2_SystemTreeNodeRef)(1 + i);
		OTF2_StringRef name = t->hosts[i] ? otf2_tstr(d, t->hosts[i]) : otf2_str(d, "?");
		otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, id, name, otf2_str(d, "node"), 0));
		otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
				      gw, id, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY));
	}
	for (size_t i = 0; i < t->ndevs; i++) {
		OTF2_SystemTreeNodeRef id = (OTF2_SystemTreeNodeRef)(1 + t->nhosts + i);
		snprintf(buf, sizeof(buf), t->devs[i].nc ? "NeuronCore %u" : "GPU %u", t->devs[i].device);
		uint32_t *h = u64map_get((struct u64map *)&t->host_of, t->devs[i].host);
		OTF2_SystemTreeNodeRef parent = h ? (OTF2_SystemTreeNodeRef)(1 + *h) : 0;
		otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, id, otf2_str(d, buf),
								       otf2_str(d, "accelerator"), parent));
		otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
				      gw, id, OTF2_SYSTEM_TREE_DOMAIN_ACCELERATOR_DEVICE));
	}
}

/* ---- location groups and locations -------------------------------------------------------- */

/* A location's name, unique in the archive (tools that key on names, as the OTF2 Python
 * reader's users do, must not find one for several): its process ("rank 3", else "pid 123",
 * with the host when the trace has several) before what it is in it, "rank 3: main (tid
 * 4380)"; a name met again (two tracks of one process named alike) gets " #2", " #3"...
 * p is NULL for a rank no process was recorded for (rank -1: the members no record names). */
static OTF2_StringRef loc_name(struct otf2 *o, struct tree *t, const struct sproc *p,
			       int64_t rank, const struct sloc *l)
{
	char who[320], name[760];
	const char *what = strings_get(l->what);
	if (p && p->named_rank >= 0)
		snprintf(who, sizeof(who), "rank %lld", (long long)p->named_rank);
	else if (p && t->nhosts > 1)
		snprintf(who, sizeof(who), "pid %lld on %s", (long long)p->pid,
			 p->host ? strings_get(p->host) : "?");
	else if (p)
		snprintf(who, sizeof(who), "pid %lld", (long long)p->pid);
	else if (rank >= 0)
		snprintf(who, sizeof(who), "rank %lld", (long long)rank);
	else
		snprintf(who, sizeof(who), "MPI");
	snprintf(name, sizeof(name), "%s: %s", who, what);
	size_t len = strlen(name);
	uint32_t id = strings_add(name, len);
	uint32_t *given = u64map_get(&t->loc_names, id);   /* how often, when given already */
	if (given) {
		char again[800];
		do {
			snprintf(again, sizeof(again), "%s #%u", name, ++*given);
			id = strings_add(again, strlen(again));
		} while (u64map_get(&t->loc_names, id));
	}
	u64map_put(&t->loc_names, id, 1);
	return otf2_tstr(o->defs, id);
}

static void write_locs(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
		       const struct sproc *p, const struct sgroup *g, OTF2_LocationGroupRef group)
{
	for (size_t i = 0; i < g->nlocs; i++)
		otf2_check(o, OTF2_GlobalDefWriter_WriteLocation(gw, g->locs[i].ref,
								 loc_name(o, t, p, -1, &g->locs[i]),
								 g->locs[i].type, g->locs[i].events,
								 group));
}

/* The process that started p (fork), when it was recorded too. */
static OTF2_LocationGroupRef parent_group(const struct sproc *ps, size_t n, const struct sproc *p)
{
	for (size_t i = 0; i < n; i++) {
		const struct sproc *q = &ps[i];
		if (q != p && q->pid == p->ppid && q->host == p->host)
			return q->group;
	}
	return OTF2_UNDEFINED_LOCATION_GROUP;
}

/* A process: its group and its own locations. */
static void write_proc(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
		       const struct sproc *ps, size_t n, const struct sproc *p)
{
	otf2_check(o, OTF2_GlobalDefWriter_WriteLocationGroup(gw, p->group, otf2_tstr(o->defs, p->label),
							      OTF2_LOCATION_GROUP_TYPE_PROCESS,
							      host_node(t, p->host), parent_group(ps, n, p)));
	write_locs(o, gw, t, p, &p->groups[0], p->group);
}

/* A rank no process was recorded for (or the members no record names): its location is
 * the first analysis process's. */
static void write_rank_stub(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
			    size_t rank)
{
	char buf[64];
	int64_t r = rank < o->world ? (int64_t)rank : -1;
	if (r >= 0)
		snprintf(buf, sizeof(buf), "rank %lld (not recorded)", (long long)r);
	else
		snprintf(buf, sizeof(buf), "MPI processes not recorded");
	OTF2_LocationGroupRef group = (OTF2_LocationGroupRef)rank;
	otf2_check(o, OTF2_GlobalDefWriter_WriteLocationGroup(gw, group, otf2_str(o->defs, buf),
							      OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
							      OTF2_UNDEFINED_LOCATION_GROUP));
	struct sloc l = { o->rank_refs[rank], 0, OTF2_LOCATION_TYPE_CPU_THREAD,
			  strings_add("not recorded", 12) };
	otf2_check(o, OTF2_GlobalDefWriter_WriteLocation(gw, l.ref, loc_name(o, t, NULL, r, &l),
							 l.type, 0, group));
}

/* Per (process, device) with work: a group of the device's streams or core's lanes. */
static void write_devices(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
			  const struct sproc *ps, size_t n, int nc, OTF2_LocationGroupRef *next)
{
	char buf[600];
	for (size_t i = 0; i < n; i++) {
		const struct sproc *p = &ps[i];
		for (size_t k = 1; k < p->ngroups; k++) {
			const struct sgroup *g = &p->groups[k];
			if (g->nc != nc)
				continue;
			OTF2_LocationGroupRef id = (*next)++;
			snprintf(buf, sizeof(buf), nc ? "nc %u, %s" : "GPU %u, %s", g->dev,
				 strings_get(p->label));
			OTF2_SystemTreeNodeRef node =
				(OTF2_SystemTreeNodeRef)(1 + t->nhosts + dev_index(t, p->host, g->dev, nc));
			otf2_check(o, OTF2_GlobalDefWriter_WriteLocationGroup(
					      gw, id, otf2_str(o->defs, buf),
					      OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, node, p->group));
			write_locs(o, gw, t, p, g, id);
		}
	}
}

/* Every analysis process describes its processes to the first. */
void otf2_system_gather(struct otf2 *o)
{
	o->sprocs = describe(o, &o->nsprocs);
}

/* The first analysis process writes the tree, the location groups and the locations, and
 * learns which location stands for each rank. */
void otf2_system_write(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct sproc *ps = o->sprocs;
	size_t n = o->nsprocs;
	o->sprocs = NULL;
	o->nsprocs = 0;
	struct tree t = { 0 };
	tree_build(&t, ps, n);
	tree_write(o, gw, &t);
	/* group ids: ranks first (id = rank), then the other processes, in the serial order */
	OTF2_LocationGroupRef next = (OTF2_LocationGroupRef)o->nrank_locs;
	struct sproc **by_group = xcalloc(o->nrank_locs + n + 1, sizeof(*by_group));
	for (size_t i = 0; i < n; i++) {
		ps[i].group = ps[i].rank >= 0 ? (OTF2_LocationGroupRef)ps[i].rank : next++;
		by_group[ps[i].group] = &ps[i];
		if (ps[i].rank >= 0)
			o->rank_refs[ps[i].rank] = ps[i].rank_ref;
	}
	for (OTF2_LocationGroupRef g = 0; g < next; g++) {
		if (by_group[g])
			write_proc(o, gw, &t, ps, n, by_group[g]);
		else if (g < o->nrank_locs)
			write_rank_stub(o, gw, &t, g);
	}
	free(by_group);
	write_devices(o, gw, &t, ps, n, 0, &next);
	write_devices(o, gw, &t, ps, n, 1, &next);
	sprocs_free(ps, n);
	free(t.hosts);
	free(t.devs);
	u64map_free(&t.host_of);
	u64map_free(&t.dev_of[0]);
	u64map_free(&t.dev_of[1]);
	u64map_free(&t.loc_names);
}

void otf2_system_free(struct otf2 *o)
{
	sprocs_free(o->sprocs, o->nsprocs);
	o->sprocs = NULL;
	o->nsprocs = 0;
}

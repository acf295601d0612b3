/* render/otf2/system.c — where every location sits, decided and written at the end: which
 * location stands for each MPI rank (ranks and processes that have none get an empty one),
 * the system tree (the machine, one node per host, one per GPU and per NeuronCore of a host),
 * a location group per process (ranked processes first, in rank order, group id = rank)
 * holding its threads, its steps, its lanes of ranges across threads and its counters, one
 * per (process, device) holding that device's streams and one per (process, NeuronCore)
 * holding that core's lanes; and the empty local definitions every
 * location wants.  The MPI groups naming these locations are render/otf2/comms.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
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

/* Ranks past those MPI_COMM_WORLD's records list and the processes' own, each of which
 * costs a location: a process claiming a rank beyond them has none (its records name no rank
 * the archive knows), so that no claim in a file makes locations its bytes do not justify. */
#define RANKS_UNLISTED_MAX 4096

/* The world: every rank MPI_COMM_WORLD's records list, and every process's rank. */
static size_t world_size(const struct otf2 *o)
{
	const struct trace *tr = o->tr;
	size_t w = 0;
	for (size_t i = 0; i < tr->ncomms; i++)
		if (tr->comms[i]->id == TPROF_COMM_WORLD && tr->comms[i]->known > w)
			w = tr->comms[i]->known;
	size_t limit = w + tr->nprocs + RANKS_UNLISTED_MAX;
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->rank >= 0 && (uint64_t)tr->procs[i]->rank < limit &&
		    (size_t)tr->procs[i]->rank + 1 > w)
			w = (size_t)tr->procs[i]->rank + 1;
	return w;
}

static int ranked(const struct otf2 *o, const struct proc *p)
{
	return p->rank >= 0 && (uint64_t)p->rank < o->world;
}

static int unknown_members(const struct otf2 *o)
{
	const struct trace *tr = o->tr;
	for (size_t i = 0; i < tr->ncomms; i++) {
		const struct mpi_comm *c = tr->comms[i];
		if (c->kind == TPROF_COMMK_SELF)
			continue;
		if (c->known < (size_t)c->size + c->remote_size)
			return 1;
		for (size_t k = 0; k < c->known; k++)
			if (c->members[k] < 0 || (size_t)c->members[k] >= o->world)
				return 1;
	}
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->rank >= 0 && !ranked(o, tr->procs[i]))
			return 1;
	return 0;
}

/* Each world rank's location: ranked processes that wrote MPI records first claim theirs. */
static void assign_ranks(struct otf2 *o)
{
	const struct trace *tr = o->tr;
	o->world = world_size(o);
	o->nrank_locs = o->world + (unknown_members(o) ? 1 : 0);
	o->rank_locs = xcalloc(o->nrank_locs ? o->nrank_locs : 1, sizeof(*o->rank_locs));
	struct proc **owner = xcalloc(o->world ? o->world : 1, sizeof(*owner));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < tr->nprocs; i++) {
			struct proc *p = tr->procs[i];
			if (!ranked(o, p) || owner[p->rank] || (!pass && !otf2_pstate(o, p)->mpi_loc))
				continue;
			owner[p->rank] = p;
			otf2_pstate(o, p)->rank_slot = 1;
		}
	for (size_t r = 0; r < o->world; r++)
		o->rank_locs[r] = owner[r] ? rank_loc(o, owner[r]) : stub(o, NULL, (int32_t)r);
	if (o->nrank_locs > o->world)
		o->rank_locs[o->world] = stub(o, NULL, -1);
	for (size_t r = 0; r < o->nrank_locs; r++)
		o->rank_locs[r]->rank_loc = 1;
	free(owner);
}

/* Which location stands for each MPI rank, the location groups' ids, and locations for
 * ranks and processes that have none of their own; before the event writers close. */
void otf2_system_prepare(struct otf2 *o)
{
	const struct trace *tr = o->tr;
	o->mpi = tr->ncomms > 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		o->mpi |= otf2_pstate(o, tr->procs[i])->mpi_loc != NULL;
	if (o->mpi)
		assign_ranks(o);
	/* Group ids: ranks first (id = rank), then the other processes, in trace order. */
	OTF2_LocationGroupRef next = (OTF2_LocationGroupRef)o->nrank_locs;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		struct pstate *ps = otf2_pstate(o, p);
		ps->defined = ps->rank_slot || proc_has_events(o, p);
		if (!ps->defined)
			continue;
		ps->group = ps->rank_slot ? (OTF2_LocationGroupRef)p->rank : next++;
		if (!has_cpu_location(o, p))
			ps->stub = stub(o, p, -1);
	}
	o->ngroups = next;
}

/* ---- the system tree ---------------------------------------------------------------------- */

struct tree {
	uint32_t *hosts;                 /* string ids; node id = 1 + index */
	size_t nhosts;
	struct {
		uint32_t host, device;
		int nc;                  /* a NeuronCore, not a GPU */
	} *devs;                         /* node id = 1 + nhosts + index */
	size_t ndevs;
	struct u64map loc_names;         /* location names given (string ids), to keep them
					  * unique */
};

static OTF2_SystemTreeNodeRef host_node(struct tree *t, uint32_t host)
{
	for (size_t i = 0; i < t->nhosts; i++)
		if (t->hosts[i] == host)
			return (OTF2_SystemTreeNodeRef)(1 + i);
	t->hosts = xreallocarray(t->hosts, t->nhosts + 1, sizeof(*t->hosts));
	t->hosts[t->nhosts++] = host;
	return (OTF2_SystemTreeNodeRef)t->nhosts;
}

static size_t dev_index(struct tree *t, uint32_t host, uint32_t device, int nc)
{
	for (size_t i = 0; i < t->ndevs; i++)
		if (t->devs[i].host == host && t->devs[i].device == device && t->devs[i].nc == nc)
			return i;
	t->devs = xreallocarray(t->devs, t->ndevs + 1, sizeof(*t->devs));
	t->devs[t->ndevs].host = host;
	t->devs[t->ndevs].device = device;
	t->devs[t->ndevs].nc = nc;
	return t->ndevs++;
}

static void tree_build(struct otf2 *o, struct tree *t)
{
	for (size_t i = 0; i < o->nprocs; i++) {
		struct proc *p = o->tr->procs[i];
		struct pstate *ps = otf2_pstate(o, p);
		if (!ps->defined)
			continue;
		host_node(t, p->host);
		for (size_t k = 0; k < ps->ndevs; k++)
			if (ps->devs[k]->events)
				dev_index(t, p->host, ps->devs[k]->device, 0);
		for (size_t k = 0; k < ps->nncs; k++)
			if (ps->ncs[k]->events)
				dev_index(t, p->host, ps->ncs[k]->device, 1);
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
		OTF2_SystemTreeNodeRef parent = 0;
		for (size_t h = 0; h < t->nhosts; h++)
			if (t->hosts[h] == t->devs[i].host)
				parent = (OTF2_SystemTreeNodeRef)(1 + h);
		otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNode(gw, id, otf2_str(d, buf),
								       otf2_str(d, "accelerator"), parent));
		otf2_check(o, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
				      gw, id, OTF2_SYSTEM_TREE_DOMAIN_ACCELERATOR_DEVICE));
	}
}

/* ---- location groups and locations -------------------------------------------------------- */

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

/* A location's name, unique in the archive (tools that key on names, as the OTF2 Python
 * reader's users do, must not find one for several): its process ("rank 3", else "pid 123",
 * with the host when the trace has several) before what it is in it, "rank 3: main (tid
 * 4380)"; a name met again (two tracks of one process named alike) gets " #2", " #3"... */
static OTF2_StringRef loc_name(struct otf2 *o, struct tree *t, const struct loc *l)
{
	char what[400], who[320], name[760];
	loc_what(l, what, sizeof(what));
	const struct proc *p = l->proc;
	if (p && p->rank >= 0)
		snprintf(who, sizeof(who), "rank %lld", (long long)p->rank);
	else if (p && t->nhosts > 1)
		snprintf(who, sizeof(who), "pid %lld on %s", (long long)p->pid,
			 p->host ? strings_get(p->host) : "?");
	else if (p)
		snprintf(who, sizeof(who), "pid %lld", (long long)p->pid);
	else if (l->rank >= 0)
		snprintf(who, sizeof(who), "rank %d", l->rank);
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

static OTF2_LocationType loc_type(const struct loc *l)
{
	if (l->kind == LOC_DEVICE || l->kind == LOC_NEURONCORE)
		return OTF2_LOCATION_TYPE_ACCELERATOR_STREAM;
	if (l->kind == LOC_COUNTERS)
		return OTF2_LOCATION_TYPE_METRIC;
	return OTF2_LOCATION_TYPE_CPU_THREAD;
}

static void write_loc(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
		      const struct loc *l, OTF2_LocationGroupRef group)
{
	if (!otf2_loc_defined(l))
		return;
	otf2_check(o, OTF2_GlobalDefWriter_WriteLocation(gw, l->id, loc_name(o, t, l), loc_type(l),
							 l->events, group));
}

/* The process that started p (fork), when it was recorded too. */
static OTF2_LocationGroupRef parent_group(struct otf2 *o, const struct proc *p)
{
	for (size_t i = 0; i < o->nprocs; i++) {
		const struct proc *q = o->tr->procs[i];
		if (q != p && q->pid == p->ppid && q->host == p->host && otf2_pstate(o, q)->defined)
			return otf2_pstate(o, q)->group;
	}
	return OTF2_UNDEFINED_LOCATION_GROUP;
}

/* A process: its group, its threads (the main one first), steps, lanes, counters. */
static void write_proc(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t, struct proc *p)
{
	struct pstate *ps = otf2_pstate(o, p);
	char label[512];
	proc_label(p, label, sizeof(label));
	otf2_check(o, OTF2_GlobalDefWriter_WriteLocationGroup(gw, ps->group, otf2_str(o->defs, label),
							      OTF2_LOCATION_GROUP_TYPE_PROCESS,
							      host_node(t, p->host), parent_group(o, p)));
	for (int main_first = 1; main_first >= 0; main_first--)
		for (size_t s = 0; s < ps->nthreads; s++)
			if (ps->threads[s] && (ps->threads[s]->th->tid == p->pid) == main_first)
				write_loc(o, gw, t, ps->threads[s], ps->group);
	if (ps->stub)
		write_loc(o, gw, t, ps->stub, ps->group);
	if (ps->steps)
		write_loc(o, gw, t, ps->steps, ps->group);
	for (size_t i = 0; i < ps->nlanes; i++)
		write_loc(o, gw, t, ps->lanes[i], ps->group);
	for (size_t i = 0; i < ps->nothers; i++)
		write_loc(o, gw, t, ps->others[i], ps->group);
	if (ps->counters)
		write_loc(o, gw, t, ps->counters, ps->group);
}

/* A rank no process was recorded for (or the members no record names). */
static void write_rank_stub(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
			    const struct loc *l, OTF2_LocationGroupRef group)
{
	char buf[64];
	if (l->rank >= 0)
		snprintf(buf, sizeof(buf), "rank %d (not recorded)", l->rank);
	else
		snprintf(buf, sizeof(buf), "MPI processes not recorded");
	otf2_check(o, OTF2_GlobalDefWriter_WriteLocationGroup(gw, group, otf2_str(o->defs, buf),
							      OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
							      OTF2_UNDEFINED_LOCATION_GROUP));
	write_loc(o, gw, t, l, group);
}

/* Per (process, device) with work: a group of the device's streams. */
static void write_devices(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
			  OTF2_LocationGroupRef *next)
{
	char label[512], buf[600];
	for (size_t i = 0; i < o->nprocs; i++) {
		struct proc *p = o->tr->procs[i];
		struct pstate *ps = otf2_pstate(o, p);
		for (size_t k = 0; ps->defined && k < ps->ndevs; k++) {
			uint32_t dev = ps->devs[k]->device;
			int first = 1, any = 0;
			for (size_t j = 0; j < ps->ndevs; j++) {
				if (ps->devs[j]->device != dev)
					continue;
				first &= j >= k;
				any |= ps->devs[j]->events > 0;
			}
			if (!first || !any)
				continue;
			OTF2_LocationGroupRef g = (*next)++;
			proc_label(p, label, sizeof(label));
			snprintf(buf, sizeof(buf), "GPU %u, %s", dev, label);
			OTF2_SystemTreeNodeRef node =
				(OTF2_SystemTreeNodeRef)(1 + t->nhosts + dev_index(t, p->host, dev, 0));
			otf2_check(o, OTF2_GlobalDefWriter_WriteLocationGroup(
					      gw, g, otf2_str(o->defs, buf),
					      OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, node, ps->group));
			for (size_t j = 0; j < ps->ndevs; j++)
				if (ps->devs[j]->device == dev)
					write_loc(o, gw, t, ps->devs[j], g);
		}
	}
}

/* Per (process, NeuronCore) with work: a group of the core's lanes. */
static void write_neuroncores(struct otf2 *o, OTF2_GlobalDefWriter *gw, struct tree *t,
			      OTF2_LocationGroupRef *next)
{
	char label[512], buf[600];
	for (size_t i = 0; i < o->nprocs; i++) {
		struct proc *p = o->tr->procs[i];
		struct pstate *ps = otf2_pstate(o, p);
		for (size_t k = 0; ps->defined && k < ps->nncs; k++) {
			uint32_t nc = ps->ncs[k]->device;
			int first = 1, any = 0;
			for (size_t j = 0; j < ps->nncs; j++) {
				if (ps->ncs[j]->device != nc)
					continue;
				first &= j >= k;
				any |= ps->ncs[j]->events > 0;
			}
			if (!first || !any)
				continue;
			OTF2_LocationGroupRef g = (*next)++;
			proc_label(p, label, sizeof(label));
			snprintf(buf, sizeof(buf), "nc %u, %s", nc, label);
			OTF2_SystemTreeNodeRef node =
				(OTF2_SystemTreeNodeRef)(1 + t->nhosts + dev_index(t, p->host, nc, 1));
			otf2_check(o, OTF2_GlobalDefWriter_WriteLocationGroup(
					      gw, g, otf2_str(o->defs, buf),
					      OTF2_LOCATION_GROUP_TYPE_ACCELERATOR, node, ps->group));
			for (size_t j = 0; j < ps->nncs; j++)
				if (ps->ncs[j]->device == nc)
					write_loc(o, gw, t, ps->ncs[j], g);
		}
	}
}

void otf2_system_write(struct otf2 *o, OTF2_GlobalDefWriter *gw)
{
	struct tree t = { 0 };
	tree_build(o, &t);
	tree_write(o, gw, &t);
	/* Location groups in the order of their ids, as readers want them. */
	struct proc **by_group = xcalloc(o->ngroups ? o->ngroups : 1, sizeof(*by_group));
	for (size_t i = 0; i < o->nprocs; i++) {
		struct proc *p = o->tr->procs[i];
		if (otf2_pstate(o, p)->defined)
			by_group[otf2_pstate(o, p)->group] = p;
	}
	for (size_t g = 0; g < o->ngroups; g++) {
		if (by_group[g])
			write_proc(o, gw, &t, by_group[g]);
		else if (g < o->nrank_locs)
			write_rank_stub(o, gw, &t, o->rank_locs[g], (OTF2_LocationGroupRef)g);
	}
	free(by_group);
	OTF2_LocationGroupRef next = (OTF2_LocationGroupRef)o->ngroups;
	write_devices(o, gw, &t, &next);
	write_neuroncores(o, gw, &t, &next);
	free(t.hosts);
	free(t.devs);
	u64map_free(&t.loc_names);
}

/* Every defined location gets a (empty) file of local definitions, as readers expect. */
void otf2_local_defs_write(struct otf2 *o)
{
	otf2_check(o, OTF2_Archive_OpenDefFiles(o->ar));
	for (size_t i = 0; i < o->nlocs && !o->failed; i++) {
		if (!otf2_loc_defined(o->locs[i]))
			continue;
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(o->ar, o->locs[i]->id);
		if (dw)
			otf2_check(o, OTF2_Archive_CloseDefWriter(o->ar, dw));
	}
	otf2_check(o, OTF2_Archive_CloseDefFiles(o->ar));
}

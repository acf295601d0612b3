/* tracks.c — where each event goes in a Chrome trace: the (pid, tid) of its track, and the
 * names and order of every track used.  Grouped by process (each profiled process with its
 * threads, its steps, one track per device stream and one per NeuronCore), by domain (all
 * processes' API calls together, all kernels together, all copies together, all NeuronCores
 * together; the rest stays by process; a thread's scheduling states follow its track), by NeuronCore (a group per core number, a track per
 * process in it; the rest by process) or by instance (a group per host, holding the tracks
 * of every process that ran there; steps and counters stay with their process). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "tracks.h"
#include "../util/grow.h"
#include "../util/hindex.h"
#include "../util/pack.h"
#include "../util/strings.h"
#include "../util/u64map.h"
#include "../parallel/par.h"

#define STEPS_TID 2147483000
#define DEVICE_TID 2000000000     /* + track number, per process */
#define PID_DOMAIN 1000000        /* + group, in --group-by domain */
#define NC_TID 1900000000         /* + core * 64 + lane, per process */
#define PID_NCGROUP 1100000       /* + core, in --group-by neuroncore */
#define PID_HOST 1200000          /* + host number, in --group-by instance */
#define STATE_TID 1000000000      /* + tid: a thread's scheduling states, per process */
#define FRAMEWORK_TID 1100000000  /* + tid: a thread's imported framework events, per process */

enum group { G_THREAD, G_DEVICE, G_API, G_GPU, G_COPIES, G_NEURON, G_NC, G_STATE, G_FRAMEWORK };

struct key {
	int group;
	int proc;
	uint64_t a, b;            /* thread: tid; device track: device, stream */
};

struct entry {
	struct key key;
	struct track track;
	const struct proc *p;
	const struct thread *th;  /* threads */
	int32_t tid;              /* threads: the real tid */
	uint32_t name;            /* threads: name id */
	int device, stream_no;    /* device tracks; NeuronCore tracks: core, lane */
	uint64_t stream;          /* device tracks: the stream handle */
	int64_t busy_until;       /* NeuronCore tracks: the end of the latest work on it */
};

/* A host of --group-by instance: every host of the job, numbered in the order of their names
 * (tracks_begin), those this analysis process met flagged. */
struct host {
	uint32_t name, instance_type;   /* string ids (0: not known) */
	int used;
};

struct tracks {
	int mode;                 /* enum tracks_group */
	int by_domain;
	struct entry *v;          /* in the order first used */
	size_t n, cap;
	size_t last;              /* the entry found last, + 1 (0: none): runs of one track */
	struct hindex by_key;     /* the entries (index in v + 1) by their keys */
	struct hindex by_track;   /* by their tracks, the latest of a track (tracks_info) */
	struct u64map streams[3]; /* (process, device) -> its streams so far: G_DEVICE, G_GPU,
				   * G_COPIES */
	int next_tid[8];          /* per domain group */
	uint8_t domains_used[8];
	struct host *hosts;
	size_t nhosts;
	struct u64map host_of;    /* host string id -> index in hosts */
	int next_host_tid;
};

/* A new track number in a group many processes share: apart from every other analysis
 * process's under --parallel (n * K + its number), so that the parts' tracks never meet. */
static int64_t shared_tid(int *next)
{
	return (int64_t)++*next * par_size() + par_rank();
}

struct tracks *tracks_new(int group_by)
{
	struct tracks *t = xcalloc(1, sizeof(*t));
	t->mode = group_by;
	t->by_domain = group_by == TRACKS_BY_DOMAIN;
	return t;
}

void tracks_free(struct tracks *t)
{
	hindex_free(&t->by_key);
	hindex_free(&t->by_track);
	for (int i = 0; i < 3; i++)
		u64map_free(&t->streams[i]);
	free(t->v);
	free(t->hosts);
	u64map_free(&t->host_of);
	free(t);
}

/* The host named `name` (a string id), added when new; `type` its instance type when it
 * has none yet. */
static struct host *find_host(struct tracks *t, uint32_t name, uint32_t type)
{
	uint32_t *at = u64map_get(&t->host_of, name);
	if (!at) {
		t->hosts = xreallocarray(t->hosts, t->nhosts + 1, sizeof(*t->hosts));
		t->hosts[t->nhosts] = (struct host){ name, 0, 0 };
		at = u64map_put(&t->host_of, name, (uint32_t)t->nhosts++);
	}
	struct host *h = &t->hosts[*at];
	if (!h->instance_type)
		h->instance_type = type;
	return h;
}

/* The instance type a process found, else the Neuron runtime's instance family. */
static uint32_t instance_type(const struct proc *p)
{
	return p->instance_type ? p->instance_type : p->nrt_instance;
}

/* --group-by instance: a new track in the group of p's host (one tracks_begin did not see
 * comes last). */
static struct track host_track(struct tracks *t, const struct proc *p)
{
	struct host *h = find_host(t, p->host, instance_type(p));
	size_t i = (size_t)(h - t->hosts);
	h->used = 1;
	return (struct track){ PID_HOST + 1 + (int64_t)i, shared_tid(&t->next_host_tid) };
}

static const char *host_name(uint32_t id)
{
	return id ? strings_get(id) : "?";
}

static int by_host_name(const void *a, const void *b)
{
	return strcmp(host_name(((const struct host *)a)->name),
		      host_name(((const struct host *)b)->name));
}

/* A host's name and instance type as the processes have them (the instance type, else the
 * Neuron runtime's instance family; of the first process, in their order, that has one). */
static void pack_hosts(const struct trace *tr, struct pack *b)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		pack_name(b, p->host);
		pack_name(b, instance_type(p));
	}
}

void tracks_begin(struct tracks *t, const struct trace *tr)
{
	if (t->mode != TRACKS_BY_INSTANCE)
		return;
	/* every analysis process's hosts, in the order of the processes (the serial order) */
	struct pack mine = { 0 };
	pack_hosts(tr, &mine);
	size_t *len_of = NULL, total = mine.n;
	char *all = par_size() > 1 ? par_allgather(mine.v, mine.n, &len_of) : NULL;
	if (all)
		for (int k = total = 0; k < par_size(); k++)
			total += len_of[k];
	for (struct unpack u = unpack_of(all ? all : mine.v, total); unpack_more(&u);) {
		uint32_t name = unpack_name(&u), type = unpack_name(&u);
		if (u.short_read)
			break;
		find_host(t, name, type);
	}
	free(all);
	free(len_of);
	pack_free(&mine);
	if (t->nhosts > 1)
		qsort(t->hosts, t->nhosts, sizeof(*t->hosts), by_host_name);
	for (uint32_t k = 0; k < t->nhosts; k++)
		u64map_put(&t->host_of, t->hosts[k].name, k);
}

static uint64_t key_hash(const struct key *k)
{
	uint64_t h = (uint64_t)k->group * 0x9e3779b97f4a7c15ull ^ (uint64_t)k->proc * 0xc2b2ae3d27d4eb4full;
	h ^= k->a * 0x165667b19e3779f9ull;
	h ^= k->b + 0x27d4eb2f165667c5ull + (h << 6) + (h >> 2);
	return h ^ (h >> 29);
}

static int same_key(const struct entry *e, const struct key *k)
{
	return !memcmp(&e->key, k, sizeof(*k));
}

/* The entry for k, new (zeroed, with its key; track unset) if there was none; *fresh says
 * which. */
static struct entry *find(struct tracks *t, const struct key *k, int *fresh)
{
	*fresh = 0;
	if (t->last && same_key(&t->v[t->last - 1], k))
		return &t->v[t->last - 1];
	uint64_t h = key_hash(k);
	size_t at;
	for (uint32_t id = hindex_first(&t->by_key, h, &at); id;
	     id = hindex_next(&t->by_key, h, &at))
		if (same_key(&t->v[id - 1], k)) {
			t->last = id;
			return &t->v[id - 1];
		}
	t->v = util_grow(t->v, &t->cap, t->n, sizeof(*t->v), 64);
	memset(&t->v[t->n], 0, sizeof(*t->v));
	t->v[t->n].key = *k;
	hindex_add(&t->by_key, h, (uint32_t)t->n + 1);
	t->last = ++t->n;
	*fresh = 1;
	return &t->v[t->n - 1];
}

static int same(struct track a, struct track b)
{
	return a.pid == b.pid && a.tid == b.tid;
}

/* The number (index in v + 1) of the latest entry indexed for a track, or 0. */
static uint32_t track_entry(const struct tracks *t, struct track track, uint64_t h)
{
	size_t at;
	for (uint32_t id = hindex_first(&t->by_track, h, &at); id;
	     id = hindex_next(&t->by_track, h, &at))
		if (same(t->v[id - 1].track, track))
			return id;
	return 0;
}

/* A new entry's track, once set: indexed for tracks_info, in place of an entry before it of
 * the same track. */
static struct track added(struct tracks *t, const struct entry *e)
{
	uint64_t h = tracks_hash(e->track);
	uint32_t before = track_entry(t, e->track, h);
	if (before)
		hindex_del(&t->by_track, h, before);
	hindex_add(&t->by_track, h, (uint32_t)(e - t->v) + 1);
	return e->track;
}

static int32_t thread_tid(const struct thread *th)
{
	return th->tid >= 0 ? th->tid : (int32_t)(1000000 + thread_stream_id(th));
}

struct track tracks_thread_framework(struct tracks *t, const struct proc *p, int32_t tid,
				     const struct thread *th, uint32_t name)
{
	struct key k = { G_FRAMEWORK, p->index, (uint64_t)tid, 0 };
	int fresh;
	struct entry *e = find(t, &k, &fresh);
	if (fresh) {
		e->p = p;
		e->th = th;
		e->tid = tid;
		e->name = name;
		if (t->mode == TRACKS_BY_INSTANCE)
			e->track = host_track(t, p);
		else
			e->track = (struct track){ p->index, FRAMEWORK_TID + (int64_t)tid };
	}
	return fresh ? added(t, e) : e->track;
}

/* A new entry of a thread's: whose, its tid and name. */
static void thread_entry(struct entry *e, const struct thread *th)
{
	e->p = th->proc;
	e->th = th;
	e->tid = thread_tid(th);
	e->name = th->name;
}

struct track tracks_thread(struct tracks *t, const struct thread *th, int api_call)
{
	int group = t->by_domain && api_call ? G_API : G_THREAD;
	struct key k = { group, th->proc->index, (uint64_t)thread_tid(th), 0 };
	int fresh;
	struct entry *e = find(t, &k, &fresh);
	if (fresh) {
		thread_entry(e, th);
		if (group == G_API)
			e->track = (struct track){ PID_DOMAIN + G_API, shared_tid(&t->next_tid[G_API]) };
		else if (t->mode == TRACKS_BY_INSTANCE)
			e->track = host_track(t, th->proc);
		else
			e->track = (struct track){ th->proc->index, e->tid };
	}
	return fresh ? added(t, e) : e->track;
}

struct track tracks_thread_state(struct tracks *t, const struct thread *th)
{
	struct key k = { G_STATE, th->proc->index, (uint64_t)thread_tid(th), 0 };
	int fresh;
	struct entry *e = find(t, &k, &fresh);
	if (fresh) {
		thread_entry(e, th);
		if (t->mode == TRACKS_BY_INSTANCE)
			e->track = host_track(t, th->proc);
		else
			e->track = (struct track){ th->proc->index, STATE_TID + (int64_t)e->tid };
	}
	return fresh ? added(t, e) : e->track;
}

struct track tracks_device(struct tracks *t, const struct proc *p, uint32_t device, uint64_t stream,
			   int copy)
{
	int group = !t->by_domain ? G_DEVICE : copy ? G_COPIES : G_GPU;
	struct key k = { group, p->index, device, stream };
	int fresh;
	struct entry *e = find(t, &k, &fresh);
	if (fresh) {
		e->p = p;
		e->device = (int)device;
		e->stream = stream;
		/* Streams are numbered per device in the order they first appear. */
		struct u64map *seen = &t->streams[group == G_DEVICE ? 0 : group == G_GPU ? 1 : 2];
		uint64_t pd = (uint64_t)(uint32_t)p->index << 32 | device;
		uint32_t *n = u64map_get(seen, pd);
		n = n ? n : u64map_put(seen, pd, 0);
		++*n;
		e->stream_no = stream ? (int)*n : 0;
		if (group == G_DEVICE && t->mode == TRACKS_BY_INSTANCE)
			e->track = host_track(t, p);
		else if (group == G_DEVICE)
			e->track = (struct track){ p->index, DEVICE_TID + ++t->next_tid[G_DEVICE] };
		else
			e->track = (struct track){ PID_DOMAIN + group, shared_tid(&t->next_tid[group]) };
	}
	return fresh ? added(t, e) : e->track;
}

struct track tracks_neuroncore(struct tracks *t, const struct proc *p, int32_t nc, int64_t t0,
			       int64_t t1)
{
	int group = t->by_domain ? G_NEURON : G_NC;
	struct entry *e;
	int fresh, lane = 0;
	for (;; lane++) {
		struct key k = { group, p->index, (uint64_t)(uint32_t)nc, (uint64_t)lane };
		e = find(t, &k, &fresh);
		if (fresh || e->busy_until <= t0)
			break;
	}
	if (t1 > e->busy_until || fresh)
		e->busy_until = t1;
	if (fresh) {
		e->p = p;
		e->device = nc;
		e->stream_no = lane;
		if (group == G_NEURON)
			e->track = (struct track){ PID_DOMAIN + G_NEURON, shared_tid(&t->next_tid[G_NEURON]) };
		else if (t->mode == TRACKS_BY_NEURONCORE)
			e->track = (struct track){ PID_NCGROUP + nc, shared_tid(&t->next_tid[G_NC]) };
		else if (t->mode == TRACKS_BY_INSTANCE)
			e->track = host_track(t, p);
		else
			e->track = (struct track){ p->index, NC_TID + (int64_t)nc * 64 + lane };
	}
	return fresh ? added(t, e) : e->track;
}

struct track tracks_steps(struct tracks *t, const struct proc *p)
{
	(void)t;
	return (struct track){ p->index, STEPS_TID };
}

static void device_label(const struct entry *e, char *buf, size_t len)
{
	if (e->stream_no)
		snprintf(buf, len, "GPU %d stream %d", e->device, e->stream_no);
	else
		snprintf(buf, len, "GPU %d null stream", e->device);
}

static void nc_label(const struct entry *e, char *buf, size_t len)
{
	if (e->stream_no)
		snprintf(buf, len, "nc %d (%d)", e->device, e->stream_no + 1);
	else
		snprintf(buf, len, "nc %d", e->device);
}

/* The groups of --group-by neuroncore ("nc N", before the processes) and instance (the
 * host, with its instance type when the recorder found one; in the order of host names). */
static void group_metadata(struct tracks *t, tracks_meta_fn meta, void *ctx)
{
	static const char *const domain_names[] = { [G_API] = "API calls", [G_GPU] = "GPU",
						    [G_COPIES] = "copies", [G_NEURON] = "NeuronCores" };
	char buf[600];
	for (int g = G_API; g <= G_NEURON; g++)
		if (t->next_tid[g]) {
			meta(ctx, "process_name", PID_DOMAIN + g, -1, "name", domain_names[g], 0);
			meta(ctx, "process_sort_index", PID_DOMAIN + g, -1, "sort_index", NULL, g - G_API);
		}
	if (t->mode == TRACKS_BY_NEURONCORE) {
		uint8_t done[4096] = { 0 };
		for (size_t i = 0; i < t->n; i++) {
			const struct entry *e = &t->v[i];
			if (e->key.group != G_NC || e->device >= 4096 || done[e->device]++)
				continue;
			snprintf(buf, sizeof(buf), "nc %d", e->device);
			meta(ctx, "process_name", e->track.pid, -1, "name", buf, 0);
			meta(ctx, "process_sort_index", e->track.pid, -1, "sort_index", NULL, -100000 + e->device);
		}
	}
	for (size_t i = 0; i < t->nhosts; i++) {
		const struct host *h = &t->hosts[i];
		if (!h->used)
			continue;
		if (h->instance_type)
			snprintf(buf, sizeof(buf), "%s (%s)", host_name(h->name),
				 strings_get(h->instance_type));
		else
			snprintf(buf, sizeof(buf), "%s", host_name(h->name));
		int64_t before = 0;   /* by name (tracks_begin sorted them, late ones come last) */
		for (size_t k = 0; k < t->nhosts; k++) {
			int c = strcmp(host_name(t->hosts[k].name), host_name(h->name));
			before += c < 0 || (c == 0 && k < i);
		}
		meta(ctx, "process_name", PID_HOST + 1 + (int64_t)i, -1, "name", buf, 0);
		meta(ctx, "process_sort_index", PID_HOST + 1 + (int64_t)i, -1, "sort_index", NULL,
		     -100000 + before);
	}
}

/* Where a track sorts among its process's: the main thread, the other threads (each with
 * its scheduling states and its imported framework events right after it), the
 * NeuronCores, the device streams. */
static int64_t order_in_process(const struct entry *e)
{
	int64_t slot = e->tid == e->p->pid ? 0 : 3 + 3 * ((int64_t)e->tid % 1000000);
	switch (e->key.group) {
	case G_THREAD:
	case G_API:
		return slot;
	case G_STATE:
		return slot + 1;
	case G_FRAMEWORK:
		return slot + 2;
	case G_NC:
	case G_NEURON:
		return 5000000 + (int64_t)e->device * 64 + e->stream_no;
	default:
		return 10000000 + (int64_t)e->device * 1000 + e->stream_no;
	}
}

/* Where a track sorts in a group of many processes' (a domain, a host): by process, then as
 * within a process (kept in int32). */
static int64_t by_process(const struct entry *e)
{
	int64_t w = order_in_process(e);
	w = w >= 10000000 ? 300000 + (w - 10000000) % 100000 : w >= 5000000 ? 200000 + (w - 5000000) % 100000 : w % 100000;
	int64_t order = (int64_t)e->p->index * 500000 + w;
	return order > INT32_MAX ? INT32_MAX : order;
}

void tracks_metadata(struct tracks *t, const struct trace *tr, tracks_meta_fn meta, void *ctx)
{
	group_metadata(t, meta, ctx);
	for (size_t i = 0; i < t->n; i++) {
		const struct entry *e = &t->v[i];
		char label[600], proc[512], what[64];
		proc_label(e->p, proc, sizeof(proc));
		int in_domain = e->track.pid >= PID_DOMAIN;
		int by_host = e->track.pid > PID_HOST;
		int64_t order = in_domain || by_host ? by_process(e) : order_in_process(e);
		if (e->key.group == G_THREAD || e->key.group == G_API)
			snprintf(what, sizeof(what), "%s", e->name ? strings_get(e->name) : "thread");
		else if (e->key.group == G_STATE)
			snprintf(what, sizeof(what), "%s state", e->name ? strings_get(e->name) : "thread");
		else if (e->key.group == G_FRAMEWORK && e->name)
			snprintf(what, sizeof(what), "%s framework", strings_get(e->name));
		else if (e->key.group == G_FRAMEWORK)
			snprintf(what, sizeof(what), "framework (tid %d)", e->tid);
		else if (e->key.group == G_NC || e->key.group == G_NEURON)
			nc_label(e, what, sizeof(what));
		else
			device_label(e, what, sizeof(what));
		if (e->track.pid >= PID_NCGROUP && e->track.pid < PID_HOST) {
			/* --group-by neuroncore: the core is the group; the track is the process's */
			if (e->stream_no)
				snprintf(label, sizeof(label), "%s (%d)", proc, e->stream_no + 1);
			else
				snprintf(label, sizeof(label), "%s", proc);
			order = e->p->index * 64 + e->stream_no;
		} else if (in_domain) {
			snprintf(label, sizeof(label), "%s: %s", proc, what);
		} else {
			snprintf(label, sizeof(label), "%s", what);
		}
		meta(ctx, "thread_name", e->track.pid, e->track.tid, "name", label, 0);
		meta(ctx, "thread_sort_index", e->track.pid, e->track.tid, "sort_index", NULL, order);
	}
	(void)tr;
}

static struct track_info info_of(const struct entry *e)
{
	struct track_info ti = { .track = e->track, .proc = e->p };
	switch (e->key.group) {
	case G_THREAD:
	case G_API:
		ti.kind = "thread";
		ti.thread = e->th;
		break;
	case G_STATE:
		ti.kind = "thread-state";
		ti.thread = e->th;
		break;
	case G_FRAMEWORK:
		ti.kind = "thread-framework";
		ti.thread = e->th;
		break;
	case G_NC:
	case G_NEURON:
		ti.kind = "neuroncore";
		ti.device = e->device;
		ti.number = e->stream_no;
		break;
	default:
		ti.kind = "device";
		ti.device = e->device;
		ti.stream = e->stream;
		ti.number = e->stream_no;
		break;
	}
	return ti;
}

void tracks_each(struct tracks *t, tracks_info_fn fn, void *ctx)
{
	for (size_t i = 0; i < t->n; i++) {
		struct track_info ti = info_of(&t->v[i]);
		fn(ctx, &ti);
	}
}

int tracks_info(struct tracks *t, struct track track, struct track_info *ti)
{
	uint32_t id = track_entry(t, track, tracks_hash(track));
	if (!id)
		return -1;
	*ti = info_of(&t->v[id - 1]);
	return 0;
}

/* render/perfetto/layout.c — the tracks of a Perfetto trace and their descriptors.  Every
 * track of the scene (a Chrome (pid, tid)) is a track here, with a sequence of its own; each
 * Chrome pid (a process, or a --group-by group) is a process track, its name and order as the
 * Chrome output's metadata gives them (tracks_metadata), written at the end, when they are
 * final (trace processor reads every descriptor before it places any event); threads of a
 * process are thread tracks, a thread's states (a "thread-state" track) a child of its
 * thread's track, the rest (device streams, NeuronCore lanes, steps, tracks in a group) its
 * process's child tracks.  Counter tracks and the lanes of cross-thread ranges are described
 * when first used: a counter's values need their track known as they are read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../parallel/par.h"
#include "layout.h"
#include "seq.h"
#include "proto.h"

/* uuids: a kind in bits 60..62, then what identifies the track in the kind */
enum { K_TRACK = 1, K_PROC, K_COUNTER, K_LANE };

static uint64_t track_uuid(struct track t)
{
	return (uint64_t)K_TRACK << 60 | (uint64_t)(t.pid & 0x1fffffff) << 31 |
	       (uint64_t)(t.tid & 0x7fffffff);
}

/* The n-th of a kind numbered by the writer, apart from every other analysis process's
 * (--parallel): the parts concatenated are one trace. */
static uint64_t numbered(uint64_t n)
{
	return n * (uint64_t)par_size() + (uint64_t)par_rank();
}

static uint64_t proc_uuid(int64_t pid)
{
	return (uint64_t)K_PROC << 60 | (uint64_t)(uint32_t)pid;
}

/* ---- (a, b) -> pointer -------------------------------------------------------------------- */

static uint64_t map_hash(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull;
	h ^= (b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
	return h ^ h >> 31;
}

/* The number of (a, b)'s entry, or 0. */
static uint32_t map_find(const struct pf_map *m, uint64_t a, uint64_t b, uint64_t h)
{
	size_t at;
	for (uint32_t id = hindex_first(&m->by_key, h, &at); id;
	     id = hindex_next(&m->by_key, h, &at))
		if (m->e[id - 1].a == a && m->e[id - 1].b == b)
			return id;
	return 0;
}

/* The value of (a, b), put (NULL) when new. */
static void **map_slot(struct pf_map *m, uint64_t a, uint64_t b)
{
	uint64_t h = map_hash(a, b);
	uint32_t id = map_find(m, a, b, h);
	if (!id) {
		m->e = util_grow(m->e, &m->cap, m->n, sizeof(*m->e), 64);
		m->e[m->n++] = (struct pf_map_entry){ a, b, NULL };
		id = (uint32_t)m->n;
		hindex_add(&m->by_key, h, id);
	}
	return &m->e[id - 1].v;
}

static void *map_get(const struct pf_map *m, uint64_t a, uint64_t b)
{
	uint32_t id = map_find(m, a, b, map_hash(a, b));
	return id ? m->e[id - 1].v : NULL;
}

static void map_free(struct pf_map *m)
{
	free(m->e);
	hindex_free(&m->by_key);
	*m = (struct pf_map){ 0 };
}

static uint64_t key_a(int kind, int64_t pid)
{
	return (uint64_t)kind << 56 | (uint64_t)(uint32_t)pid;
}

/* ---- descriptors -------------------------------------------------------------------------- */

/* A TrackDescriptor packet at time 0 (before every event: trace processor takes a thread's
 * descriptor time as the earliest the thread may be seen). */
static size_t desc_open(struct proto_buf *b, uint64_t uuid, size_t *packet)
{
	pb_need(b, 8 * PB_MAX_FIELD);
	*packet = pb_open(b, TRACE_PACKET);
	pb_uint(b, PACKET_TIMESTAMP, 0);
	size_t d = pb_open(b, PACKET_TRACK_DESCRIPTOR);
	pb_uint(b, TD_UUID, uuid);
	return d;
}

static void desc_close(struct proto_buf *b, size_t d, size_t packet)
{
	pb_close(b, d);
	pb_close(b, packet);
}

static void desc_name(struct proto_buf *b, unsigned field, const char *name)
{
	pb_bytes(b, field, name, strlen(name));
}

static void desc_rank(struct proto_buf *b, int64_t order)
{
	pb_need(b, PB_MAX_FIELD);
	int32_t r = order > INT32_MAX ? INT32_MAX : order < INT32_MIN ? INT32_MIN : (int32_t)order;
	pb_uint(b, TD_SIBLING_ORDER_RANK, (uint64_t)(int64_t)r);
}

/* A child track of pid's process track, named. */
static void child_desc(struct proto_buf *b, uint64_t uuid, int64_t pid, const char *name,
		       int counter)
{
	size_t p, d = desc_open(b, uuid, &p);
	pb_uint(b, TD_PARENT_UUID, proc_uuid(pid));
	desc_name(b, TD_NAME, name);
	if (counter) {
		pb_need(b, PB_MAX_FIELD);
		size_t c = pb_open(b, TD_COUNTER);
		pb_close(b, c);
	}
	desc_close(b, d, p);
}

/* ---- tracks ------------------------------------------------------------------------------- */

static struct pf_track *new_track(struct perfetto_writer *w, uint64_t uuid, int64_t pid)
{
	struct pf_track *t = xcalloc(1, sizeof(*t));
	t->uuid = uuid;
	t->pid = pid;
	t->seq = pf_seq_new(w, uuid);
	return t;
}

struct pf_track *pf_track_find(struct perfetto_writer *w, struct track t, struct pf_recent *r)
{
	void **v = map_slot(&w->tracks, key_a(K_TRACK, t.pid), (uint64_t)t.tid);
	if (!*v)
		*v = new_track(w, track_uuid(t), t.pid);
	r->key = t;
	r->t = *v;
	return *v;
}

static const char *item_name(const struct scene_item *it, size_t *n)
{
	const char *s = it->name_str ? it->name_str : it->name ? strings_get(it->name) : NULL;
	if (!s)
		s = "";
	*n = strlen(s);
	return s;
}

struct pf_track *pf_counter_track(struct perfetto_writer *w, int64_t pid,
				  const struct scene_item *it)
{
	size_t n;
	const char *name = item_name(it, &n);
	uint32_t id = strset_id(&w->counters, name, n, NULL);
	void **v = map_slot(&w->tracks, key_a(K_COUNTER, pid), id);
	if (!*v) {
		uint64_t uuid = (uint64_t)K_COUNTER << 60 | numbered(++w->ncounters);
		*v = new_track(w, uuid, pid);
		child_desc(&w->meta, uuid, pid, name, 1);
	}
	return *v;
}

/* The lanes of one name under one pid. */
struct lanes {
	size_t n;
	struct pf_track **v;
};

struct pf_track *pf_lane(struct perfetto_writer *w, int64_t pid, const struct scene_item *it)
{
	size_t n;
	const char *name = item_name(it, &n);
	uint64_t key = it->name;
	if (it->name_str)
		key = 1ull << 32 | strset_id(&w->names, name, n, NULL);
	void **v = map_slot(&w->tracks, key_a(K_LANE, pid), key);
	if (!*v)
		*v = xcalloc(1, sizeof(struct lanes));
	struct lanes *l = *v;
	struct pf_track *t = NULL;
	for (size_t i = 0; i < l->n && !t; i++)
		if (l->v[i]->busy_until <= it->t0)
			t = l->v[i];
	if (!t) {
		l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
		uint64_t uuid = (uint64_t)K_LANE << 60 | numbered(++w->nlanes);
		t = l->v[l->n++] = new_track(w, uuid, pid);
		/* lanes share their name: the UI shows them as one track */
		child_desc(&w->meta, uuid, pid, name, 0);
	}
	if (it->t1 > t->busy_until)
		t->busy_until = it->t1;
	return t;
}

/* ---- the end: every process, group and track of the scene --------------------------------- */

struct meta {
	char *name;
	int64_t order;
	int has_order;
	const struct track_info *info;   /* threads, streams, cores (tracks_each) */
};

struct describe {
	struct pf_map by_track;          /* (pid + 1, tid + 1) -> struct meta; groups: tid -1 */
	struct track_info *infos;
	size_t ninfos;
	struct pf_map threads;           /* (thread, 0) -> its thread track's info */
};

static struct meta *meta_at(struct describe *d, int64_t pid, int64_t tid)
{
	void **v = map_slot(&d->by_track, (uint64_t)(pid + 1), (uint64_t)(tid + 1));
	if (!*v)
		*v = xcalloc(1, sizeof(struct meta));
	return *v;
}

static void on_meta(void *ctx, const char *what, int64_t pid, int64_t tid, const char *key,
		    const char *s, int64_t num)
{
	(void)key;
	struct meta *m = meta_at(ctx, pid, tid);
	if (strstr(what, "_name") && s) {
		free(m->name);
		m->name = xstrdup(s);
	} else if (strstr(what, "_sort_index")) {
		m->order = num;
		m->has_order = 1;
	}
}

static void on_info(void *ctx, const struct track_info *ti)
{
	struct describe *d = ctx;
	d->infos = xreallocarray(d->infos, d->ninfos + 1, sizeof(*d->infos));
	d->infos[d->ninfos++] = *ti;
}

static const struct proc *proc_of_pid(const struct trace *tr, int64_t pid)
{
	return trace_proc_at(tr, pid);
}

static void process_desc(struct proto_buf *b, const struct trace *tr, struct describe *d,
			 int64_t pid)
{
	const struct proc *p = proc_of_pid(tr, pid);
	const struct meta *m = map_get(&d->by_track, (uint64_t)(pid + 1), 0);
	char label[512];
	const char *name = p ? proc_label(p, label, sizeof(label)) : m && m->name ? m->name : "";
	size_t pk, dd = desc_open(b, proc_uuid(pid), &pk);
	pb_need(b, 2 * PB_MAX_FIELD);
	size_t pr = pb_open(b, TD_PROCESS);
	pb_uint(b, PROCESS_PID, (uint64_t)pid);
	desc_name(b, PROCESS_NAME, name);
	char *cmd = p ? proc_command(p, 400) : NULL;
	if (cmd && *cmd)
		desc_name(b, PROCESS_CMDLINE, cmd);
	free(cmd);
	pb_close(b, pr);
	desc_rank(b, p ? p->index : m && m->has_order ? m->order : pid);
	desc_close(b, dd, pk);
}

static void track_desc(struct proto_buf *b, const struct trace *tr, struct tracks *tracks,
		       struct describe *d, struct track t, uint64_t uuid)
{
	const struct meta *m = map_get(&d->by_track, (uint64_t)(t.pid + 1), (uint64_t)(t.tid + 1));
	const char *name = m && m->name ? m->name : NULL;
	int64_t order = m && m->has_order ? m->order : 0;
	const struct proc *p = proc_of_pid(tr, t.pid);
	if (!name && p && p->had_steps) {
		struct track s = tracks_steps(tracks, p);
		if (s.pid == t.pid && s.tid == t.tid) {
			name = "steps";
			order = -1;
		}
	}
	const struct track_info *ti = m ? m->info : NULL;
	size_t pk, dd = desc_open(b, uuid, &pk);
	const struct track_info *owner = NULL;
	if (ti && (!strcmp(ti->kind, "thread-state") || !strcmp(ti->kind, "thread-framework")) &&
	    ti->thread)
		owner = map_get(&d->threads, (uint64_t)(uintptr_t)ti->thread, 0);
	if (owner) {
		/* a thread's states: a slice track under the thread's */
		pb_need(b, PB_MAX_FIELD);
		pb_uint(b, TD_PARENT_UUID, track_uuid(owner->track));
		if (name)
			desc_name(b, TD_NAME, name);
	} else if (ti && !strcmp(ti->kind, "thread") && ti->proc && ti->proc->index == t.pid) {
		pb_need(b, 3 * PB_MAX_FIELD);
		size_t th = pb_open(b, TD_THREAD);
		pb_uint(b, THREAD_PID, (uint64_t)t.pid);
		pb_uint(b, THREAD_TID, (uint64_t)t.tid);
		if (name)
			desc_name(b, THREAD_NAME, name);
		pb_close(b, th);
	} else {
		pb_need(b, PB_MAX_FIELD);
		pb_uint(b, TD_PARENT_UUID, proc_uuid(t.pid));
		if (name)
			desc_name(b, TD_NAME, name);
	}
	desc_rank(b, order);
	desc_close(b, dd, pk);
}

static void describe_pid(struct perfetto_writer *w, const struct trace *tr, struct describe *d,
			 struct pf_map *done, int64_t pid)
{
	void **v = map_slot(done, (uint64_t)pid + 1, 0);
	if (!*v) {
		*v = done;
		process_desc(&w->meta, tr, d, pid);
	}
}

void pf_describe(struct perfetto_writer *w, const struct trace *tr, struct tracks *tracks)
{
	struct describe d = { 0 };
	tracks_metadata(tracks, tr, on_meta, &d);
	tracks_each(tracks, on_info, &d);
	for (size_t i = 0; i < d.ninfos; i++) {
		meta_at(&d, d.infos[i].track.pid, d.infos[i].track.tid)->info = &d.infos[i];
		if (!strcmp(d.infos[i].kind, "thread") && d.infos[i].thread)
			*map_slot(&d.threads, (uint64_t)(uintptr_t)d.infos[i].thread, 0) = &d.infos[i];
	}
	struct pf_map pids = { 0 };
	/* the tracks the scene laid out (drawn on or not, as the Chrome output names them) */
	for (size_t i = 0; i < d.by_track.n; i++) {
		const struct pf_map_entry *e = &d.by_track.e[i];
		int64_t pid = (int64_t)e->a - 1, tid = (int64_t)e->b - 1;
		describe_pid(w, tr, &d, &pids, pid);
		if (tid >= 0)
			track_desc(&w->meta, tr, tracks, &d, (struct track){ pid, tid },
				   track_uuid((struct track){ pid, tid }));
	}
	/* and those drawn on that it does not name: steps; counters and lanes have theirs */
	for (size_t i = 0; i < w->tracks.n; i++) {
		const struct pf_map_entry *e = &w->tracks.e[i];
		int64_t pid = (int64_t)(uint32_t)e->a;
		describe_pid(w, tr, &d, &pids, pid);
		if (e->a >> 56 == K_TRACK && !map_get(&d.by_track, (uint64_t)pid + 1, e->b + 1))
			track_desc(&w->meta, tr, tracks, &d, (struct track){ pid, (int64_t)e->b },
				   ((struct pf_track *)e->v)->uuid);
	}
	map_free(&pids);
	for (size_t i = 0; i < d.by_track.n; i++) {
		struct meta *m = d.by_track.e[i].v;
		free(m->name);
		free(m);
	}
	map_free(&d.by_track);
	map_free(&d.threads);
	free(d.infos);
}

void pf_head(struct perfetto_writer *w, const struct trace *tr, struct proto_buf *b)
{
	(void)w;
	pb_need(b, 16 * PB_MAX_FIELD);
	size_t p = pb_open(b, TRACE_PACKET);
	pb_uint(b, PACKET_SEQUENCE_ID, PF_SEQ_GLOBAL);
	size_t c = pb_open(b, PACKET_CLOCK_SNAPSHOT);
	size_t k = pb_open(b, SNAPSHOT_CLOCK);
	pb_uint(b, CLOCK_ID, BUILTIN_BOOTTIME);
	pb_uint(b, CLOCK_TIMESTAMP, 0);
	pb_close(b, k);
	k = pb_open(b, SNAPSHOT_CLOCK);
	pb_uint(b, CLOCK_ID, BUILTIN_REALTIME);
	pb_uint(b, CLOCK_TIMESTAMP, (uint64_t)tr->start_ns);
	pb_close(b, k);
	pb_uint(b, SNAPSHOT_PRIMARY_CLOCK, BUILTIN_BOOTTIME);
	pb_close(b, c);
	pb_close(b, p);
	/* the root track: processes and threads in the order their ranks give */
	size_t d = desc_open(b, 0, &p);
	pb_uint(b, TD_PROCESS_ORDERING, PROCESS_ORDERING_EXPLICIT);
	pb_uint(b, TD_THREAD_ORDERING, THREAD_ORDERING_EXPLICIT);
	desc_close(b, d, p);
}

/* Every trace tprof writes begins with a clock snapshot of boot time 0 and real time on the
 * global sequence (pf_head): the bytes around the lengths and the time. */
const char *pf_head_foreign(const char *path)
{
	static const short head[] = { 0x0a, -1, 0x50, PF_SEQ_GLOBAL, 0x32, -1, 0x0a, 0x04,
				      0x08, 0x06, 0x10, 0x00, 0x0a, -1, 0x08, 0x01, 0x10 };
	unsigned char b[sizeof(head) / sizeof(head[0])];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(b), f) : 0;
	if (f)
		fclose(f);
	for (size_t i = 0; n == sizeof(b) && i < n; i++)
		if (head[i] >= 0 && b[i] != head[i])
			n = 0;
	return n == sizeof(b) ? NULL : "exists and is not a Perfetto trace tprof wrote";
}

void pf_tracks_free(struct perfetto_writer *w)
{
	for (size_t i = 0; i < w->tracks.n; i++) {
		struct pf_map_entry *e = &w->tracks.e[i];
		if (e->a >> 56 == K_LANE) {
			struct lanes *l = e->v;
			for (size_t k = 0; k < l->n; k++)
				free(l->v[k]);
			free(l->v);
		}
		free(e->v);
	}
	map_free(&w->tracks);
}

/* render/perfetto/pf.h — the Perfetto writer's state, shared by its parts: sequences and
 * packets (seq.c), tracks and their descriptors (layout.c), arguments as debug annotations
 * (annot.c) and the renderer of the scene (perfetto.c). */
#ifndef TPROF_ANALYZE_PERFETTO_PF_H
#define TPROF_ANALYZE_PERFETTO_PF_H

#include "../../model/scene.h"
#include "intern.h"
#include "out.h"
#include "proto.h"
#include "wire.h"

/* A packet sequence: one per track, its events written in the order they come.  Its clock
 * counts in deltas from the packet before (a sequence-scoped incremental clock); a packet
 * earlier than that gives its time in full on the trace clock instead. */
struct pf_seq {
	uint32_t id;                     /* trusted_packet_sequence_id */
	struct pb b;                     /* packets not yet handed to the output */
	int64_t last;                    /* the incremental clock's value, ns */
	uint64_t cats;                   /* category iids 1..63 defined on it */
	struct pf_idset interned;        /* (kind << 56 | iid) defined on it, categories aside */
	uint32_t recent[64];             /* event name ids known defined, by id % 64 */
	int busy;                        /* has filled a bundle: gets a bundle-sized buffer */
};

/* What an iid names (struct pf_seq's set, the pending list of a packet). */
enum pf_ikind { IK_NAME = 1, IK_FLOWNAME, IK_CAT, IK_KEY, IK_STRVAL };

/* A track events go to: a track of the scene, a counter, a lane of cross-thread ranges. */
struct pf_track {
	uint64_t uuid;
	struct pf_seq *seq;
	int64_t pid;                     /* the scene's process (or group) it is under */
	int64_t busy_until;              /* lanes: the end of their latest range */
};

/* A track of the scene recently used, and its track here. */
struct pf_recent {
	struct track key;
	struct pf_track *t;
};

/* (a, b) -> pointer, a and b never both zero. */
struct pf_map {
	struct pf_map_entry {
		uint64_t a, b;
		void *v;
	} *e;
	size_t n, cap;
};

struct pf {
	char *path;
	struct pf_out *out;
	int failed;
	struct pb meta;                  /* descriptors, written before any bundle after them */
	struct pf_seq **seqs;
	size_t nseqs;
	size_t held;                     /* bytes in all sequences' buffers */
	size_t packet_from;              /* its sequence's length when the packet began */
	struct pf_map tracks;            /* (kind, pid, tid or key) -> struct pf_track */
	struct pf_recent recent[256];    /* recently used tracks, by a hash of (pid, tid) */
	/* string constants (categories, flow names) seen, by address, with their number */
#define PF_CONSTS 32
	struct pf_const {
		const char *s;
		const struct pf_strmap *map;
		uint32_t id;
	} consts[PF_CONSTS];
	uint32_t ncounters, nlanes;
	struct pf_strmap cats, keys, names, counters;
	/* the iids the packet being written defines */
	struct pf_pending {
		uint8_t kind;
		uint64_t iid;
	} pending[2 * SCENE_MAX_ARGS + 8];
	unsigned npending;
};

/* ---- seq.c: sequences and packets -------------------------------------------------------- */

#define PF_SEQ_GLOBAL 1                  /* the sequence of the clock snapshot */

/* A new sequence whose events go to track `uuid` by default. */
struct pf_seq *pf_seq_new(struct pf *w, uint64_t uuid);
/* Sequences' buffers, all together, hold at most about this much before all are written. */
#define PF_HELD_MAX (32u << 20)

void pf_interned_data(struct pf *w, struct pb *b);
void pf_packet_flush(struct pf *w, struct pf_seq *s);

/* Starts a packet on s with room for `room` bytes of content; returns where it starts.
 * Packets that use the sequence's defaults and interned names carry no
 * SEQ_NEEDS_INCREMENTAL_STATE: trace processor reads that flag only to skip packets of a
 * sequence that lost some (its state then unknown), which never happens to a file written
 * in one pass; it would be 2 of the 13 bytes of an average packet, 16% of deflate's time. */
static inline size_t pf_packet(struct pf *w, struct pf_seq *s, size_t room)
{
	w->npending = 0;
	w->packet_from = s->b.len;
	pb_need(&s->b, room + 4 * PB_MAX_FIELD);
	size_t start = pb_open(&s->b, TRACE_PACKET);
	pb_uint(&s->b, PACKET_SEQUENCE_ID, s->id);
	return start;
}

/* Ends it at ts (ns from the trace start) with the interned data it needs: the time as a
 * delta on the sequence's clock, or in full on the trace clock when earlier than that. */
static inline __attribute__((always_inline)) void pf_packet_end(struct pf *w, struct pf_seq *s,
								  size_t start, int64_t ts)
{
	struct pb *b = &s->b;
	pb_need(b, 3 * PB_MAX_FIELD);
	if (ts >= s->last) {
		pb_uint(b, PACKET_TIMESTAMP, (uint64_t)(ts - s->last));
		s->last = ts;
	} else {
		pb_uint(b, PACKET_CLOCK_ID, BUILTIN_BOOTTIME);
		pb_uint(b, PACKET_TIMESTAMP, (uint64_t)ts);
	}
	if (w->npending)
		pf_interned_data(w, b);
	pb_close(b, start);
	w->held += b->len - w->packet_from;
	if (b->len >= PF_BUNDLE || w->held > PF_HELD_MAX)
		pf_packet_flush(w, s);
}
/* iids for the packet being written on s, defined in it when new on s. */
uint64_t pf_iid_flowname(struct pf *w, struct pf_seq *s, const char *name);
uint64_t pf_iid_key(struct pf *w, struct pf_seq *s, const char *key, uint32_t key_name);
uint64_t pf_iid_strval(struct pf *w, struct pf_seq *s, uint32_t id);
void pf_define_name(struct pf *w, struct pf_seq *s, uint32_t id);
uint64_t pf_define_cat(struct pf *w, struct pf_seq *s, uint32_t id);
uint32_t pf_const_number(struct pf *w, struct pf_strmap *m, const char *str);

/* An event name (a trace string id): its iid is the id. */
static inline uint64_t pf_iid_name(struct pf *w, struct pf_seq *s, uint32_t id)
{
	if (__builtin_expect(s->recent[id % 64] != id, 0))
		pf_define_name(w, s, id);
	return id;
}

/* Categories and flow names are string constants (scene.h), few, given again and again:
 * known by their address once their text has been numbered. */
static inline uint32_t pf_const_id(struct pf *w, struct pf_strmap *m, const char *str)
{
	const struct pf_const *c = &w->consts[((uintptr_t)str >> 3) % PF_CONSTS];
	if (__builtin_expect(c->s == str && c->map == m, 1))
		return c->id;
	return pf_const_number(w, m, str);
}

static inline uint64_t pf_iid_cat(struct pf *w, struct pf_seq *s, const char *cat)
{
	uint32_t id = pf_const_id(w, &w->cats, cat);
	if (__builtin_expect(id < 64 && (s->cats & 1ull << id), 1))
		return id;
	return pf_define_cat(w, s, id);
}
/* Hands every sequence's packets (and the descriptors before them) to the output. */
void pf_flush_all(struct pf *w);
void pf_seqs_free(struct pf *w);

/* ---- layout.c: tracks and their descriptors ---------------------------------------------- */

/* The track of the scene's (pid, tid); made on first use.  Most items are on a track used a
 * moment before: a look at the recent ones first. */
struct pf_track *pf_track_find(struct pf *w, struct track t, struct pf_recent *r);
static inline struct pf_track *pf_track_of(struct pf *w, struct track t)
{
	uint64_t h = (uint64_t)(t.pid * 131 + t.tid) * 0x9e3779b97f4a7c15ull;
	struct pf_recent *r = &w->recent[h >> 56];
	if (__builtin_expect(r->t && r->key.pid == t.pid && r->key.tid == t.tid, 1))
		return r->t;
	return pf_track_find(w, t, r);
}
/* The counter track `name` of the scene's process or group pid. */
struct pf_track *pf_counter_track(struct pf *w, int64_t pid, const struct scene_item *it);
/* A lane for the cross-thread range [t0, t1] named like it, under pid: the first whose
 * ranges all end by t0. */
struct pf_track *pf_lane(struct pf *w, int64_t pid, const struct scene_item *it);
/* The descriptors of every process, group and track used, named and ordered as the Chrome
 * output's (tracks_metadata); appended to meta. */
void pf_describe(struct pf *w, const struct trace *tr, struct tracks *tracks);
/* The clock snapshot (trace time = ns from the trace start; the start's wall-clock time)
 * and the root's ordering, the first packets of the file. */
void pf_head(struct pf *w, const struct trace *tr, struct pb *b);
void pf_tracks_free(struct pf *w);

/* ---- annot.c: arguments ------------------------------------------------------------------ */

/* The scene's typed arguments as TrackEvent.debug_annotations of the open event. */
void pf_annotations(struct pf *w, struct pf_seq *s, const struct scene_args *a);

#endif

/* render/perfetto/layout.h — tracks and their descriptors (layout.c); the recent-track lookup
 * inline. */
#ifndef TPROF_ANALYZE_PERFETTO_LAYOUT_H
#define TPROF_ANALYZE_PERFETTO_LAYOUT_H

#include "writer.h"

/* The track of the scene's (pid, tid); made on first use.  Most items are on a track used a
 * moment before: a look at the recent ones first. */
struct pf_track *pf_track_find(struct perfetto_writer *w, struct track t, struct pf_recent *r);
static inline struct pf_track *pf_track_of(struct perfetto_writer *w, struct track t)
{
	uint64_t h = (uint64_t)(t.pid * 131 + t.tid) * 0x9e3779b97f4a7c15ull;
	struct pf_recent *r = &w->recent[h >> 56];
	if (__builtin_expect(r->t && r->key.pid == t.pid && r->key.tid == t.tid, 1))
		return r->t;
	return pf_track_find(w, t, r);
}
/* The counter track `name` of the scene's process or group pid. */
struct pf_track *pf_counter_track(struct perfetto_writer *w, int64_t pid,
				  const struct scene_item *it);
/* A lane for the cross-thread range [t0, t1] named like it, under pid: the first whose
 * ranges all end by t0. */
struct pf_track *pf_lane(struct perfetto_writer *w, int64_t pid, const struct scene_item *it);
/* The descriptors of every process, group and track used, named and ordered as the Chrome
 * output's (tracks_metadata); appended to meta. */
void pf_describe(struct perfetto_writer *w, const struct trace *tr, struct tracks *tracks);
/* The clock snapshot (trace time = ns from the trace start; the start's wall-clock time)
 * and the root's ordering, the first packets of the file. */
void pf_head(struct perfetto_writer *w, const struct trace *tr, struct proto_buf *b);
/* Whether the file at path begins as pf_head makes a trace begin (a Perfetto trace tprof
 * wrote): NULL when it does, else why not (out_format.foreign, util/outname.h). */
const char *pf_head_foreign(const char *path);
void pf_tracks_free(struct perfetto_writer *w);

#endif

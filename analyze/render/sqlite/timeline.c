/* render/sqlite/timeline.c — the scene as rows: a track row per track an item is on (written
 * at the end, named and ordered as the Chrome trace names and orders it), a row per slice,
 * instant, counter sample and async range with its arguments as JSON, a row per CPU sample
 * naming its stack's innermost callsite (a callsite row per frame the first time its stack
 * from the outermost frame down is seen), and a row per flow (the slices it joins are found
 * by SQL at the end, schema.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "args.h"
#include "out.h"

static uint64_t track_hash(struct track t)
{
	uint64_t h = (uint64_t)t.pid * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)t.tid * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 29);
}

static struct sqtrack *track_find(struct sqlout *o, struct track t)
{
	uint64_t h = track_hash(t);
	size_t at;
	for (uint32_t id = hindex_first(&o->tv_by_track, h, &at); id;
	     id = hindex_next(&o->tv_by_track, h, &at)) {
		struct sqtrack *s = &o->tv[id - 1];
		if (s->track.pid == t.pid && s->track.tid == t.tid)
			return s;
	}
	return NULL;
}

/* The row id of track t, given at its first item. */
static int64_t track_id(struct sqlout *o, struct track t, const struct proc *p)
{
	struct sqtrack *s = track_find(o, t);
	if (s)
		return s->id;
	o->tv = util_grow(o->tv, &o->captv, o->ntv, sizeof(*o->tv), 256);
	s = &o->tv[o->ntv++];
	*s = (struct sqtrack){ .track = t, .id = sqlout_row_id(o, ST_TRACKS), .proc = p };
	hindex_add(&o->tv_by_track, track_hash(t), (uint32_t)o->ntv);
	return s->id;
}

/* Binds the args column (col) of statement st: the JSON text, or NULL. */
static int64_t bind_args(struct sqlout *o, enum stmt_id st, int col, const struct scene_args *a)
{
	int64_t corr;
	o->args.len = 0;
	o->args.err = 0;
	if (sqlite_args_json(&o->args, a, &corr) > 0)
		sq_text(&o->db, st, col, o->args.buf, (int)o->args.len);
	else
		sq_text(&o->db, st, col, NULL, 0);
	return corr;
}

static uint32_t item_name(const struct scene_item *it)
{
	if (it->name || !it->name_str)
		return it->name;
	return strings_add(it->name_str, strlen(it->name_str));
}

static int proc_id(const struct proc *p)
{
	return p ? p->index : 0;
}

static void slice(struct sqlout *o, const struct scene_item *it, int64_t track)
{
	struct sqldb *d = &o->db;
	sq_i64(d, ST_SLICES, SLICES_track_id, track);
	sq_opt(d, ST_SLICES, SLICES_process_id, it->proc != NULL, proc_id(it->proc));
	sq_i64(d, ST_SLICES, SLICES_start_ns, it->t0);
	sq_i64(d, ST_SLICES, SLICES_end_ns, it->t1);
	sq_i64(d, ST_SLICES, SLICES_name_id, item_name(it));
	sq_i64(d, ST_SLICES, SLICES_category_id, sqlout_string(o, it->cat));
	sq_i64(d, ST_SLICES, SLICES_depth, it->depth);
	int64_t corr = bind_args(o, ST_SLICES, SLICES_args, it->args);
	sq_opt(d, ST_SLICES, SLICES_correlation, corr >= 0, corr);
	o->corr_slices += corr >= 0;
	sq_i64(d, ST_SLICES, SLICES_flags, it->ev ? it->ev->flags : 0);
	sqldb_insert(d, ST_SLICES);
}

static void instant(struct sqlout *o, const struct scene_item *it, int64_t track)
{
	struct sqldb *d = &o->db;
	sq_i64(d, ST_INSTANTS, INSTANTS_track_id, track);
	sq_opt(d, ST_INSTANTS, INSTANTS_process_id, it->proc != NULL, proc_id(it->proc));
	sq_i64(d, ST_INSTANTS, INSTANTS_ts_ns, it->t0);
	sq_i64(d, ST_INSTANTS, INSTANTS_name_id, item_name(it));
	sq_i64(d, ST_INSTANTS, INSTANTS_category_id, sqlout_string(o, it->cat));
	bind_args(o, ST_INSTANTS, INSTANTS_args, it->args);
	sqldb_insert(d, ST_INSTANTS);
}

static void counter(struct sqlout *o, const struct scene_item *it, int64_t track)
{
	struct sqldb *d = &o->db;
	sq_i64(d, ST_COUNTERS, COUNTERS_track_id, track);
	sq_opt(d, ST_COUNTERS, COUNTERS_process_id, it->proc != NULL, proc_id(it->proc));
	sq_i64(d, ST_COUNTERS, COUNTERS_name_id, item_name(it));
	sq_i64(d, ST_COUNTERS, COUNTERS_ts_ns, it->t0);
	sq_f64(d, ST_COUNTERS, COUNTERS_value, it->value);
	sqldb_insert(d, ST_COUNTERS);
}

static void async(struct sqlout *o, const struct scene_item *it, int64_t track)
{
	struct sqldb *d = &o->db;
	sq_i64(d, ST_ASYNC, ASYNC_track_id, track);
	sq_opt(d, ST_ASYNC, ASYNC_process_id, it->proc != NULL, proc_id(it->proc));
	sq_i64(d, ST_ASYNC, ASYNC_start_ns, it->t0);
	sq_i64(d, ST_ASYNC, ASYNC_end_ns, it->t1);
	sq_i64(d, ST_ASYNC, ASYNC_name_id, item_name(it));
	sq_i64(d, ST_ASYNC, ASYNC_category_id, sqlout_string(o, it->cat));
	sq_i64(d, ST_ASYNC, ASYNC_async_id, (int64_t)it->id);
	sq_i64(d, ST_ASYNC, ASYNC_flags, it->ev ? it->ev->flags : 0);
	bind_args(o, ST_ASYNC, ASYNC_args, it->args);
	sqldb_insert(d, ST_ASYNC);
}

/* Callsites new since the last sample: parents before children, as numbered. */
static void callsites(struct sqlout *o)
{
	struct sqldb *d = &o->db;
	struct callsites *c = &o->callsites;
	for (; o->callsites_written < c->n; o->callsites_written++) {
		uint32_t id = (uint32_t)o->callsites_written + 1;
		const struct callsite *s = callsites_at(c, id);
		sq_i64(d, ST_CALLSITES, CALLSITES_id, id);
		sq_opt(d, ST_CALLSITES, CALLSITES_parent_id, s->parent != 0, s->parent);
		sq_i64(d, ST_CALLSITES, CALLSITES_depth, s->depth);
		sq_i64(d, ST_CALLSITES, CALLSITES_name_id, s->name);
		sq_i64(d, ST_CALLSITES, CALLSITES_is_kernel, s->kernel);
		sqldb_insert(d, ST_CALLSITES);
	}
}

static void sample(struct sqlout *o, const struct scene_item *it, int64_t track)
{
	struct sqldb *d = &o->db;
	uint32_t leaf = callsites_intern(&o->callsites, it->stack);
	if (o->callsites_written < o->callsites.n)
		callsites(o);
	sq_i64(d, ST_SAMPLES, SAMPLES_track_id, track);
	sq_opt(d, ST_SAMPLES, SAMPLES_process_id, it->proc != NULL, proc_id(it->proc));
	sq_i64(d, ST_SAMPLES, SAMPLES_ts_ns, it->t0);
	sq_opt(d, ST_SAMPLES, SAMPLES_cpu, it->stack != NULL, it->stack ? it->stack->cpu : 0);
	sq_opt(d, ST_SAMPLES, SAMPLES_callsite_id, leaf != 0, leaf);
	sqldb_insert(d, ST_SAMPLES);
}

static int begin(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct sqlout *o = priv;
	(void)tr;
	o->tracks = tracks;
	return o->failed ? -1 : 0;
}

static void item(void *priv, const struct scene_item *it)
{
	struct sqlout *o = priv;
	if (o->failed || o->db.failed)
		return;
	int64_t track = track_id(o, it->track, it->proc);
	switch (it->kind) {
	case SI_SLICE: slice(o, it, track); break;
	case SI_INSTANT: instant(o, it, track); break;
	case SI_COUNTER:
		track_find(o, it->track)->counters = 1;
		counter(o, it, track);
		break;
	case SI_ASYNC: async(o, it, track); break;
	case SI_SAMPLE: sample(o, it, track); break;
	default: break;
	}
}

static void flow(void *priv, const struct scene_flow *fl)
{
	struct sqlout *o = priv;
	struct sqldb *d = &o->db;
	if (o->failed || d->failed)
		return;
	if (fl->half) {   /* the other end is another analysis process's (merge.c) */
		int from = fl->half == SF_FROM;
		sq_i64(d, ST_HALVES, HALVES_flow, (int64_t)fl->id);
		sq_i64(d, ST_HALVES, HALVES_half, fl->half);
		sq_text(d, ST_HALVES, HALVES_key, fl->key, -1);
		/* by text: those other analysis processes sent lie in a buffer */
		sq_i64(d, ST_HALVES, HALVES_category_id, strings_add(fl->cat, strlen(fl->cat)));
		sq_i64(d, ST_HALVES, HALVES_name_id, strings_add(fl->name, strlen(fl->name)));
		sq_i64(d, ST_HALVES, HALVES_track_id, track_id(o, from ? fl->from : fl->to, NULL));
		sq_i64(d, ST_HALVES, HALVES_ts_ns, from ? fl->from_ts : fl->to_ts);
		bind_args(o, ST_HALVES, HALVES_args, fl->args);
		sqldb_insert(d, ST_HALVES);
		return;
	}
	sq_text(d, ST_FLOWS, FLOWS_key, fl->key, -1);
	sq_i64(d, ST_FLOWS, FLOWS_category_id, sqlout_string(o, fl->cat));
	sq_i64(d, ST_FLOWS, FLOWS_name_id, sqlout_string(o, fl->name));
	sq_i64(d, ST_FLOWS, FLOWS_from_track_id, track_id(o, fl->from, NULL));
	sq_i64(d, ST_FLOWS, FLOWS_from_ns, fl->from_ts);
	sq_i64(d, ST_FLOWS, FLOWS_to_track_id, track_id(o, fl->to, NULL));
	sq_i64(d, ST_FLOWS, FLOWS_to_ns, fl->to_ts);
	sq_text(d, ST_FLOWS, FLOWS_from_slice_id, NULL, 0);
	sq_text(d, ST_FLOWS, FLOWS_to_slice_id, NULL, 0);
	bind_args(o, ST_FLOWS, FLOWS_args, fl->args);
	sqldb_insert(d, ST_FLOWS);
}

/* The tracks are written at the scene's end (sqlite.c), while it still has them. */
static int end(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct sqlout *o = priv;
	o->tracks = tracks;
	sqlite_timeline_tracks(o, tr);
	o->tracks = NULL;
	callsites_free(&o->callsites);
	return o->failed || o->db.failed ? -1 : 0;
}

static const struct scene_ops timeline_ops = {
	.name = "sqlite", .begin = begin, .item = item, .flow = flow, .end = end,
};

struct scene_renderer sqlite_timeline(struct sqlout *o)
{
	return (struct scene_renderer){ &timeline_ops, o };
}

/* ---- the tracks table ---------------------------------------------------------------- */

/* What is known of a track before its row is written. */
struct trackrow {
	const char *kind;
	const struct proc *proc;
	const struct thread *thread;
	int64_t device, number;
	uint64_t stream;
	int has_device, has_stream;
	char *name;
	int64_t sort_index;
	int has_sort;
};

struct described {
	struct sqlout *o;
	struct trackrow *rows;           /* by track id - 1 */
};

static struct trackrow *row_of(struct described *c, struct track t)
{
	struct sqtrack *s = track_find(c->o, t);
	return s ? &c->rows[s->id - 1] : NULL;
}

static void info(void *ctx, const struct track_info *ti)
{
	struct described *c = ctx;
	struct trackrow *r = row_of(c, ti->track);
	if (!r)
		return;   /* a track no item of this renderer was on */
	r->kind = ti->kind;
	r->proc = ti->proc;
	r->thread = ti->thread;
	if (!strcmp(ti->kind, "device") || !strcmp(ti->kind, "neuroncore")) {
		r->device = ti->device;
		r->number = ti->number;
		r->has_device = 1;
	}
	if (!strcmp(ti->kind, "device")) {
		r->stream = ti->stream;
		r->has_stream = 1;
	}
}

static void meta(void *ctx, const char *what, int64_t pid, int64_t tid, const char *key,
		 const char *s, int64_t num)
{
	struct described *c = ctx;
	(void)key;
	struct trackrow *r = tid >= 0 ? row_of(c, (struct track){ pid, tid }) : NULL;
	if (!r)
		return;
	if (!strcmp(what, "thread_name") && s) {
		free(r->name);
		r->name = xstrdup(s);
	} else if (!strcmp(what, "thread_sort_index")) {
		r->sort_index = num;
		r->has_sort = 1;
	}
}

static void write_track(struct sqlout *o, const struct sqtrack *s, const struct trackrow *r)
{
	struct sqldb *d = &o->db;
	char stream[24];
	snprintf(stream, sizeof(stream), "0x%" PRIx64, r->stream);
	sq_i64(d, ST_TRACKS, TRACKS_id, s->id);
	sq_opt(d, ST_TRACKS, TRACKS_process_id, r->proc != NULL, proc_id(r->proc));
	sq_text(d, ST_TRACKS, TRACKS_kind, r->kind, -1);
	sq_opt(d, ST_TRACKS, TRACKS_thread_id, r->thread != NULL, sqlout_thread_id(o, r->thread));
	sq_opt(d, ST_TRACKS, TRACKS_device, r->has_device, r->device);
	sq_text(d, ST_TRACKS, TRACKS_stream, r->has_stream ? stream : NULL, -1);
	sq_opt(d, ST_TRACKS, TRACKS_number, r->has_device, r->number);
	sq_text(d, ST_TRACKS, TRACKS_name, r->name, -1);
	sq_opt(d, ST_TRACKS, TRACKS_sort_index, r->has_sort, r->sort_index);
	sq_i64(d, ST_TRACKS, TRACKS_chrome_pid, s->track.pid);
	sq_i64(d, ST_TRACKS, TRACKS_chrome_tid, s->track.tid);
	sqldb_insert(d, ST_TRACKS);
}

void sqlite_timeline_tracks(struct sqlout *o, const struct trace *tr)
{
	if (o->failed || o->db.failed)
		return;
	struct described c = { o, xcalloc(o->ntv + 1, sizeof(*c.rows)) };
	if (o->tracks) {
		tracks_each(o->tracks, info, &c);
		tracks_metadata(o->tracks, tr, meta, &c);
	}
	for (size_t i = 0; i < o->ntv; i++) {
		const struct sqtrack *s = &o->tv[i];
		struct trackrow *r = &c.rows[s->id - 1];
		if (!r->proc)
			r->proc = s->proc;
		/* tracks the layout does not list: a process's steps, its counters */
		struct track steps = r->proc && o->tracks ? tracks_steps(o->tracks, r->proc)
							  : (struct track){ -1, -1 };
		if (!r->kind && steps.pid == s->track.pid && steps.tid == s->track.tid) {
			r->kind = "steps";
			if (!r->name)
				r->name = xstrdup("steps");
			if (!r->has_sort)
				r->sort_index = -1, r->has_sort = 1;
		} else if (!r->kind) {
			r->kind = s->counters ? "counters" : "other";
			if (!r->name && s->counters)
				r->name = xstrdup("counters");
		}
		write_track(o, s, r);
		free(r->name);
	}
	free(c.rows);
}

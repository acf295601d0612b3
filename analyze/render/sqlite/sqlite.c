/* render/sqlite/sqlite.c — the SQLite output as the pipeline sees it (--format sqlite): each
 * event goes to the scene (drawn into the timeline tables, timeline.c) and to the domain
 * facts (facts.c); at the end the processes, threads and tracks, the string table and what
 * the database covers (meta) are written, then the links, indexes and views (schema.c), and
 * the finished file is put in place (db.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../../common/xalloc.h"
#include "config.h"
#include "out.h"
#include "sqlite-out.h"
#include "db.h"
#include "../../util/outname.h"

static void meta_text(struct sqlout *o, const char *key, const char *v)
{
	sq_text(&o->db, ST_META, META_key, key, -1);
	sq_text(&o->db, ST_META, META_value, v, -1);
	sqldb_insert(&o->db, ST_META);
}

static void meta_int(struct sqlout *o, const char *key, int64_t v)
{
	sq_text(&o->db, ST_META, META_key, key, -1);
	sq_i64(&o->db, ST_META, META_value, v);
	sqldb_insert(&o->db, ST_META);
}

/* What the database is and what time it covers (the summary's covered time). */
static void meta(struct sqlout *o, const struct trace *tr)
{
	meta_int(o, "schema_version", SQLITE_SCHEMA_VERSION);
	meta_text(o, "producer", "tprof " PACKAGE_VERSION);
	meta_text(o, "profile", o->dir);
	meta_int(o, "trace_start_realtime_ns", tr->start_ns);
	int64_t lo = 0, hi = tr->end_ns - tr->start_ns;
	meta_int(o, "trace_duration_ns", hi);
	if (o->win && o->win->active) {
		meta_text(o, "window", o->win->desc);
		meta_int(o, "window_start_ns", o->win->start);
		meta_int(o, "window_end_ns", o->win->end);
		lo = o->win->start > lo ? o->win->start : lo;
		hi = o->win->end < hi ? o->win->end : hi;
	}
	meta_int(o, "covered_start_ns", lo);
	meta_int(o, "covered_ns", hi > lo ? hi - lo : 0);
	meta_text(o, "time_unit", "ns from trace_start_realtime_ns");
}

/* Every string of the trace: the ids the other tables hold are theirs. */
static void strings(struct sqlout *o)
{
	uint32_t n = strings_count();
	for (uint32_t id = 0; id < n; id++) {
		sq_i64(&o->db, ST_STRINGS, STRINGS_id, id);
		sq_text(&o->db, ST_STRINGS, STRINGS_string, strings_get(id), (int)strings_len(id));
		sqldb_insert(&o->db, ST_STRINGS);
	}
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sqlite_finish(struct sqlout *o, const struct trace *tr)
{
	if (o->failed || o->db.failed)
		return;
	o->t_finish = now();
	sqlite_facts_end(o, tr);
	meta(o, tr);
	strings(o);
	sqlite_schema_finish(o);
}


static int begin(void *priv, const struct trace *tr)
{
	struct sqlout *o = priv;
	o->tr_start = tr->start_ns;
	o->t_begin = now();
	if (sqldb_open(&o->db, o->path, &sqlite_format) < 0) {
		o->failed = 1;
		return -1;
	}
	sqlite_facts_begin(o, tr);
	return o->scene.ops->begin(o->scene.priv, tr);
}

static void on_event(void *priv, const struct event *ev)
{
	struct sqlout *o = priv;
	if (o->failed || o->db.failed)
		return;
	o->scene.ops->event(o->scene.priv, ev);
	sqlite_facts_event(o, ev);
}

static int end(void *priv, const struct trace *tr)
{
	struct sqlout *o = priv;
	/* the scene's end draws what it held and writes the tracks (timeline.c) */
	int rc = o->scene.ops->end(o->scene.priv, tr);
	sqlite_finish(o, tr);
	int keep = !o->failed && !o->db.failed && rc == 0;
	uint64_t rows = o->db.rows;
	if (sqldb_close(&o->db, keep) < 0)
		rc = -1;
	else
		diag_note("SQLite: %" PRIu64 " rows in %.2f s, of which %.2f s for the links, "
			  "indexes and views at the end", rows, now() - o->t_begin,
			  now() - o->t_finish);
	jw_close(&o->args);
	free(o->tv);
	hindex_free(&o->tv_by_track);
	free(o->thread_base);
	free(o->path);
	free(o->dir);
	free(o);
	return rc;
}

static const struct output_ops sqlite_ops = { "sqlite", begin, on_event, end };

struct output output_sqlite(const char *path, const char *dir, const struct window *w,
			    const struct runtime_set *rts)
{
	struct sqlout *o = xcalloc(1, sizeof(*o));
	o->path = xstrdup(path);
	o->dir = xstrdup(dir);
	o->win = w;
	o->rts = rts;
	jw_open_mem(&o->args);
	o->scene = output_scene(sqlite_timeline(o), TRACKS_BY_PROCESS, rts);
	return (struct output){ &sqlite_ops, o };
}

const struct out_format sqlite_format = { "an SQLite database", 0, 0, sqldb_foreign };

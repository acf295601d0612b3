/* render/sqlite/sqlite.c — the SQLite output as the pipeline sees it (--format sqlite): each
 * event goes to the scene (drawn into the timeline tables, timeline.c) and to the domain
 * facts (facts.c); at the end the processes, threads and tracks, the string table and what
 * the database covers (meta) are written, then the links, indexes and views (schema.c), and
 * the finished file is put in place (db.c).  Under --parallel every analysis process writes
 * its share so, into a part the first one merges into its database (merge.c) before the
 * links. */
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
#include "merge.h"
#include "../../parallel/par.h"
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
	meta_int(o, "diagnosis", o->dx != NULL);
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

/* Under --parallel: the first analysis process copies every other's part into its database
 * (merge.c), and the others remove theirs once it has.  Every analysis process calls it;
 * -1 when the database cannot be whole. */
static int parallel_parts(struct sqlout *o, int rc, int64_t *flows_since)
{
	int me = par_rank(), k = par_size();
	int64_t bad = rc != 0 || o->failed || o->db.failed;
	if (me != 0 && !bad && sqldb_close_part(&o->db) < 0)
		bad = 1;
	const char *path = me != 0 && !bad ? o->db.tmp : "";
	size_t *len_of;
	char *paths = par_gather(path, strlen(path) + 1, 0, &len_of);
	uint64_t sums[2] = { o->corr_slices, me != 0 ? o->db.rows : 0 };
	par_sum_u64(sums, 2);
	o->corr_slices = sums[0];
	o->part_rows = sums[1];
	int64_t failed = bad;
	par_max_i64(&failed, 1);
	if (me == 0 && !failed) {
		const char *at = paths + len_of[0];
		failed = sqlite_merge_begin(&o->db) < 0;
		for (int p = 1; p < k && !failed; at += len_of[p++])
			failed = sqlite_merge_part(&o->db, at) < 0;
		failed = failed || sqlite_merge_end(&o->db, flows_since) < 0;
	}
	free(paths);
	free(len_of);
	par_max_i64(&failed, 1);   /* the others' parts are read */
	if (me != 0)
		sqldb_remove_part(&o->db);
	return failed ? -1 : 0;
}

int sqlite_finish(struct sqlout *o, const struct trace *tr, int rc)
{
	int64_t flows_since = -1;   /* serially: every link is still to be found */
	if (!rc && !o->failed && !o->db.failed) {
		o->t_finish = now();
		sqlite_facts_end(o, tr);
		strings(o);
		if (par_size() > 1)
			sqlite_schema_links(o);
	}
	if (par_size() > 1 && parallel_parts(o, rc, &flows_since) < 0)
		return -1;
	if (rc || o->failed || o->db.failed)
		return -1;
	if (par_rank() != 0)
		return 0;
	meta(o, tr);
	if (sqldb_exec(&o->db, "DROP TABLE flow_halves") < 0 ||
	    sqlite_schema_finish(o, flows_since) < 0)
		return -1;
	return 0;
}

/* Under --parallel, where an analysis process other than the first writes its part: beside
 * the database, never put in place (its temporary is read, then removed). */
static char *part_path(const char *path)
{
	char *p = xmalloc(strlen(path) + 32);
	sprintf(p, "%s.part-%04d", path, par_rank());
	return p;
}

static int begin(void *priv, const struct trace *tr)
{
	struct sqlout *o = priv;
	o->tr_start = tr->start_ns;
	o->t_begin = now();
	char *part = par_rank() != 0 ? part_path(o->path) : NULL;
	int opened = sqldb_open(&o->db, part ? part : o->path, &sqlite_format);
	free(part);
	if (opened < 0) {
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
	if (!rc)
		sqlite_diagnosis(o);
	rc = sqlite_finish(o, tr, rc) < 0 ? -1 : 0;
	uint64_t rows = o->db.rows + o->part_rows;
	if (par_rank() != 0)
		;                 /* its part was read, and removed */
	else if (sqldb_close(&o->db, rc == 0) < 0)
		rc = -1;
	else
		diag_note("SQLite: %" PRIu64 " rows in %.2f s, of which %.2f s for the %slinks, "
			  "indexes and views at the end", rows, now() - o->t_begin,
			  now() - o->t_finish, par_size() > 1 ? "other parts, " : "");
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
			    const struct runtime_set *rts, struct diagnosis *dx)
{
	struct sqlout *o = xcalloc(1, sizeof(*o));
	o->dx = dx;
	o->path = xstrdup(path);
	o->dir = xstrdup(dir);
	o->win = w;
	o->rts = rts;
	jw_open_mem(&o->args);
	o->scene = output_scene(sqlite_timeline(o), TRACKS_BY_PROCESS, rts);
	return (struct output){ &sqlite_ops, o };
}

const struct out_format sqlite_format = { "an SQLite database", 0, 0, sqldb_foreign };

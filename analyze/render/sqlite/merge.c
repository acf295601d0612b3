/* render/sqlite/merge.c — the database of a parallel analysis (`mpirun -np K tprof-analyze
 * --parallel --format sqlite`): every analysis process writes the rows of its share into a
 * database of its own, numbered as it pleases, and the first one copies the others' into its
 * database, one at a time (ATTACH, INSERT ... SELECT, DETACH), renumbering what refers to
 * rows: strings by their text, tracks by their Chrome (pid, tid) and callsites by their
 * function and caller (outermost first), which two parts may both have; threads,
 * collectives and slices by an offset, the rows the part adds
 * going after those already there (each part found the slices its device operations and
 * arrows link to before: schema.c); device operations and the other rows nothing refers to
 * are numbered by SQLite as they come in.  What a part could not know is settled once all
 * are in: a thread of a process another analysis process read (the end of a message, the
 * member of a collective) is written as -1 - its tid, then found by (process, tid); an arrow
 * whose ends two analysis processes drew is one row of flow_halves per end, paired into
 * flows by the arrow's number, and linked to their slices then.  The indexes and views come
 * after (schema.c), over the whole database, as in a serial analysis. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "merge.h"
#include "../../read/trace.h"

/* What a column holds, for the copy. */
enum ref {
	REF_KEEP,          /* a value: copied as it is (process numbers are the job's) */
	REF_NUMBERED,      /* the row's id nothing refers to: left to SQLite */
	REF_OWN,           /* the row's id others refer to: shifted by the table's offset */
	REF_STRING,        /* a string id: by text */
	REF_TRACK,         /* a track id: by Chrome (pid, tid) */
	REF_THREAD,        /* a thread id: shifted, or (negative) one another process read */
	REF_CALLSITE,      /* a callsite id: by its function and caller (callsites_copy) */
	REF_COLLECTIVE,
	REF_SLICE,         /* a slice id (each part found its own links: schema.c) */
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* -1 for a column ending in _id that no rule covers (a new reference: give it one). */
static int ref_of(enum stmt_id t, const char *c)
{
	if (!strcmp(c, "id"))
		return t == ST_THREADS || t == ST_COLLECTIVES || t == ST_SLICES ? REF_OWN
		     : t == ST_PROCESSES ? REF_KEEP : REF_NUMBERED;
	if (!strcmp(c, "name_id") || !strcmp(c, "category_id") || !strcmp(c, "caller_id") ||
	    !strcmp(c, "site_id") || !strcmp(c, "via_site_id") || !strcmp(c, "top_id") ||
	    !strcmp(c, "after_id"))
		return REF_STRING;
	if (ends_with(c, "track_id"))
		return REF_TRACK;
	if (ends_with(c, "thread_id"))
		return REF_THREAD;
	if (!strcmp(c, "callsite_id") || (t == ST_CALLSITES && !strcmp(c, "parent_id")))
		return REF_CALLSITE;
	if (!strcmp(c, "collective_id"))
		return REF_COLLECTIVE;
	if (ends_with(c, "slice_id"))
		return REF_SLICE;
	if (ends_with(c, "process_id") || !strcmp(c, "instance_id") || !strcmp(c, "async_id"))
		return REF_KEEP;
	return ends_with(c, "_id") ? -1 : REF_KEEP;
}

/* Runs the statement built in s (SQLite's string builder), which it frees. */
static int run(struct sqldb *d, sqlite3_str *s)
{
	char *sql = sqlite3_str_finish(s);
	if (!sql) {
		diag_error("%s: merging the parts: out of memory", d->path);
		d->failed = 1;
		return -1;
	}
	int rc = sqldb_exec(d, sql);
	sqlite3_free(sql);
	return rc;
}

/* The one integer a query gives (0 when NULL); -1 (said) on error. */
static int64_t scalar(struct sqldb *d, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	if (v < 0) {
		diag_error("%s: %s", d->path, sqlite3_errmsg(d->db));
		d->failed = 1;
	}
	return v;
}

/* The copy of table t of the attached part: INSERT INTO t (...) SELECT ... FROM part.t,
 * with `where` (may be empty) and off[] the offsets of the tables by statement. */
static int copy(struct sqldb *d, enum stmt_id t, const int64_t *off, const char *where)
{
	sqlite3_str *q = sqlite3_str_new(d->db), *sel = sqlite3_str_new(d->db);
	const char *name = stmts_table(t);
	sqlite3_str_appendf(q, "INSERT INTO main.%s (", name);
	const char *sep = "";
	for (unsigned i = 0; i < stmts_ncols(t); i++) {
		const char *c = stmts_column(t, i);
		int r = ref_of(t, c);
		if (r < 0) {
			diag_error("%s: merging the parts: no rule for column %s.%s", d->path, name, c);
			d->failed = 1;
			sqlite3_free(sqlite3_str_finish(q));
			sqlite3_free(sqlite3_str_finish(sel));
			return -1;
		}
		if (r == REF_NUMBERED)
			continue;
		sqlite3_str_appendf(q, "%s%s", sep, c);
		sqlite3_str_appendall(sel, sep);
		sep = ", ";
		switch (r) {
		case REF_KEEP: sqlite3_str_appendf(sel, "p.%s", c); break;
		case REF_OWN: sqlite3_str_appendf(sel, "p.%s + %lld", c, (long long)off[t]); break;
		case REF_STRING:
			sqlite3_str_appendf(sel, "(SELECT new FROM temp.smap WHERE old = p.%s)", c);
			break;
		case REF_TRACK:
			sqlite3_str_appendf(sel, "(SELECT new FROM temp.tmap WHERE old = p.%s)", c);
			break;
		case REF_THREAD:
			sqlite3_str_appendf(sel, "CASE WHEN p.%s < 0 THEN p.%s ELSE p.%s + %lld END", c,
					    c, c, (long long)off[ST_THREADS]);
			break;
		case REF_CALLSITE:
			sqlite3_str_appendf(sel, "(SELECT new FROM temp.cmap WHERE old = p.%s)", c);
			break;
		case REF_COLLECTIVE:
			sqlite3_str_appendf(sel, "p.%s + %lld", c, (long long)off[ST_COLLECTIVES]);
			break;
		case REF_SLICE:
			sqlite3_str_appendf(sel, "p.%s + %lld", c, (long long)off[ST_SLICES]);
			break;
		}
	}
	char *cols = sqlite3_str_finish(sel);
	sqlite3_str_appendf(q, ") SELECT %s FROM part.%s p %s", cols ? cols : "", name, where);
	sqlite3_free(cols);
	return run(d, q);
}

int sqlite_merge_begin(struct sqldb *d)
{
	return sqldb_exec(d, "CREATE TEMP TABLE smap (old INTEGER PRIMARY KEY, new INTEGER);"
			     "CREATE TEMP TABLE tmap (old INTEGER PRIMARY KEY, new INTEGER);"
			     "CREATE TEMP TABLE cmap (old INTEGER PRIMARY KEY, new INTEGER);"
			     "CREATE INDEX merge_strings ON strings (string);"
			     "CREATE INDEX merge_tracks ON tracks (chrome_pid, chrome_tid);"
			     "CREATE INDEX merge_callsites ON callsites (name_id, parent_id);");
}

/* The part's callsites that the database lacks, depth by depth from the outermost (a
 * caller's row is there before its callees are looked for), and temp.cmap from each of the
 * part's to the database's: the serial analyzer has one row per stack of functions. */
static int callsites_copy(struct sqldb *d)
{
	int64_t deepest = scalar(d, "SELECT IFNULL(MAX(depth), 0) FROM part.callsites");
	if (deepest < 0 || sqldb_exec(d, "DELETE FROM temp.cmap;") < 0)
		return -1;
	/* the part's row p as the database's names it */
	static const char same[] =
		"m.name_id = (SELECT new FROM temp.smap WHERE old = p.name_id)"
		" AND m.is_kernel = p.is_kernel AND m.parent_id IS"
		" (SELECT new FROM temp.cmap WHERE old = p.parent_id)";
	for (int64_t depth = 0; depth <= deepest; depth++) {
		sqlite3_str *q = sqlite3_str_new(d->db);
		sqlite3_str_appendf(q,
			"INSERT INTO main.callsites (parent_id, depth, name_id, is_kernel)"
			"  SELECT (SELECT new FROM temp.cmap WHERE old = p.parent_id), p.depth,"
			"    (SELECT new FROM temp.smap WHERE old = p.name_id), p.is_kernel"
			"  FROM part.callsites p WHERE p.depth = %lld AND NOT EXISTS"
			"    (SELECT 1 FROM main.callsites m WHERE %s) ORDER BY p.id;"
			"INSERT OR IGNORE INTO temp.cmap SELECT p.id, m.id FROM part.callsites p"
			"  JOIN main.callsites m ON %s WHERE p.depth = %lld;",
			(long long)depth, same, same, (long long)depth);
		if (run(d, q) < 0)
			return -1;
	}
	return 0;
}

/* The tables copied first, in this order: those others refer to. */
static int copied_first(enum stmt_id t)
{
	return t == ST_META || t == ST_STRINGS || t == ST_THREADS || t == ST_TRACKS ||
	       t == ST_CALLSITES || t == ST_COLLECTIVES;
}

int sqlite_merge_part(struct sqldb *d, const char *path)
{
	char *q = sqlite3_mprintf("COMMIT; ATTACH %Q AS part; BEGIN", path);
	int rc = sqldb_exec(d, q);
	sqlite3_free(q);
	if (rc < 0)
		return -1;
	int64_t off[ST_COUNT] = { 0 };
	static const enum stmt_id shifted[] = { ST_THREADS, ST_COLLECTIVES, ST_SLICES };
	for (size_t i = 0; i < sizeof(shifted) / sizeof(shifted[0]); i++) {
		char sql[128];
		snprintf(sql, sizeof(sql), "SELECT IFNULL(MAX(id), 0) FROM main.%s",
			 stmts_table(shifted[i]));
		if ((off[shifted[i]] = scalar(d, sql)) < 0)
			return -1;
	}
	rc = sqldb_exec(d,
		"INSERT INTO main.strings (string) SELECT string FROM part.strings p"
		"  WHERE NOT EXISTS (SELECT 1 FROM main.strings m WHERE m.string = p.string);"
		"DELETE FROM temp.smap;"
		"INSERT OR IGNORE INTO temp.smap SELECT p.id, m.id FROM part.strings p"
		"  JOIN main.strings m ON m.string = p.string;");
	if (rc < 0 || copy(d, ST_THREADS, off, "") < 0 ||
	    copy(d, ST_TRACKS, off, "WHERE NOT EXISTS (SELECT 1 FROM main.tracks m WHERE "
		 "m.chrome_pid = p.chrome_pid AND m.chrome_tid = p.chrome_tid)") < 0 ||
	    sqldb_exec(d, "DELETE FROM temp.tmap;"
			  "INSERT OR IGNORE INTO temp.tmap SELECT p.id, m.id FROM part.tracks p"
			  "  JOIN main.tracks m ON m.chrome_pid = p.chrome_pid"
			  "    AND m.chrome_tid = p.chrome_tid;") < 0 ||
	    callsites_copy(d) < 0 || copy(d, ST_COLLECTIVES, off, "") < 0)
		return -1;
	for (int t = 0; t < ST_COUNT; t++)
		if (!copied_first((enum stmt_id)t) && copy(d, (enum stmt_id)t, off, "") < 0)
			return -1;
	/* a transaction ends before DETACH */
	return sqldb_exec(d, "COMMIT; DETACH part; BEGIN");
}

/* Threads another analysis process read: found by their process and tid. */
static int remote_threads(struct sqldb *d)
{
	for (int t = 0; t < ST_COUNT; t++) {
		const char *name = stmts_table((enum stmt_id)t);
		for (unsigned i = 0; i < stmts_ncols((enum stmt_id)t); i++) {
			const char *c = stmts_column((enum stmt_id)t, i);
			if (ref_of((enum stmt_id)t, c) != REF_THREAD)
				continue;
			/* send_thread_id's process is send_process_id; others', process_id */
			char proc[64];
			snprintf(proc, sizeof(proc), "%.*sprocess_id", (int)(strlen(c) - 9), c);
			int has = 0;
			for (unsigned j = 0; j < stmts_ncols((enum stmt_id)t); j++)
				has |= !strcmp(stmts_column((enum stmt_id)t, j), proc);
			sqlite3_str *q = sqlite3_str_new(d->db);
			sqlite3_str_appendf(q, "UPDATE %s SET %s = (SELECT id FROM threads h WHERE "
					    "h.process_id = %s.%s AND h.tid = -%s.%s - 1) WHERE %s < 0",
					    name, c, name, has ? proc : "process_id", name, c, c);
			if (run(d, q) < 0)
				return -1;
		}
	}
	return 0;
}

int sqlite_merge_end(struct sqldb *d, int64_t *flows_since)
{
	if (sqldb_exec(d, "DROP INDEX merge_strings; DROP INDEX merge_tracks;"
			  "CREATE INDEX merge_threads ON threads (process_id, tid);") < 0 ||
	    remote_threads(d) < 0 ||
	    (*flows_since = scalar(d, "SELECT IFNULL(MAX(id), 0) FROM flows")) < 0 ||
	    sqldb_exec(d, "DROP INDEX merge_threads;"
			  "CREATE INDEX merge_halves ON flow_halves (flow, half);"
			  "INSERT INTO flows (key, category_id, name_id, from_track_id, from_ns,"
			  "    to_track_id, to_ns, args)"
			  "  SELECT f.key, f.category_id, f.name_id, f.track_id, f.ts_ns, t.track_id,"
			  "    t.ts_ns, f.args FROM flow_halves f"
			  "  JOIN flow_halves t ON t.flow = f.flow AND t.half = 2 WHERE f.half = 1;") < 0)
		return -1;
	int64_t lone = scalar(d, "SELECT COUNT(*) FROM flow_halves h WHERE NOT EXISTS (SELECT 1"
				 "  FROM flow_halves o WHERE o.flow = h.flow AND o.half = 3 - h.half)");
	if (lone < 0)
		return -1;
	if (lone)
		diag_note("SQLite: %" PRId64 " arrow ends whose other end no analysis process drew "
			  "are left out", lone);
	return sqldb_exec(d, "DROP INDEX merge_callsites;"
			     "DROP TABLE temp.smap; DROP TABLE temp.tmap; DROP TABLE temp.cmap;");
}

/* test-sqlite.c — the SQLite renderer on items and events made by hand: arguments as JSON
 * text (every type, nesting, names as keys, escaping), the tracks table (kinds, names, the
 * thread), slices, instants, counters, async ranges and flows as rows, the links found at
 * the end (a device operation's launching call, never the device span that shares its
 * correlation; a flow's innermost slices), the facts of a device operation and an MPI
 * collective, and which existing files may be replaced; a file not kept leaves the old one. */
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../analyze/render/sqlite/args.h"
#include "../../analyze/render/sqlite/out.h"
#include "../../analyze/render/sqlite/sqlite-out.h"
#include "../../analyze/util/outname.h"
#include "tap.h"

static char dir[] = "/tmp/tprof-test-sqlite.XXXXXX";

static const char *json(const struct scene_args *a, int64_t *corr)
{
	static struct json_writer w;
	static char out[4096];
	if (!w.buf)
		jw_open_mem(&w);
	w.len = 0;
	int rc = sqlite_args_json(&w, a, corr);
	snprintf(out, sizeof(out), "%d %.*s", rc, (int)w.len, w.buf);
	return out;
}

static void test_args(void)
{
	struct scene_args a = { 0 };
	int64_t corr;
	ok(!strcmp(json(&a, &corr), "0 ") && corr == -1, "no arguments: no JSON");
	sa_u64(&a, "correlation", 42);
	sa_i64(&a, "ret", -3);
	sa_hex(&a, "stream", 0xabc);
	sa_double(&a, "GB/s", 1.5);
	sa_str(&a, "kind", "a\"b\\c\n");
	sa_name(&a, "kernel", strings_add("k<1>", 4));
	sa_us(&a, "time in calls (us)", 1234567);
	sa_bool(&a, "failed", 1);
	sa_obj(&a, "functions");
	sa_obj_named(&a, strings_add("MPI_Test", 8));
	sa_u64(&a, "polls", 7);
	sa_end(&a);
	sa_end(&a);
	sa_arr(&a, "grid");
	sa_u64(&a, NULL, 1);
	sa_u64(&a, NULL, 2);
	sa_end(&a);
	const char *want = "1 {\"correlation\":42,\"ret\":-3,\"stream\":\"0xabc\",\"GB/s\":1.5,"
			   "\"kind\":\"a\\\"b\\\\c\\n\",\"kernel\":\"k<1>\",\"time in calls (us)\":1234.567,"
			   "\"failed\":true,\"functions\":{\"MPI_Test\":{\"polls\":7}},\"grid\":[1,2]}";
	const char *got = json(&a, &corr);
	ok(!strcmp(got, want), "every type, nested objects and arrays, a name as key, escaping");
	if (strcmp(got, want))
		printf("#   got  %s\n#   want %s\n", got, want);
	is_u64(corr, 42, "the top-level correlation is found");
	a.n = 0;
	sa_obj(&a, "o");
	sa_arr(&a, "a");
	sa_u64(&a, NULL, 1);
	got = json(&a, &corr);
	ok(!strcmp(got, "1 {\"o\":{\"a\":[1]}}") && corr == -1,
	   "what a builder left open is closed; no correlation: -1 (%s)", got);
	a.n = 0;
	sa_obj(&a, "o");
	sa_u64(&a, "correlation", 5);
	sa_end(&a);
	json(&a, &corr);
	ok(corr == -1, "a nested correlation is not the slice's");
}

/* ---- a trace of one process with two threads --------------------------------------------- */

static struct proc proc;
static struct thread th1, th2;
static struct thread *threads[3];
static struct stream st0, st1, st2;
static struct stream *streams[3];
static struct proc *procs[1];
static struct trace tr;

static void make_trace(void)
{
	proc.index = 1;
	proc.pid = 500;
	proc.ppid = 1;
	proc.rank = proc.world_size = proc.local_rank = -1;
	proc.host = strings_add("h0", 2);
	proc.instance = 0x1234;
	th1 = (struct thread){ .proc = &proc, .stream = 1, .tid = 500, .name = strings_add("main", 4),
			       .first_ns = 1000, .last_ns = 90000, .events = 5 };
	th2 = (struct thread){ .proc = &proc, .stream = 2, .tid = 501, .name = strings_add("w", 1) };
	threads[1] = &th1;
	threads[2] = &th2;
	proc.threads = threads;
	st0 = (struct stream){ .id = 0, .index = 0, .proc = &proc };
	st1 = (struct stream){ .id = 1, .index = 1, .proc = &proc, .thread = &th1 };
	st2 = (struct stream){ .id = 7, .index = 2, .proc = &proc, .thread = &th2 };
	streams[0] = &st0;
	streams[1] = &st1;
	streams[2] = &st2;
	proc.streams = streams;
	proc.nstreams = 3;
	proc.start_ns = 1000;
	proc.end_ns = 100000;
	procs[0] = &proc;
	tr.procs = procs;
	tr.nprocs = 1;
	tr.start_ns = 1000;
	tr.end_ns = 100000;
}

static sqlite3 *db;

static int64_t q(const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -999;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		printf("#   %s: %s\n", sql, sqlite3_errmsg(db));
		return v;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static const char *qs(const char *sql)
{
	static char out[1024];
	sqlite3_stmt *st;
	snprintf(out, sizeof(out), "(error)");
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return out;
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(out, sizeof(out), "%s",
			 sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : "NULL");
	sqlite3_finalize(st);
	return out;
}

/* Writes: a range (depth 0) holding a hipLaunchKernel call (correlation 7, depth 1) on the
 * main thread; the kernel on GPU 0's stream 0x10 (correlation 7 too) with the launch flow;
 * a mark; a counter; an async range; a step; and the kernel's facts (EV_DEVICE). */
static void write_db(const char *path)
{
	struct sqlout *o = calloc(1, sizeof(*o));
	o->path = strdup(path);
	o->dir = strdup("prof");
	jw_open_mem(&o->args);
	ok(sqldb_open(&o->db, path, &sqlite_format) == 0, "the database is opened (a temporary file)");
	o->tr_start = tr.start_ns;
	sqlite_facts_begin(o, &tr);
	struct scene_renderer r = sqlite_timeline(o);
	struct tracks *t = tracks_new(TRACKS_BY_PROCESS);
	r.ops->begin(r.priv, &tr, t);
	struct track main = tracks_thread(t, &th1, 1), gpu = tracks_device(t, &proc, 0, 0x10, 0);
	struct scene_args a = { 0 };
	struct scene_item it = { .kind = SI_SLICE, .cat = "range", .name = strings_add("outer", 5),
				 .track = main, .proc = &proc, .t0 = 1000, .t1 = 50000 };
	r.ops->item(r.priv, &it);
	sa_u64(&a, "correlation", 7);
	sa_hex(&a, "stream", 0x10);
	it = (struct scene_item){ .kind = SI_SLICE, .cat = "hip", .name = strings_add("hipLaunchKernel", 15),
				  .track = main, .proc = &proc, .t0 = 2000, .t1 = 3000, .depth = 1, .args = &a };
	r.ops->item(r.priv, &it);
	it = (struct scene_item){ .kind = SI_SLICE, .cat = "kernel", .name = strings_add("k", 1),
				  .track = gpu, .proc = &proc, .t0 = 4000, .t1 = 9000, .args = &a };
	r.ops->item(r.priv, &it);
	struct scene_flow fl = { .id = 1, .cat = "launch", .name = "launch", .from = main, .to = gpu,
				 .from_ts = 2001, .to_ts = 4001 };
	r.ops->flow(r.priv, &fl);
	it = (struct scene_item){ .kind = SI_INSTANT, .cat = "mark", .name = strings_add("m", 1),
				  .track = tracks_thread(t, &th2, 0), .proc = &proc, .t0 = 5000 };
	r.ops->item(r.priv, &it);
	it = (struct scene_item){ .kind = SI_COUNTER, .cat = "counter", .name = strings_add("c", 1),
				  .track = { 1, 0 }, .proc = &proc, .t0 = 6000, .value = 2.5 };
	r.ops->item(r.priv, &it);
	it = (struct scene_item){ .kind = SI_ASYNC, .cat = "roctx", .name = strings_add("x", 1),
				  .track = main, .proc = &proc, .t0 = 7000, .t1 = 8000, .id = 3 };
	r.ops->item(r.priv, &it);
	it = (struct scene_item){ .kind = SI_SLICE, .cat = "step", .name_str = "step 0",
				  .track = tracks_steps(t, &proc), .proc = &proc, .t0 = 1000, .t1 = 60000 };
	r.ops->item(r.priv, &it);
	struct device_info di = { .kind = TPROF_DEVOP_KERNEL, .corr = 7, .launcher = &th1, .launch_ns = 2000 };
	di.op.device = 0;
	di.op.stream = 0x10;
	di.op.dims = (struct tprof_launch_dims){ { 4, 1, 1 }, { 64, 1, 1 }, 0 };
	struct event ev = { .kind = EV_DEVICE, .name = strings_add("k", 1), .proc = &proc, .t0 = 4000,
			    .t1 = 9000, .dev = &di };
	sqlite_facts_event(o, &ev);
	ev = (struct event){ .kind = EV_STEP, .proc = &proc, .t0 = 1000, .t1 = 60000, .step = 0 };
	sqlite_facts_event(o, &ev);
	r.ops->end(r.priv, &tr, t);
	tracks_free(t);
	sqlite_finish(o, &tr, 0);
	ok(!o->db.failed, "processes, strings, links, indexes and views are written");
	ok(sqldb_close(&o->db, 1) == 0, "the database is closed and put in place");
	jw_close(&o->args);
	free(o->tv);
	hindex_free(&o->tv_by_track);
	free(o->thread_base);
	free(o->path);
	free(o->dir);
	free(o);
}

static void test_rows(const char *path)
{
	ok(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK, "it opens read-only");
	is_u64(q("SELECT COUNT(*) FROM slices"), 4, "4 slices");
	ok(!strcmp(qs("SELECT group_concat(kind || ':' || IFNULL(name, '-'), ',') FROM (SELECT * FROM "
		      "tracks ORDER BY id)"),
		   "thread:main,device:GPU 0 stream 1,thread:w,counters:counters,steps:steps"),
	   "tracks: kinds and names as Chrome's (%s)", qs("SELECT group_concat(kind || ':' || "
							 "IFNULL(name, '-'), ',') FROM tracks"));
	ok(!strcmp(qs("SELECT stream || ' ' || device || ' ' || number FROM tracks WHERE kind = 'device'"),
		   "0x10 0 1"), "the device track's stream, device and number");
	ok(q("SELECT t.tid FROM tracks k JOIN threads t ON t.id = k.thread_id WHERE k.name = 'main'") == 500,
	   "a thread track's thread");
	ok(!strcmp(qs("SELECT name || ' ' || category || ' ' || depth || ' ' || correlation || ' ' || args "
		      "FROM named_slices WHERE name = 'hipLaunchKernel'"),
		   "hipLaunchKernel hip 1 7 {\"correlation\":7,\"stream\":\"0x10\"}"),
	   "a call's name, category, depth, correlation and args");
	ok(q("SELECT COUNT(*) FROM named_slices WHERE name = 'step 0' AND track_kind = 'steps'") == 1,
	   "a slice named by a string of its own, on the steps track");
	ok(q("SELECT launch_slice_id FROM device_ops") ==
		   q("SELECT id FROM slices WHERE name_id = (SELECT id FROM strings WHERE string = 'hipLaunchKernel')"),
	   "the kernel's launching call is the call, not the device span with its correlation");
	ok(!strcmp(qs("SELECT kind || ' ' || device_kind || ' ' || stream || ' ' || grid_x || ' ' || block_x "
		      "|| ' ' || launch_ns || ' ' || launched_by FROM named_device_ops"),
		   "kernel gpu 0x10 4 64 2000 hipLaunchKernel"), "the kernel's facts");
	ok(q("SELECT from_slice_id FROM flows") == q("SELECT id FROM slices WHERE depth = 1") &&
		   q("SELECT to_slice_id FROM flows") ==
			   q("SELECT id FROM named_slices WHERE category = 'kernel'"),
	   "the flow starts in the innermost slice (the call, not the range) and ends in the span");
	ok(q("SELECT COUNT(*) FROM instants") == 1 && q("SELECT value * 10 FROM counters") == 25 &&
		   q("SELECT async_id FROM async_slices") == 3 && q("SELECT COUNT(*) FROM steps") == 1,
	   "an instant, a counter sample, an async range, a step");
	ok(!strcmp(qs("SELECT host || ' ' || pid || ' ' || IFNULL(rank, '-') || ' ' || instance_id "
		      "|| ' ' || start_ns || ' ' || end_ns FROM processes"),
		   "h0 500 - 0000000000001234 0 99000"), "the process: times from the trace start");
	ok(!strcmp(qs("SELECT group_concat(tid || ':' || name || ':' || IFNULL(first_ns, '-'), ',') FROM "
		      "threads"), "500:main:0,501:w:-"), "its threads (%s)",
	   qs("SELECT group_concat(tid || ':' || name || ':' || IFNULL(first_ns, '-'), ',') FROM threads"));
	ok(q("SELECT stream FROM threads WHERE tid = 501") == 7,
	   "a thread's stream is the id its files gave it, not its index");
	ok(q("SELECT busy_ns FROM device_busy") == 5000 && q("SELECT calls FROM kernel_summary") == 1,
	   "the views answer");
	ok(q("PRAGMA application_id") == SQLDB_APPLICATION_ID, "the application id is tprof's");
	sqlite3_close(db);
}

static void write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	fputs(s, f);
	fclose(f);
}

/* What main.c checks before reading (util/outname.h), for the database's format. */
static int outname_check_sqlite(const char *path)
{
	return outname_check(path, &sqlite_format);
}

static void test_replace(const char *mine)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/none.db", dir);
	ok(outname_check_sqlite(p) == 0, "a new file may be written");
	ok(outname_check_sqlite(mine) == 0, "a database tprof wrote may be replaced");
	snprintf(p, sizeof(p), "%s/empty.db", dir);
	write_file(p, "");
	ok(outname_check_sqlite(p) == 0, "an empty file may be replaced");
	snprintf(p, sizeof(p), "%s/text.db", dir);
	write_file(p, "SQLite format 3 but not really");
	ok(outname_check_sqlite(p) < 0, "a file that is not a database may not");
	snprintf(p, sizeof(p), "%s/other.db", dir);
	sqlite3 *o;
	sqlite3_open(p, &o);
	sqlite3_exec(o, "CREATE TABLE t (x)", NULL, NULL, NULL);
	sqlite3_close(o);
	ok(outname_check_sqlite(p) < 0, "another program's database may not");
	ok(outname_check_sqlite(dir) < 0, "a directory may not");
	snprintf(p, sizeof(p), "%s/missing/x.db", dir);
	ok(outname_check_sqlite(p) == 0, "a file in a directory that does not exist may (it is made)");
	snprintf(p, sizeof(p), "%s/text.db/y.db", dir);
	ok(outname_check_sqlite(p) < 0, "a file under a file may not");
	/* a run that fails leaves the earlier file as it was, and no temporary file */
	struct sqldb d;
	ok(sqldb_open(&d, mine, &sqlite_format) == 0, "a second database is begun over the first");
	sqldb_exec(&d, "INSERT INTO meta VALUES ('x', 1)");
	ok(sqldb_close(&d, 0) < 0, "it is abandoned");
	sqlite3_open_v2(mine, &db, SQLITE_OPEN_READONLY, NULL);
	ok(q("SELECT COUNT(*) FROM slices") == 4 && q("SELECT COUNT(*) FROM meta WHERE key = 'x'") == 0,
	   "the first database is unchanged");
	sqlite3_close(db);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "ls %s | grep -q tprof-tmp-", dir);
	ok(system(cmd) != 0, "no temporary file is left");
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	test_args();
	make_trace();
	char path[512];
	snprintf(path, sizeof(path), "%s/t.db", dir);
	write_db(path);
	test_rows(path);
	test_replace(path);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}

/* test-chrome-read.c — the Chrome JSON import reader on files written by hand, parsing on the
 * caller's thread and then on a thread of its own (opts.thread): both forms, gzip, every
 * phase, strings, exact numbers, ids, metadata, every block size, and damage of every kind
 * (what is said, at which offset, and that nothing else is lost). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../analyze/import/chrome-read.h"
#include "../../analyze/import/chrome-text.h"
#include "tap.h"

#define MAXEV 64

/* What a test keeps of each event (the reader's pointers die with the callback). */
struct got {
	char ph;
	char name[64], cat[32], id[48], pid_str[32], tid_str[32], id_scope[16];
	int has_ts, has_dur, has_pid, pid_is_str, tid_is_str, id_kind, nargs;
	int64_t ts, dur, pid, tid;
	char bp, scope;
	uint64_t offset;
	int meta_schema, meta_base;     /* what the meta held when the event came */
};

struct run {
	struct got ev[MAXEV];
	int n, stop_after;
	struct chrome_meta *meta;
	char msgs[4096];                /* every message, one a line: "W|E offset text" */
	int nwarn, nerr;
};

/* ok(), and on failure the messages the reader gave, as diagnostics. */
#define okm(r, cond, ...)                                                       \
	do {                                                                    \
		int okm_ = !!(cond);                                            \
		ok(okm_, __VA_ARGS__);                                          \
		if (!okm_)                                                      \
			show_msgs(r);                                           \
	} while (0)

static char dir[256];
static int threaded;            /* the pass with opts.thread */
static int file_no;

static void show_msgs(const struct run *r)
{
	const char *p = r->msgs;
	while (*p) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		printf("#   %.*s\n", n, p);
		p += n + (nl != NULL);
	}
}

static void copy(char *to, size_t n, const char *s)
{
	snprintf(to, n, "%s", s ? s : "");
}

static int each(void *ctx, const struct chrome_event *ev)
{
	struct run *r = ctx;
	if (r->n < MAXEV) {
		struct got *g = &r->ev[r->n];
		memset(g, 0, sizeof(*g));
		g->ph = ev->ph;
		copy(g->name, sizeof(g->name), ev->name);
		copy(g->cat, sizeof(g->cat), ev->cat);
		copy(g->id, sizeof(g->id), ev->id);
		copy(g->id_scope, sizeof(g->id_scope), ev->id_scope);
		g->id_kind = ev->id_kind;
		g->has_ts = ev->has_ts;
		g->has_dur = ev->has_dur;
		g->ts = ev->ts_ns;
		g->dur = ev->dur_ns;
		g->has_pid = ev->pid.present;
		g->pid_is_str = ev->pid.is_str;
		g->tid_is_str = ev->tid.is_str;
		g->pid = ev->pid.num;
		g->tid = ev->tid.num;
		copy(g->pid_str, sizeof(g->pid_str), ev->pid.str);
		copy(g->tid_str, sizeof(g->tid_str), ev->tid.str);
		g->bp = ev->bp;
		g->scope = ev->scope;
		g->offset = ev->offset;
		g->nargs = ev->args ? cJSON_GetArraySize(ev->args) : -1;
		g->meta_schema = r->meta->schema_version != NULL;
		g->meta_base = r->meta->has_base_time;
	}
	r->n++;
	return r->stop_after && r->n == r->stop_after;
}

static void report(void *ctx, int is_error, const char *path, uint64_t offset, const char *text)
{
	struct run *r = ctx;
	size_t len = strlen(r->msgs);
	if (offset == CHROME_NO_OFFSET)
		snprintf(r->msgs + len, sizeof(r->msgs) - len, "%c - %s\n", is_error ? 'E' : 'W', text);
	else
		snprintf(r->msgs + len, sizeof(r->msgs) - len, "%c %llu %s\n", is_error ? 'E' : 'W',
			 (unsigned long long)offset, text);
	if (is_error)
		r->nerr++;
	else
		r->nwarn++;
	(void)path;
}

/* Writes text (len bytes; -1: strlen) to a new file, gzip-compressed when gz. */
static const char *put_file(const char *text, long len, int gz)
{
	static char path[300];
	size_t n = len < 0 ? strlen(text) : (size_t)len;
	snprintf(path, sizeof(path), "%s/f%d.json", dir, file_no++);
	if (gz) {
		gzFile f = gzopen(path, "wb");
		gzwrite(f, text, (unsigned)n);
		gzclose(f);
	} else {
		FILE *f = fopen(path, "wb");
		fwrite(text, 1, n, f);
		fclose(f);
	}
	return path;
}

static int read_with(const char *path, const struct chrome_read_opts *base, struct run *r,
		     struct chrome_meta *m)
{
	struct chrome_read_opts o = base ? *base : (struct chrome_read_opts){ 0 };
	o.thread = threaded;
	o.report = report;
	o.report_ctx = r;
	r->meta = m;
	return chrome_read(path, &o, each, r, m);
}

/* Reads text (as a file); the result of chrome_read. */
static int read_text(const char *text, int gz, const struct chrome_read_opts *o, struct run *r,
		     struct chrome_meta *m)
{
	memset(r, 0, sizeof(*r));
	return read_with(put_file(text, -1, gz), o, r, m);
}

/* One event of every phase, each naming its phase; strings that look like structure. */
#define ALL_PHASES                                                                                 \
	"{\"ph\":\"X\",\"name\":\"X\",\"cat\":\"cpu_op\",\"pid\":1,\"tid\":2,\"ts\":10,"           \
	"\"dur\":5,\"args\":{\"a\":1,\"b\":\"}]\"}},\n"                                            \
	"{\"ph\":\"B\",\"name\":\"B\",\"pid\":1,\"tid\":2,\"ts\":11},\n"                           \
	"{\"ph\":\"E\",\"name\":\"E\",\"pid\":1,\"tid\":2,\"ts\":12},\n"                           \
	"{\"ph\":\"i\",\"name\":\"i\",\"pid\":1,\"tid\":2,\"ts\":13,\"s\":\"t\"},\n"               \
	"{\"ph\":\"I\",\"name\":\"I\",\"pid\":1,\"tid\":2,\"ts\":14,\"s\":\"g\"},\n"               \
	"{\"ph\":\"R\",\"name\":\"R\",\"pid\":1,\"tid\":2,\"ts\":15},\n"                           \
	"{\"ph\":\"C\",\"name\":\"C\",\"pid\":1,\"ts\":16,\"args\":{\"x\":1,\"y\":2.5,"            \
	"\"z\":-3}},\n"                                                                            \
	"{\"ph\":\"b\",\"name\":\"b\",\"cat\":\"a\",\"id\":\"0x1f\",\"pid\":1,\"tid\":2,"          \
	"\"ts\":17},\n"                                                                            \
	"{\"ph\":\"e\",\"name\":\"e\",\"cat\":\"a\",\"id\":\"0x1f\",\"pid\":1,\"tid\":2,"          \
	"\"ts\":19},\n"                                                                            \
	"{\"ph\":\"n\",\"name\":\"n\",\"cat\":\"a\",\"id\":\"0x1f\",\"pid\":1,\"tid\":2,"          \
	"\"ts\":18},\n"                                                                            \
	"{\"ph\":\"s\",\"name\":\"s\",\"cat\":\"ac2g\",\"id\":77,\"pid\":1,\"tid\":2,\"ts\":20},"  \
	"\n"                                                                                       \
	"{\"ph\":\"t\",\"name\":\"t\",\"cat\":\"ac2g\",\"id\":77,\"pid\":1,\"tid\":3,\"ts\":21},"  \
	"\n"                                                                                       \
	"{\"ph\":\"f\",\"name\":\"f\",\"cat\":\"ac2g\",\"id\":77,\"pid\":0,\"tid\":\"stream 7\","  \
	"\"ts\":22,\"bp\":\"e\"},\n"                                                               \
	"{\"ph\":\"M\",\"name\":\"M\",\"pid\":1,\"tid\":2,\"args\":{\"name\":\"python3\"}},\n"     \
	"{\"ph\":\"O\",\"name\":\"O\",\"id\":\"0x100\",\"pid\":1,\"ts\":23,"                       \
	"\"args\":{\"snapshot\":{}}},\n"                                                           \
	"{\"ph\":\"N\",\"name\":\"N\",\"id\":\"0x100\",\"pid\":1,\"ts\":24},\n"                    \
	"{\"ph\":\"D\",\"name\":\"D\",\"id\":\"0x100\",\"pid\":1,\"ts\":25},\n"                    \
	"{\"ph\":\"P\",\"name\":\"P\",\"pid\":1,\"tid\":2,\"ts\":26,\"sf\":3}"
#define PHASES "XBEiIRCbenstfMONDP"

static int all_phases_ok(const struct run *r, const char *what)
{
	int good = r->n == 18;
	for (int i = 0; good && i < 18; i++)
		good = r->ev[i].ph == PHASES[i] && r->ev[i].name[0] == PHASES[i] && !r->ev[i].name[1];
	ok(good, "%s: 18 events, one of each phase, in order (%d)", what, r->n);
	return good;
}

static void test_forms(void)
{
	struct run r;
	struct chrome_meta m;

	int rc = read_text("{\"traceEvents\": [\n" ALL_PHASES "\n]}\n", 0, NULL, &r, &m);
	okm(&r, rc == 0 && !r.nwarn && !r.nerr, "object form: read, no message (%d)", rc);
	all_phases_ok(&r, "object form");
	ok(m.form == CHROME_FORM_OBJECT && m.events == 18 && m.skipped == 0,
	   "object form: the meta says so");
	ok(r.ev[0].has_dur && r.ev[0].dur == 5000 && r.ev[0].ts == 10000 && r.ev[0].nargs == 2 &&
	   !strcmp(r.ev[0].cat, "cpu_op") && r.ev[0].pid == 1 && r.ev[0].tid == 2,
	   "X: cat, pid, tid, ts, dur and args");
	ok(!r.ev[1].has_dur && r.ev[13].has_pid && !r.ev[13].has_ts, "B has no dur, M no ts");
	ok(r.ev[3].scope == 't' && r.ev[4].scope == 'g' && r.ev[0].scope == 0, "instant scopes");
	ok(r.ev[12].bp == 'e' && r.ev[10].bp == 0, "a flow end's binding point");
	ok(r.ev[12].tid_is_str && !strcmp(r.ev[12].tid_str, "stream 7") && !r.ev[12].pid_is_str &&
	   r.ev[12].pid == 0, "a string tid, pid 0");
	chrome_meta_free(&m);

	rc = read_text("[\n" ALL_PHASES "\n]\n", 0, NULL, &r, &m);
	ok(rc == 0 && !r.nwarn && m.form == CHROME_FORM_ARRAY, "array form: read, no message");
	all_phases_ok(&r, "array form");
	chrome_meta_free(&m);

	rc = read_text("{\"traceEvents\": [\n" ALL_PHASES "\n]}\n", 1, NULL, &r, &m);
	ok(rc == 0 && !r.nwarn && m.bytes > 1000, "gzip (by its magic, named .json): read");
	all_phases_ok(&r, "gzip");
	chrome_meta_free(&m);

	rc = read_text("\xef\xbb\xbf [" ALL_PHASES "]", 1, NULL, &r, &m);
	ok(rc == 0 && !r.nwarn, "a UTF-8 byte order mark first: read");
	all_phases_ok(&r, "byte order mark");
	chrome_meta_free(&m);
}

/* Every block size from 1 byte: each boundary falls everywhere, in strings and escapes too. */
static void test_blocks(void)
{
	const char *text = "{\"otherData\": {\"a\": \"}\\\\\\\"{\"}, \"traceEvents\": [\n"
		ALL_PHASES ",{\"ph\":\"X\",\"name\":\"\\\\\\\"}{\\\\\",\"ts\":1.5}\n], "
		"\"traceName\": \"t\\\"n\"}";
	const char *path = put_file(text, -1, 0);
	int bad = 0;
	for (size_t b = 1; b <= 80; b++) {
		struct run r;
		struct chrome_meta m;
		struct chrome_read_opts o = { .block = b };
		memset(&r, 0, sizeof(r));
		int rc = read_with(path, &o, &r, &m);
		if (rc || r.n != 19 || r.nwarn || strcmp(r.ev[18].name, "\\\"}{\\") ||
		    r.ev[18].ts != 1500 || !m.trace_name || strcmp(m.trace_name, "t\"n")) {
			if (!bad)
				printf("# block %zu: rc %d, %d events, messages:\n%s", b, rc, r.n, r.msgs);
			bad++;
		}
		chrome_meta_free(&m);
	}
	ok(!bad, "blocks of 1 to 80 bytes: the same events and meta (%d sizes wrong)", bad);
}

static void test_strings(void)
{
	struct run r;
	struct chrome_meta m;
	int rc = read_text("[{\"ph\":\"X\",\"name\":\"a{b}[c]\\\"d\\\\e\\u0041\",\"ts\":1},"
			   "{\"ph\":\"X\",\"name\":\"caf\\u00e9 \xe2\x9c\x93 \\ud83d\\ude00\",\"ts\":2},"
			   "{\"ph\":\"X\",\"name\":\"tab\\tnl\\n/\\/\",\"cat\":\"\",\"ts\":3,"
			   "\"args\":{\"a\":{\"b\":[1,{\"c\":\"}\"}]},\"d\":[[],{}],\"e\":null}}]",
			   0, NULL, &r, &m);
	ok(rc == 0 && r.n == 3, "strings: three events");
	ok(!strcmp(r.ev[0].name, "a{b}[c]\"d\\eA"), "braces, brackets, \\\" \\\\ \\u0041: %s",
	   r.ev[0].name);
	ok(!strcmp(r.ev[1].name, "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80"),
	   "\\u00e9, raw UTF-8, a surrogate pair");
	ok(!strcmp(r.ev[2].name, "tab\tnl\n//") && r.ev[2].cat[0] == 0 && r.ev[2].nargs == 3,
	   "\\t \\n \\/, an empty cat, nested args");
	chrome_meta_free(&m);
}

/* Nested args through the cJSON tree the callback sees; the members not read into fields
 * ("tts") in ev->obj, those read ("ts") not. */
static int nested_each(void *ctx, const struct chrome_event *ev)
{
	const cJSON *a = cJSON_GetObjectItem(ev->args, "a");
	const cJSON *c = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(a, "b"), 1), "c");
	const cJSON *big = cJSON_GetObjectItem(ev->args, "big");
	*(int *)ctx = cJSON_IsString(c) && !strcmp(c->valuestring, "}") && cJSON_IsNumber(big) &&
		      big->valuedouble == 1.5e300 &&
		      cJSON_IsTrue(cJSON_GetObjectItem(ev->args, "t")) &&
		      cJSON_IsNumber(cJSON_GetObjectItem(ev->obj, "tts")) &&
		      cJSON_GetObjectItem(ev->obj, "tts")->valuedouble == 1700000000123456.789 &&
		      !cJSON_GetObjectItem(ev->obj, "ts") && ev->ts_ns == 1700000000123456789;
	return 0;
}

static void test_nested(void)
{
	int good = 0;
	const char *path = put_file("[{\"ph\":\"X\",\"ts\":1700000000123456.789,"
				    "\"tts\":1700000000123456.789,\"args\":{\"a\":{\"b\":"
				    "[1,{\"c\":\"}\"}]},\"big\":1.5e300,\"t\":true}}]", -1, 0);
	int rc = chrome_read(path, &(struct chrome_read_opts){ .thread = threaded }, nested_each,
			     &good, NULL);
	ok(rc == 0 && good, "nested args, numbers and literals as cJSON values");
}

struct num_case {
	const char *text;
	int ok;
	int64_t ns;
};

static void test_numbers(void)
{
	static const struct num_case cases[] = {
		{ "1700000000123456.789", 1, 1700000000123456789 },
		{ "1e3", 1, 1000000 },
		{ "1E+3", 1, 1000000 },
		{ "-5.5", 1, -5500 },
		{ "0.0004", 1, 0 },
		{ "0.0005", 1, 1 },
		{ "-0.0005", 1, -1 },
		{ "0.0015", 1, 2 },
		{ "1.5e-3", 1, 2 },
		{ "12.3456", 1, 12346 },
		{ "12.34549999", 1, 12345 },
		{ "0", 1, 0 },
		{ "-0.0", 1, 0 },
		{ "0.000000000000000000000000001", 1, 0 },
		{ "9223372036854775.807", 1, INT64_MAX },
		{ "9223372036854775.808", 0, 0 },
		{ "-9223372036854775.808", 1, INT64_MIN },
		{ "92233720368547758070e-4", 1, INT64_MAX },
		{ "1700000000123456789000000e-9", 1, 1700000000123456789 },
		{ "1.7000000001234567890004e15", 1, 1700000000123456789 },
		{ "1e400", 0, 0 },
		{ "0e400", 1, 0 },
		{ "", 0, 0 },
		{ "-", 0, 0 },
		{ "1.", 0, 0 },
		{ "1e", 0, 0 },
		{ "12a", 0, 0 },
	};
	int bad = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 0;
		int rc = chrome_text_decimal(cases[i].text, strlen(cases[i].text), 3, &v);
		if ((rc == 0) != cases[i].ok || (rc == 0 && v != cases[i].ns)) {
			printf("# \"%s\": rc %d, %lld\n", cases[i].text, rc, (long long)v);
			bad++;
		}
	}
	ok(!bad, "decimal µs text to exact ns: %zu cases (%d wrong)",
	   sizeof(cases) / sizeof(cases[0]), bad);

	struct run r;
	struct chrome_meta m;
	int rc = read_text("[{\"ph\":\"X\",\"ts\":1700000000123456.789,\"dur\":0.0004},"
			   "{\"ph\":\"X\",\"ts\":1e3,\"dur\":-5.5},"
			   "{\"ph\":\"X\",\"ts\":\"1700000000123456.7891\",\"dur\":\"2\"},"
			   "{\"ph\":\"X\",\"ts\" : 1.0E-3 ,\"dur\":0.0005},"
			   "{\"ph\":\"X\",\"t\\u0073\":12.5,\"dur\":null}]", 0, NULL, &r, &m);
	ok(rc == 0 && r.n == 5, "number events read");
	ok(r.ev[0].ts == 1700000000123456789 && r.ev[0].has_dur && r.ev[0].dur == 0,
	   "ts 1700000000123456.789 is 1700000000123456789 ns (%lld); dur 0.0004 rounds to 0",
	   (long long)r.ev[0].ts);
	ok(r.ev[1].ts == 1000000 && r.ev[1].dur == -5500, "1e3 and -5.5");
	ok(r.ev[2].ts == 1700000000123456789 && r.ev[2].dur == 2000, "times given as strings");
	ok(r.ev[3].ts == 1 && r.ev[3].dur == 1, "white space around, 1.0E-3, 0.0005 rounds up");
	ok(r.ev[4].has_ts && r.ev[4].ts == 12500 && !r.ev[4].has_dur,
	   "a key written with escapes, a null dur (absent)");
	chrome_meta_free(&m);
}

static void test_ids(void)
{
	struct run r;
	struct chrome_meta m;
	int rc = read_text("[{\"ph\":\"b\",\"id\":12345678901234567890},"
			   "{\"ph\":\"b\",\"id\":\"0x1f\",\"scope\":\"mine\"},"
			   "{\"ph\":\"b\",\"id2\":{\"local\":\"0x2a\"}},"
			   "{\"ph\":\"b\",\"id2\":{\"global\":18446744073709551615}},"
			   "{\"ph\":\"b\",\"id\":-7},"
			   "{\"ph\":\"X\"},"
			   "{\"ph\":\"X\",\"pid\":\"CPU functions\",\"tid\":9007199254740993},"
			   "{\"ph\":\"X\",\"pid\":-9223372036854775808,\"tid\":12.0}]", 0, NULL, &r, &m);
	ok(rc == 0 && r.n == 8, "id events read");
	ok(r.ev[0].id_kind == CHROME_ID_PLAIN && !strcmp(r.ev[0].id, "12345678901234567890"),
	   "a numeric id keeps its digits: %s", r.ev[0].id);
	ok(!strcmp(r.ev[1].id, "0x1f") && !strcmp(r.ev[1].id_scope, "mine"), "a string id, a scope");
	ok(r.ev[2].id_kind == CHROME_ID_LOCAL && !strcmp(r.ev[2].id, "0x2a"), "id2 local");
	ok(r.ev[3].id_kind == CHROME_ID_GLOBAL && !strcmp(r.ev[3].id, "18446744073709551615"),
	   "id2 global, a number: %s", r.ev[3].id);
	ok(!strcmp(r.ev[4].id, "-7") && r.ev[5].id_kind == CHROME_ID_NONE && !r.ev[5].id[0],
	   "a negative id; none");
	ok(r.ev[6].pid_is_str && !strcmp(r.ev[6].pid_str, "CPU functions") &&
	   r.ev[6].tid == 9007199254740993, "a string pid; a tid past 2^53 exact (%lld)",
	   (long long)r.ev[6].tid);
	ok(r.ev[7].pid == INT64_MIN && r.ev[7].tid == 12 && !r.ev[5].has_pid,
	   "the smallest pid; 12.0; no pid");
	chrome_meta_free(&m);
}

/* A key given more than once: the first member that is not null counts, whatever its type. */
static void test_repeated(void)
{
	struct run r;
	struct chrome_meta m;
	int rc = read_text("[{\"ph\":null,\"ph\":\"X\",\"name\":null,\"name\":\"b\",\"name\":\"c\","
			   "\"ts\":null,\"ts\":5,\"ts\":6,\"tid\":3,\"tid\":\"t\"},"
			   "{\"ph\":\"i\",\"name\":5,\"name\":\"b\",\"s\":\"x\",\"s\":\"g\","
			   "\"id\":null,\"id2\":{\"local\":1}}]", 0, NULL, &r, &m);
	ok(rc == 0 && r.n == 2 && r.ev[0].ph == 'X' && !strcmp(r.ev[0].name, "b") &&
	   r.ev[0].ts == 5000 && r.ev[0].tid == 3 && !r.ev[0].tid_is_str,
	   "nulls pass over, then the first counts: %s at %lld", r.ev[0].name,
	   (long long)r.ev[0].ts);
	ok(r.ev[1].ph == 'i' && !r.ev[1].name[0] && !r.ev[1].scope &&
	   r.ev[1].id_kind == CHROME_ID_LOCAL && !strcmp(r.ev[1].id, "1"),
	   "a first of another type: no name, no scope; a null id leaves id2");
	chrome_meta_free(&m);
}

static void test_meta(void)
{
	struct run r;
	struct chrome_meta m;
	int rc = read_text("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\":0},{\"id\":1}],\n"
			   " \"distributedInfo\": {\"backend\":\"nccl\",\"rank\":3,\"world_size\":8},\n"
			   " \"displayTimeUnit\": \"ns\", \"tprof\": {\"host\":\"h1\",\"pid\":42},\n"
			   " \"otherData\": {\"x\": [\"]\", \"}\"]}, \"flag\": true, \"n\": -1.5e3,\n"
			   " \"traceEvents\": [{\"ph\":\"X\",\"ts\":2.5}],\n"
			   " \"traceName\": \"x.pt.trace.json\",\n"
			   " \"baseTimeNanoseconds\": 1700000000123456789}", 0, NULL, &r, &m);
	okm(&r, rc == 0 && r.n == 1 && !r.nwarn, "keys before and after traceEvents: read");
	ok(m.has_base_time && m.base_time_ns == 1700000000123456789,
	   "baseTimeNanoseconds exact: %lld", (long long)m.base_time_ns);
	ok(m.has_dist && m.rank == 3 && m.world_size == 8 && !strcmp(m.backend, "nccl"),
	   "distributedInfo");
	ok(m.device_count == 2 && cJSON_IsArray(m.device_properties), "deviceProperties");
	ok(!strcmp(m.display_time_unit, "ns") && r.ev[0].ts == 2500,
	   "displayTimeUnit kept, ts still µs");
	ok(!strcmp(m.trace_name, "x.pt.trace.json") && !strcmp(m.schema_version, "1"),
	   "traceName, schemaVersion");
	ok(m.tprof && !strcmp(cJSON_GetObjectItem(m.tprof, "host")->valuestring, "h1"),
	   "the tprof object");
	ok(r.ev[0].meta_schema && !r.ev[0].meta_base,
	   "during the events: what came before them, not what comes after");
	chrome_meta_free(&m);

	rc = read_text("{\"traceEvents\": [], \"distributedInfo\": 3, \"traceName\": 7}", 0, NULL,
		       &r, &m);
	okm(&r, rc == 0 && r.nwarn == 2 && !m.has_dist && !m.trace_name && strstr(r.msgs, "W 39 ") &&
	    strstr(r.msgs, "\"distributedInfo\" is not an object"),
	    "members of the wrong type: a warning each, with the offset");
	chrome_meta_free(&m);
}

static void test_ends(void)
{
	struct run r;
	struct chrome_meta m;
	int rc = read_text("[{\"ph\":\"X\"},\n{\"ph\":\"B\"}\n", 0, NULL, &r, &m);
	ok(rc == 0 && r.n == 2 && !r.nwarn && !r.nerr, "an array without ']': read, nothing said");
	chrome_meta_free(&m);
	rc = read_text("[{\"ph\":\"X\"},\n{\"ph\":\"B\"},\n", 0, NULL, &r, &m);
	ok(rc == 0 && r.n == 2 && !r.nwarn && !r.nerr, "... nor after a last ','");
	chrome_meta_free(&m);
	rc = read_text("[{\"ph\":\"X\"},{\"ph\":\"B\"},]", 0, NULL, &r, &m);
	ok(rc == 0 && r.n == 2 && !r.nwarn, "a ',' before ']'");
	chrome_meta_free(&m);

	const char *cut = "[{\"ph\":\"X\"},\n{\"ph\":\"B\"},\n{\"ph\":\"E\",\"name\":\"a{";
	rc = read_text(cut, 0, NULL, &r, &m);
	okm(&r, rc == -1 && r.n == 2 && r.nerr == 1 && strstr(r.msgs, "E 25 ") &&
	    strstr(r.msgs, "ends inside the event"),
	    "an event cut in the middle: an error at its offset, the two before read");
	chrome_meta_free(&m);
	rc = read_text(cut, 1, NULL, &r, &m);
	ok(rc == -1 && r.n == 2 && strstr(r.msgs, "E 25 "), "... gzip too");
	chrome_meta_free(&m);

	rc = read_text("{\"traceEvents\": [{\"ph\":\"X\"},\n{\"ph\":\"B\"}", 0, NULL, &r, &m);
	okm(&r, rc == 0 && r.n == 2 && r.nwarn == 1 && strstr(r.msgs, "W 39 ") &&
	    strstr(r.msgs, "ends inside traceEvents"),
	    "an object cut between events: a warning, every event read");
	chrome_meta_free(&m);
	rc = read_text("{\"traceEvents\": [{\"ph\":\"X\"}], \"traceName\": \"ab", 0, NULL, &r, &m);
	okm(&r, rc == 0 && r.n == 1 && r.nwarn == 1 && strstr(r.msgs, "inside a top-level member"),
	    "an object cut in a member after the events: a warning");
	chrome_meta_free(&m);
	rc = read_text("[{\"ph\":\"X\"}] {}", 0, NULL, &r, &m);
	okm(&r, rc == 0 && r.n == 1 && r.nwarn == 1 && strstr(r.msgs, "W 13 '{' after the end"),
	    "data after the JSON: a warning");
	chrome_meta_free(&m);
}

static void test_damage(void)
{
	struct run r;
	struct chrome_meta m;
	int rc = read_text("[{\"ph\":\"X\",\"name\":\"a\"},\n{\"ph\":\"X\",\"ts\":12x},\n"
			   "{\"ph\":\"X\",\"name\":\"c\"},{\"ph\":\"X\",\"ts\":true},{\"ph\":\"X\","
			   "\"pid\":[1]},{\"ph\":\"X\",\"ts\":1e300},{\"ph\":\"X\",\"name\":\"d\"}]",
			   0, NULL, &r, &m);
	ok(rc == 0 && r.n == 3 && !strcmp(r.ev[1].name, "c") && !strcmp(r.ev[2].name, "d") &&
	   m.skipped == 4 && m.events == 3, "damaged events skipped, the others read (%d)", r.n);
	okm(&r, strstr(r.msgs, "W 24 event skipped: bad JSON at offset 41") &&
	    strstr(r.msgs, "its ts is a boolean") && strstr(r.msgs, "its pid is an array") &&
	    strstr(r.msgs, "its ts is out of range"),
	    "each named with its offset and what is wrong");
	chrome_meta_free(&m);

	/* NaN and Infinity, which Python's json module writes: fine in args, not as a time. */
	rc = read_text("[{\"ph\":\"C\",\"ts\":1,\"args\":{\"v\":NaN,\"w\":-Infinity}},"
		       "{\"ph\":\"X\",\"ts\":Infinity}]", 0, NULL, &r, &m);
	okm(&r, rc == 0 && r.n == 1 && r.ev[0].nargs == 2 && m.skipped == 1 &&
	    strstr(r.msgs, "W 50 event skipped: its ts is out of range"),
	    "NaN and -Infinity in args are read; a ts of Infinity is skipped");
	chrome_meta_free(&m);

	/* Many: the first few named, then a count. */
	char many[2048] = "[";
	for (int i = 0; i < 15; i++)
		strcat(many, "{\"ph\":\"X\",\"ts\":-},");
	strcat(many, "{\"ph\":\"X\"}]");
	struct chrome_read_opts o = { .max_warnings = 3 };
	rc = read_text(many, 0, &o, &r, &m);
	okm(&r, rc == 0 && r.n == 1 && r.nwarn == 4 && m.skipped == 15 &&
	    strstr(r.msgs, "W - 12 more events skipped"),
	    "15 damaged: 3 named, then a count");
	chrome_meta_free(&m);

	rc = read_text("[{\"ph\":\"X\"} xx {\"ph\":\"X\"}]", 0, NULL, &r, &m);
	okm(&r, rc == -1 && r.n == 1 &&
	    strstr(r.msgs, "E 12 expected ',' or ']' after an event, found 'x'"),
	    "bytes between events: an error at their offset");
	chrome_meta_free(&m);
	rc = read_text("[{\"ph\":\"X\"}, 5]", 0, NULL, &r, &m);
	okm(&r, rc == -1 && r.n == 1 && strstr(r.msgs, "E 13 expected an event object"),
	    "an element that is not an object");
	chrome_meta_free(&m);
}

static void test_not_traces(void)
{
	struct run r;
	struct chrome_meta m;
	int rc = read_text("hello", 0, NULL, &r, &m);
	okm(&r, rc == -1 && r.n == 0 &&
	    strstr(r.msgs, "E 0 not Chrome trace-event JSON: it starts with 'h'"),
	    "not JSON");
	chrome_meta_free(&m);
	rc = read_text("", 0, NULL, &r, &m);
	okm(&r, rc == -1 && strstr(r.msgs, "the file is empty"), "an empty file");
	chrome_meta_free(&m);
	rc = read_text(" \n\t ", 1, NULL, &r, &m);
	okm(&r, rc == -1 && strstr(r.msgs, "the file is empty"), "white space only, gzip");
	chrome_meta_free(&m);
	rc = read_text("{\"foo\": [1, 2]}", 0, NULL, &r, &m);
	okm(&r, rc == -1 && strstr(r.msgs, "no \"traceEvents\""), "an object without traceEvents");
	chrome_meta_free(&m);
	rc = read_text("{\"traceEvents\": {}}", 0, NULL, &r, &m);
	ok(rc == -1 && strstr(r.msgs, "traceEvents is not an array"), "traceEvents not an array");
	chrome_meta_free(&m);

	memset(&r, 0, sizeof(r));
	char path[300];
	snprintf(path, sizeof(path), "%s/missing.json", dir);
	rc = read_with(path, NULL, &r, &m);
	okm(&r, rc == -1 && r.nerr == 1 && strstr(r.msgs, "E - cannot open: No such file"),
	    "a missing file");
	chrome_meta_free(&m);
	memset(&r, 0, sizeof(r));
	rc = read_with(dir, NULL, &r, &m);
	okm(&r, rc == -1 && r.nerr == 1 && strstr(r.msgs, "Is a directory"), "a directory");
	chrome_meta_free(&m);
}

static void test_gzip_damage(void)
{
	/* A stream cut short, and one with a byte changed in its middle. */
	char text[40000] = "[";
	for (int i = 0; i < 400; i++) {
		char e[96];
		snprintf(e, sizeof(e), "{\"ph\":\"X\",\"name\":\"event %d %x\",\"ts\":%d.%03d},\n", i,
			 i * 2654435761u, i * 7, i % 1000);
		strcat(text, e);
	}
	strcat(text, "{\"ph\":\"E\"}]");
	const char *path = put_file(text, -1, 1);
	FILE *f = fopen(path, "rb");
	static char gz[40000];
	size_t n = fread(gz, 1, sizeof(gz), f);
	fclose(f);

	struct run r;
	struct chrome_meta m;
	memset(&r, 0, sizeof(r));
	int rc = read_with(put_file(gz, (long)(n * 2 / 3), 0), NULL, &r, &m);
	okm(&r, rc == -1 && r.n > 0 && r.n < 401 && strstr(r.msgs, "the gzip stream is cut short"),
	    "a gzip stream cut short: an error, %d events read before it", r.n);
	chrome_meta_free(&m);

	gz[n / 2] ^= 0x55;
	gz[n / 2 + 1] ^= 0xaa;
	memset(&r, 0, sizeof(r));
	rc = read_with(put_file(gz, (long)n, 0), NULL, &r, &m);
	okm(&r, rc == -1 && r.n < 401 && r.nerr == 1 && (strstr(r.msgs, "bad gzip stream") ||
						     strstr(r.msgs, "expected")),
	    "a damaged gzip stream: an error, %d events read before it", r.n);
	chrome_meta_free(&m);
}

static void test_big(void)
{
	/* An event over the bound is skipped (never held); so is a top-level value over it. */
	size_t big = 5000;
	char *text = malloc(3 * big + 200);
	strcpy(text, "{\"otherData\": \"");
	memset(text + strlen(text), 'o', big);
	strcpy(text + 15 + big, "\", \"traceName\": \"");
	size_t at = strlen(text);
	memset(text + at, 'n', big);
	strcpy(text + at + big, "\", \"traceEvents\": [{\"ph\":\"X\"},{\"ph\":\"X\",\"name\":\"");
	at = strlen(text);
	size_t ev_at = at - strlen("{\"ph\":\"X\",\"name\":\"");
	memset(text + at, 'x', big);
	strcpy(text + at + big, "\"},{\"ph\":\"E\"}]}");
	struct run r;
	struct chrome_meta m;
	struct chrome_read_opts o = { .max_event = 1000, .block = 64 };
	int rc = read_text(text, 0, &o, &r, &m);
	char want[64];
	snprintf(want, sizeof(want), "W %zu event skipped: 5020 bytes, more than the 1000", ev_at);
	okm(&r, rc == 0 && r.n == 2 && r.ev[1].ph == 'E' && m.skipped == 1 && strstr(r.msgs, want) &&
	    strstr(r.msgs, "\"traceName\" is larger than 1000 bytes") && !m.trace_name &&
	    r.nwarn == 2, "an event over the bound skipped with its offset, the next read");
	chrome_meta_free(&m);
	free(text);
}

static void test_stop(void)
{
	struct run r;
	struct chrome_meta m;
	memset(&r, 0, sizeof(r));
	r.stop_after = 2;
	int rc = read_with(put_file("[" ALL_PHASES "]", -1, 0), NULL, &r, &m);
	ok(rc == 1 && r.n == 2 && m.events == 2, "the callback stops the read (rc %d)", rc);
	chrome_meta_free(&m);

	/* gzip, inflated blocks ahead on a helper thread: all of it, then a stop early on. */
	size_t cap = 8 << 20, len = 1;
	char *text = malloc(cap);
	text[0] = '[';
	for (int i = 0; i < 60000; i++)
		len += (size_t)snprintf(text + len, cap - len, "%s{\"ph\":\"X\",\"name\":\"e%d\","
					"\"ts\":%d.5,\"args\":{\"pad\":\"%040d\"}}", i ? ",\n" : "",
					i, i, i);
	strcpy(text + len, "]");
	const char *path = put_file(text, -1, 1);
	memset(&r, 0, sizeof(r));
	rc = read_with(path, NULL, &r, &m);
	ok(rc == 0 && r.n == 60000 && m.bytes == len + 1 && !strcmp(r.ev[63].name, "e63"),
	   "gzip over several blocks: every event (%d), every byte", r.n);
	chrome_meta_free(&m);
	memset(&r, 0, sizeof(r));
	r.stop_after = 2;
	rc = read_with(path, NULL, &r, &m);
	ok(rc == 1 && r.n == 2, "... stopped after two: the helper thread stops too");
	chrome_meta_free(&m);
	free(text);
}

static void test_offsets(void)
{
	const char *text = "{\"traceEvents\": [\n" ALL_PHASES "\n]}";
	struct run r;
	struct chrome_meta m;
	int rc = read_text(text, 1, NULL, &r, &m);
	int good = rc == 0 && r.n == 18;
	const char *p = text;
	for (int i = 0; good && i < r.n; i++) {
		p = strstr(p + 1, "{\"ph\"");
		good = p && r.ev[i].offset == (uint64_t)(p - text);
	}
	ok(good, "each event's offset is its '{' in the decompressed input");
	chrome_meta_free(&m);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/tprof-chrome-read.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	/* everything twice: parsed on the caller's thread, then on a thread of its own */
	for (threaded = 0; threaded < 2; threaded++) {
		printf("# parsed on %s\n", threaded ? "a thread of its own" : "the caller's thread");
		test_forms();
		test_blocks();
		test_strings();
		test_nested();
		test_numbers();
		test_ids();
	test_repeated();
		test_meta();
		test_ends();
		test_damage();
		test_not_traces();
		test_gzip_damage();
		test_big();
		test_stop();
		test_offsets();
	}
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		perror("rm");
	return tap_done();
}

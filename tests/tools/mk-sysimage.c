/* mk-sysimage.c — writes system images (docs/FORMAT.md §3.9) and small recorder images from
 * a text description, for the analyzer's tests of the system profile.  One record per line
 * ('#' starts a comment); times (t=, start=, end=, t0=, t1=) are CLOCK_MONOTONIC ns, or with
 * a unit (us, ms, s); numbers may be hex (0x...).
 *
 *   image system host=H pid=N [start=T end=T ncpu= mem_total= sample_hz= counter_hz=
 *         target= sampler=bpf|proc sample=cpu,sched,mem kernel=] [noend]
 *   image recorded host=H pid=N [ppid= exe=PATH start=T end=T]
 *   thread tid=N name=S                  a THREAD record of the recorded image
 *   range tid=N t0=T t1=T name=S         a range (PUSH, POP) on that thread
 *   task seen|created|exec|exit|renamed t=T pid= tid= [ppid= gen= comm= exe=]
 *   maps t=T pid= [gen=] start= end= off= path=
 *   ksym t=T addr= end= name=
 *   sample t=T pid= tid= cpu= [k=A,B..] [u=A,B..] [flags=]
 *   sched t=T pid= tid= [cpu=] state=running|runnable|sleeping|blocked|stopped|exited|N
 *   sysctr t=T what=busy|hostmem|rss|faults|cputime|N of=N value=N
 *   drop t=T reason=N count=N
 *
 * Each image becomes <host>.<pid>.<id>.tpf in DIR.  Usage: mk-sysimage DIR < DESCRIPTION */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/system-records.h"
#include "../../common/xalloc.h"
#include "../unit/writer.h"

#define REAL0 1700000000000000000ull   /* realtime of tick 0 */
#define NSTREAMS 64
#define MAXSTR 4096
#define MAXARGS 32

struct units {
	struct tprof_rec *v;
	size_t n, cap;
};

struct image {
	int system;
	char host[256];
	uint64_t pid, ppid, start, end;
	int noend;
	char exe[1024];
	struct units s[NSTREAMS];
	struct units props;              /* stream 0's PROP records, written first */
	char *strs[MAXSTR];
	uint32_t nstrs;
	uint32_t tid_stream[NSTREAMS];   /* recorded: stream k's tid */
};

static struct image img;
static int have_image;
static const char *dir;
static unsigned line_no;

static void die(const char *what)
{
	fprintf(stderr, "mk-sysimage: line %u: %s\n", line_no, what);
	exit(2);
}

/* ---- the description's words ------------------------------------------------------------ */

static char *args_k[MAXARGS], *args_v[MAXARGS];
static int nargs;

static const char *opt(const char *key)
{
	for (int i = 0; i < nargs; i++)
		if (!strcmp(args_k[i], key))
			return args_v[i];
	return NULL;
}

static uint64_t num(const char *s)
{
	char *end;
	errno = 0;
	uint64_t v = strtoull(s, &end, 0);
	if (errno || end == s)
		die("not a number");
	if (!strcmp(end, "us"))
		v *= 1000;
	else if (!strcmp(end, "ms"))
		v *= 1000000;
	else if (!strcmp(end, "s"))
		v *= 1000000000;
	else if (*end && strcmp(end, "ns"))
		die("a number with an unknown unit");
	return v;
}

static uint64_t num_or(const char *key, uint64_t dflt)
{
	const char *s = opt(key);
	return s ? num(s) : dflt;
}

static uint64_t need(const char *key)
{
	const char *s = opt(key);
	if (!s) {
		char buf[80];
		snprintf(buf, sizeof(buf), "%s= missing", key);
		die(buf);
	}
	return num(s);
}

/* ---- records ------------------------------------------------------------------------------ */

static uint32_t str(const char *s)
{
	if (!s || !*s)
		return 0;
	for (uint32_t i = 0; i < img.nstrs; i++)
		if (!strcmp(img.strs[i], s))
			return i + 1;
	if (img.nstrs == MAXSTR)
		die("too many strings");
	img.strs[img.nstrs++] = xstrdup(s);
	return img.nstrs;
}

static void put(struct units *u, struct tprof_rec r, const void *ext, unsigned next)
{
	if (u->n + 1 + next > u->cap) {
		u->cap = (u->cap + 1 + next) * 2;
		u->v = xreallocarray(u->v, u->cap, sizeof(*u->v));
	}
	r.ext = (uint8_t)next;
	u->v[u->n] = r;
	memset(u->v + u->n + 1, 0, next * sizeof(*u->v));
	if (ext)
		memcpy(u->v + u->n + 1, ext, next * TPROF_UNIT);
	u->n += 1 + next;
}

static void prop_int(const char *key, uint64_t v)
{
	struct tprof_rec r = tw_rec(TPROF_K_PROP, str(key), 0, 0, v);
	r.flags = TPROF_PROP_INT;
	put(&img.props, r, NULL, 0);
}

static void prop_str(const char *key, const char *v)
{
	put(&img.props, tw_rec(TPROF_K_PROP, str(key), 0, 0, str(v)), NULL, 0);
}

/* ---- images ------------------------------------------------------------------------------- */

/* Records of one stream by time (the order of equal times kept), as a writer keeps them. */
static void sort_stream(struct units *u)
{
	struct tprof_rec *out = xmallocarray(u->n ? u->n : 1, sizeof(*out));
	size_t *at = xmallocarray(u->n ? u->n : 1, sizeof(*at)), n = 0, k = 0;
	for (size_t i = 0; i < u->n; i += 1 + u->v[i].ext)
		at[n++] = i;
	for (size_t i = 1; i < n; i++)   /* insertion sort: stable, and inputs are short */
		for (size_t j = i; j > 0 && u->v[at[j - 1]].t0 > u->v[at[j]].t0; j--) {
			size_t t = at[j];
			at[j] = at[j - 1];
			at[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		size_t len = 1 + u->v[at[i]].ext;
		memcpy(out + k, u->v + at[i], len * sizeof(*out));
		k += len;
	}
	free(u->v);
	free(at);
	u->v = out;
}

static void finish(void)
{
	if (!have_image)
		return;
	char path[2048];
	snprintf(path, sizeof(path), "%s/%s.%llu.%08llx.tpf", dir, img.host,
		 (unsigned long long)img.pid, (unsigned long long)img.pid);
	struct tw w;
	if (tw_open_as(&w, path, img.pid, img.system ? TPROF_FILE_SYSTEM : 0) < 0) {
		perror(path);
		exit(1);
	}
	prop_int("clock", TPROF_CLOCKSRC_MONOTONIC);
	prop_str("host", img.host);
	prop_int("pid", img.pid);
	if (img.ppid)
		prop_int("ppid", img.ppid);
	if (img.exe[0]) {
		prop_str("exe", img.exe);
		prop_str("arg", img.exe);
	}
	struct units s0 = { 0 };
	for (uint32_t i = 0; i < img.nstrs; i++) {
		struct tprof_rec u[1 + (MAXSTR / TPROF_UNIT) + 2];
		uint32_t n = tw_string(u, i + 1, img.strs[i]);
		put(&s0, u[0], u + 1, n - 1);
	}
	for (size_t i = 0; i < img.props.n; i++)
		put(&s0, img.props.v[i], NULL, 0);
	put(&s0, tw_rec(TPROF_K_CLOCK, 0, img.start, img.start, REAL0 + img.start), NULL, 0);
	sort_stream(&img.s[0]);
	for (size_t i = 0; i < img.s[0].n; i += 1 + img.s[0].v[i].ext)
		put(&s0, img.s[0].v[i], img.s[0].v + i + 1, img.s[0].v[i].ext);
	put(&s0, tw_rec(TPROF_K_CLOCK, 0, img.end, img.end, REAL0 + img.end), NULL, 0);
	if (!img.noend)
		put(&s0, tw_rec(TPROF_K_END, 0, img.end, 0, 0), NULL, 0);
	tw_chunk(&w, 0, s0.v, (uint32_t)s0.n);
	free(s0.v);
	for (uint32_t k = 1; k < NSTREAMS; k++) {
		if (!img.s[k].n)
			continue;
		sort_stream(&img.s[k]);
		tw_chunk(&w, k, img.s[k].v, (uint32_t)img.s[k].n);
	}
	tw_close(&w);
	for (uint32_t k = 0; k < NSTREAMS; k++)
		free(img.s[k].v);
	free(img.props.v);
	for (uint32_t i = 0; i < img.nstrs; i++)
		free(img.strs[i]);
	memset(&img, 0, sizeof(img));
	have_image = 0;
}

static void begin_image(const char *what)
{
	finish();
	memset(&img, 0, sizeof(img));
	have_image = 1;
	img.system = !strcmp(what, "system");
	if (!img.system && strcmp(what, "recorded"))
		die("image system or image recorded");
	const char *h = opt("host");
	snprintf(img.host, sizeof(img.host), "%s", h ? h : "node1");
	img.pid = need("pid");
	img.ppid = num_or("ppid", 0);
	img.start = num_or("start", 1000);
	img.end = num_or("end", 1000000000);
	img.noend = opt("noend") != NULL;
	const char *exe = opt("exe");
	snprintf(img.exe, sizeof(img.exe), "%s", exe ? exe : img.system ? "/usr/bin/tprof-inspect" : "");
	if (!img.system)
		return;
	prop_str("role", "system");
	prop_str("sampler", opt("sampler") ? opt("sampler") : "bpf");
	prop_str("sample", opt("sample") ? opt("sample") : "cpu,sched,mem");
	prop_str("kernel", opt("kernel") ? opt("kernel") : "6.1.0-test");
	static const char *const ints[] = { "ncpu", "mem_total", "sample_hz", "counter_hz",
					    "target" };
	static const uint64_t dflt[] = { 2, 8ull << 30, 1000, 10, 0 };
	for (int i = 0; i < 5; i++)
		prop_int(ints[i], num_or(ints[i], dflt[i]));
}

/* The stream of a recorded image's thread tid. */
static uint32_t thread_stream(uint64_t tid)
{
	for (uint32_t k = 1; k < NSTREAMS; k++)
		if (img.tid_stream[k] == tid)
			return k;
	die("no thread line for this tid");
	return 0;
}

static uint32_t word_list(const char *s, uint64_t *v, uint32_t max)
{
	uint32_t n = 0;
	if (!s)
		return 0;
	char *copy = xstrdup(s), *save, *tok;
	for (tok = strtok_r(copy, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
		v[n++] = num(tok);
	free(copy);
	return n;
}

static unsigned lookup(const char *s, const char *const *names, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		if (names[i] && !strcmp(s, names[i]))
			return i;
	return (unsigned)num(s);
}

static void on_sample(void)
{
	uint64_t f[2 * TPROF_SAMPLE_MAX_FRAMES];
	uint32_t nk = word_list(opt("k"), f, TPROF_SAMPLE_MAX_FRAMES);
	uint32_t nu = word_list(opt("u"), f + nk, TPROF_SAMPLE_MAX_FRAMES);
	uint8_t ext[255 * TPROF_UNIT] = { 0 };
	struct tprof_sample_hdr h = { (uint16_t)nk, (uint16_t)nu, 0 };
	memcpy(ext, &h, sizeof(h));
	memcpy(ext + sizeof(h), f, (nk + nu) * sizeof(uint64_t));
	unsigned next = (unsigned)((sizeof(h) + (nk + nu) * 8 + TPROF_UNIT - 1) / TPROF_UNIT);
	uint64_t cpu = need("cpu");
	struct tprof_rec r = tw_rec(TPROF_K_SAMPLE, 0, need("t"), need("tid"), need("pid") | cpu << 32);
	r.flags = (uint8_t)num_or("flags", nk ? TPROF_SAMPLE_IN_KERNEL : 0);
	put(&img.s[TPROF_SYS_STREAM_CPU0 + cpu], r, ext, next);
}

static void on_line(char *cmd, char *what)
{
	static const char *const tasks[] = { NULL, "seen", "created", "exec", "exit", "renamed" };
	static const char *const states[] = { NULL, "running", "runnable", "sleeping", "blocked",
					      "stopped", "exited" };
	static const char *const ctrs[] = { NULL, "busy", "hostmem", "rss", "faults", "cputime" };
	if (!strcmp(cmd, "image")) {
		begin_image(what ? what : "");
		return;
	}
	if (!have_image)
		die("no image line before this one");
	if (!strcmp(cmd, "thread")) {
		uint32_t k = 1;
		while (k < NSTREAMS && img.tid_stream[k])
			k++;
		if (k == NSTREAMS)
			die("too many threads");
		img.tid_stream[k] = (uint32_t)need("tid");
		put(&img.s[0], tw_rec(TPROF_K_THREAD, str(opt("name")), img.start, need("tid"), k),
		    NULL, 0);
	} else if (!strcmp(cmd, "range")) {
		uint32_t k = thread_stream(need("tid"));
		put(&img.s[k], tw_rec(TPROF_K_PUSH, str(opt("name")), need("t0"), 0, 0), NULL, 0);
		put(&img.s[k], tw_rec(TPROF_K_POP, 0, need("t1"), 0, 0), NULL, 0);
	} else if (!strcmp(cmd, "task")) {
		struct tprof_task t = { (uint32_t)need("pid"), (uint32_t)need("tid"),
					(uint32_t)num_or("ppid", 0), (uint32_t)num_or("gen", 0),
					str(opt("exe")), { 0 } };
		struct tprof_rec r = tw_rec(TPROF_K_TASK, str(opt("comm")), need("t"), 0, 0);
		r.flags = (uint8_t)lookup(what ? what : "", tasks, 6);
		put(&img.s[0], r, &t, 1);
	} else if (!strcmp(cmd, "maps")) {
		struct tprof_map m = { need("start"), need("end"), num_or("off", 0),
				       (uint32_t)num_or("gen", 0), 0 };
		put(&img.s[0], tw_rec(TPROF_K_MAPS, str(opt("path")), need("t"), 0, need("pid")), &m, 1);
	} else if (!strcmp(cmd, "ksym")) {
		put(&img.s[0], tw_rec(TPROF_K_KSYM, str(opt("name")), need("t"), need("end"),
				      need("addr")), NULL, 0);
	} else if (!strcmp(cmd, "sample")) {
		on_sample();
	} else if (!strcmp(cmd, "sched")) {
		uint64_t cpu = num_or("cpu", 0xffffffffu);
		struct tprof_rec r = tw_rec(TPROF_K_SCHED, 0, need("t"), need("tid"),
					    need("pid") | cpu << 32);
		r.flags = (uint8_t)lookup(opt("state") ? opt("state") : "", states, 7);
		const char *sampler = NULL;
		for (size_t i = 0; i < img.props.n; i++)
			if (img.props.v[i].name == str("sampler"))
				sampler = img.strs[img.props.v[i].arg - 1];
		int proc = sampler && !strcmp(sampler, "proc");
		uint32_t k = proc || cpu >= NSTREAMS - 2 ? TPROF_SYS_STREAM_TIMED
							: TPROF_SYS_STREAM_CPU0 + (uint32_t)cpu;
		put(&img.s[k], r, NULL, 0);
	} else if (!strcmp(cmd, "sysctr")) {
		struct tprof_rec r = tw_rec(TPROF_K_SYSCTR, 0, need("t"), num_or("of", 0), need("value"));
		r.flags = (uint8_t)lookup(opt("what") ? opt("what") : "", ctrs, 6);
		put(&img.s[TPROF_SYS_STREAM_TIMED], r, NULL, 0);
	} else if (!strcmp(cmd, "drop")) {
		struct tprof_rec r = tw_rec(TPROF_K_DROP, 0, need("t"), need("count"),
					    num_or("stream", 2));
		r.flags = (uint8_t)need("reason");
		put(&img.s[0], r, NULL, 0);
	} else {
		die("unknown line");
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: mk-sysimage DIR < DESCRIPTION\n");
		return 2;
	}
	dir = argv[1];
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		perror(dir);
		return 1;
	}
	char line[8192];
	while (fgets(line, sizeof(line), stdin)) {
		line_no++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *save, *cmd = strtok_r(line, " \t\n", &save), *what = NULL, *tok;
		if (!cmd)
			continue;
		nargs = 0;
		while ((tok = strtok_r(NULL, " \t\n", &save)) && nargs < MAXARGS) {
			char *eq = strchr(tok, '=');
			if (!eq) {
				if (!what && !nargs)
					what = tok;
				else {
					args_k[nargs] = tok;   /* a flag (noend) */
					args_v[nargs++] = "";
				}
				continue;
			}
			*eq = 0;
			args_k[nargs] = tok;
			args_v[nargs++] = eq + 1;
		}
		on_line(cmd, what);
	}
	finish();
	return 0;
}

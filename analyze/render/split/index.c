/* render/split/index.c — the names of a split trace's files (PATH's stem, ".part-0001",
 * PATH's extension; the index: stem + ".index.json") and the index: per part its file, the
 * time its range covers, its steps, what it holds and its size, in JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../../common/xalloc.h"
#include "config.h"
#include "state.h"
#include "../../util/jsonw.h"
#include "../../util/outname.h"

static char *dup_n(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* The extension is the last one of the file name, with the one before it when it is .gz
 * ("t.json.gz": ".json.gz"); a name without one has none. */
int split_names(struct split *s, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	if (!n)
		return -1;
	size_t end = n;
	if (n > 3 && !strcmp(base + n - 3, ".gz"))
		end = n - 3;
	size_t dot = end;
	while (dot > 1 && base[dot - 1] != '.')
		dot--;
	size_t stem = dot > 1 ? dot - 1 : end;
	size_t dir = (size_t)(base - path);
	s->stem = dup_n(path, dir + stem);
	s->ext = dup_n(base + stem, n - stem);
	return 0;
}

char *split_part_path(const struct split *s, size_t number)
{
	size_t n = strlen(s->stem) + strlen(s->ext) + 32;
	char *p = xmalloc(n);
	snprintf(p, n, "%s.part-%04zu%s", s->stem, number, s->ext);
	return p;
}

static char *index_path(const struct split *s)
{
	size_t n = strlen(s->stem) + 16;
	char *p = xmalloc(n);
	snprintf(p, n, "%s.index.json", s->stem);
	return p;
}

static void key(struct json_writer *w, const char *k)
{
	jw_lit(w, ",\"");
	jw_raw(w, k, strlen(k));
	jw_lit(w, "\":");
}

static void key_i64(struct json_writer *w, const char *k, int64_t v)
{
	key(w, k);
	jw_i64(w, v);
}

static void key_u64(struct json_writer *w, const char *k, uint64_t v)
{
	key(w, k);
	jw_u64(w, v);
}

/* The range a part covers, as the index states it: the first group's starts with the
 * window, the last group's ends with the trace (or the window).  The parts of a group (one
 * per analysis process; SPLIT_PROCESS: all in one group) share it.  --parallel size:MB: each
 * analysis process's parts are a series of their own. */
static void range(const struct split *s, size_t i, int64_t *a, int64_t *b)
{
	const struct part *p = &s->parts[i];
	int64_t end = (s->tr->end_ns - s->tr->start_ns);
	if (end > s->o.end)
		end = s->o.end;
	size_t group = i / s->readers, groups = s->nparts / s->readers;
	int first = !group, last = group + 1 >= groups;
	if (s->readers > 1 && s->o.spec.mode == SPLIT_SIZE) {
		first = p->first_of_reader;
		last = p->last_of_reader;
	}
	*a = first ? s->o.start : p->lo;
	*b = last ? end : p->hi;
	if (*b < *a)
		*b = *a;
}

static void key_opt(struct json_writer *w, const char *k, int has, int64_t v)
{
	key(w, k);
	if (has)
		jw_i64(w, v);
	else
		jw_lit(w, "null");
}

static void key_step(struct json_writer *w, const char *k, int has, uint64_t v)
{
	key(w, k);
	if (has)
		jw_u64(w, v);
	else
		jw_lit(w, "null");
}

static void list(struct json_writer *w, const char *k, const int64_t *v, size_t n)
{
	key(w, k);
	jw_lit(w, "[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			jw_lit(w, ",");
		jw_i64(w, v[i]);
	}
	jw_lit(w, "]");
}

static void part(struct json_writer *w, const struct split *s, size_t i)
{
	const struct part *p = &s->parts[i];
	char *path = split_part_path(s, p->number);
	const char *base = strrchr(path, '/');
	int64_t a, b, t0 = s->tr->start_ns;
	range(s, i, &a, &b);
	jw_lit(w, "\n  {\"part\":");
	jw_u64(w, p->number);
	if (s->readers > 1 && s->o.spec.mode == SPLIT_STEPS)
		key_u64(w, "group", i / s->readers + 1);
	if (s->readers > 1 && s->o.spec.mode != SPLIT_PROCESS)
		key_u64(w, "analysis_process", p->reader);
	key(w, "file");
	jw_str(w, base ? base + 1 : path, strlen(base ? base + 1 : path));
	key_i64(w, "start_ns", a);
	key_i64(w, "end_ns", b);
	key_i64(w, "start_realtime_ns", t0 + a);
	key_i64(w, "end_realtime_ns", t0 + b);
	key_step(w, "first_step", p->has_steps, p->first_step);
	key_step(w, "last_step", p->has_steps, p->last_step);
	key_u64(w, "slices", p->slices);
	key_u64(w, "instants", p->instants);
	key_u64(w, "counters", p->counters);
	key_u64(w, "async", p->asyncs);
	key_u64(w, "samples", p->samples);
	key_u64(w, "flows", p->flows);
	if (s->readers > 1) {
		key_u64(w, "flow_halves", p->flow_halves);
		list(w, "processes", p->procs, p->nprocs);
		list(w, "ranks", p->ranks, p->nprocs);
	}
	key_u64(w, "began_before", p->before);
	key_u64(w, "end_after", p->beyond);
	key_u64(w, "late", p->late);
	key_u64(w, "late_flows", p->late_flows);
	key_u64(w, "flows_from_before", p->flows_back);
	key_opt(w, "first_ns", p->t_min <= p->t_max, p->t_min);
	key_opt(w, "last_ns", p->t_min <= p->t_max, p->t_max);
	key_u64(w, "bytes", p->file_bytes);
	key_u64(w, "json_bytes", p->json_bytes);
	jw_lit(w, "}");
	free(path);
}

/* An index tprof wrote begins so. */
#define HEAD "{\"producer\":\"tprof "

static const char *foreign(const char *path)
{
	char b[sizeof(HEAD) - 1];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(b, 1, sizeof(b), f) : 0;
	if (f)
		fclose(f);
	return n == sizeof(b) && !memcmp(b, HEAD, n) ? NULL
						     : "exists and is not the index of a split trace";
}

const struct out_format split_index_format = { "the index of a split trace", 0, 0, foreign };

int split_check(const char *path, const struct out_format *part)
{
	struct split s = { 0 };
	if (split_names(&s, path) < 0) {
		s.stem = xstrdup(path);
		s.ext = xstrdup("");
	}
	char *ip = index_path(&s), *pp = split_part_path(&s, 1);
	int rc = outname_check(pp, part) < 0 || outname_check(ip, &split_index_format) < 0 ? -1 : 0;
	free(ip);
	free(pp);
	free(s.stem);
	free(s.ext);
	return rc;
}

int split_write_index(struct split *s)
{
	char *path = index_path(s);
	struct json_writer w;
	if (jw_open(&w, path, &split_index_format) < 0) {
		diag_error("%s", outname_error());
		free(path);
		return -1;
	}
	int64_t a, b, z;
	range(s, 0, &a, &z);
	range(s, s->nparts - 1, &z, &b);
	jw_lit(&w, HEAD PACKAGE_VERSION "\"");
	key(&w, "format");
	jw_str(&w, s->o.format, strlen(s->o.format));
	key(&w, "split");
	jw_str(&w, s->o.spec.text, strlen(s->o.spec.text));
	key(&w, "part_by");
	if (s->o.spec.mode == SPLIT_PROCESS)
		jw_lit(&w, "\"process\"");
	else
		jw_lit(&w, "\"end\"");
	if (s->readers > 1 && s->o.spec.mode != SPLIT_PROCESS)
		key_u64(&w, "analysis_processes", s->readers);
	key_i64(&w, "trace_start_realtime_ns", s->tr->start_ns);
	key_i64(&w, "start_ns", a);
	key_i64(&w, "end_ns", b);
	key_u64(&w, "late", s->late);
	key_u64(&w, "late_flows", s->late_flows);
	jw_lit(&w, ",\"parts\":[");
	for (size_t i = 0; i < s->nparts; i++) {
		if (i)
			jw_lit(&w, ",");
		part(&w, s, i);
	}
	jw_lit(&w, "\n]}\n");
	int rc = jw_close(&w);
	if (rc < 0)
		diag_error("%s", outname_error());
	free(path);
	return rc;
}

/* A gzip file ends with the size of what it holds, modulo 2^32 (RFC 1952, ISIZE); the
 * content is known to be at least `content` bytes and to exceed it by less than 4 GiB. */
static uint64_t gzip_content(FILE *f, uint64_t content)
{
	unsigned char b[4];
	if (fseek(f, -4, SEEK_END) != 0 || fread(b, 1, 4, f) != 4)
		return content;
	uint32_t isize = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			 (uint32_t)b[3] << 24;
	return content + (uint32_t)(isize - (uint32_t)content);
}

void split_file_bytes(const char *final, uint64_t content, uint64_t *disk, uint64_t *json)
{
	char *path = outname_where(final);      /* the part waits under a temporary name */
	struct stat st;
	*disk = stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
	*json = *disk;
	size_t n = strlen(final);
	if (n >= 3 && !strcmp(final + n - 3, ".gz")) {
		FILE *f = fopen(path, "rb");
		*json = f ? gzip_content(f, content) : content;
		if (f)
			fclose(f);
	}
	free(path);
}

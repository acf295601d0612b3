/* diff/compare.c — two profiles' --diff-data compared: per item (kind and name) its count and
 * time in A and in B, the change, and whether the change stands out of the noise: with three
 * steps or more on each side, the per-step times' means differ by more than twice the
 * standard error of their difference (a Welch test at about 95 %) and by a microsecond or
 * more; otherwise it is within noise.  Without steps there is nothing to tell the noise by,
 * and the row says so.  Rows that changed come first, largest change of the total first;
 * items of one side only are new or gone. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "../util/fmt.h"
#include "diff.h"

struct side {
	int has;
	uint64_t count;
	int64_t total;
	size_t n;                        /* steps */
	double mean, sd;
};

enum verdict { V_MORE, V_LESS, V_NEW, V_GONE, V_MORE_UNSURE, V_LESS_UNSURE, V_NOISE, V_SAME };
static const char *const verdict_key[] = { "more", "less", "new", "gone", "more_unsure",
					   "less_unsure", "within_noise", "same" };
static const char *const verdict_words[] = { "more", "less", "new", "gone", "more?", "less?",
					     "noise", "same" };

struct row {
	const char *kind, *name;
	struct side a, b;
	int64_t change;
	double noise;                    /* of the change of the total; < 0: unknown */
	double t;                        /* the change of the means over its standard error */
	enum verdict v;
};

static cJSON *load(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	do {
		if (len + 65536 > cap) {
			cap = cap ? cap * 2 : 1 << 20;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got);
	fclose(f);
	if (!buf)
		return NULL;
	buf[len] = '\0';
	cJSON *j = cJSON_ParseWithLength(buf, len);
	free(buf);
	const cJSON *fmt = j ? cJSON_GetObjectItemCaseSensitive(j, "format") : NULL;
	if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, DIFF_DATA_FORMAT)) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

static int64_t num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : 0;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static void side_of(const cJSON *it, struct side *s)
{
	s->has = 1;
	s->count = (uint64_t)num(it, "count");
	s->total = num(it, "total_ns");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, "per_step_ns");
	double sum = 0, sq = 0;
	const cJSON *x;
	s->n = 0;
	cJSON_ArrayForEach(x, v) {
		sum += x->valuedouble;
		s->n++;
	}
	s->mean = s->n ? sum / (double)s->n : 0;
	cJSON_ArrayForEach(x, v)
		sq += (x->valuedouble - s->mean) * (x->valuedouble - s->mean);
	s->sd = s->n > 1 ? sqrt(sq / (double)(s->n - 1)) : 0;
}

static struct row *find(struct row *rows, size_t n, const char *kind, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].kind, kind) && !strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

static void verdict_of(struct row *r)
{
	r->change = r->b.total - r->a.total;
	r->noise = -1;
	if (!r->a.has || !r->a.count) {
		r->v = r->b.count ? V_NEW : V_SAME;
		return;
	}
	if (!r->b.has || !r->b.count) {
		r->v = V_GONE;
		return;
	}
	if (r->a.n >= 3 && r->b.n >= 3) {
		double se = sqrt(r->a.sd * r->a.sd / (double)r->a.n +
				 r->b.sd * r->b.sd / (double)r->b.n);
		double d = r->b.mean - r->a.mean;
		r->noise = 2 * se * (double)r->b.n;
		r->t = se > 0 ? fabs(d) / se : fabs(d) > 0 ? INFINITY : 0;
		if (fabs(d) <= 2 * se || fabs(d) < 1000)
			r->v = V_NOISE;
		else
			r->v = d > 0 ? V_MORE : V_LESS;
		return;
	}
	r->v = !r->change ? V_SAME : r->change > 0 ? V_MORE_UNSURE : V_LESS_UNSURE;
}

/* |v| to two significant digits: changes of the same size. */
static double size_of(int64_t v)
{
	double x = fabs((double)v);
	if (x < 1)
		return 0;
	double p = pow(10, floor(log10(x)) - 1);
	return round(x / p) * p;
}

/* Changed before within the noise; then by the size of the change, and of one size the
 * surer first (a kernel made slower before the call that waits for it). */
static int by_change(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	int qa = a->v >= V_NOISE, qb = b->v >= V_NOISE;
	if (qa != qb)
		return qa - qb;
	double ca = size_of(a->change), cb = size_of(b->change);
	if (ca != cb)
		return ca > cb ? -1 : 1;
	if (a->t != b->t)
		return a->t > b->t ? -1 : 1;
	int k = strcmp(a->kind, b->kind);
	return k ? k : strcmp(a->name, b->name);
}

static void side_cells(struct sumw *w, const char *pre, const struct side *s)
{
	char key[32], t[32], u[32], cell[80];
	snprintf(key, sizeof(key), "count_%s", pre);
	sw_u64(w, NULL, key, s->count);
	snprintf(key, sizeof(key), "total_%s_ns", pre);
	sw_dur(w, " %11s", key, s->total);
	snprintf(key, sizeof(key), "mean_%s_ns", pre);
	sw_i64(w, NULL, key, (int64_t)llround(s->mean));
	snprintf(key, sizeof(key), "sd_%s_ns", pre);
	sw_i64(w, NULL, key, (int64_t)llround(s->sd));
	snprintf(cell, sizeof(cell), "%s +- %s", fmt_dur((int64_t)llround(s->mean), t, sizeof(t)),
		 fmt_dur((int64_t)llround(s->sd), u, sizeof(u)));
	sw_text(w, " %24s", s->has ? cell : "-");
}

/* One table of rows, the first `top` in text. */
static void table(struct sumw *w, const char *key, const char *title, const struct row *rows,
		  size_t n, int top)
{
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	sw_obj(w, key);
	sw_text(w, "\n%s\n%-7s %12s %8s %11s %11s %24s %24s  %-17s %s\n", title, "Verdict",
		"Change", "%", "A total", "B total", "A per step", "B per step", "Kind", "Name");
	sw_arr(w, "rows");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char pct[32] = "-";
		sw_obj(w, NULL);
		sw_if(w, i < shown);
		sw_str(w, "%-7s", NULL, verdict_words[r->v]);
		sw_str(w, NULL, "verdict", verdict_key[r->v]);
		char ch[40], d[32];
		fmt_dur(r->change < 0 ? -r->change : r->change, d, sizeof(d));
		snprintf(ch, sizeof(ch), "%s%s", r->change < 0 ? "-" : "+", d);
		sw_text(w, " %12s", ch);
		sw_i64(w, NULL, "change_ns", r->change);
		if (r->a.total) {
			double p = 100.0 * (double)r->change / (double)r->a.total;
			snprintf(pct, sizeof(pct), "%+.1f%%", p);
			sw_real(w, NULL, "change_pct", p);
		} else {
			sw_null(w, NULL, "change_pct", NULL);
		}
		sw_text(w, " %8s", pct);
		side_cells(w, "a", &r->a);
		side_cells(w, "b", &r->b);
		if (r->noise >= 0)
			sw_i64(w, NULL, "noise_ns", (int64_t)llround(r->noise));
		else
			sw_null(w, NULL, "noise_ns", NULL);
		sw_str(w, "  %-17s", "kind", r->kind);
		sw_name(w, "name", r->name);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	sw_u64(w, NULL, "rows_omitted", n - shown);
	sw_if(w, shown < n);
	sw_text(w, "  ... %zu more rows (--top 0 shows all)\n", n - shown);
	sw_endif(w);
	sw_close(w);
}

int diff_compare(const char *a_path, const char *b_path, const char *a_name, const char *b_name,
		 FILE *f, enum summary_format format, int top)
{
	cJSON *a = load(a_path), *b = a ? load(b_path) : NULL;
	if (!a || !b) {
		diag_error("--diff: the data of %s could not be read", a ? b_name : a_name);
		cJSON_Delete(a);
		return -1;
	}
	size_t cap = (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "items")) +
		     (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(b, "items")) + 1;
	struct row *rows = xcalloc(cap, sizeof(*rows));
	size_t n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(a, "items")) {
		struct row *r = &rows[n++];
		r->kind = str(it, "kind");
		r->name = str(it, "name");
		side_of(it, &r->a);
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(b, "items")) {
		struct row *r = find(rows, n, str(it, "kind"), str(it, "name"));
		if (!r) {
			r = &rows[n++];
			r->kind = str(it, "kind");
			r->name = str(it, "name");
		}
		side_of(it, &r->b);
	}
	for (size_t i = 0; i < n; i++)
		verdict_of(&rows[i]);
	/* the items first, then the parts of the step time and the step length */
	size_t nitems = 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].kind, "phase") && strcmp(rows[i].kind, "step")) {
			struct row t = rows[nitems];
			rows[nitems++] = rows[i];
			rows[i] = t;
		}
	qsort(rows, nitems, sizeof(*rows), by_change);
	qsort(rows + nitems, n - nitems, sizeof(*rows), by_change);
	struct sumw w;
	sw_init(&w, f, format);
	sw_obj(&w, NULL);
	sw_str(&w, NULL, "format", "tprof-diff");
	sw_i64(&w, NULL, "version", 1);
	sw_str(&w, "tprof diff: %s (A)", "a", a_name);
	sw_str(&w, " against %s (B)\n", "b", b_name);
	sw_u64(&w, "  steps: A %" PRIu64, "steps_a",
	       (uint64_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(a, "steps")));
	sw_u64(&w, ", B %" PRIu64 "\n", "steps_b",
	       (uint64_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(b, "steps")));
	sw_text(&w, "\nChanges from A to B, the largest first; then those within the noise (the "
		"per-step means differ by\nless than twice their standard error, or by less than "
		"1 us); '?': no steps to tell the noise by\n");
	table(&w, "items", "Kernels, copies, calls and collectives", rows, nitems, top);
	table(&w, "steps", "The steps: their parts (each instant once, as --diagnose) and length",
	      rows + nitems, n - nitems, top);
	sw_close(&w);
	sw_finish(&w);
	free(rows);
	cJSON_Delete(a);
	cJSON_Delete(b);
	fflush(f);
	return ferror(f) ? -1 : 0;
}

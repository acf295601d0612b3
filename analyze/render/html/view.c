/* render/html/view.c — the document of the report's #tprof-view element, from the diagnosis
 * (diagnose/overview.h), the bytes in base64:
 *   {"overview": {"bin_ns": N, "bins": B, "levels": 31,
 *                 "processes": [{"process": I, "rank": R|null, "label": "..."|null,
 *                                "bins": "base64"|null,
 *                                "streams": [{"stream": "0x..."|"other", "bins": "base64"}]}]},
 *    "stepmap": {"first_step": S, "steps_a_column": W, "columns": C,
 *                "processes": [{"process": I, "rank": R|null, "cells": "base64"}]},
 *    "threads": {"bin_ns": N, "bins": B, "levels": 31,
 *                "threads": [{"process": I, "rank": R|null, "label": "...", "tid": T,
 *                             "name": "...", "running_ns": N, "bins": "base64"}]},
 *    "matrix": {...}}   (matrix.h)
 * The overview's strips: one byte a bin (overview.h); labels of the first LABELS_MAX
 * processes (the page names the others by rank); a stream's id in hex, as the summary
 * writes it; "other": the process's streams past the first OVERVIEW_STREAMS, summed.  The
 * step map's cells: 16 bytes each, little-endian, uint32 steps and float32 their mean time,
 * their mean wait for others and the longest, in ns; column c holds step numbers S + c*W to
 * S + (c+1)*W - 1.  The threads: the busiest (overview.h), busiest first, one byte a bin
 * (state << 5 | share).  Any is null when there is none.  Knows no runtime. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../diagnose/overview.h"
#include "../../util/jsonw.h"
#include "matrix.h"
#include "view.h"

static void base64(FILE *f, const uint8_t *p, size_t n)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i = 0;
	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		char q[4] = { abc[v >> 18], abc[v >> 12 & 63], abc[v >> 6 & 63], abc[v & 63] };
		fwrite(q, 1, 4, f);
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
		char q[4] = { abc[v >> 18], abc[v >> 12 & 63], i + 1 < n ? abc[v >> 6 & 63] : '=',
			      '=' };
		fwrite(q, 1, 4, f);
	}
}

static void str(FILE *f, const char *s)
{
	size_t n = strlen(s);
	char *e = malloc(6 * n + 1);
	if (!e)
		return (void)fputs("\"\"", f);
	fputc('"', f);
	fwrite(e, 1, json_escape(s, n, e), f);
	fputc('"', f);
	free(e);
}

/* Processes whose labels the page holds, at most: past them the page says the rank. */
#define LABELS_MAX 16384

/* The n-th process of a list opened: {"process":I,"rank":R|null (and, with label,
 * "label":"..." or null past LABELS_MAX) */
static void who(FILE *f, size_t n, int64_t process, int64_t rank, const char *label)
{
	fprintf(f, "%s\n{\"process\":%" PRId64 ",\"rank\":", n ? "," : "", process);
	if (rank >= 0)
		fprintf(f, "%" PRId64, rank);
	else
		fputs("null", f);
	if (!label)
		return;
	fputs(",\"label\":", f);
	if (n < LABELS_MAX)
		str(f, label);
	else
		fputs("null", f);
}

struct procs {
	FILE *f;
	uint32_t bins;
	size_t n;
};

static void on_process(void *ctx, const struct overview_process *p)
{
	struct procs *k = ctx;
	who(k->f, k->n++, p->process, p->rank, p->label ? p->label : "");
	fputs(",\"bins\":", k->f);
	if (p->bins) {
		fputc('"', k->f);
		base64(k->f, p->bins, k->bins);
		fputc('"', k->f);
	} else {
		fputs("null", k->f);
	}
	fputs(",\"streams\":[", k->f);
	for (size_t i = 0; i < p->nstreams; i++) {
		fputs(i ? ",{\"stream\":" : "{\"stream\":", k->f);
		if (p->streams[i].stream == OVERVIEW_OTHER_STREAMS)
			fputs("\"other\"", k->f);
		else
			fprintf(k->f, "\"0x%" PRIx64 "\"", p->streams[i].stream);
		fputs(",\"bins\":\"", k->f);
		base64(k->f, p->streams[i].bins, k->bins);
		fputs("\"}", k->f);
	}
	fputs("]}", k->f);
}

/* 32-bit little-endian values, as JavaScript's DataView reads them */
static void le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void f32(uint8_t *p, double v)
{
	float x = (float)v;
	uint32_t u;
	memcpy(&u, &x, sizeof(u));
	le32(p, u);
}

struct rows {
	FILE *f;
	uint32_t cols;
	size_t n;
	uint8_t *buf;                    /* cols x 16 bytes */
};

static void on_steps(void *ctx, const struct stepmap_process *p)
{
	struct rows *k = ctx;
	who(k->f, k->n++, p->process, p->rank, NULL);   /* its label: the overview's */
	fputs(",\"cells\":\"", k->f);
	for (uint32_t i = 0; i < k->cols; i++) {
		const struct stepmap_cell *c = &p->cells[i];
		uint8_t *b = k->buf + (size_t)i * 16;
		le32(b, (uint32_t)(c->n > UINT32_MAX ? UINT32_MAX : c->n));
		f32(b + 4, c->n ? (double)c->time / (double)c->n : 0);
		f32(b + 8, c->n ? (double)c->wait / (double)c->n : 0);
		f32(b + 12, (double)c->longest);
	}
	base64(k->f, k->buf, (size_t)k->cols * 16);
	fputs("\"}", k->f);
}

struct threads {
	FILE *f;
	uint32_t bins;
	size_t n;
};

static void on_thread(void *ctx, const struct overview_thread *t)
{
	struct threads *k = ctx;
	who(k->f, k->n++, t->process, t->rank, t->label ? t->label : "");
	fprintf(k->f, ",\"tid\":%" PRId32 ",\"name\":", t->tid);
	str(k->f, t->name ? t->name : "");
	fprintf(k->f, ",\"running_ns\":%" PRId64 ",\"bins\":\"", t->running);
	base64(k->f, t->bins, k->bins);
	fputs("\"}", k->f);
}

void html_view_write(FILE *f, const struct diagnosis *dx, struct matrix *m)
{
	fputc('{', f);
	int64_t bin_ns = 0;
	struct procs k = { f, 0, 0 };
	/* the number of bins first: the bytes of each are that long */
	if (dx && (k.bins = diagnosis_overview(dx, &bin_ns, NULL, NULL))) {
		fprintf(f, "\"overview\":{\"bin_ns\":%" PRId64 ",\"bins\":%" PRIu32
			   ",\"levels\":%d,\"processes\":[", bin_ns, k.bins, OVERVIEW_LEVELS);
		diagnosis_overview(dx, &bin_ns, &k, on_process);
		fputs("]}", f);
	} else {
		fputs("\"overview\":null", f);
	}
	uint64_t first = 0, per = 0;
	struct rows r = { f, 0, 0, NULL };
	if (dx && (r.cols = diagnosis_stepmap(dx, &first, &per, NULL, NULL))) {
		fprintf(f, ",\"stepmap\":{\"first_step\":%" PRIu64 ",\"steps_a_column\":%" PRIu64
			   ",\"columns\":%" PRIu32 ",\"processes\":[", first, per, r.cols);
		r.buf = malloc((size_t)r.cols * 16);
		if (r.buf)
			diagnosis_stepmap(dx, &first, &per, &r, on_steps);
		free(r.buf);
		fputs("]}", f);
	} else {
		fputs(",\"stepmap\":null", f);
	}
	struct threads t = { f, 0, 0 };
	if (dx && (t.bins = diagnosis_threads(dx, &bin_ns, NULL, NULL))) {
		fprintf(f, ",\"threads\":{\"bin_ns\":%" PRId64 ",\"bins\":%" PRIu32
			   ",\"levels\":%d,\"threads\":[", bin_ns, t.bins, OVERVIEW_LEVELS);
		diagnosis_threads(dx, &bin_ns, &t, on_thread);
		fputs("]}", f);
	} else {
		fputs(",\"threads\":null", f);
	}
	fputs(",\"matrix\":", f);
	matrix_write(f, m);
	fputs("}\n", f);
}

/* render/html/view.c — the document of the report's #tprof-view element: the overview strips
 * (diagnose/overview.h), each strip's bytes in base64, one byte a bin:
 *   {"overview": {"bin_ns": N, "bins": B, "levels": 31,
 *                 "processes": [{"process": I, "rank": R|null, "label": "...",
 *                                "bins": "base64"|null,
 *                                "streams": [{"stream": "0x..."|"other", "bins": "base64"}]}]}}
 * (a stream's id in hex, as the summary writes it; "other": the process's streams past the
 * first OVERVIEW_STREAMS, summed).  Knows no runtime. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../diagnose/overview.h"
#include "../../util/jsonw.h"
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

struct procs {
	FILE *f;
	uint32_t bins;
	size_t n;
};

static void on_process(void *ctx, const struct overview_process *p)
{
	struct procs *k = ctx;
	fprintf(k->f, "%s\n{\"process\":%" PRId64 ",\"rank\":", k->n++ ? "," : "", p->process);
	if (p->rank >= 0)
		fprintf(k->f, "%" PRId64, p->rank);
	else
		fputs("null", k->f);
	fputs(",\"label\":", k->f);
	str(k->f, p->label ? p->label : "");
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

void html_view_write(FILE *f, const struct diagnosis *dx)
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
	fputs("}\n", f);
}

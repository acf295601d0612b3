/* render/html/html.c — the report page (html.h).  The summary output writes its JSON document
 * into memory; at the end the page is written whole (outfile.h: a temporary, then renamed):
 * the template's head, the document cut to what the page draws (page-doc.h) as the text of a
 * <script type="application/json"> element, the view (view.h: the timeline, the step map,
 * the communication matrix) as another, each '<' in them written \u003c (which JSON reads the same, so that no string of
 * the profile can end the element), the template's tail.  The template (page.html, with page.css
 * and page.js inlined at build time: page.h) draws everything from the document.  Knows no
 * runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../parallel/par.h"
#include "../../read/trace.h"
#include "../../util/outfile.h"
#include "html.h"
#include "matrix.h"
#include "page-doc.h"
#include "view.h"
#include "render/html/page.h"   /* generated: html_page_head, html_page_tail */

#define BUF_CAP (1u << 16)

/* A file that says near its start that tprof-analyze wrote it is an earlier report. */
static const char *foreign(const char *path)
{
	static const char mark[] = "<meta name=\"generator\" content=\"tprof-analyze --format html\">";
	char b[512];
	FILE *f = fopen(path, "rbe");
	size_t got = f ? fread(b, 1, sizeof(b) - 1, f) : 0;
	if (f)
		fclose(f);
	b[got] = '\0';
	return strstr(b, mark) ? NULL : "exists and is not a report tprof wrote";
}

const struct out_format html_format = { "an HTML report", 0, 1, foreign };

struct html {
	char *path;
	struct output summary;
	const struct diagnosis *dx;
	struct matrix *matrix;
	FILE *mem;
	char *doc;
	size_t len;
};

static int begin(void *priv, const struct trace *tr)
{
	struct html *h = priv;
	return h->summary.ops->begin(h->summary.priv, tr);
}

static void on_event(void *priv, const struct event *ev)
{
	struct html *h = priv;
	h->summary.ops->event(h->summary.priv, ev);
	matrix_event(h->matrix, ev);
}

/* Copies s (n bytes) into the file's buffer, handing full buffers over. */
struct sink {
	struct outfile *of;
	char *buf;
	size_t used;
};

static void put(struct sink *k, const char *s, size_t n)
{
	while (n) {
		size_t room = BUF_CAP - k->used, m = n < room ? n : room;
		memcpy(k->buf + k->used, s, m);
		k->used += m;
		s += m;
		n -= m;
		if (k->used == BUF_CAP) {
			k->buf = outfile_swap(k->of, k->buf, k->used);
			k->used = 0;
		}
	}
}

/* A JSON document, every '<' of it (in JSON it can only be inside a string) as \u003c: no
 * name of the profile can end the element ("</script") or change how the HTML parser reads
 * its end ("<!--" with "<script"). */
static void put_json(struct sink *k, const char *s, size_t n)
{
	const char *end = s + n;
	while (s < end) {
		const char *lt = memchr(s, '<', (size_t)(end - s));
		if (!lt) {
			put(k, s, (size_t)(end - s));
			break;
		}
		put(k, s, (size_t)(lt - s));
		put(k, "\\u003c", 6);
		s = lt + 1;
	}
}

static int write_page(struct html *h)
{
	char *page = NULL, *view = NULL;
	size_t plen = 0, vlen = 0;
	FILE *f = open_memstream(&page, &plen), *g = open_memstream(&view, &vlen);
	if (!f || !g)
		xalloc_failed("the report's documents in memory");
	int bad = html_page_doc(f, h->doc, h->len);
	html_view_write(g, h->dx, h->matrix);
	fclose(f);
	fclose(g);
	if (bad) {
		free(page);
		free(view);
		diag_error("the report's document could not be made from the summary");
		return -1;
	}
	struct sink k = { 0 };
	k.of = outfile_open(h->path, &html_format, BUF_CAP, &k.buf);
	if (!k.of) {
		free(page);
		free(view);
		diag_error("%s", outname_error());
		return -1;
	}
	put(&k, html_page_head, strlen(html_page_head));
	put_json(&k, page, plen);
	static const char mid[] = "</script>\n<script type=\"application/json\" id=\"tprof-view\">";
	put(&k, mid, sizeof(mid) - 1);
	put_json(&k, view, vlen);
	free(view);
	put(&k, html_page_tail, strlen(html_page_tail));
	free(page);
	if (outfile_close(k.of, k.buf, k.used, 1) < 0) {
		diag_error("%s", outname_error());
		return -1;
	}
	return 0;
}

static int end(void *priv, const struct trace *tr)
{
	struct html *h = priv;
	int rc = h->summary.ops->end(h->summary.priv, tr);
	matrix_gather(h->matrix);
	if (h->mem)
		fclose(h->mem);
	if (rc == 0 && par_rank() == 0 && h->len)
		rc = write_page(h);
	free(h->doc);
	free(h->path);
	matrix_free(h->matrix);
	free(h);
	return rc;
}

static const struct output_ops html_ops = { "html", begin, on_event, end };

struct output output_html(const char *path, struct output (*make_summary)(FILE *f, void *ctx),
			  void *ctx, const struct diagnosis *dx, const struct runtime_set *rts)
{
	struct html *h = xcalloc(1, sizeof(*h));
	h->path = xstrdup(path);
	h->dx = dx;
	h->matrix = matrix_new(rts);
	h->mem = open_memstream(&h->doc, &h->len);
	if (!h->mem)
		xalloc_failed("the report's document in memory");
	h->summary = make_summary(h->mem, ctx);
	return (struct output){ &html_ops, h };
}

/* summary/spread.c — a per-rank table's text cut to its least, median and greatest rows when
 * it has more rows than --ranks allows (spread.h). */
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "../util/fmt.h"
#include "spread.h"

static const char *const spread_label[3] = { "least", "median", "most" };
#define LABEL_FMT "%-7s"

static const double *order_v;

static int by_value(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (order_v[x] != order_v[y])
		return order_v[x] < order_v[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

void spread_pick(const struct sumw *w, struct spread *s, const double *v, size_t n)
{
	s->collapsed = w->rank_rows && n > w->rank_rows;
	s->row[0] = s->row[1] = s->row[2] = 0;
	if (!n)
		return;
	for (size_t i = 1; i < n; i++) {
		if (v[i] < v[s->row[0]])
			s->row[0] = i;
		if (v[i] > v[s->row[2]])
			s->row[2] = i;
	}
	size_t *ix = xmallocarray(n, sizeof(*ix));
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	order_v = v;
	qsort(ix, n, sizeof(*ix), by_value);
	s->row[1] = ix[(n - 1) / 2];
	free(ix);
}

void spread_note(struct sumw *w, const struct spread *s, size_t n, const char *rows,
		 const char *by)
{
	if (!s->collapsed)
		return;
	char c[32];
	sw_text(w, "  (%s %s: the least, median and most %s shown; --ranks all shows each)\n",
		fmt_count(n, c, sizeof(c)), rows, by);
}

void spread_pad(struct sumw *w, const struct spread *s)
{
	if (s->collapsed)
		sw_text(w, LABEL_FMT, "");
}

void spread_rows(struct sumw *w, const struct spread *s, size_t n, const char *by,
		 void (*row)(struct sumw *w, void *ctx, size_t i), void *ctx)
{
	sw_arr(w, "rows");
	for (size_t i = 0; i < n; i++) {
		sw_if(w, !s->collapsed);
		row(w, ctx, i);
		sw_endif(w);
	}
	sw_close(w);
	if (s->collapsed && !w->json)
		for (int k = 0; k < 3; k++) {
			sw_text(w, LABEL_FMT, spread_label[k]);
			row(w, ctx, s->row[k]);
		}
	sw_obj(w, "spread");
	sw_if(w, 0);
	sw_str(w, NULL, "by", by);
	for (int k = 0; k < 3; k++)
		if (n)
			sw_u64(w, NULL, spread_label[k], s->row[k]);
		else
			sw_null(w, NULL, spread_label[k], NULL);
	sw_endif(w);
	sw_close(w);
}

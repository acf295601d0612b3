/* table.c — the summary's shared table code: number, duration and byte formatting, and the
 * table of per-name time aggregates sorted by total time that every timed kind of event
 * uses (with byte columns for MPI calls). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/pack.h"
#include "../util/strings.h"
#include "table.h"

static const struct agg *sort_base;

static int by_total(const void *a, const void *b)
{
	const struct agg *x = &sort_base[*(const uint32_t *)a], *y = &sort_base[*(const uint32_t *)b];
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(strings_get(*(const uint32_t *)a), strings_get(*(const uint32_t *)b));
}

static void table(struct sumw *w, const char *key, const char *title, const struct agg *rows,
		  const uint64_t *bytes, size_t cap, int top)
{
	size_t n = 0;
	uint32_t *ids = xmalloc(cap * sizeof(*ids) + 1);
	int64_t sum = 0;
	for (uint32_t id = 0; id < cap; id++)
		if (rows[id].calls) {
			ids[n++] = id;
			sum = sat_add(sum, rows[id].total);
		}
	sort_base = rows;
	if (n > 1)
		qsort(ids, n, sizeof(*ids), by_total);
	sw_obj(w, key);
	sw_if(w, n > 0);
	sw_text(w, "\n%s\n", title);
	sw_text(w, "%9s %12s %10s %12s %12s %12s  ", "Total(%)", "Time", "Calls", "Avg", "Min",
		"Max");
	if (bytes)
		sw_text(w, "%10s %10s  ", "Bytes", "Avg size");
	sw_text(w, "Name\n");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	for (size_t i = 0; i < shown; i++) {
		const struct agg *a = &rows[ids[i]];
		sw_obj(w, NULL);
		sw_real(w, "%7.1f %% ", "total_pct",
			sum ? 100.0 * (double)a->total / (double)sum : 0.0);
		sw_dur(w, "%12s ", "time_ns", a->total);
		sw_count(w, "%10s ", "calls", a->calls);
		sw_dur(w, "%12s ", "avg_ns", a->total / (int64_t)a->calls);
		sw_dur(w, "%12s ", "min_ns", a->min);
		sw_dur(w, "%12s  ", "max_ns", a->max);
		if (bytes && bytes[ids[i]]) {
			uint64_t b = bytes[ids[i]];
			sw_bytes(w, "%10s ", "bytes", (double)b);
			sw_bytes(w, "%10s  ", "avg_size_bytes", (double)b / (double)a->calls);
		} else if (bytes) {
			sw_null(w, "%10s ", "bytes", "-");
			sw_null(w, "%10s  ", "avg_size_bytes", "-");
		}
		sw_name(w, "name", strings_get(ids[i]));
		sw_close(w);
	}
	sw_close(w);
	table_more(w, n - shown);
	sw_close(w);
	free(ids);
}

void table_more(struct sumw *w, size_t more)
{
	sw_if(w, more > 0);
	sw_u64(w, "  ... %" PRIu64 " more (--top 0 shows all)\n", "rows_omitted", more);
	sw_endif(w);
}

void time_table_print(struct sumw *w, const char *key, const char *title, const struct agg *rows,
		      size_t cap, int top)
{
	table(w, key, title, rows, NULL, rows ? cap : 0, top);
}

void time_table_print_bytes(struct sumw *w, const char *key, const char *title,
			    const struct agg *rows, const uint64_t *bytes, size_t cap, int top)
{
	table(w, key, title, rows, bytes, rows ? cap : 0, top);
}

void aggs_pack(struct pack *b, const struct agg *rows, size_t n)
{
	uint64_t with = 0;
	for (size_t id = 0; rows && id < n; id++)
		with += rows[id].calls != 0;
	pack_u64(b, with);
	for (uint32_t id = 0; rows && id < n; id++) {
		const struct agg *a = &rows[id];
		if (a->calls)
			agg_pack(b, id, a);
	}
}

void agg_pack(struct pack *b, uint32_t id, const struct agg *a)
{
	pack_name(b, id);
	pack_u64(b, a->calls);
	pack_i64(b, a->total);
	pack_i64(b, a->min);
	pack_i64(b, a->max);
}

size_t aggs_unpack_count(struct unpack *u)
{
	return unpack_count(u, 5 * sizeof(uint64_t));
}

uint32_t agg_unpack(struct unpack *u, struct agg *a)
{
	uint32_t id = unpack_name(u);
	a->calls = unpack_u64(u);
	a->total = unpack_i64(u);
	a->min = unpack_i64(u);
	a->max = unpack_i64(u);
	return id;
}

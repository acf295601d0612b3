/* table.h — per-name time aggregates and the sorted
 * time table, shared by the summary's general, device and MPI parts (written through
 * summary/write.h, as text or JSON). */
#ifndef TPROF_ANALYZE_TABLE_H
#define TPROF_ANALYZE_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "../util/fmt.h"
#include "../util/satarith.h"
#include "write.h"

struct pack;
struct unpack;

struct agg {
	uint64_t calls;
	int64_t total, min, max;
};

static inline void agg_add(struct agg *a, int64_t d)
{
	if (!a->calls || d < a->min)
		a->min = d;
	if (!a->calls || d > a->max)
		a->max = d;
	a->calls++;
	a->total = sat_add(a->total, d);
}

/* n calls that took `total` in all, the shortest min and the longest max (a run of polls). */
static inline void agg_add_n(struct agg *a, uint64_t n, int64_t total, int64_t min, int64_t max)
{
	if (!n)
		return;
	if (!a->calls || min < a->min)
		a->min = min;
	if (!a->calls || max > a->max)
		a->max = max;
	a->calls += n;
	a->total = sat_add(a->total, total);
}

/* a's figures and b's together. */
static inline void agg_merge(struct agg *a, const struct agg *b)
{
	agg_add_n(a, b->calls, b->total, b->min, b->max);
}

/* The parallel analyzer: the rows with calls of a table by string id, each with its name
 * (aggs_pack; one row: agg_pack); read back as a count (aggs_unpack_count) and that many rows,
 * each giving its figures and returning its name's id here (agg_unpack). */
void aggs_pack(struct pack *b, const struct agg *rows, size_t n);
void agg_pack(struct pack *b, uint32_t id, const struct agg *a);
size_t aggs_unpack_count(struct unpack *u);
uint32_t agg_unpack(struct unpack *u, struct agg *a);

/* Rows with calls, sorted by total time: Total(%), Time, Calls, Avg, Min, Max, Name; in JSON
 * the object `key` with its rows (none when rows is NULL). */
void time_table_print(struct sumw *w, const char *key, const char *title, const struct agg *rows,
		      size_t n, int top);
/* The same with Bytes and Avg size (bytes per call) before Name; bytes[] indexed like rows. */
void time_table_print_bytes(struct sumw *w, const char *key, const char *title,
			    const struct agg *rows, const uint64_t *bytes, size_t n, int top);
/* The last line of a table cut by --top: how many rows were left out (JSON: rows_omitted). */
void table_more(struct sumw *w, size_t more);

#endif

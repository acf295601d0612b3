/* table.c — the summary's shared table code: number, duration and byte formatting, and the
 * table of per-name time aggregates sorted by total time that every timed kind of event
 * uses (with byte columns for MPI calls). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/strings.h"
#include "table.h"

/* A duration in a unit that keeps four significant digits. */
const char *fmt_dur(int64_t ns, char *buf, size_t len)
{
	double v = (double)ns;
	double a = fabs(v);
	if (a < 1e3)
		snprintf(buf, len, "%" PRId64 " ns", ns);
	else if (a < 1e6)
		snprintf(buf, len, "%.3f us", v / 1e3);
	else if (a < 1e9)
		snprintf(buf, len, "%.3f ms", v / 1e6);
	else
		snprintf(buf, len, "%.3f s", v / 1e9);
	return buf;
}

const char *fmt_count(uint64_t n, char *buf, size_t len)
{
	char tmp[32];
	int k = snprintf(tmp, sizeof(tmp), "%" PRIu64, n);
	size_t o = 0;
	for (int i = 0; i < k && o + 2 < len; i++) {
		if (i && (k - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = 0;
	return buf;
}

static const struct agg *sort_base;

static int by_total(const void *a, const void *b)
{
	const struct agg *x = &sort_base[*(const uint32_t *)a], *y = &sort_base[*(const uint32_t *)b];
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(strings_get(*(const uint32_t *)a), strings_get(*(const uint32_t *)b));
}

/* Prints a name with control bytes shown as '?', so one row stays one line. */
void put_name(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	fputc('\n', f);
}

/* A byte count in a unit that keeps four significant digits (B, kB, MB, GB, TB: powers of
 * 1000). */
const char *fmt_bytes(double b, char *buf, size_t len)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB" };
	int u = 0;
	while (b >= 1000 && u < 4) {
		b /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%.0f B", b);
	else
		snprintf(buf, len, "%.3g %s", b, unit[u]);
	return buf;
}

static void table(FILE *f, const char *title, const struct agg *rows, const uint64_t *bytes,
		  size_t cap, int top)
{
	size_t n = 0;
	uint32_t *ids = malloc(cap * sizeof(*ids) + 1);
	int64_t sum = 0;
	for (uint32_t id = 0; id < cap; id++)
		if (rows[id].calls) {
			ids[n++] = id;
			sum += rows[id].total;
		}
	if (n) {
		sort_base = rows;
		if (n > 1)
			qsort(ids, n, sizeof(*ids), by_total);
		fprintf(f, "\n%s\n", title);
		fprintf(f, "%9s %12s %10s %12s %12s %12s  ", "Total(%)", "Time", "Calls", "Avg", "Min",
			"Max");
		if (bytes)
			fprintf(f, "%10s %10s  ", "Bytes", "Avg size");
		fprintf(f, "Name\n");
		size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
		for (size_t i = 0; i < shown; i++) {
			const struct agg *a = &rows[ids[i]];
			char t[32], av[32], mn[32], mx[32], c[32];
			fprintf(f, "%7.1f %% %12s %10s %12s %12s %12s  ",
				sum ? 100.0 * (double)a->total / (double)sum : 0.0, fmt_dur(a->total, t, 32),
				fmt_count(a->calls, c, 32), fmt_dur(a->total / (int64_t)a->calls, av, 32),
				fmt_dur(a->min, mn, 32), fmt_dur(a->max, mx, 32));
			if (bytes) {
				uint64_t b = bytes[ids[i]];
				if (b)
					fprintf(f, "%10s %10s  ", fmt_bytes((double)b, t, 32),
						fmt_bytes((double)b / (double)a->calls, av, 32));
				else
					fprintf(f, "%10s %10s  ", "-", "-");
			}
			put_name(f, strings_get(ids[i]));
		}
		if (shown < n)
			fprintf(f, "  ... %zu more (--top 0 shows all)\n", n - shown);
	}
	free(ids);
}

void time_table_print(FILE *f, const char *title, const struct agg *rows, size_t cap, int top)
{
	table(f, title, rows, NULL, cap, top);
}

void time_table_print_bytes(FILE *f, const char *title, const struct agg *rows,
			    const uint64_t *bytes, size_t cap, int top)
{
	table(f, title, rows, bytes, cap, top);
}

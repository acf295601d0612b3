/* summary/busy.c — the tables of busy shares, for devices and NeuronCores (busy.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "../model/runtime.h"
#include "procs.h"
#include "busy.h"
#include "spread.h"

struct busy_ctx {
	const struct busy_names *names;
	const struct busy_row *rows;
	const struct sum_procs *procs;
	int64_t covered;
};

static void busy_row(struct sumw *w, void *ctx, size_t i)
{
	const struct busy_ctx *c = ctx;
	const struct busy_row *r = &c->rows[i];
	char unit[64];
	const struct sum_proc *p = sum_procs_at(c->procs, r->proc);
	snprintf(unit, sizeof(unit), "%s %%" PRId64, c->names->unit_text);
	sw_obj(w, NULL);
	sw_real(w, "%6.1f %% ", "busy_pct",
		c->covered > 0 ? 100.0 * (double)r->busy / (double)c->covered : 0.0);
	sw_dur(w, "%12s ", "busy_ns", r->busy);
	sw_count(w, "%10s  ", c->names->count_key, r->count);
	sw_i64(w, NULL, "process", r->proc);
	sw_i64(w, unit, c->names->unit_key, r->unit);
	sw_str(w, " of %s\n", "label", p ? p->label : "?");
	sw_close(w);
}

void busy_table(struct sumw *w, const struct busy_names *names, const struct busy_row *rows,
		size_t n, const struct sum_span *span)
{
	int64_t covered = span->covered;
	double *busy = xmallocarray(n + 1, sizeof(*busy));
	for (size_t i = 0; i < n; i++)
		busy[i] = (double)rows[i].busy;
	struct spread sp;
	spread_pick(w, &sp, busy, n);
	free(busy);
	sw_obj(w, names->key);
	sw_if(w, n > 0);
	sw_text(w, "\n%s", names->title);
	sw_dur(w, ": busy share of the covered time (%s)\n", "covered_ns", covered);
	spread_note(w, &sp, n, names->rows, "busy");
	spread_pad(w, &sp);
	sw_text(w, "%8s %12s %10s  %s\n", "Busy(%)", "Busy", names->count_title,
		names->unit_title);
	sw_endif(w);
	struct busy_ctx c = { names, rows, span->procs, covered };
	spread_rows(w, &sp, n, "busy_ns", busy_row, &c);
	sw_close(w);
}

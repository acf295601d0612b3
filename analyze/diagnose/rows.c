/* diagnose/rows.c — the diagnosis handed out as table rows (rows.h), from what diagnosis.c
 * settled: the splits kept, the steps with their critical paths, the wait-state rows and
 * the ranked findings with their text (report.c). */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "rows.h"
#include "state.h"

static int split_before(const void *a, const void *b, void *ctx)
{
	const struct split_rec *x = a, *y = b;
	struct diagnosis *dx = ctx;
	int64_t px = dx->procs[x->proc]->p->index, py = dx->procs[y->proc]->p->index;
	if (px != py)
		return (px > py) - (px < py);
	if (x->has_step != y->has_step)
		return x->has_step - y->has_step;
	if (x->step != y->step)
		return (x->step > y->step) - (x->step < y->step);
	return (x->t0 > y->t0) - (x->t0 < y->t0);
}

static void splits(struct diagnosis *dx, const struct diag_rows *out)
{
	if (dx->nsplits > 1)
		qsort_r(dx->splits, dx->nsplits, sizeof(*dx->splits), split_before, dx);
	for (size_t i = 0; i < dx->nsplits; i++) {
		const struct split_rec *s = &dx->splits[i];
		struct diag_split_row r = { .proc = dx->procs[s->proc]->p, .has_step = s->has_step,
					    .step = s->step, .start_ns = s->t0, .end_ns = s->t1 };
		memcpy(r.ns, s->ns, sizeof(r.ns));
		out->on_split(out->ctx, &r);
	}
}

static void steps(struct diagnosis *dx, const struct diag_rows *out)
{
	int64_t median = report_steps_median(dx);
	char cause[1200];
	for (size_t i = 0; i < dx->nsteps; i++) {
		struct step_agg *s = &dx->steps[i];
		report_cause(dx, s, median, cause, sizeof(cause));
		int64_t n = s->ranks ? (int64_t)s->ranks : 1;
		struct diag_step_row r = {
			.step = s->step, .ranks = s->ranks, .start_ns = s->t0, .end_ns = s->t1,
			.longest_ns = s->dur_max, .longest = dx->procs[s->dur_max_proc]->p,
			.compute_max_ns = s->comp_max, .compute_mean_ns = s->comp_sum / n,
			.wait_max_ns = s->wait_max, .wait_mean_ns = s->wait_sum / n,
			.compute_max = dx->procs[s->comp_max_proc]->p,
			.compute_min = dx->procs[s->comp_min_proc]->p,
			.wait_max = dx->procs[s->wait_max_proc]->p,
			.wait_min = dx->procs[s->wait_min_proc]->p,
			.late_start_ns = s->late_start, .slow = s->dur_max * 100 > median * 110,
			.cause = cause };
		memcpy(r.ns, s->ns, sizeof(r.ns));
		out->on_step(out->ctx, &r);
		for (uint32_t k = 0; k < s->npath; k++) {
			const struct cp_link *l = &s->path[k];
			struct diag_link_row lr = {
				.step = s->step, .link = k + 1, .proc = dx->procs[l->proc]->p,
				.start_ns = l->t0, .end_ns = l->t1, .part = l->cat, .part_ns = l->cat_ns,
				.top = l->name, .after = l->after, .has_via = l->has_via,
				.via_site = l->via_site, .via_seq = l->via_seq, .via_comm = l->via_comm,
				.via_waiters = l->via_waiters, .via_waited_ns = l->via_waited };
			out->on_link(out->ctx, &lr);
		}
	}
}

static void waits(struct diagnosis *dx, const struct diag_rows *out)
{
	for (size_t i = 0; i < dx->nrows; i++) {
		const struct wait_row *w = &dx->rows[i];
		struct diag_wait_row r = { .kind = wait_kind_key(w->kind),
					   .proc = dx->procs[w->proc]->p, .site = w->site,
					   .caller = w->caller,
					   .comm = w->comm, .count = w->n, .ns = w->ns };
		out->on_wait(out->ctx, &r);
	}
}

static void findings(struct diagnosis *dx, const char *dir, const struct diag_rows *out)
{
	for (size_t i = 0; i < dx->nfindings; i++) {
		const struct finding *f = &dx->findings[i];
		struct diag_finding_row r = { .rank_order = (uint32_t)i + 1, .cost_ns = f->cost };
		const struct own_cost *o = NULL;
		if (f->kind == F_WAIT) {
			const struct delay_group *g = &dx->groups[f->i];
			r.kind = wait_kind_key(g->kind);
			r.proc = dx->procs[g->proc]->p;
			r.has_step = g->max_has_step;
			r.step = g->max_step;
			r.start_ns = g->max_t0;
			r.end_ns = g->max_t1;
			r.is_wait = 1;
			r.site = g->site;
			r.caller = g->caller;
			r.comm = g->comm;
			r.instances = g->n;
		} else {
			int proc = f->kind == F_OWN_MANY ? dx->many[f->i].proc
							 : (int)(f->i / OWN_KINDS);
			unsigned k = f->kind == F_OWN_MANY ? f->i : f->i % OWN_KINDS;
			o = &dx->procs[proc]->own[k];
			r.kind = own_kind_key[k];
			r.proc = dx->procs[proc]->p;
			r.has_step = o->max_has_step;
			r.step = o->max_step;
			r.start_ns = o->max_t0;
			r.end_ns = o->max_t1;
		}
		char look[1400];
		report_look(look, sizeof(look), dir, i + 1, r.has_step, r.step, r.start_ns,
			    r.end_ns);
		char *text = report_finding_text(dx, dir, i);
		r.text = text;
		r.look = look;
		out->on_finding(out->ctx, &r);
		free(text);
	}
}

void diagnosis_rows(struct diagnosis *dx, const char *dir, const struct diag_rows *out)
{
	diagnosis_settle(dx);
	splits(dx, out);
	steps(dx, out);
	waits(dx, out);
	findings(dx, dir, out);
}

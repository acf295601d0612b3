/* render/sqlite/diagnosis.c — the diagnosis (--diagnose) in the database: the rows
 * diagnose/rows.h hands out, into the diag_* tables (stmts.h; docs/sqlite-schema.md). */
#include <inttypes.h>
#include <stdio.h>

#include "out.h"
#include "../../diagnose/rows.h"
#include "../../parallel/par.h"
#include "../../read/trace.h"

/* The part columns of a table, in the categories' order. */
static void parts_bind(struct sqldb *d, enum stmt_id t, int first, const int64_t ns[DIAG_PARTS])
{
	for (int c = 0; c < DIAG_PARTS; c++)
		sq_i64(d, t, first + c, ns[c]);
}

static void split_insert(void *ctx, const struct diag_split_row *r)
{
	struct sqldb *d = &((struct sqlout *)ctx)->db;
	sq_i64(d, ST_DSPLITS, DSPLITS_process_id, r->proc->index);
	sq_opt(d, ST_DSPLITS, DSPLITS_step, r->has_step, (int64_t)r->step);
	sq_i64(d, ST_DSPLITS, DSPLITS_start_ns, r->start_ns);
	sq_i64(d, ST_DSPLITS, DSPLITS_end_ns, r->end_ns);
	parts_bind(d, ST_DSPLITS, DSPLITS_compute_ns, r->ns);
	sqldb_insert(d, ST_DSPLITS);
}

static void step_insert(void *ctx, const struct diag_step_row *r)
{
	struct sqldb *d = &((struct sqlout *)ctx)->db;
	sq_i64(d, ST_DSTEPS, DSTEPS_step, (int64_t)r->step);
	sq_i64(d, ST_DSTEPS, DSTEPS_ranks, r->ranks);
	sq_i64(d, ST_DSTEPS, DSTEPS_start_ns, r->start_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_end_ns, r->end_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_longest_ns, r->longest_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_longest_process_id, r->longest->index);
	sq_i64(d, ST_DSTEPS, DSTEPS_compute_max_ns, r->compute_max_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_compute_mean_ns, r->compute_mean_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_compute_max_process_id, r->compute_max->index);
	sq_i64(d, ST_DSTEPS, DSTEPS_compute_min_process_id, r->compute_min->index);
	sq_i64(d, ST_DSTEPS, DSTEPS_wait_max_ns, r->wait_max_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_wait_mean_ns, r->wait_mean_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_wait_max_process_id, r->wait_max->index);
	sq_i64(d, ST_DSTEPS, DSTEPS_wait_min_process_id, r->wait_min->index);
	sq_i64(d, ST_DSTEPS, DSTEPS_late_start_ns, r->late_start_ns);
	sq_i64(d, ST_DSTEPS, DSTEPS_slow, r->slow);
	sq_text(d, ST_DSTEPS, DSTEPS_cause, r->cause, -1);
	parts_bind(d, ST_DSTEPS, DSTEPS_compute_ns, r->ns);
	sqldb_insert(d, ST_DSTEPS);
}

static void link_insert(void *ctx, const struct diag_link_row *r)
{
	struct sqldb *d = &((struct sqlout *)ctx)->db;
	char comm[32];
	snprintf(comm, sizeof(comm), "0x%" PRIx64, r->via_comm);
	sq_i64(d, ST_DPATH, DPATH_step, (int64_t)r->step);
	sq_i64(d, ST_DPATH, DPATH_link, r->link);
	sq_i64(d, ST_DPATH, DPATH_process_id, r->proc->index);
	sq_i64(d, ST_DPATH, DPATH_start_ns, r->start_ns);
	sq_i64(d, ST_DPATH, DPATH_end_ns, r->end_ns);
	sq_text(d, ST_DPATH, DPATH_part, diagnosis_part_words(r->part), -1);
	sq_i64(d, ST_DPATH, DPATH_part_ns, r->part_ns);
	sq_opt(d, ST_DPATH, DPATH_top_id, r->top != 0, r->top);
	sq_opt(d, ST_DPATH, DPATH_after_id, r->after != 0, r->after);
	sq_i64(d, ST_DPATH, DPATH_via, r->has_via);
	sq_opt(d, ST_DPATH, DPATH_via_site_id, r->has_via && r->via_site, r->via_site);
	sq_opt(d, ST_DPATH, DPATH_via_seq, r->has_via && r->via_site, r->via_seq);
	sq_text(d, ST_DPATH, DPATH_via_comm, r->has_via && r->via_comm ? comm : NULL, -1);
	sq_opt(d, ST_DPATH, DPATH_via_waiters, r->has_via, r->via_waiters);
	sq_opt(d, ST_DPATH, DPATH_via_waited_ns, r->has_via, r->via_waited_ns);
	sqldb_insert(d, ST_DPATH);
}

static void wait_insert(void *ctx, const struct diag_wait_row *r)
{
	struct sqldb *d = &((struct sqlout *)ctx)->db;
	char comm[32];
	snprintf(comm, sizeof(comm), "0x%" PRIx64, r->comm);
	sq_text(d, ST_DWAITS, DWAITS_kind, r->kind, -1);
	sq_i64(d, ST_DWAITS, DWAITS_process_id, r->proc->index);
	sq_text(d, ST_DWAITS, DWAITS_comm, r->comm ? comm : NULL, -1);
	sq_opt(d, ST_DWAITS, DWAITS_site_id, r->site != 0, r->site);
	sq_opt(d, ST_DWAITS, DWAITS_caller_id, r->caller != 0, r->caller);
	sq_i64(d, ST_DWAITS, DWAITS_count, (int64_t)r->count);
	sq_i64(d, ST_DWAITS, DWAITS_ns, r->ns);
	sqldb_insert(d, ST_DWAITS);
}

static void finding_insert(void *ctx, const struct diag_finding_row *r)
{
	struct sqldb *d = &((struct sqlout *)ctx)->db;
	char comm[32];
	snprintf(comm, sizeof(comm), "0x%" PRIx64, r->comm);
	sq_i64(d, ST_DFINDINGS, DFINDINGS_rank_order, r->rank_order);
	sq_text(d, ST_DFINDINGS, DFINDINGS_kind, r->kind, -1);
	sq_i64(d, ST_DFINDINGS, DFINDINGS_cost_ns, r->cost_ns);
	sq_i64(d, ST_DFINDINGS, DFINDINGS_process_id, r->proc->index);
	sq_opt(d, ST_DFINDINGS, DFINDINGS_step, r->has_step, (int64_t)r->step);
	sq_i64(d, ST_DFINDINGS, DFINDINGS_start_ns, r->start_ns);
	sq_i64(d, ST_DFINDINGS, DFINDINGS_end_ns, r->end_ns);
	sq_opt(d, ST_DFINDINGS, DFINDINGS_site_id, r->site != 0, r->site);
	sq_opt(d, ST_DFINDINGS, DFINDINGS_caller_id, r->caller != 0, r->caller);
	sq_text(d, ST_DFINDINGS, DFINDINGS_comm, r->comm ? comm : NULL, -1);
	sq_opt(d, ST_DFINDINGS, DFINDINGS_instances, r->is_wait, (int64_t)r->instances);
	sq_text(d, ST_DFINDINGS, DFINDINGS_text, r->text, -1);
	sq_text(d, ST_DFINDINGS, DFINDINGS_look, r->look, -1);
	sqldb_insert(d, ST_DFINDINGS);
}

void sqlite_diagnosis(struct sqlout *o)
{
	/* under --parallel the first analysis process has the whole diagnosis */
	if (!o->dx || o->failed || o->db.failed || par_rank() != 0)
		return;
	const struct diag_rows rows = { o, split_insert, step_insert, link_insert, wait_insert,
				       finding_insert };
	diagnosis_rows(o->dx, o->dir, &rows);
}

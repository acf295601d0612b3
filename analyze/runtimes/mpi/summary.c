/* runtimes/mpi/summary.c — the summary's MPI part: MPI calls by total time with the bytes they
 * moved (or read and wrote); per rank the time in MPI, its share of the rank's covered time
 * and the late-sender wait,
 * with the imbalance across ranks; the messages matched and left unmatched; collectives by
 * call (instances, bytes, mean duration from first entry to last exit, effective bandwidth,
 * the time members waited for the last to arrive); MPI-IO by file (summary-io.c); one-sided
 * communication by window (summary-rma.c); and what clock alignment did. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "mpi.h"
#include "summary.h"
#include "../../summary/procs.h"
#include "../../summary/spread.h"
#include "../../summary/table.h"
#include "../../util/pack.h"

struct rankstat {
	int64_t mpi;                /* time in MPI calls */
	int64_t late;               /* late-sender wait of its blocking receives */
	uint64_t late_n, calls;
};

struct collstat {
	uint64_t instances, incomplete;
	uint64_t bytes;
	int64_t dur, wait;
};

/* A clock offset measurement, as the table shows it. */
struct clock_meas {
	int64_t rank, index;
	uint64_t k;                 /* its place among its process's */
	int64_t when, verdict, delta, rtt;
	char *label;
};

struct mpisum {
	struct agg *calls;          /* by name id */
	uint64_t *bytes;
	struct collstat *colls;     /* by name id */
	size_t cap;
	struct mpiio *io;           /* summary-io.c */
	struct mpirma *rma;         /* summary-rma.c */
	struct rankstat *ranks;     /* by process index */
	size_t nranks;
	uint64_t messages, msg_bytes, blocking, late_n;
	int64_t late;
	int any;
	/* the parallel analyzer: the others' totals and clock measurements, merged in */
	struct mpi_totals others;
	struct clock_meas *clocks;
	size_t nclocks;
	int packed;                 /* its own clock measurements are among clocks */
};

struct mpisum *mpisum_new(void)
{
	struct mpisum *m = xcalloc(1, sizeof(*m));
	m->io = mpiio_new();
	m->rma = mpirma_new();
	return m;
}

static void ensure(struct mpisum *m, uint32_t id)
{
	if (id < m->cap)
		return;
	size_t n = m->cap ? m->cap : 256;
	while (n <= id)
		n *= 2;
	m->calls = xreallocarray(m->calls, n, sizeof(*m->calls));
	m->bytes = xreallocarray(m->bytes, n, sizeof(*m->bytes));
	m->colls = xreallocarray(m->colls, n, sizeof(*m->colls));
	memset(m->calls + m->cap, 0, (n - m->cap) * sizeof(*m->calls));
	memset(m->bytes + m->cap, 0, (n - m->cap) * sizeof(*m->bytes));
	memset(m->colls + m->cap, 0, (n - m->cap) * sizeof(*m->colls));
	m->cap = n;
}

static struct rankstat *rank_of(struct mpisum *m, const struct proc *p)
{
	size_t i = p->index > 0 ? (size_t)p->index : 0;
	if (i >= m->nranks) {
		size_t n = i + 8;
		m->ranks = xreallocarray(m->ranks, n, sizeof(*m->ranks));
		memset(m->ranks + m->nranks, 0, (n - m->nranks) * sizeof(*m->ranks));
		m->nranks = n;
	}
	return &m->ranks[i];
}

/* Bytes a call moved: sent plus received, where the call itself knows them (a nonblocking
 * receive learns its bytes at completion). */
static uint64_t call_bytes(const struct mpi_info *mi)
{
	const struct tprof_mpi_args *a = &mi->a;
	switch (a->op) {
	case TPROF_MPI_SEND:
	case TPROF_MPI_RECV:
		return a->bytes;
	case TPROF_MPI_ISEND:
		return a->flags & TPROF_MPIF_PERSISTENT ? 0 : a->bytes;
	case TPROF_MPI_SENDRECV:
	case TPROF_MPI_COLL:
	case TPROF_MPI_ICOLL:
		return a->bytes + (mi->has_b ? mi->b.bytes : 0);
	case TPROF_MPI_IO:
		return a->bytes;   /* read or written */
	case TPROF_MPI_RMA:
		return a->bytes + (mi->has_b ? mi->b.bytes : 0);   /* sent or fetched, or both */
	default:
		return 0;
	}
}

void mpisum_event(struct mpisum *m, const struct event *ev)
{
	m->any = 1;
	switch (ev->kind) {
	case EV_CALL: {
		const struct poll_info *pi = ev->call->poll;
		struct rankstat *r = rank_of(m, ev->proc);
		if (pi) {
			/* A run of polls: each function's calls and time in its own row. */
			for (unsigned i = 0; i < pi->n; i++) {
				ensure(m, pi->fn[i].name);
				agg_add_n(&m->calls[pi->fn[i].name], pi->fn[i].count, pi->fn[i].busy,
					  pi->fn[i].min, pi->fn[i].max);
			}
			r->mpi = sat_add(r->mpi, pi->busy);
			r->calls += pi->polls;
			break;
		}
		ensure(m, ev->name);
		int64_t d = ev->t1 - ev->t0;
		agg_add(&m->calls[ev->name], d);
		const struct mpi_info *mi = mpi_info_of(ev);
		if (mi)
			m->bytes[ev->name] += call_bytes(mi);
		if (mi && mi->a.op == TPROF_MPI_IO)
			mpiio_call(m->io, mi, ev->name, d);
		else if (mi && mi->a.op == TPROF_MPI_RMA)
			mpirma_call(m->rma, mi, ev->name, d);
		r->mpi = sat_add(r->mpi, d);
		r->calls++;
		break;
	}
	case EV_MPIREQ: {
		/* A receive's bytes at its completion; a persistent send's at each start: in the
		 * row of the call that made the request. */
		const struct mpi_info *mi = mpi_info_of(ev);
		const struct tprof_mpi_args *a = &mi->a;
		int started = a->flags & TPROF_MPIF_STARTED;
		int op = mpi_req_op(mi, ev->name);
		int recv = op == TPROF_MPI_IRECV, send = op == TPROF_MPI_ISEND;
		if ((recv && !started) || (send && started)) {
			ensure(m, ev->name);
			m->bytes[ev->name] += a->bytes;
		} else if (op == TPROF_MPI_ICOLL && started) {
			/* a persistent collective's instance: in the row of its MPI_*_init */
			ensure(m, ev->name);
			m->bytes[ev->name] += a->bytes + (mi->has_b ? mi->b.bytes : 0);
		}
		break;
	}
	case EV_MESSAGE: {
		const struct message_info *mi = ev->msg;
		m->messages++;
		m->msg_bytes += mi->bytes;
		if (mi->blocking) {
			/* The receive waited from its entry until the send began (not past its own
			 * return, whatever the clocks say). */
			int64_t until = mi->send_t0 < mi->recv_t1 ? mi->send_t0 : mi->recv_t1;
			int64_t late = until - mi->post_t0;
			m->blocking++;
			if (late > 0) {
				struct rankstat *r = rank_of(m, mi->rproc);
				r->late = sat_add(r->late, late);
				r->late_n++;
				m->late = sat_add(m->late, late);
				m->late_n++;
			}
		}
		break;
	}
	case EV_COLLECTIVE: {
		const struct coll_info *ci = ev->coll;
		ensure(m, ci->name);
		struct collstat *c = &m->colls[ci->name];
		c->instances++;
		c->incomplete += !!(ev->flags & EVF_INCOMPLETE);
		c->bytes += ci->bytes_sent;
		c->dur = sat_add(c->dur, ci->last_end - ci->first_begin);
		c->wait = sat_add(c->wait, ci->wait_total);
		break;
	}
	default:
		break;
	}
}

struct ranks_ctx {
	const struct mpisum *m;
	const struct sum_span *span;
	size_t *at;                 /* the table's rows: indexes into m->ranks */
};

static void rank_row(struct sumw *w, void *ctx, size_t row)
{
	const struct ranks_ctx *c = ctx;
	const struct rankstat *r = &c->m->ranks[c->at[row]];
	const struct sum_span *sp = c->span;
	const struct sum_proc *p = sum_procs_at(sp->procs, (int64_t)c->at[row]);
	int64_t a = p->start_ns - sp->tr->start_ns, b = p->end_ns - sp->tr->start_ns;
	a = a > sp->lo ? a : sp->lo;
	b = b < sp->hi ? b : sp->hi;
	int64_t covered = b > a ? b - a : 0;
	sw_obj(w, NULL);
	if (p->rank >= 0)
		sw_i64(w, "%8" PRId64 " ", "rank", p->rank);
	else
		sw_null(w, "%8s ", "rank", "-");
	sw_i64(w, NULL, "process", p->index);
	sw_dur(w, "%12s ", "time_ns", r->mpi);
	sw_dur(w, NULL, "covered_ns", covered);
	sw_real(w, "%7.1f %% ", "share_pct",
		covered > 0 ? 100.0 * (double)r->mpi / (double)covered : 0.0);
	sw_dur(w, "%12s ", "late_sender_ns", r->late);
	sw_count(w, "%8s  ", "late_receives", r->late_n);
	sw_name(w, "label", p->label);
	sw_close(w);
}

static void ranks_table(struct mpisum *m, struct sumw *w, const struct sum_span *span)
{
	size_t n = 0;
	double sum = 0, max = 0;
	size_t *at = xmallocarray(m->nranks + 1, sizeof(*at));
	double *mpi = xmallocarray(m->nranks + 1, sizeof(*mpi));
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i].calls && sum_procs_at(span->procs, (int64_t)i)) {
			mpi[n] = (double)m->ranks[i].mpi;
			at[n++] = i;
			sum += (double)m->ranks[i].mpi;
			if ((double)m->ranks[i].mpi > max)
				max = (double)m->ranks[i].mpi;
		}
	struct spread sp;
	spread_pick(w, &sp, mpi, n);
	sw_obj(w, "ranks");
	sw_if(w, n > 0);
	sw_text(w, "\nMPI by rank: time in MPI calls, its share of the rank's covered time, "
		   "late-sender wait\n");
	spread_note(w, &sp, n, "ranks", "time in MPI");
	spread_pad(w, &sp);
	sw_text(w, "%8s %12s %9s %12s %8s  %s\n", "Rank", "Time in MPI", "Share(%)",
		"Late sender", "Late", "Process");
	struct ranks_ctx c = { m, span, at };
	spread_rows(w, &sp, n, "time_ns", rank_row, &c);
	sw_count(w, "  imbalance (max/mean of time in MPI over %s processes): ", "processes", n);
	sw_real(w, "%.2f\n", "imbalance", sum > 0 ? max / (sum / (double)n) : 1.0);
	sw_endif(w);
	sw_close(w);
	free(at);
	free(mpi);
}

static void messages(struct mpisum *m, struct sumw *w, const struct mpi_totals *t)
{
	sw_obj(w, "messages");
	sw_if(w, m->messages || t->sends || t->recvs || t->unmatched_sends || t->unmatched_recvs);
	sw_text(w, "\nMPI messages\n");
	sw_count(w, "  matched:     %s messages, ", "matched", m->messages);
	sw_bytes(w, "%s", "matched_bytes", (double)m->msg_bytes);
	sw_if(w, m->messages != 0);
	sw_bytes(w, " (avg %s)", "avg_size_bytes",
		 m->messages ? (double)m->msg_bytes / (double)m->messages : 0.0);
	sw_endif(w);
	sw_text(w, "\n");
	sw_count(w, "  unmatched:   %s sends, ", "unmatched_sends", t->unmatched_sends);
	sw_count(w, "%s receives ", "unmatched_receives", t->unmatched_recvs);
	sw_count(w, "(of %s sends ", "sends", t->sends);
	sw_count(w, "and %s receives in the trace)\n", "receives", t->recvs);
	sw_if(w, t->never_completed || t->cancelled || t->proc_null);
	sw_count(w, "  no message:  %s receives never completed, ", "never_completed",
		 t->never_completed);
	sw_count(w, "%s cancelled, ", "cancelled", t->cancelled);
	sw_count(w, "%s with MPI_PROC_NULL\n", "proc_null", t->proc_null);
	sw_endif(w);
	sw_if(w, m->blocking != 0);
	sw_dur(w, "  late sender: %s ", "late_sender_ns", m->late);
	sw_count(w, "in %s ", "late_receives", m->late_n);
	sw_count(w, "of %s blocking receives\n", "blocking_receives", m->blocking);
	sw_endif(w);
	sw_endif(w);
	sw_close(w);
}

static const struct collstat *coll_base;

static int by_dur(const void *x, const void *y)
{
	const struct collstat *a = &coll_base[*(const uint32_t *)x], *b = &coll_base[*(const uint32_t *)y];
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	return strcmp(strings_get(*(const uint32_t *)x), strings_get(*(const uint32_t *)y));
}

static void coll_row(struct sumw *w, const struct collstat *c, uint32_t name)
{
	int64_t md = c->dur / (int64_t)c->instances;
	double per = (double)c->bytes / (double)c->instances;
	sw_obj(w, NULL);
	sw_count(w, "%10s ", "instances", c->instances);
	sw_u64(w, NULL, "incomplete", c->incomplete);
	sw_bytes(w, "%10s ", "bytes", (double)c->bytes);
	sw_dur(w, "%12s ", "total_ns", c->dur);
	sw_dur(w, "%12s ", "mean_ns", md);
	if (md > 0 && c->bytes) {
		char bw[40];
		double bps = per / (double)md * 1e9;
		fmt_bytes(bps, bw, sizeof(bw) - 2);
		strcat(bw, "/s");
		sw_num(w, "%12s ", "bandwidth_Bps", bps, bw);
	} else {
		sw_null(w, "%12s ", "bandwidth_Bps", "-");
	}
	sw_dur(w, "%12s  ", "wait_ns", c->wait);
	sw_name(w, "name", strings_get(name));
	sw_close(w);
}

static void colls_table(struct mpisum *m, struct sumw *w, const struct mpi_totals *t, int top)
{
	uint32_t *ids = xmallocarray(m->cap ? m->cap : 1, sizeof(*ids));
	size_t n = 0;
	for (uint32_t id = 0; id < m->cap; id++)
		if (m->colls[id].instances)
			ids[n++] = id;
	coll_base = m->colls;
	if (n > 1)
		qsort(ids, n, sizeof(*ids), by_dur);
	sw_obj(w, "collectives");
	sw_if(w, n > 0);
	sw_text(w, "\nMPI collectives: duration from the first entry to the last exit; wait: "
		   "members' time before the last arrived\n%10s %10s %12s %12s %12s %12s  %s\n",
		"Instances", "Bytes", "Total", "Mean", "Bandwidth", "Wait", "Name");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	for (size_t i = 0; i < shown; i++)
		coll_row(w, &m->colls[ids[i]], ids[i]);
	sw_close(w);
	table_more(w, n - shown);
	sw_if(w, m->cap && (t->colls_incomplete || t->colls_name_mismatch));
	sw_count(w, "  incomplete:  %s collectives not found on every member; ", "incomplete",
		 t->colls_incomplete);
	sw_count(w, "%s with members calling different functions\n", "names_differ",
		 t->colls_name_mismatch);
	sw_endif(w);
	sw_close(w);
	free(ids);
}

static void clock_row(struct sumw *w, void *ctx, size_t i)
{
	static const char *const when[] = { "MPI_Init", "MPI_Finalize" };
	static const char *const verdict[] = {
		[CSYNC_APPLIED] = "yes",
		[CSYNC_SHARED_CLOCK] = "no (shared clock)",
		[CSYNC_NO_REFERENCE] = "no (no reference)",
	};
	const struct clock_meas *m = &((const struct clock_meas *)ctx)[i];
	sw_obj(w, NULL);
	sw_i64(w, "%8" PRId64 " ", "rank", m->rank);
	sw_i64(w, NULL, "process", m->index);
	sw_str(w, "%-13s ", "measured_at", m->when >= 0 && m->when < 2 ? when[m->when] : "?");
	if (m->verdict == CSYNC_NO_REFERENCE) {
		sw_null(w, "%16s ", "offset_ns", "?");
		sw_null(w, "%12s  ", "round_trip_ns", "?");
	} else {
		sw_i64(w, "%+16" PRId64 " ", "offset_ns", m->delta);
		sw_dur(w, "%12s  ", "round_trip_ns", m->rtt);
	}
	sw_bool(w, "applied", m->verdict == CSYNC_APPLIED);
	sw_str(w, "%-18s ", "verdict",
	       m->verdict >= 0 && m->verdict <= CSYNC_NO_REFERENCE ? verdict[m->verdict] : "?");
	sw_name(w, "label", m->label);
	sw_close(w);
}

/* This analysis process's clock measurements, added to those merged in (m->clocks). */
static void clocks_of(struct mpisum *m, const struct trace *tr)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		for (size_t k = 0; k < p->ncsync; k++) {
			char label[512];
			m->clocks = xreallocarray(m->clocks, m->nclocks + 1, sizeof(*m->clocks));
			m->clocks[m->nclocks++] = (struct clock_meas){
				p->rank, p->index, k, p->csync[k].when, p->csync_verdict,
				p->csync[k].delta, p->csync[k].rtt_ns,
				xstrdup(proc_label(p, label, sizeof(label))) };
		}
	}
}

static int by_process(const void *a, const void *b)
{
	const struct clock_meas *x = a, *y = b;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static void clock_table(struct mpisum *m, struct sumw *w)
{
	size_t n = m->nclocks;
	if (n > 1)
		qsort(m->clocks, n, sizeof(*m->clocks), by_process);
	double *off = xmallocarray(n + 1, sizeof(*off));
	for (size_t i = 0; i < n; i++)   /* how far the clocks were apart; one without a
					  * reference, not at all */
		off[i] = m->clocks[i].verdict == CSYNC_NO_REFERENCE ? 0.0
			 : fabs((double)m->clocks[i].delta);
	struct spread sp;
	spread_pick(w, &sp, off, n);
	sw_obj(w, "clock_alignment");
	sw_if(w, n > 0);
	sw_text(w, "\nClock alignment: offset = the rank's clock minus rank 0's (ns), subtracted "
		   "when applied\n");
	spread_note(w, &sp, n, "measurements", "distant clocks");
	spread_pad(w, &sp);
	sw_text(w, "%8s %-13s %16s %12s  %-18s %s\n", "Rank", "Measured at", "Offset (ns)",
		"Round trip", "Applied", "Process");
	sw_endif(w);
	spread_rows(w, &sp, n, "offset_ns", clock_row, m->clocks);
	sw_close(w);
	free(off);
}

/* ---- the parallel analyzer's partial tables ---------------------------------------------- */

static void totals_add(struct mpi_totals *t, const struct mpi_totals *o)
{
	uint64_t *a = (uint64_t *)t;
	const uint64_t *b = (const uint64_t *)o;
	_Static_assert(sizeof(*t) % sizeof(uint64_t) == 0, "mpi_totals holds counts only");
	for (size_t i = 0; i < sizeof(*t) / sizeof(uint64_t); i++)
		a[i] += b[i];
}

void mpisum_pack(struct mpisum *m, const struct sum_span *span, struct pack *b)
{
	uint64_t n = 0;
	for (uint32_t id = 0; id < m->cap; id++)
		n += m->calls[id].calls || m->bytes[id] || m->colls[id].instances;
	pack_u64(b, n);
	for (uint32_t id = 0; id < m->cap; id++) {
		const struct agg *a = &m->calls[id];
		const struct collstat *c = &m->colls[id];
		if (!a->calls && !m->bytes[id] && !c->instances)
			continue;
		agg_pack(b, id, a);
		pack_u64(b, m->bytes[id]);
		pack_bytes(b, c, sizeof(*c));
	}
	n = 0;
	for (size_t i = 0; i < m->nranks; i++)
		n += m->ranks[i].calls || m->ranks[i].late_n;
	pack_u64(b, n);
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i].calls || m->ranks[i].late_n) {
			pack_u64(b, i);
			pack_bytes(b, &m->ranks[i], sizeof(m->ranks[i]));
		}
	pack_u64(b, m->messages);
	pack_u64(b, m->msg_bytes);
	pack_u64(b, m->blocking);
	pack_u64(b, m->late_n);
	pack_i64(b, m->late);
	pack_i64(b, m->any);
	pack_bytes(b, &span->tr->mpi, sizeof(span->tr->mpi));
	mpiio_pack(m->io, b);
	mpirma_pack(m->rma, b);
	clocks_of(m, span->tr);
	m->packed = 1;
	pack_u64(b, m->nclocks);
	for (size_t i = 0; i < m->nclocks; i++) {
		const struct clock_meas *c = &m->clocks[i];
		pack_i64(b, c->rank);
		pack_i64(b, c->index);
		pack_u64(b, c->k);
		pack_i64(b, c->when);
		pack_i64(b, c->verdict);
		pack_i64(b, c->delta);
		pack_i64(b, c->rtt);
		pack_str(b, c->label);
	}
}

void mpisum_merge(struct mpisum *m, const struct sum_span *span, struct unpack *u)
{
	(void)span;
	for (size_t i = 0, n = unpack_count(u, 6 * sizeof(uint64_t)); i < n; i++) {
		struct agg a;
		struct collstat c;
		uint32_t id = agg_unpack(u, &a);
		ensure(m, id);
		agg_merge(&m->calls[id], &a);
		m->bytes[id] += unpack_u64(u);
		unpack_bytes(u, &c, sizeof(c));
		struct collstat *to = &m->colls[id];
		to->instances += c.instances;
		to->incomplete += c.incomplete;
		to->bytes += c.bytes;
		to->dur = sat_add(to->dur, c.dur);
		to->wait = sat_add(to->wait, c.wait);
	}
	for (size_t i = 0, n = unpack_count(u, sizeof(uint64_t) + sizeof(struct rankstat)); i < n;
	     i++) {
		uint64_t at = unpack_u64(u);
		struct rankstat r;
		unpack_bytes(u, &r, sizeof(r));
		if (at > INT32_MAX)
			continue;
		struct proc p = { .index = (int)at };
		struct rankstat *to = rank_of(m, &p);
		to->mpi = sat_add(to->mpi, r.mpi);
		to->late = sat_add(to->late, r.late);
		to->late_n += r.late_n;
		to->calls += r.calls;
	}
	m->messages += unpack_u64(u);
	m->msg_bytes += unpack_u64(u);
	m->blocking += unpack_u64(u);
	m->late_n += unpack_u64(u);
	m->late = sat_add(m->late, unpack_i64(u));
	m->any |= unpack_i64(u) != 0;
	struct mpi_totals t;
	unpack_bytes(u, &t, sizeof(t));
	totals_add(&m->others, &t);
	mpiio_merge(m->io, u);
	mpirma_merge(m->rma, u);
	for (size_t i = 0, n = unpack_count(u, 8 * sizeof(uint64_t)); i < n; i++) {
		struct clock_meas c;
		c.rank = unpack_i64(u);
		c.index = unpack_i64(u);
		c.k = unpack_u64(u);
		c.when = unpack_i64(u);
		c.verdict = unpack_i64(u);
		c.delta = unpack_i64(u);
		c.rtt = unpack_i64(u);
		c.label = unpack_strdup(u);
		m->clocks = xreallocarray(m->clocks, m->nclocks + 1, sizeof(*m->clocks));
		m->clocks[m->nclocks++] = c;
	}
}

void mpisum_end(struct mpisum *m, struct sumw *w, const struct sum_span *span, int top)
{
	const struct trace *tr = span->tr;
	struct mpi_totals t = tr->mpi;   /* this analysis process's, and the others' */
	totals_add(&t, &m->others);
	if (!m->packed)
		clocks_of(m, tr);
	sw_obj(w, "mpi");
	time_table_print_bytes(w, "calls", "MPI", m->calls, m->bytes, m->cap, top);
	ranks_table(m, w, span);
	messages(m, w, &t);
	colls_table(m, w, &t, top);
	mpiio_end(m->io, w, top);
	mpirma_end(m->rma, w, &t, top);
	clock_table(m, w);
	sw_close(w);
	for (size_t i = 0; i < m->nclocks; i++)
		free(m->clocks[i].label);
	free(m->clocks);
	free(m->calls);
	free(m->bytes);
	free(m->colls);
	free(m->ranks);
	free(m);
}

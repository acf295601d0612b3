/* runtimes/mpi/summary.c — the summary's MPI part: MPI calls by total time with the bytes they moved;
 * per rank the time in MPI, its share of the rank's covered time and the late-sender wait,
 * with the imbalance across ranks; the messages matched and left unmatched; collectives by
 * call (instances, bytes, mean duration from first entry to last exit, effective bandwidth,
 * the time members waited for the last to arrive); and what clock alignment did. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "summary.h"
#include "../../summary/table.h"

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

struct mpisum {
	struct agg *calls;          /* by name id */
	uint64_t *bytes;
	struct collstat *colls;     /* by name id */
	size_t cap;
	struct rankstat *ranks;     /* by process index */
	size_t nranks;
	uint64_t messages, msg_bytes, blocking, late_n;
	int64_t late;
	int any;
};

struct mpisum *mpisum_new(void)
{
	struct mpisum *m = calloc(1, sizeof(*m));
	if (!m)
		abort();
	return m;
}

static void ensure(struct mpisum *m, uint32_t id)
{
	if (id < m->cap)
		return;
	size_t n = m->cap ? m->cap : 256;
	while (n <= id)
		n *= 2;
	m->calls = realloc(m->calls, n * sizeof(*m->calls));
	m->bytes = realloc(m->bytes, n * sizeof(*m->bytes));
	m->colls = realloc(m->colls, n * sizeof(*m->colls));
	if (!m->calls || !m->bytes || !m->colls)
		abort();
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
		m->ranks = realloc(m->ranks, n * sizeof(*m->ranks));
		if (!m->ranks)
			abort();
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
			r->mpi += pi->busy;
			r->calls += pi->polls;
			break;
		}
		ensure(m, ev->name);
		int64_t d = ev->t1 - ev->t0;
		agg_add(&m->calls[ev->name], d);
		if (ev->mpi)
			m->bytes[ev->name] += call_bytes(ev->mpi);
		r->mpi += d;
		r->calls++;
		break;
	}
	case EV_MPIREQ: {
		/* A receive's bytes at its completion; a persistent send's at each start: in the
		 * row of the call that made the request. */
		const struct tprof_mpi_args *a = &ev->mpi->a;
		int started = a->flags & TPROF_MPIF_STARTED;
		int op = mpi_req_op(ev->mpi, ev->name);
		int recv = op == TPROF_MPI_IRECV, send = op == TPROF_MPI_ISEND;
		if ((recv && !started) || (send && started)) {
			ensure(m, ev->name);
			m->bytes[ev->name] += a->bytes;
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
				r->late += late;
				r->late_n++;
				m->late += late;
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
		c->dur += ci->last_end - ci->first_begin;
		c->wait += ci->wait_total;
		break;
	}
	default:
		break;
	}
}

static const struct proc *proc_at(const struct trace *tr, size_t index)
{
	for (size_t k = 0; k < tr->nprocs; k++)
		if (tr->procs[k]->index == (int)index)
			return tr->procs[k];
	return NULL;
}

static void ranks_table(struct mpisum *m, FILE *f, const struct trace *tr, int64_t lo, int64_t hi)
{
	size_t n = 0;
	double sum = 0, max = 0;
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i].calls) {
			n++;
			sum += (double)m->ranks[i].mpi;
			if ((double)m->ranks[i].mpi > max)
				max = (double)m->ranks[i].mpi;
		}
	if (!n)
		return;
	fprintf(f, "\nMPI by rank: time in MPI calls, its share of the rank's covered time, "
		   "late-sender wait\n%8s %12s %9s %12s %8s  %s\n", "Rank", "Time in MPI", "Share(%)",
		"Late sender", "Late", "Process");
	for (size_t i = 0; i < m->nranks; i++) {
		const struct rankstat *r = &m->ranks[i];
		const struct proc *p = proc_at(tr, i);
		if (!r->calls || !p)
			continue;
		int64_t a = p->start_ns - tr->start_ns, b = p->end_ns - tr->start_ns;
		a = a > lo ? a : lo;
		b = b < hi ? b : hi;
		int64_t covered = b > a ? b - a : 0;
		char rank[24], t[32], l[32], c[32], label[512];
		if (p->rank >= 0)
			snprintf(rank, sizeof(rank), "%lld", (long long)p->rank);
		else
			snprintf(rank, sizeof(rank), "-");
		fprintf(f, "%8s %12s %7.1f %% %12s %8s  ", rank, fmt_dur(r->mpi, t, 32),
			covered > 0 ? 100.0 * (double)r->mpi / (double)covered : 0.0,
			fmt_dur(r->late, l, 32), fmt_count(r->late_n, c, 32));
		put_name(f, proc_label(p, label, sizeof(label)));
	}
	fprintf(f, "  imbalance (max/mean of time in MPI over %zu processes): %.2f\n", n,
		sum > 0 ? max / (sum / (double)n) : 1.0);
}

static void messages(struct mpisum *m, FILE *f, const struct trace *tr)
{
	const struct mpi_totals *t = &tr->mpi;
	if (!m->messages && !t->sends && !t->recvs && !t->unmatched_sends && !t->unmatched_recvs)
		return;
	char a[32], b[32], c[32], d[32];
	fprintf(f, "\nMPI messages\n");
	fprintf(f, "  matched:     %s messages, %s", fmt_count(m->messages, a, 32),
		fmt_bytes((double)m->msg_bytes, b, 32));
	if (m->messages)
		fprintf(f, " (avg %s)", fmt_bytes((double)m->msg_bytes / (double)m->messages, c, 32));
	fputc('\n', f);
	fprintf(f, "  unmatched:   %s sends, %s receives (of %s sends and %s receives in the trace)\n",
		fmt_count(t->unmatched_sends, a, 32), fmt_count(t->unmatched_recvs, b, 32),
		fmt_count(t->sends, c, 32), fmt_count(t->recvs, d, 32));
	if (t->never_completed || t->cancelled || t->proc_null)
		fprintf(f, "  no message:  %s receives never completed, %s cancelled, %s with "
			   "MPI_PROC_NULL\n", fmt_count(t->never_completed, a, 32),
			fmt_count(t->cancelled, b, 32), fmt_count(t->proc_null, c, 32));
	if (m->blocking)
		fprintf(f, "  late sender: %s in %s of %s blocking receives\n", fmt_dur(m->late, a, 32),
			fmt_count(m->late_n, b, 32), fmt_count(m->blocking, c, 32));
}

static const struct collstat *coll_base;

static int by_dur(const void *x, const void *y)
{
	const struct collstat *a = &coll_base[*(const uint32_t *)x], *b = &coll_base[*(const uint32_t *)y];
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	return strcmp(strings_get(*(const uint32_t *)x), strings_get(*(const uint32_t *)y));
}

static void colls_table(struct mpisum *m, FILE *f, const struct trace *tr, int top)
{
	uint32_t *ids = malloc((m->cap ? m->cap : 1) * sizeof(*ids));
	size_t n = 0;
	if (!ids)
		abort();
	for (uint32_t id = 0; id < m->cap; id++)
		if (m->colls[id].instances)
			ids[n++] = id;
	if (n) {
		coll_base = m->colls;
		if (n > 1)
			qsort(ids, n, sizeof(*ids), by_dur);
		fprintf(f, "\nMPI collectives: duration from the first entry to the last exit; wait: "
			   "members' time before the last arrived\n%10s %10s %12s %12s %12s %12s  %s\n",
			"Instances", "Bytes", "Total", "Mean", "Bandwidth", "Wait", "Name");
		size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
		for (size_t i = 0; i < shown; i++) {
			const struct collstat *c = &m->colls[ids[i]];
			char a[32], b[32], t[32], mean[32], w[32], bw[40] = "-";
			int64_t md = c->dur / (int64_t)c->instances;
			double per = (double)c->bytes / (double)c->instances;
			if (md > 0 && c->bytes) {
				fmt_bytes(per / (double)md * 1e9, bw, sizeof(bw) - 2);
				strcat(bw, "/s");
			}
			fprintf(f, "%10s %10s %12s %12s %12s %12s  ", fmt_count(c->instances, a, 32),
				fmt_bytes((double)c->bytes, b, 32), fmt_dur(c->dur, t, 32),
				fmt_dur(md, mean, 32), bw, fmt_dur(c->wait, w, 32));
			put_name(f, strings_get(ids[i]));
		}
		if (shown < n)
			fprintf(f, "  ... %zu more (--top 0 shows all)\n", n - shown);
	}
	const struct mpi_totals *t = &tr->mpi;
	if (t->colls_incomplete || t->colls_name_mismatch) {
		char a[32], b[32];
		fprintf(f, "  incomplete:  %s collectives not found on every member; %s with members "
			   "calling different functions\n", fmt_count(t->colls_incomplete, a, 32),
			fmt_count(t->colls_name_mismatch, b, 32));
	}
	free(ids);
}

static void clock_table(FILE *f, const struct trace *tr)
{
	static const char *const when[] = { "MPI_Init", "MPI_Finalize" };
	static const char *const verdict[] = {
		[CSYNC_APPLIED] = "yes",
		[CSYNC_SHARED_CLOCK] = "no (shared clock)",
		[CSYNC_NO_REFERENCE] = "no (no reference)",
	};
	int any = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		for (size_t k = 0; k < p->ncsync; k++) {
			const struct csync *m = &p->csync[k];
			if (!any++)
				fprintf(f, "\nClock alignment: offset = the rank's clock minus rank 0's "
					   "(ns), subtracted when applied\n%8s %-13s %16s %12s  %-18s %s\n",
					"Rank", "Measured at", "Offset (ns)", "Round trip", "Applied",
					"Process");
			char rank[24], rt[32], label[512];
			snprintf(rank, sizeof(rank), "%lld", (long long)p->rank);
			if (p->csync_verdict == CSYNC_NO_REFERENCE)
				fprintf(f, "%8s %-13s %16s %12s  %-18s ", rank,
					m->when < 2 ? when[m->when] : "?", "?", "?", verdict[p->csync_verdict]);
			else
				fprintf(f, "%8s %-13s %+16lld %12s  %-18s ", rank,
					m->when < 2 ? when[m->when] : "?", (long long)m->delta,
					fmt_dur(m->rtt_ns, rt, 32), verdict[p->csync_verdict]);
			put_name(f, proc_label(p, label, sizeof(label)));
		}
	}
}

void mpisum_end(struct mpisum *m, FILE *f, const struct trace *tr, int64_t lo, int64_t hi, int top)
{
	if (m->cap)
		time_table_print_bytes(f, "MPI", m->calls, m->bytes, m->cap, top);
	ranks_table(m, f, tr, lo, hi);
	messages(m, f, tr);
	if (m->cap)
		colls_table(m, f, tr, top);
	clock_table(f, tr);
	free(m->calls);
	free(m->bytes);
	free(m->colls);
	free(m->ranks);
	free(m);
}

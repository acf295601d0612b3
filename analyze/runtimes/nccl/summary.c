/* runtimes/nccl/summary.c — the summary's NCCL/RCCL part.
 *
 * "NCCL API": every call by total host time, with the bytes its operation moves.
 * "NCCL collectives": one row per operation (or group composition), size and communicator
 * size, from the instances the NCCL stage lined up across ranks (EV_NCCL): how many, the
 * device time of the ranks' parts (total, and the average over every rank's part of every
 * instance, as nccl-tests averages over iterations and ranks), the algorithm and bus
 * bandwidth nccl-tests would report for that average time (S / t and S / t x factor, GB/s
 * with 1 GB = 1e9 B; S and the factor per collective as in nccl.h), and the slowest rank's
 * wait: per instance, the time from the first rank's entry into the launching call to the
 * last rank's, averaged and maximal over the row's instances, with the rank that was last
 * most often.  A group is one row per composition: its device span is the time of all its
 * operations together, its size the sum of its collectives' S plus the larger of the bytes
 * it sent and received.  Instances with a rank, a counterpart or a span missing are counted
 * apart and say so.
 * "NCCL send/receive": the sends matched with their receives, by communicator and pair of
 * ranks, in that order. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "nccl.h"
#include "summary.h"
#include "../../summary/spread.h"
#include "../../summary/table.h"
#include "../../util/grow.h"
#include "../../util/pack.h"

struct crow {
	uint32_t label;
	double alg, bus;                /* S and bus bytes of one rank's part */
	int32_t nranks;
	int single;                     /* one operation: count and type mean something */
	uint64_t count;
	uint8_t dtype;
	uint64_t calls, incomplete;
	uint64_t spans, untimed;        /* ranks' parts with a device span, without */
	int64_t total;                  /* device time of the parts with a span */
	uint64_t waits;
	int64_t wait_sum, wait_max;
	uint64_t *last;                 /* by rank: instances it entered last */
	uint32_t nlast;
};

struct prow {
	uint64_t comm;
	int32_t src, dst;
	uint64_t msgs, bytes;
};

struct ncclsum {
	struct agg *calls;              /* by name id */
	uint64_t *bytes;
	size_t cap;
	struct crow *rows;
	size_t nrows, caprows;
	struct prow *pairs;
	size_t npairs, cappairs;
	uint64_t instances, incomplete, unmatched, untimed, p2p_unmatched;
};

struct ncclsum *ncclsum_new(void)
{
	struct ncclsum *m = xcalloc(1, sizeof(*m));
	return m;
}

static void ensure(struct ncclsum *m, uint32_t id)
{
	if (id < m->cap)
		return;
	size_t n = m->cap ? m->cap : 256;
	while (n <= id)
		n *= 2;
	m->calls = xreallocarray(m->calls, n, sizeof(*m->calls));
	m->bytes = xreallocarray(m->bytes, n, sizeof(*m->bytes));
	memset(m->calls + m->cap, 0, (n - m->cap) * sizeof(*m->calls));
	memset(m->bytes + m->cap, 0, (n - m->cap) * sizeof(*m->bytes));
	m->cap = n;
}

/* The row of key k (its label, sizes, communicator size, and for a single operation its count
 * and type), made when new. */
static struct crow *row_find(struct ncclsum *m, const struct crow *k)
{
	for (size_t i = 0; i < m->nrows; i++) {
		struct crow *r = &m->rows[i];
		if (r->label == k->label && r->alg == k->alg && r->bus == k->bus &&
		    r->nranks == k->nranks && r->single == k->single &&
		    (!k->single || (r->dtype == k->dtype && r->count == k->count)))
			return r;
	}
	m->rows = util_grow(m->rows, &m->caprows, m->nrows, sizeof(*m->rows), 16);
	struct crow *r = &m->rows[m->nrows++];
	memset(r, 0, sizeof(*r));
	r->label = k->label;
	r->alg = k->alg;
	r->bus = k->bus;
	r->nranks = k->nranks;
	r->single = k->single;
	if (k->single) {
		r->count = k->count;
		r->dtype = k->dtype;
	}
	return r;
}

static struct crow *row_of(struct ncclsum *m, const struct nccl_launch *l)
{
	struct crow k = { .label = l->label, .alg = l->algbytes, .bus = l->busbytes,
			  .nranks = l->nranks, .single = l->nops == 1 && !l->group };
	if (k.single) {
		k.count = l->ops[0].count;
		k.dtype = l->ops[0].dtype;
	}
	return row_find(m, &k);
}

/* n more instances that rank entered last. */
static void last_rank(struct crow *r, int32_t rank, uint64_t n)
{
	if (rank < 0 || rank >= (1 << 20))
		return;
	if ((uint32_t)rank >= r->nlast) {
		uint32_t want = (uint32_t)rank + 1;
		r->last = xreallocarray(r->last, want, sizeof(*r->last));
		memset(r->last + r->nlast, 0, (want - r->nlast) * sizeof(*r->last));
		r->nlast = want;
	}
	r->last[rank] += n;
}

static struct prow *pair_of(struct ncclsum *m, uint64_t comm, int32_t src, int32_t dst)
{
	for (size_t i = 0; i < m->npairs; i++)
		if (m->pairs[i].comm == comm && m->pairs[i].src == src && m->pairs[i].dst == dst)
			return &m->pairs[i];
	m->pairs = util_grow(m->pairs, &m->cappairs, m->npairs, sizeof(*m->pairs), 16);
	struct prow *p = &m->pairs[m->npairs++];
	*p = (struct prow){ .comm = comm, .src = src, .dst = dst };
	return p;
}

static void pair(struct ncclsum *m, const struct nccl_link *k)
{
	struct prow *p = pair_of(m, k->comm, k->src, k->dst);
	p->msgs++;
	p->bytes += k->bytes;
}

static void instance(struct ncclsum *m, const struct nccl_inst *in)
{
	const struct nccl_launch *first = NULL;
	for (uint32_t i = 0; i < in->nl && !first; i++)
		if (in->l[i].nops)
			first = &in->l[i];
	m->instances++;
	m->incomplete += !!in->incomplete;
	m->unmatched += in->unmatched;
	for (uint32_t i = 0; i < in->nl; i++)
		for (uint32_t k = 0; k < in->l[i].nops; k++)
			m->p2p_unmatched += nccl_op_is_p2p(in->l[i].ops[k].op) && !in->l[i].ops[k].matched;
	for (uint32_t k = 0; k < in->nlinks; k++)
		pair(m, &in->links[k]);
	if (!first)
		return;   /* device spans whose calls were not recorded */
	struct crow *r = row_of(m, first);
	r->calls++;
	r->incomplete += !!in->incomplete;
	for (uint32_t i = 0; i < in->nl; i++) {
		const struct nccl_launch *l = &in->l[i];
		if (!l->nops)
			continue;
		if (l->nspans) {
			r->spans++;
			r->total = sat_add(r->total, sat_sub(l->dev_t1, l->dev_t0));
		} else {
			r->untimed++;
			m->untimed++;
		}
	}
	uint32_t entered = 0;
	for (uint32_t i = 0; i < in->nl; i++)
		entered += in->l[i].thread != NULL;
	if (entered >= 2) {
		int64_t w = in->last_entry - in->first_entry;
		r->waits++;
		r->wait_sum = sat_add(r->wait_sum, w);
		if (w > r->wait_max)
			r->wait_max = w;
		last_rank(r, in->last_rank, 1);
	}
}

void ncclsum_event(struct ncclsum *m, const struct event *ev)
{
	if (ev->kind == EV_NCCL) {
		if (!nccl_inst_of(ev)->copy)     /* counted where it was matched */
			instance(m, nccl_inst_of(ev));
		return;
	}
	if (ev->kind != EV_CALL)
		return;
	ensure(m, ev->name);
	agg_add(&m->calls[ev->name], ev->t1 - ev->t0);
	const struct nccl_info *ni = nccl_info_of(ev);
	if (ni && (nccl_op_is_coll(ni->a.op) || nccl_op_is_p2p(ni->a.op)))
		m->bytes[ev->name] += ni->a.bytes;
}

/* ---- the parallel analyzer: each analysis process's tables, merged by the first ---------- */

void ncclsum_pack(const struct ncclsum *m, struct pack *b)
{
	uint64_t n = 0;
	for (uint32_t id = 0; id < m->cap; id++)
		n += m->calls[id].calls || m->bytes[id];
	pack_u64(b, n);
	for (uint32_t id = 0; id < m->cap; id++)
		if (m->calls[id].calls || m->bytes[id]) {
			agg_pack(b, id, &m->calls[id]);
			pack_u64(b, m->bytes[id]);
		}
	pack_u64(b, m->nrows);
	for (size_t i = 0; i < m->nrows; i++) {
		const struct crow *r = &m->rows[i];
		pack_name(b, r->label);
		pack_f64(b, r->alg);
		pack_f64(b, r->bus);
		pack_i64(b, r->nranks);
		pack_u64(b, (uint64_t)r->single);
		pack_u64(b, r->count);
		pack_u64(b, r->dtype);
		pack_u64(b, r->calls);
		pack_u64(b, r->incomplete);
		pack_u64(b, r->spans);
		pack_u64(b, r->untimed);
		pack_i64(b, r->total);
		pack_u64(b, r->waits);
		pack_i64(b, r->wait_sum);
		pack_i64(b, r->wait_max);
		uint64_t ranks = 0;
		for (uint32_t k = 0; k < r->nlast; k++)
			ranks += r->last[k] != 0;
		pack_u64(b, ranks);
		for (uint32_t k = 0; k < r->nlast; k++)
			if (r->last[k]) {
				pack_u64(b, k);
				pack_u64(b, r->last[k]);
			}
	}
	pack_u64(b, m->npairs);
	for (size_t i = 0; i < m->npairs; i++) {
		const struct prow *p = &m->pairs[i];
		pack_u64(b, p->comm);
		pack_i64(b, p->src);
		pack_i64(b, p->dst);
		pack_u64(b, p->msgs);
		pack_u64(b, p->bytes);
	}
	pack_u64(b, m->instances);
	pack_u64(b, m->incomplete);
	pack_u64(b, m->unmatched);
	pack_u64(b, m->untimed);
	pack_u64(b, m->p2p_unmatched);
}

void ncclsum_merge(struct ncclsum *m, struct unpack *u)
{
	for (size_t i = 0, n = aggs_unpack_count(u); i < n; i++) {
		struct agg a;
		uint32_t id = agg_unpack(u, &a);
		ensure(m, id);
		agg_merge(&m->calls[id], &a);
		m->bytes[id] += unpack_u64(u);
	}
	for (size_t i = 0, n = unpack_count(u, 18 * sizeof(uint64_t)); i < n; i++) {
		struct crow k = { 0 };
		k.label = unpack_name(u);
		k.alg = unpack_f64(u);
		k.bus = unpack_f64(u);
		k.nranks = (int32_t)unpack_i64(u);
		k.single = unpack_u64(u) != 0;
		k.count = unpack_u64(u);
		k.dtype = (uint8_t)unpack_u64(u);
		struct crow *r = row_find(m, &k);
		r->calls += unpack_u64(u);
		r->incomplete += unpack_u64(u);
		r->spans += unpack_u64(u);
		r->untimed += unpack_u64(u);
		r->total = sat_add(r->total, unpack_i64(u));
		r->waits += unpack_u64(u);
		r->wait_sum = sat_add(r->wait_sum, unpack_i64(u));
		int64_t wmax = unpack_i64(u);
		if (wmax > r->wait_max)
			r->wait_max = wmax;
		for (size_t j = 0, nl = unpack_count(u, 2 * sizeof(uint64_t)); j < nl; j++) {
			uint64_t rank = unpack_u64(u), times = unpack_u64(u);
			if (rank < (1u << 20))
				last_rank(r, (int32_t)rank, times);
		}
	}
	for (size_t i = 0, n = unpack_count(u, 5 * sizeof(uint64_t)); i < n; i++) {
		uint64_t comm = unpack_u64(u);
		int32_t src = (int32_t)unpack_i64(u), dst = (int32_t)unpack_i64(u);
		struct prow *p = pair_of(m, comm, src, dst);
		p->msgs += unpack_u64(u);
		p->bytes += unpack_u64(u);
	}
	m->instances += unpack_u64(u);
	m->incomplete += unpack_u64(u);
	m->unmatched += unpack_u64(u);
	m->untimed += unpack_u64(u);
	m->p2p_unmatched += unpack_u64(u);
}

/* GB/s (bytes per ns) with four significant digits, or "-". */
static const char *fmt_bw(double bytes, double ns, char *buf, size_t len)
{
	if (ns <= 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	double v = bytes / ns;
	snprintf(buf, len, v >= 1000 ? "%.0f" : v >= 100 ? "%.1f" : v >= 10 ? "%.2f" : v >= 1 ? "%.3f" : "%.4f", v);
	return buf;
}

static const struct crow *row_base;

static int by_total(const void *a, const void *b)
{
	const struct crow *x = &row_base[*(const uint32_t *)a], *y = &row_base[*(const uint32_t *)b];
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	int c = strcmp(strings_get(x->label), strings_get(y->label));
	if (c)
		return c;
	if (x->alg != y->alg)
		return x->alg < y->alg ? -1 : 1;
	if (x->bus != y->bus)
		return x->bus < y->bus ? -1 : 1;
	if (x->nranks != y->nranks)
		return x->nranks < y->nranks ? -1 : 1;
	if (x->single != y->single)
		return x->single < y->single ? -1 : 1;
	if (x->dtype != y->dtype)
		return x->dtype < y->dtype ? -1 : 1;
	return x->count < y->count ? -1 : x->count > y->count;
}

static void crow_write(struct sumw *w, const struct crow *r)
{
	char bw[32];
	double a = r->spans ? (double)r->total / (double)r->spans : 0;
	sw_obj(w, NULL);
	sw_count(w, "%8s ", "calls", r->calls);
	sw_i64(w, "%6" PRId64 " ", "ranks", r->nranks);
	sw_real(w, "%14.0f ", "size_bytes", r->alg);
	sw_real(w, NULL, "bus_bytes", r->bus);
	if (r->single) {
		sw_count(w, "%12s ", "count", r->count);
		sw_str(w, "%-10s ", "type", nccl_dtype_name(r->dtype));
	} else {
		sw_null(w, "%12s ", "count", "-");
		sw_null(w, "%-10s ", "type", "-");
	}
	sw_u64(w, NULL, "timed_parts", r->spans);
	if (r->spans) {
		sw_dur(w, "%12s ", "total_ns", r->total);
		sw_dur(w, "%12s ", "avg_ns", (int64_t)(a + 0.5));
	} else {
		sw_null(w, "%12s ", "total_ns", "-");
		sw_null(w, "%12s ", "avg_ns", "-");
	}
	sw_num(w, "%9s ", "algbw_GBps", a > 0 ? r->alg / a : NAN, fmt_bw(r->alg, a, bw, 32));
	sw_num(w, "%9s ", "busbw_GBps", a > 0 ? r->bus / a : NAN, fmt_bw(r->bus, a, bw, 32));
	sw_u64(w, NULL, "wait_instances", r->waits);
	if (r->waits) {
		sw_dur(w, "%12s ", "wait_avg_ns", r->wait_sum / (int64_t)r->waits);
		sw_dur(w, "%12s  ", "wait_max_ns", r->wait_max);
	} else {
		sw_null(w, "%12s ", "wait_avg_ns", "-");
		sw_null(w, "%12s  ", "wait_max_ns", "-");
	}
	uint32_t best = 0;
	for (uint32_t k = 1; k < r->nlast; k++)
		if (r->last[k] > r->last[best])
			best = k;
	char last[48] = "-";
	if (r->nlast && r->last[best]) {
		snprintf(last, sizeof(last), "%u (%" PRIu64 "/%" PRIu64 ")", best, r->last[best],
			 r->waits);
		sw_u64(w, NULL, "last_in_rank", best);
		sw_u64(w, NULL, "last_in_count", r->last[best]);
	} else {
		sw_null(w, NULL, "last_in_rank", NULL);
		sw_u64(w, NULL, "last_in_count", 0);
	}
	sw_str(w, "%-11s ", NULL, last);
	sw_name(w, "name", strings_get(r->label));
	sw_if(w, r->incomplete || r->untimed);
	sw_text(w, "%8s   of which ", "");
	sw_u64(w, "%" PRIu64 " incomplete; ", "incomplete", r->incomplete);
	sw_u64(w, "%" PRIu64 " ranks' parts untimed\n", "untimed_parts", r->untimed);
	sw_endif(w);
	sw_close(w);
}

static void colls_table(struct ncclsum *m, struct sumw *w, int top)
{
	uint32_t *ids = xmallocarray(m->nrows ? m->nrows : 1, sizeof(*ids));
	for (uint32_t i = 0; i < m->nrows; i++)
		ids[i] = i;
	row_base = m->rows;
	if (m->nrows > 1)
		qsort(ids, m->nrows, sizeof(*ids), by_total);
	sw_obj(w, "collectives");
	sw_if(w, m->nrows > 0);
	sw_text(w, "\nNCCL collectives: device time of each rank's part; bandwidth as nccl-tests "
		   "computes it from the average (GB/s, 1 GB = 1e9 B); wait: first to last rank "
		   "entering\n%8s %6s %14s %12s %-10s %12s %12s %9s %9s %12s %12s  %-11s %s\n",
		"Calls", "Ranks", "Size", "Count", "Type", "Total", "Avg", "algbw", "busbw", "Wait avg",
		"Wait max", "Last in", "Collective");
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < m->nrows ? (size_t)top : m->nrows;
	for (size_t i = 0; i < shown; i++)
		crow_write(w, &m->rows[ids[i]]);
	sw_close(w);
	table_more(w, m->nrows - shown);
	sw_count(w, "  instances:   %s, ", "instances", m->instances);
	sw_count(w, "%s incomplete (a rank's call, a counterpart or a device span missing); ",
		 "incomplete", m->incomplete);
	sw_count(w, "%s operations unmatched; ", "unmatched_operations", m->unmatched);
	sw_count(w, "%s ranks' parts without device timing\n", "untimed_parts", m->untimed);
	sw_text(w, "  groups:      one row per composition; time: the group's device span; size: "
		   "its collectives' S plus the larger of the bytes it sent and received\n");
	sw_endif(w);
	sw_close(w);
	free(ids);
}

static int by_pair(const void *a, const void *b)
{
	const struct prow *x = a, *y = b;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static void pair_row(struct sumw *w, void *ctx, size_t i)
{
	const struct prow *p = &((const struct ncclsum *)ctx)->pairs[i];
	char comm[24];
	snprintf(comm, sizeof(comm), "0x%" PRIx64, p->comm);
	sw_obj(w, NULL);
	sw_count(w, "%10s ", "messages", p->msgs);
	sw_count(w, "%14s ", "bytes", p->bytes);
	sw_bytes(w, "%12s  ", "avg_size_bytes", (double)p->bytes / (double)p->msgs);
	sw_i64(w, "%" PRId64, "src", p->src);
	sw_i64(w, " -> %" PRId64, "dst", p->dst);
	sw_str(w, " (%s)\n", "comm", comm);
	sw_close(w);
}

/* The pairs of ranks that sent and received; past --ranks pairs, their spread by bytes. */
static void pairs_table(struct ncclsum *m, struct sumw *w, int top)
{
	if (m->npairs > 1)
		qsort(m->pairs, m->npairs, sizeof(*m->pairs), by_pair);
	size_t shown = top > 0 && (size_t)top < m->npairs ? (size_t)top : m->npairs;
	double *bytes = xmallocarray(shown + 1, sizeof(*bytes));
	for (size_t i = 0; i < shown; i++)
		bytes[i] = (double)m->pairs[i].bytes;
	struct spread sp;
	spread_pick(w, &sp, bytes, shown);
	free(bytes);
	sw_obj(w, "p2p");
	sw_if(w, m->npairs || m->p2p_unmatched);
	sw_text(w, "\nNCCL send/receive: sends matched with their receives\n");
	spread_note(w, &sp, shown, "pairs of ranks", "bytes");
	spread_pad(w, &sp);
	sw_text(w, "%10s %14s %12s  %s\n", "Messages", "Bytes", "Avg size", "Ranks (communicator)");
	spread_rows(w, &sp, shown, "bytes", pair_row, m);
	table_more(w, m->npairs - shown);
	sw_if(w, m->p2p_unmatched != 0);
	sw_count(w, "  unmatched:   %s sends or receives without their counterpart\n", "unmatched",
		 m->p2p_unmatched);
	sw_endif(w);
	sw_endif(w);
	sw_close(w);
}

void ncclsum_end(struct ncclsum *m, struct sumw *w, int top)
{
	sw_obj(w, "nccl");
	time_table_print_bytes(w, "calls", "NCCL API", m->calls, m->bytes, m->cap, top);
	colls_table(m, w, top);
	pairs_table(m, w, top);
	sw_close(w);
	for (size_t i = 0; i < m->nrows; i++)
		free(m->rows[i].last);
	free(m->rows);
	free(m->pairs);
	free(m->calls);
	free(m->bytes);
	free(m);
}

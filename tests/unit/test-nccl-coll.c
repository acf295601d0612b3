/* test-nccl-coll.c — NCCL operations lined up across ranks on a synthetic 4-rank trace, and
 * the nccl-tests bandwidth formulas.  The job: an AllReduce whose device records arrive in
 * the reverse order of the ranks, a Broadcast, a group of two AllReduces and a ring of
 * sends and receives (one launch per rank, joined through every operation), AllReduces on
 * the two halves of a split communicator (number 1 on each, two instances), a send and its
 * receive outside any group, an AllGather a rank never called, an untimed AllReduce, a
 * nested group, and a Reduce whose device span one rank lost. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../analyze/runtimes/nccl/nccl.h"
#include "mpicap.h"
#include "ncclw.h"
#include "rts.h"
#include "tap.h"

#define N 4
#define COMM 0xA0A0u
#define HALF0 0xB0B0u     /* ranks 0 and 2 */
#define HALF1 0xC0C0u     /* ranks 1 and 3 */
#define F32 7

static struct nw_rank r[N];

/* ---- capture ---------------------------------------------------------------------------- */

struct cap_launch {
	int32_t rank;
	int proc, has_call, complete;
	uint32_t nops, nspans;
	int64_t t0, dev_t0, dev_t1;
	double alg, bus;
	char label[160];
	uint64_t comm;
	uint32_t seq;                    /* of its first operation */
};

struct cap_inst {
	unsigned flags;
	uint64_t id, devices_before;
	uint32_t nl, nlinks, unmatched, ranks_expected, timed;
	int incomplete;
	int64_t first_entry, last_entry, first_start, last_start;
	int32_t last_rank, last_start_rank;
	struct cap_launch l[8];
	struct nccl_link links[8];
};

static struct cap_inst caps[64];
static int ncaps;
static uint64_t devices, calls;

static int cbegin(void *priv, const struct trace *tr)
{
	(void)priv;
	(void)tr;
	return 0;
}

static void cevent(void *priv, const struct event *ev)
{
	(void)priv;
	if (ev->kind == EV_DEVICE)
		devices++;
	if (ev->kind == EV_CALL)
		calls++;
	if (ev->kind != EV_NCCL || ncaps == 64)
		return;
	const struct nccl_inst *in = nccl_inst_of(ev);
	struct cap_inst *c = &caps[ncaps++];
	memset(c, 0, sizeof(*c));
	c->flags = ev->flags;
	c->id = in->id;
	c->devices_before = devices;
	c->nl = in->nl;
	c->nlinks = in->nlinks;
	c->unmatched = in->unmatched;
	c->ranks_expected = in->ranks_expected;
	c->timed = in->timed;
	c->incomplete = in->incomplete;
	c->first_entry = in->first_entry;
	c->last_entry = in->last_entry;
	c->first_start = in->first_start;
	c->last_start = in->last_start;
	c->last_rank = in->last_rank;
	c->last_start_rank = in->last_start_rank;
	for (uint32_t i = 0; i < in->nl && i < 8; i++) {
		const struct nccl_launch *l = &in->l[i];
		struct cap_launch *x = &c->l[i];
		x->rank = l->rank;
		x->proc = l->proc->index;
		x->has_call = l->thread != NULL;
		x->complete = l->complete;
		x->nops = l->nops;
		x->nspans = l->nspans;
		x->t0 = l->t0;
		x->dev_t0 = l->dev_t0;
		x->dev_t1 = l->dev_t1;
		x->alg = l->algbytes;
		x->bus = l->busbytes;
		snprintf(x->label, sizeof(x->label), "%s", strings_get(l->label));
		x->comm = l->nops ? l->ops[0].comm : l->comm;
		x->seq = l->nops ? l->ops[0].seq : 0;
	}
	for (uint32_t i = 0; i < in->nlinks && i < 8; i++)
		c->links[i] = in->links[i];
}

static int cend(void *priv, const struct trace *tr)
{
	(void)priv;
	(void)tr;
	return 0;
}

static const struct output_ops cap_ops = { "nccl-capture", cbegin, cevent, cend };

static const struct cap_inst *find(uint64_t comm, uint32_t seq)
{
	for (int i = 0; i < ncaps; i++)
		if (caps[i].nl && caps[i].l[0].comm == comm && caps[i].l[0].seq == seq)
			return &caps[i];
	return NULL;
}

/* ---- the job ---------------------------------------------------------------------------- */

static uint64_t stream_of(int i)
{
	return 0x5000u + (uint64_t)i;
}

/* A collective outside a group on rank i: the call at t, 50 ns long, and (unless span_at
 * is 0) its device span start..end written at span_at. */
static void coll(int i, uint8_t op, const char *name, uint64_t t, uint64_t comm, uint32_t seq,
		 int32_t rank, int32_t nranks, uint64_t count, int32_t root, uint8_t flags,
		 int64_t start, int64_t end, uint64_t span_at)
{
	uint8_t redop = op == TPROF_NCCL_ALLREDUCE || op == TPROF_NCCL_REDUCE ? 0 : 0xff;
	uint64_t c = nw_call(&r[i], name, t, t + 50, nw_args(op, comm, count, F32, 4, redop, seq, flags),
			     nw_args2(stream_of(i), 0, root, rank, nranks, i));
	if (span_at)
		nw_device(&r[i], name, span_at, c, t, start, end, stream_of(i),
			  nw_coll(comm, seq, op, F32, 1, rank, nranks, 0));
}

static void make(const char *dir)
{
	for (int i = 0; i < N; i++)
		nw_begin(&r[i], dir, "hostA", 501 + i, i, N, 2000000);
	/* 1: AllReduce; rank 2 enters last, rank 3 starts last; device records written 3, 2, 1, 0 */
	static const uint64_t enter1[N] = { 100, 300, 900, 200 };
	for (int i = 0; i < N; i++)
		coll(i, TPROF_NCCL_ALLREDUCE, "ncclAllReduce", 100000 + enter1[i], COMM, 1, i, N, 1024,
		     -1, 0, 101000 + 10 * i, 102000, 105000 - 1000 * (uint64_t)i);
	/* 2: Broadcast from rank 1 */
	for (int i = 0; i < N; i++)
		coll(i, TPROF_NCCL_BROADCAST, "ncclBroadcast", 200000 + 100 * (uint64_t)i, COMM, 2, i, N,
		     256, 1, 0, 201000, 202000 + 10 * i, 205000 + (uint64_t)i);
	/* 3: a group: two AllReduces, a send to the next rank and a receive from the previous */
	for (int i = 0; i < N; i++) {
		uint64_t b = 300000, s = stream_of(i);
		uint64_t g = nw_call(&r[i], "ncclGroupStart", b + 10, b + 12,
				     nw_args(TPROF_NCCL_GROUP_START, 0, 0, 0, 0, 0xff, 0, 0), nw_args2(0, 0, -1, 0, 0, -1));
		/* its own aux: the recorder gives the outermost start its own correlation id */
		nw_call(&r[i], "ncclAllReduce", b + 20, b + 22,
			nw_args(TPROF_NCCL_ALLREDUCE, COMM, 100, F32, 4, 0, 3, TPROF_NCCLF_GROUPED),
			nw_args2(s, g, -1, i, N, i));
		nw_call(&r[i], "ncclAllReduce", b + 30, b + 32,
			nw_args(TPROF_NCCL_ALLREDUCE, COMM, 200, F32, 4, 0, 4, TPROF_NCCLF_GROUPED),
			nw_args2(s, g, -1, i, N, i));
		nw_call(&r[i], "ncclSend", b + 40, b + 42,
			nw_args(TPROF_NCCL_SEND, COMM, 64, F32, 4, 0xff, 1, TPROF_NCCLF_GROUPED),
			nw_args2(s, g, (i + 1) % N, i, N, i));
		nw_call(&r[i], "ncclRecv", b + 50, b + 52,
			nw_args(TPROF_NCCL_RECV, COMM, 64, F32, 4, 0xff, 1, TPROF_NCCLF_GROUPED),
			nw_args2(s, g, (i + N - 1) % N, i, N, i));
		uint64_t e = nw_call(&r[i], "ncclGroupEnd", b + 60 + 5 * (uint64_t)i, b + 90,
				     nw_args(TPROF_NCCL_GROUP_END, 0, 0, 0, 0, 0xff, 0, 0), nw_args2(0, g, -1, 0, 0, -1));
		nw_device(&r[i], "ncclGroup", b + 4000 + (uint64_t)i, e, b + 60, (int64_t)b + 1000,
			  (int64_t)b + 3000, s, nw_coll(COMM, 3, TPROF_NCCL_GROUP_END, F32, 4, i, N, g));
	}
	/* 4: AllReduce number 1 on each half of a split communicator */
	for (int i = 0; i < N; i++)
		coll(i, TPROF_NCCL_ALLREDUCE, "ncclAllReduce", 400000 + 10 * (uint64_t)i, i % 2 ? HALF1 : HALF0, 1,
		     i / 2, 2, 32, -1, 0, 401000, 402000, 405000 + (uint64_t)i);
	/* 5: rank 0 sends to rank 1 (their second message) outside a group */
	coll(0, TPROF_NCCL_SEND, "ncclSend", 500000, COMM, 2, 0, N, 1000, 1, 0, 501000, 502000, 505000);
	coll(1, TPROF_NCCL_RECV, "ncclRecv", 500100, COMM, 2, 1, N, 1000, 0, 0, 501000, 502500, 505001);
	/* 6: an AllGather rank 3 never called */
	for (int i = 0; i < N - 1; i++)
		coll(i, TPROF_NCCL_ALLGATHER, "ncclAllGather", 600000, COMM, 5, i, N, 16, -1, 0, 601000,
		     602000, 605000 + (uint64_t)i);
	/* 7: an AllReduce the recorder could not time */
	for (int i = 0; i < N; i++)
		coll(i, TPROF_NCCL_ALLREDUCE, "ncclAllReduce", 700000, COMM, 6, i, N, 8, -1,
		     TPROF_NCCLF_UNTIMED, 0, 0, 0);
	/* 8: a nested group around one AllReduce */
	for (int i = 0; i < N; i++) {
		uint64_t b = 800000, s = stream_of(i);
		struct tprof_nccl_args gs = nw_args(TPROF_NCCL_GROUP_START, 0, 0, 0, 0, 0xff, 0, 0);
		struct tprof_nccl_args ge = nw_args(TPROF_NCCL_GROUP_END, 0, 0, 0, 0, 0xff, 0, 0);
		uint64_t g = nw_call(&r[i], "ncclGroupStart", b + 10, b + 11, gs, nw_args2(0, 0, -1, 0, 0, -1));
		nw_call(&r[i], "ncclGroupStart", b + 20, b + 21, gs, nw_args2(0, g, -1, 0, 0, -1));
		nw_call(&r[i], "ncclAllReduce", b + 30, b + 31,
			nw_args(TPROF_NCCL_ALLREDUCE, COMM, 4096, F32, 4, 0, 7, TPROF_NCCLF_GROUPED),
			nw_args2(s, g, -1, i, N, i));
		nw_call(&r[i], "ncclGroupEnd", b + 40, b + 41, ge, nw_args2(0, g, -1, 0, 0, -1));
		uint64_t e = nw_call(&r[i], "ncclGroupEnd", b + 50 + 100 * (uint64_t)i, b + 200 + 100 * (uint64_t)i,
				     ge, nw_args2(0, g, -1, 0, 0, -1));
		nw_device(&r[i], "ncclGroup", b + 5000 + (uint64_t)i, e, b + 50, (int64_t)b + 1000,
			  (int64_t)b + 2000, s, nw_coll(COMM, 7, TPROF_NCCL_GROUP_END, F32, 1, i, N, g));
	}
	/* an empty group on rank 0: nothing to show */
	nw_call(&r[0], "ncclGroupStart", 850000, 850001, nw_args(TPROF_NCCL_GROUP_START, 0, 0, 0, 0, 0xff, 0, 0),
		nw_args2(0, 0, -1, 0, 0, -1));
	nw_call(&r[0], "ncclGroupEnd", 850010, 850011, nw_args(TPROF_NCCL_GROUP_END, 0, 0, 0, 0, 0xff, 0, 0),
		nw_args2(0, r[0].m.corr, -1, 0, 0, -1));
	/* 9: a Reduce to rank 0 whose device span rank 1 lost */
	for (int i = 0; i < N; i++)
		coll(i, TPROF_NCCL_REDUCE, "ncclReduce", 900000, COMM, 8, i, N, 64, 0, 0, 901000, 902000,
		     i == 1 ? 0 : 905000 + (uint64_t)i);
	for (int i = 0; i < N; i++)
		nw_end(&r[i]);
}

static int near(double a, double b)
{
	return a - b < 1e-9 && b - a < 1e-9;
}

static void formulas(void)
{
	/* nccl-tests, 4 ranks, 1000 bytes recorded (count x size) */
	ok(near(nccl_alg_bytes(TPROF_NCCL_ALLREDUCE, 1000, 4), 1000) &&
	   near(nccl_bus_factor(TPROF_NCCL_ALLREDUCE, 4), 1.5), "AllReduce: S = count x size, busbw x 2(n-1)/n");
	ok(near(nccl_alg_bytes(TPROF_NCCL_ALLGATHER, 1000, 4), 4000) &&
	   near(nccl_bus_factor(TPROF_NCCL_ALLGATHER, 4), 0.75), "AllGather: S = sendcount x size x n, x (n-1)/n");
	ok(near(nccl_alg_bytes(TPROF_NCCL_REDUCESCATTER, 1000, 4), 4000) &&
	   near(nccl_bus_factor(TPROF_NCCL_REDUCESCATTER, 4), 0.75), "ReduceScatter: S = recvcount x size x n, x (n-1)/n");
	ok(near(nccl_alg_bytes(TPROF_NCCL_BROADCAST, 1000, 4), 1000) &&
	   near(nccl_bus_factor(TPROF_NCCL_BROADCAST, 4), 1) &&
	   near(nccl_alg_bytes(TPROF_NCCL_REDUCE, 1000, 4), 1000) && near(nccl_bus_factor(TPROF_NCCL_REDUCE, 4), 1),
	   "Broadcast and Reduce: S = count x size, x 1");
	ok(near(nccl_alg_bytes(TPROF_NCCL_ALLTOALL, 1000, 4), 4000) &&
	   near(nccl_bus_factor(TPROF_NCCL_ALLTOALL, 4), 0.75) &&
	   near(nccl_alg_bytes(TPROF_NCCL_GATHER, 1000, 4), 4000) &&
	   near(nccl_alg_bytes(TPROF_NCCL_SCATTER, 1000, 4), 4000) &&
	   near(nccl_bus_factor(TPROF_NCCL_SCATTER, 4), 0.75), "AlltoAll, Gather, Scatter: S = count x n x size, x (n-1)/n");
	ok(near(nccl_alg_bytes(TPROF_NCCL_SEND, 1000, 4), 1000) && near(nccl_bus_factor(TPROF_NCCL_SEND, 4), 1) &&
	   near(nccl_bus_factor(TPROF_NCCL_ALLREDUCE, 1), 0), "Send: S = count x size, x 1; one rank: busbw 0");
	struct nccl_op g[4] = {
		{ .op = TPROF_NCCL_ALLREDUCE, .bytes = 400, .nranks = 4 },
		{ .op = TPROF_NCCL_ALLGATHER, .bytes = 100, .nranks = 4 },
		{ .op = TPROF_NCCL_SEND, .bytes = 64, .nranks = 4 },
		{ .op = TPROF_NCCL_RECV, .bytes = 96, .nranks = 4 },
	};
	double a, b;
	nccl_launch_bytes(g, 4, &a, &b);
	ok(near(a, 400 + 400 + 96) && near(b, 600 + 300 + 96),
	   "a group: the collectives' S (and bus bytes) plus the larger of sent and received");
	ok(nccl_dtype_size(9) == 2 && !strcmp(nccl_dtype_name(7), "float32") && nccl_dtype_size(12) == 0 &&
	   !strcmp(nccl_redop_name(4), "avg") && !strcmp(nccl_redop_name(9), "user") && !nccl_redop_name(0xff),
	   "datatype sizes and names, reduction names");
}

int main(void)
{
	formulas();
	char dir[256];
	if (make_tmpdir(dir, sizeof(dir), "nccl-coll") < 0)
		return 99;
	make(dir);
	struct trace tr = { 0 };
	ok(trace_load(&tr, dir) == 0 && tr.nprocs == N, "four ranks load");
	struct output out = { &cap_ops, NULL };
	struct pipeline pl = { .rts = test_runtimes(), .tr = &tr, .outs = &out, .nouts = 1 };
	merge_run(&tr, &pl);
	is_u64((uint64_t)ncaps, 10, "ten instances (an empty group is none)");

	const struct cap_inst *c = find(COMM, 1);
	int ranks = c && c->nl == 4;
	for (int i = 0; ranks && i < 4; i++)
		ranks = c->l[i].rank == i && c->l[i].complete && c->l[i].nspans == 1 && c->l[i].has_call;
	ok(ranks && !c->incomplete && !c->flags && c->unmatched == 0 && c->ranks_expected == 4 && c->timed == 4,
	   "AllReduce: one instance, four complete launches in rank order, device records arriving backwards");
	ok(c && c->last_rank == 2 && c->last_entry - c->first_entry == 800 && c->last_start_rank == 3 &&
	   c->last_start - c->first_start == 30, "AllReduce: rank 2 entered last, 800 ns after the first; rank 3 started last");
	ok(c && !strcmp(c->l[0].label, "AllReduce") && near(c->l[0].alg, 4096) && near(c->l[0].bus, 4096 * 1.5) &&
	   c->devices_before >= 4, "AllReduce: labelled, S and bus bytes; emitted after its four device spans");

	c = find(COMM, 2);
	ok(c && c->nl == 4 && !c->incomplete && !strcmp(c->l[0].label, "Broadcast") && c->last_rank == 3,
	   "Broadcast: one instance on four ranks");

	c = find(COMM, 3);
	int grp = c && c->nl == 4 && c->nlinks == 4 && !c->incomplete;
	for (int i = 0; grp && i < 4; i++)
		grp = c->l[i].nops == 4 && c->l[i].nspans == 1 &&
		      !strcmp(c->l[i].label, "ncclGroup (4 ops: AllReduce, AllReduce, Send, Recv)") &&
		      c->l[i].t0 - c->l[0].t0 == 5 * i && near(c->l[i].alg, 400 + 800 + 256);
	for (uint32_t k = 0; grp && k < c->nlinks; k++)
		grp = c->links[k].to == (c->links[k].from + 1) % 4 && c->links[k].bytes == 256 &&
		      c->links[k].src == (int32_t)c->links[k].from && c->links[k].seq == 1;
	ok(grp, "a group: one launch per rank from its ncclGroupEnd, four operations, a ring of four sends linked");
	ok(!find(COMM, 4), "the group's second AllReduce is not an instance of its own");

	const struct cap_inst *h0 = find(HALF0, 1), *h1 = find(HALF1, 1);
	ok(h0 && h1 && h0 != h1 && h0->nl == 2 && h1->nl == 2 && !h0->incomplete && !h1->incomplete &&
	   h0->l[0].proc != h1->l[0].proc && h0->ranks_expected == 2 && h0->l[0].rank == 0 && h0->l[1].rank == 1,
	   "split communicator: AllReduce number 1 on each half is its own instance of two ranks");

	const struct cap_inst *sr = NULL;
	for (int i = 0; i < ncaps; i++)
		if (caps[i].nl == 2 && !strcmp(caps[i].l[0].label, "Send"))
			sr = &caps[i];
	ok(sr && sr->nlinks == 1 && sr->links[0].from == 0 && sr->links[0].to == 1 && sr->links[0].bytes == 4000 &&
	   !strcmp(sr->l[1].label, "Recv") && !sr->incomplete, "a send and its receive outside groups: one instance, one link");

	c = find(COMM, 5);
	ok(c && c->nl == 3 && c->incomplete && (c->flags & EVF_INCOMPLETE) && c->unmatched == 3 &&
	   c->ranks_expected == 4 && c >= &caps[ncaps - 2], "an AllGather rank 3 never called: three ranks, incomplete, at the end");

	c = find(COMM, 6);
	ok(c && c->nl == 4 && !c->incomplete && c->timed == 0 && c->l[0].nspans == 0 && c->l[0].complete,
	   "an untimed AllReduce: complete without device spans");

	c = find(COMM, 7);
	ok(c && c->nl == 4 && !c->incomplete && c->l[0].nops == 1 && c->l[3].t0 - c->l[0].t0 == 300 &&
	   !strcmp(c->l[0].label, "ncclGroup (1 op: AllReduce)"),
	   "a nested group: launched by the outermost ncclGroupEnd");

	c = find(COMM, 8);
	ok(c && c->nl == 4 && c->incomplete && c->timed == 3 && c->unmatched == 0 && !c->l[1].complete &&
	   c->l[0].complete, "a Reduce whose span rank 1 lost: four ranks, incomplete, at the end");

	uint64_t prev = 0;
	int ordered = 1;
	for (int i = 0; i < ncaps; i++) {
		ordered &= caps[i].id > prev;
		prev = caps[i].id;
	}
	ok(ordered, "instance ids grow in order of emission");
	trace_free(&tr);
	rm_rf(dir);
	return tap_done();
}

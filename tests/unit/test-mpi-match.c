/* test-mpi-match.c — point-to-point matching on a synthetic 4-rank trace: ring sends,
 * MPI_ANY_SOURCE and MPI_ANY_TAG receives, receives completed out of posting order by
 * MPI_Waitany (with and without an MPI_ANY_SOURCE receive posted before them),
 * MPI_Sendrecv, MPI_PROC_NULL, cancelled sends and receives, persistent requests,
 * MPI_COMM_SELF, a receive held back by one that never completes, a message taken by
 * MPI_Mprobe, and a send nobody received.  Each message must pair the right send with the right receive (told apart by
 * their bytes and times), none may point backwards in time, and the totals must add up. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpicap.h"
#include "mpiw.h"
#include "tap.h"

#define N 4
#define T(x) ((int64_t)(x) - 1000)   /* ticks to ns from the trace start */

static struct mw_rank r[N];

static void ring(void)
{
	for (int i = 0; i < N; i++)
		mw_send(&r[i], 10000 + i * 10, 10500, (i + 1) % N, 1, 100 * (i + 1));
	for (int i = 0; i < N; i++)
		mw_recv(&r[i], 11000, 12000, (i + N - 1) % N, 1, 100 * ((i + N - 1) % N + 1));
}

static void any_source(void)
{
	uint32_t s[3];
	for (int k = 0; k < 3; k++)
		s[k] = mw_irecv(&r[0], 20000 + k * 100, 20050 + k * 100, TPROF_MPI_ANY, 5, 0xb1 + k);
	for (int i = 1; i < N; i++)
		mw_send(&r[i], 20300, 20400, 0, 5, 10 * i);
	uint64_t w = mw_wait(&r[0], "MPI_Waitall", 20500, 21000, 3);
	int src[3] = { 2, 1, 3 };
	for (int k = 0; k < 3; k++)
		mw_recv_done(&r[0], 21000, w, s[k], src[k], 5, 10 * src[k], 0xb1 + k, 0);
}

static void any_tag(void)
{
	mw_send(&r[0], 30100, 30150, 1, 7, 7);
	mw_send(&r[0], 30200, 30250, 1, 8, 8);
	/* Blocking receives record what they got: tag 7, then tag 8. */
	mw_recv(&r[1], 30000, 30500, 0, 7, 7);
	mw_recv(&r[1], 30600, 31000, 0, 8, 8);
}

static void waitany(void)
{
	uint32_t d1 = mw_irecv(&r[2], 40000, 40010, 3, 9, 0xd1);
	uint32_t d2 = mw_irecv(&r[2], 40100, 40110, 3, 9, 0xd2);
	mw_isend(&r[3], 40200, 40210, 2, 9, 100, 0xe1);
	mw_isend(&r[3], 40300, 40310, 2, 9, 200, 0xe2);
	uint64_t w = mw_wait(&r[3], "MPI_Waitall", 40400, 40500, 2);
	mw_send_done(&r[3], 40500, w, 2, 9, 100, 0xe1, 0);
	mw_send_done(&r[3], 40500, w, 2, 9, 200, 0xe2, 0);
	/* The second receive completes first. */
	w = mw_wait(&r[2], "MPI_Waitany", 40600, 40700, 1);
	mw_recv_done(&r[2], 40700, w, d2, 3, 9, 200, 0xd2, 0);
	w = mw_wait(&r[2], "MPI_Waitany", 40800, 40900, 1);
	mw_recv_done(&r[2], 40900, w, d1, 3, 9, 100, 0xd1, 0);
}

static void sendrecv(void)
{
	struct tprof_mpi_args2 b0 = { .bytes = 40, .peer = 1, .tag = 4, .seq = ++r[0].rseq };
	mw_call(&r[0], "MPI_Sendrecv", 50000, 50500,
		mw_args(TPROF_MPI_SENDRECV, TPROF_COMM_WORLD, 1, 3, 30, 0, 0), &b0);
	struct tprof_mpi_args2 b1 = { .bytes = 30, .peer = 0, .tag = 3, .seq = ++r[1].rseq };
	mw_call(&r[1], "MPI_Sendrecv", 50010, 50400,
		mw_args(TPROF_MPI_SENDRECV, TPROF_COMM_WORLD, 0, 4, 40, 0, 0), &b1);
}

static void proc_null(void)
{
	mw_call(&r[2], "MPI_Send", 60000, 60010,
		mw_args(TPROF_MPI_SEND, TPROF_COMM_WORLD, TPROF_MPI_PROCNULL, 0, 4, 0, TPROF_MPIF_PROC_NULL), NULL);
	mw_call(&r[2], "MPI_Recv", 60020, 60030,
		mw_args(TPROF_MPI_RECV, TPROF_COMM_WORLD, TPROF_MPI_PROCNULL, TPROF_MPI_ANY, 0, ++r[2].rseq,
			TPROF_MPIF_PROC_NULL), NULL);
}

static void cancelled(void)
{
	/* Rank 1 posts a receive and cancels it; rank 2 posts a send and cancels it. */
	uint32_t g1 = mw_irecv(&r[1], 70000, 70010, 2, 11, 0x61);
	mw_isend(&r[2], 70050, 70055, 1, 12, 5, 0x71);
	uint64_t w = mw_wait(&r[2], "MPI_Wait", 70060, 70070, 1);
	mw_send_done(&r[2], 70070, w, 1, 12, 5, 0x71, TPROF_MPIF_CANCELLED);
	w = mw_wait(&r[1], "MPI_Wait", 70100, 70200, 1);
	mw_recv_done(&r[1], 70200, w, g1, 2, 11, 0, 0x61, TPROF_MPIF_CANCELLED);
	mw_send(&r[2], 70400, 70500, 1, 11, 11);
	mw_send(&r[2], 70600, 70700, 1, 12, 12);
	mw_recv(&r[1], 70300, 71000, 2, 11, 11);
	mw_recv(&r[1], 71100, 71200, 2, 12, 12);
}

static void persistent(void)
{
	struct tprof_mpi_args2 bp = { .req = 0x91 }, bq = { .req = 0x92 };
	mw_call(&r[0], "MPI_Recv_init", 80000, 80010,
		mw_args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, 3, 13, 0, 0, TPROF_MPIF_PERSISTENT), &bq);
	mw_call(&r[3], "MPI_Send_init", 80000, 80010,
		mw_args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, 0, 13, 50, 0, TPROF_MPIF_PERSISTENT), &bp);
	for (int i = 0; i < 3; i++) {
		uint64_t b = 81000 + (uint64_t)i * 1000;
		struct tprof_mpi_args st = mw_args(TPROF_MPI_START, 0, TPROF_MPI_NONE, 0, 0, 0, 0);
		st.nreq = 1;
		uint64_t c = mw_call(&r[0], "MPI_Start", b, b + 10, st, NULL);
		uint32_t seq = ++r[0].rseq;
		mw_req(&r[0], "MPI_Recv_init", b + 10, c,
		       mw_args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, 3, 13, 0, seq,
			       TPROF_MPIF_PERSISTENT | TPROF_MPIF_STARTED), 0x92);
		c = mw_call(&r[3], "MPI_Start", b + 20, b + 30, st, NULL);
		mw_req(&r[3], "MPI_Send_init", b + 30, c,
		       mw_args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, 0, 13, 50 + (uint64_t)i, 0,
			       TPROF_MPIF_PERSISTENT | TPROF_MPIF_STARTED), 0x91);
		c = mw_wait(&r[3], "MPI_Wait", b + 40, b + 50, 1);
		mw_req(&r[3], "MPI_Send_init", b + 50, c,
		       mw_args(TPROF_MPI_ISEND, TPROF_COMM_WORLD, 0, 13, 50 + (uint64_t)i, 0,
			       TPROF_MPIF_PERSISTENT), 0x91);
		c = mw_wait(&r[0], "MPI_Wait", b + 100, b + 200, 1);
		mw_req(&r[0], "MPI_Recv_init", b + 200, c,
		       mw_args(TPROF_MPI_IRECV, TPROF_COMM_WORLD, 3, 13, 50 + (uint64_t)i, seq,
			       TPROF_MPIF_PERSISTENT), 0x92);
	}
}

static void held_by_any(void)
{
	uint32_t i1 = mw_irecv(&r[0], 90000, 90005, TPROF_MPI_ANY, 20, 0xa1);
	uint32_t i2 = mw_irecv(&r[0], 90010, 90015, 1, 20, 0xa2);
	mw_send(&r[1], 90100, 90110, 0, 20, 1);
	mw_send(&r[1], 90200, 90210, 0, 20, 2);
	uint64_t w = mw_wait(&r[0], "MPI_Waitany", 90300, 90400, 1);
	mw_recv_done(&r[0], 90400, w, i2, 1, 20, 2, 0xa2, 0);
	w = mw_wait(&r[0], "MPI_Waitany", 90500, 90600, 1);
	mw_recv_done(&r[0], 90600, w, i1, 1, 20, 1, 0xa1, 0);
}

static void unmatched_and_self(void)
{
	mw_send(&r[3], 95000, 95010, 1, 99, 9);
	struct tprof_mpi_args2 b = { .req = 0xc1 };
	mw_call(&r[2], "MPI_Isend", 96000, 96010,
		mw_args(TPROF_MPI_ISEND, TPROF_COMM_SELF, 0, 0, 8, 0, TPROF_MPIF_NONBLOCKING), &b);
	mw_call(&r[2], "MPI_Recv", 96020, 96030,
		mw_args(TPROF_MPI_RECV, TPROF_COMM_SELF, 0, 0, 8, ++r[2].rseq, 0), NULL);
}

static void held_to_the_end(void)
{
	mw_irecv(&r[3], 97000, 97010, TPROF_MPI_ANY, 30, 0xf1);   /* never completes */
	mw_send(&r[0], 97000, 97050, 3, 30, 3);
	mw_recv(&r[3], 97100, 97200, 0, 30, 3);
}

static void mprobe(void)
{
	mw_send(&r[0], 97900, 97950, 1, 40, 4);
	mw_send(&r[0], 98050, 98060, 1, 40, 5);
	/* MPI_Mprobe takes the first message and its receive number; an MPI_Irecv posted after
	 * it completes (with the second) before MPI_Mrecv receives the first. */
	uint32_t m = ++r[1].rseq;
	mw_call(&r[1], "MPI_Mprobe", 98000, 98100, mw_args(TPROF_MPI_PROBE, TPROF_COMM_WORLD, 0, 40, 4, m, 0),
		NULL);
	uint32_t i = mw_irecv(&r[1], 98200, 98210, 0, 40, 0x4e);
	uint64_t w = mw_wait(&r[1], "MPI_Wait", 98300, 98400, 1);
	mw_recv_done(&r[1], 98400, w, i, 0, 40, 5, 0x4e, 0);
	mw_call(&r[1], "MPI_Mrecv", 98500, 98600, mw_args(TPROF_MPI_RECV, TPROF_COMM_WORLD, 0, 40, 4, m, 0),
		NULL);
}

static const struct message_info *find(const struct mpicap *c, int src, int dst, int tag, uint64_t bytes)
{
	for (int i = 0; i < c->nmsg; i++)
		if (c->msg[i].src == src && c->msg[i].dst == dst && c->msg[i].tag == tag &&
		    c->msg[i].bytes == bytes)
			return &c->msg[i];
	return NULL;
}

int main(void)
{
	char dir[256];
	if (make_tmpdir(dir, sizeof(dir), "mpi-match") < 0)
		return 99;
	for (int i = 0; i < N; i++) {
		mw_begin(&r[i], dir, "hostA", 101 + i, i, N, 0, 200000);
		mw_world(&r[i], N);
	}
	ring();
	any_source();
	any_tag();
	waitany();
	sendrecv();
	proc_null();
	cancelled();
	persistent();
	held_by_any();
	unmatched_and_self();
	held_to_the_end();
	mprobe();
	for (int i = 0; i < N; i++)
		mw_end(&r[i]);

	struct trace tr = { 0 };
	static struct mpicap c;
	ok(mpicap_run(&tr, dir, &c, NULL) == 0 && tr.nprocs == N, "four ranks load");
	is_u64(c.nmsg, 24, "24 messages matched");
	is_u64(tr.mpi.matched, 24, "and counted");
	is_u64(tr.mpi.unmatched_sends, 1, "one send nobody received");
	is_u64(tr.mpi.unmatched_recvs, 0, "no receive without its send");
	is_u64(tr.mpi.never_completed, 1, "one receive never completed");
	is_u64(tr.mpi.cancelled, 2, "a cancelled send and a cancelled receive");
	is_u64(tr.mpi.proc_null, 2, "a send and a receive with MPI_PROC_NULL");

	int backwards = 0, ids = 1;
	for (int i = 0; i < c.nmsg; i++) {
		if (c.msg[i].recv_done < c.msg[i].send_t0)
			backwards++;
		for (int k = 0; k < i; k++)
			ids &= c.msg[k].id != c.msg[i].id;
	}
	ok(!backwards, "no message completes before its send began");
	ok(ids, "message ids are unique");

	int ringok = 1;
	for (int i = 0; i < N; i++) {
		const struct message_info *m = find(&c, i, (i + 1) % N, 1, 100 * (uint64_t)(i + 1));
		ringok &= m && m->send_t0 == T(10000 + i * 10) && m->recv_t0 == T(11000) &&
			  m->recv_done == T(12000) && m->post_t0 == T(11000) && m->blocking &&
			  m->sproc->rank == i && m->rproc->rank == (i + 1) % N;
	}
	ok(ringok, "ring: each send pairs with its neighbour's MPI_Recv (times, ranks, blocking)");

	int anyok = 1;
	for (int s = 1; s < N; s++) {
		const struct message_info *m = find(&c, s, 0, 5, 10 * (uint64_t)s);
		anyok &= m && m->recv_t0 == T(20500) && m->recv_t1 == T(21000) && !m->blocking &&
			 m->send_t0 == T(20300);
	}
	ok(anyok, "MPI_ANY_SOURCE: each receive takes the source its completion names, in the Waitall");

	const struct message_info *t7 = find(&c, 0, 1, 7, 7), *t8 = find(&c, 0, 1, 8, 8);
	ok(t7 && t8 && t7->send_t0 == T(30100) && t8->send_t0 == T(30200) && t8->recv_t0 == T(30600),
	   "MPI_ANY_TAG: tags 7 and 8 each pair with their send");

	const struct message_info *d100 = find(&c, 3, 2, 9, 100), *d200 = find(&c, 3, 2, 9, 200);
	ok(d100 && d200 && d100->send_t0 == T(40200) && d100->recv_t0 == T(40800) &&
	   d200->send_t0 == T(40300) && d200->recv_t0 == T(40600) && d100->post_t0 == T(40000),
	   "MPI_Waitany out of order: the first posted receive still takes the first send");

	const struct message_info *sa = find(&c, 0, 1, 3, 30), *sb = find(&c, 1, 0, 4, 40);
	ok(sa && sb && sa->send_t0 == T(50000) && sa->recv_t0 == T(50010) && sb->send_t0 == T(50010) &&
	   sb->recv_t1 == T(50500) && sa->blocking && sb->blocking,
	   "MPI_Sendrecv: both directions, each a send and a blocking receive");

	const struct message_info *g11 = find(&c, 2, 1, 11, 11), *g12 = find(&c, 2, 1, 12, 12);
	ok(g11 && g12 && g11->send_t0 == T(70400) && g11->recv_t0 == T(70300) && g12->send_t0 == T(70600),
	   "cancelled: the cancelled receive and send take no message; the next ones pair");

	int pers = 1;
	for (int i = 0; i < 3; i++) {
		const struct message_info *m = find(&c, 3, 0, 13, 50 + (uint64_t)i);
		uint64_t b = 81000 + (uint64_t)i * 1000;
		pers &= m && m->send_t0 == T(b + 20) && m->send_t1 == T(b + 30) && m->post_t0 == T(b) &&
			m->recv_t0 == T(b + 100) && m->recv_done == T(b + 200);
	}
	ok(pers, "persistent requests: each MPI_Start posts; messages pair start by start");

	const struct message_info *h1 = find(&c, 1, 0, 20, 1), *h2 = find(&c, 1, 0, 20, 2);
	ok(h1 && h2 && h1->send_t0 == T(90100) && h1->recv_t0 == T(90500) && h2->send_t0 == T(90200) &&
	   h2->recv_t0 == T(90300),
	   "a receive completed first is held back behind an earlier MPI_ANY_SOURCE one");

	const struct message_info *self = find(&c, 2, 2, 0, 8);
	ok(self && self->comm_id == TPROF_COMM_SELF && self->send_t0 == T(96000),
	   "MPI_COMM_SELF: a message to itself");

	const struct message_info *end = find(&c, 0, 3, 30, 3);
	ok(end && end->recv_t0 == T(97100), "a receive held by one that never completes is released at the end");
	const struct message_info *p4 = find(&c, 0, 1, 40, 4), *p5 = find(&c, 0, 1, 40, 5);
	ok(p4 && p5 && p4->send_t0 == T(97900) && p4->recv_t0 == T(98500) && p4->post_t0 == T(98000) &&
	   p5->send_t0 == T(98050) && p5->recv_t0 == T(98300),
	   "MPI_Mprobe takes its message: a receive posted after it cannot take that one");
	trace_free(&tr);
	memset(&tr, 0, sizeof(tr));

	/* A window keeps the messages whose receive completed inside it. */
	struct window w = { .start = T(40650), .end = T(50450), .active = 1 };
	ok(mpicap_run(&tr, dir, &c, &w) == 0, "the same trace with a window");
	int inwin = 1;
	for (int i = 0; i < c.nmsg; i++)
		inwin &= c.msg[i].recv_done >= w.start && c.msg[i].recv_done < w.end;
	is_u64(c.nmsg, 3, "three messages completed in the window (two Waitany, one Sendrecv)");
	ok(inwin, "all completed inside it");
	is_u64(tr.mpi.matched, 24, "matching still saw the whole trace");
	trace_free(&tr);

	rm_rf(dir);
	return tap_done();
}

/* test-mpi-coll.c — collectives lined up across ranks on a synthetic 4-rank trace:
 * MPI_Bcast and MPI_Allreduce on MPI_COMM_WORLD, barriers on the two halves of a split
 * communicator (one instance each, though both are number 1 on their communicator), a
 * broadcast rooted at a rank of the split communicator (world rank translated), a
 * nonblocking MPI_Iallreduce completed in MPI_Wait, one on MPI_COMM_SELF, one that a rank
 * never called (emitted at the end, incomplete), and one whose members disagree on the
 * function.  Then a job with a rank that was not recorded: its collectives are flagged
 * incomplete without waiting for the end. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpicap.h"
#include "mpiw.h"
#include "tap.h"

#define N 4
#define T(x) ((int64_t)(x) - 1000)
#define EVEN 0x1000u
#define ODD 0x2000u

static struct mw_rank r[N];

static const struct cap_coll *find(const struct mpicap *c, uint64_t comm, uint32_t seq, int self)
{
	for (int i = 0; i < c->ncoll; i++)
		if (c->coll[i].ci.comm_id == comm && c->coll[i].ci.seq == seq &&
		    (comm != TPROF_COMM_SELF || c->coll[i].ci.m[0].world == self))
			return &c->coll[i];
	return NULL;
}

static void make(const char *dir)
{
	static const int32_t even[] = { 0, 2 }, odd[] = { 1, 3 };
	for (int i = 0; i < N; i++) {
		mw_begin(&r[i], dir, "hostA", 201 + i, i, N, 0, 100000);
		mw_world(&r[i], N);
		mw_comm(&r[i], i % 2 ? ODD : EVEN, TPROF_COMMK_INTRA, 2, i / 2, i % 2 ? odd : even,
			i % 2 ? "odd" : "even");
	}
	for (int i = 0; i < N; i++)
		mw_coll(&r[i], "MPI_Bcast", 10000 + 100 * (uint64_t)i, 10500 + 10 * (uint64_t)i, TPROF_COMM_WORLD,
			1, 0, i ? 0 : 64, i ? 64 : 0);
	for (int i = 0; i < N; i++)
		mw_coll(&r[i], "MPI_Allreduce", 20000, 20400, TPROF_COMM_WORLD, 2, TPROF_MPI_NONE, 8, 8);
	for (int i = 0; i < N; i++)
		mw_coll(&r[i], "MPI_Barrier", 21000 + (uint64_t)i, 21100, i % 2 ? ODD : EVEN, 1,
			TPROF_MPI_NONE, 0, 0);
	for (int i = 1; i < N; i += 2)   /* root: rank 1 of "odd", world rank 3 */
		mw_coll(&r[i], "MPI_Bcast", 22000, 22100, ODD, 2, 1, i == 3 ? 16 : 0, i == 3 ? 0 : 16);
	for (int i = 0; i < N; i++) {
		struct tprof_mpi_args2 b = { .req = 0x500 + (uint64_t)i, .bytes = 8 };
		uint64_t t = 30000 + 10 * (uint64_t)i;
		mw_call(&r[i], "MPI_Iallreduce", t, t + 5,
			mw_args(TPROF_MPI_ICOLL, TPROF_COMM_WORLD, TPROF_MPI_NONE, 0, 8, 3, TPROF_MPIF_NONBLOCKING), &b);
		uint64_t w = mw_wait(&r[i], "MPI_Wait", 30100, 30200 + 10 * (uint64_t)i, 1);
		mw_req(&r[i], "MPI_Iallreduce", 30200 + 10 * (uint64_t)i, w,
		       mw_args(TPROF_MPI_ICOLL, TPROF_COMM_WORLD, TPROF_MPI_NONE, 0, 8, 3, TPROF_MPIF_NONBLOCKING),
		       0x500 + (uint64_t)i);
	}
	mw_coll(&r[1], "MPI_Barrier", 35000, 35010, TPROF_COMM_SELF, 1, TPROF_MPI_NONE, 0, 0);
	for (int i = 0; i < N - 1; i++)   /* rank 3 never calls it */
		mw_coll(&r[i], "MPI_Barrier", 40000, 40100, TPROF_COMM_WORLD, 4, TPROF_MPI_NONE, 0, 0);
	for (int i = 0; i < N; i++)
		mw_coll(&r[i], i == 3 ? "MPI_Reduce" : "MPI_Allreduce", 50000, 50100, TPROF_COMM_WORLD, 5,
			TPROF_MPI_NONE, 4, 4);
	for (int i = 0; i < N; i++)
		mw_end(&r[i]);
}

int main(void)
{
	char dir[256];
	if (make_tmpdir(dir, sizeof(dir), "mpi-coll") < 0)
		return 99;
	make(dir);
	struct trace tr = { 0 };
	static struct mpicap c;
	ok(mpicap_run(&tr, dir, &c, NULL) == 0 && tr.nprocs == N, "four ranks load");
	is_u64(c.ncoll, 9, "nine collectives");
	is_u64(tr.mpi.colls, 9, "and counted");
	is_u64(tr.mpi.colls_incomplete, 1, "one incomplete");
	is_u64(tr.mpi.colls_name_mismatch, 1, "one whose members called different functions");

	const struct cap_coll *b = find(&c, TPROF_COMM_WORLD, 1, 0);
	ok(b && !b->flags && b->ci.members == 4 && b->ci.seen == 4 && b->ci.root_world == 0 &&
	   !strcmp(strings_get(b->ci.name), "MPI_Bcast") && b->ci.first_begin == T(10000) &&
	   b->ci.last_begin == T(10300) && b->ci.first_end == T(10500) && b->ci.last_end == T(10530) &&
	   b->ci.bytes_sent == 64 && b->ci.bytes_recv == 192 && b->ci.wait_total == 600,
	   "MPI_Bcast on MPI_COMM_WORLD: 4 members, root 0, entries and exits, bytes, wait");
	ok(b && b->ci.comm == trace_comm(&tr, TPROF_COMM_WORLD, 0) && b->ci.comm && b->ci.comm->size == 4,
	   "it names its communicator");

	const struct cap_coll *ar = find(&c, TPROF_COMM_WORLD, 2, 0);
	ok(ar && !ar->flags && ar->ci.seen == 4 && ar->ci.root_world == TPROF_MPI_NONE &&
	   ar->ci.bytes_sent == 32, "MPI_Allreduce: 4 members, no root");

	const struct cap_coll *ev = find(&c, EVEN, 1, 0), *od = find(&c, ODD, 1, 0);
	ok(ev && od && !ev->flags && !od->flags && ev->ci.members == 2 && od->ci.members == 2 &&
	   ev->ci.seen == 2 && od->ci.seen == 2 && ev->ci.m[0].world % 2 == 0 &&
	   ev->ci.m[1].world % 2 == 0 && od->ci.m[0].world % 2 == 1 && od->ci.m[1].world % 2 == 1,
	   "split communicator: barrier number 1 of each half is its own instance, with its members");
	const struct cap_coll *ob = find(&c, ODD, 2, 0);
	ok(ob && !ob->flags && ob->ci.root_world == 3 && ob->ci.comm && ob->ci.comm->name &&
	   !strcmp(strings_get(ob->ci.comm->name), "odd"),
	   "a broadcast rooted at rank 1 of \"odd\" has world rank 3 as its root");

	const struct cap_coll *ia = find(&c, TPROF_COMM_WORLD, 3, 0);
	int iaok = ia && !ia->flags && ia->ci.seen == 4;
	for (uint32_t k = 0; iaok && k < ia->ci.nm; k++) {
		const struct coll_member *m = &ia->ci.m[k];
		iaok = m->t0 == T(30000 + 10 * m->world) && m->t1 == T(30200 + 10 * m->world) &&
		       m->post_t1 == T(30005 + 10 * m->world) && m->done_t0 == T(30100) &&
		       m->done_t1 == T(30200 + 10 * m->world);
	}
	ok(iaok && ia->ci.last_end == T(30230) && !strcmp(strings_get(ia->ci.name), "MPI_Iallreduce"),
	   "MPI_Iallreduce: each member enters at its post and leaves at its completion in MPI_Wait");

	const struct cap_coll *self = find(&c, TPROF_COMM_SELF, 1, 1);
	ok(self && !self->flags && self->ci.members == 1 && self->ci.seen == 1,
	   "MPI_COMM_SELF: one member, complete");

	const struct cap_coll *inc = find(&c, TPROF_COMM_WORLD, 4, 0);
	ok(inc && (inc->flags & EVF_INCOMPLETE) && inc->ci.seen == 3 && inc->ci.members == 4 &&
	   inc == &c.coll[c.ncoll - 1], "a barrier rank 3 never called: emitted at the end, 3 of 4, incomplete");

	const struct cap_coll *mm = find(&c, TPROF_COMM_WORLD, 5, 0);
	ok(mm && mm->ci.names_differ && mm->ci.seen == 4, "members calling different functions are flagged");
	trace_free(&tr);
	rm_rf(dir);

	/* Ranks 0 and 1 of a 3-rank job were recorded. */
	if (make_tmpdir(dir, sizeof(dir), "mpi-coll") < 0)
		return 99;
	for (int i = 0; i < 2; i++) {
		mw_begin(&r[i], dir, "hostA", 301 + i, i, 3, 0, 100000);
		mw_world(&r[i], 3);
		mw_coll(&r[i], "MPI_Barrier", 10000, 10100, TPROF_COMM_WORLD, 1, TPROF_MPI_NONE, 0, 0);
		mw_coll(&r[i], "MPI_Barrier", 20000, 20100, TPROF_COMM_WORLD, 2, TPROF_MPI_NONE, 0, 0);
		mw_end(&r[i]);
	}
	memset(&tr, 0, sizeof(tr));
	ok(mpicap_run(&tr, dir, &c, NULL) == 0 && c.ncoll == 2, "a job with a rank not recorded: two barriers");
	ok(c.ncoll == 2 && (c.coll[0].flags & EVF_INCOMPLETE) && c.coll[0].ci.seen == 2 &&
	   c.coll[0].ci.members == 3 && c.coll[0].ci.seq == 1 && c.coll[1].ci.seq == 2 &&
	   c.coll[0].calls_before < 4,
	   "each emitted once both recorded members are seen, not at the end; flagged incomplete");
	trace_free(&tr);
	rm_rf(dir);
	return tap_done();
}

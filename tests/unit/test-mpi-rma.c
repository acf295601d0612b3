/* test-mpi-rma.c — one-sided transfers linked to where they were complete at their target
 * (analyze/runtimes/mpi/rma.c), on a synthetic 3-rank trace with one window over WORLD:
 *  - PSCW epochs matched by their groups, pair by pair: rank 1 exposes its window to rank 0,
 *    then to rank 2, then to rank 0 again; rank 0's second access epoch meets rank 1's third
 *    exposure epoch (the second that includes it), not its second;
 *  - a put to a rank outside the access epoch's group is counted unlinked;
 *  - lock epochs: a put complete when the unlock returned, inside the call the target was in
 *    then, or at the start of its next call when it was in none;
 *  - a fence epoch: the put linked to the target's next fence;
 *  - an exposure epoch ended by MPI_Win_test: the last test before the next post;
 *  - damaged group texts cost no more than the job's ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpicap.h"
#include "mpiw.h"
#include "tap.h"

#define N 3
#define T(x) ((int64_t)(x) - 1000)   /* trace times start at the first clock sample */

static struct mw_rank r[N];

static struct tprof_mpi_args rma(int32_t peer, uint64_t bytes, uint32_t fences, uint8_t flags)
{
	return mw_args(TPROF_MPI_RMA, TPROF_COMM_WORLD, peer, 1, bytes, fences, flags);
}

static void call(int i, const char *name, uint64_t t0, uint64_t t1, int32_t peer, uint64_t bytes,
		 uint32_t fences)
{
	struct tprof_mpi_args2 b = { .peer = TPROF_MPI_NONE, .tag = TPROF_MPI_NONE };
	mw_call(&r[i], name, t0, t1,
		rma(peer, bytes, fences, bytes ? TPROF_MPIF_WRITE : 0), bytes ? &b : NULL);
}

/* MPI_Win_post or MPI_Win_start with its group's world ranks as text. */
static void group_call(int i, const char *name, uint64_t t0, uint64_t t1, const char *group)
{
	struct tprof_mpi_args2 b = { .peer = TPROF_MPI_NONE, .tag = TPROF_MPI_NONE,
				     .group = mw_str(&r[i], group) };
	mw_call(&r[i], name, t0, t1, rma(TPROF_MPI_NONE, 0, 0, 0), &b);
}

static void make(const char *dir)
{
	for (int i = 0; i < N; i++) {
		mw_begin(&r[i], dir, "hostA", 301 + i, i, N, 0, 200000);
		mw_world(&r[i], N);
		call(i, "MPI_Win_create", 2000, 2100, TPROF_MPI_NONE, 0, 0);
	}
	/* PSCW: 1 exposes to 0, then 2, then 0; 0 accesses 1 twice, 2 once */
	group_call(1, "MPI_Win_post", 10000, 10010, "0");
	group_call(0, "MPI_Win_start", 10100, 10110, "1");
	call(0, "MPI_Put", 10200, 10210, 1, 100, 0);
	call(0, "MPI_Win_complete", 10300, 10310, TPROF_MPI_NONE, 0, 0);
	call(1, "MPI_Win_wait", 10020, 10400, TPROF_MPI_NONE, 0, 0);
	group_call(1, "MPI_Win_post", 20000, 20010, "2");
	group_call(2, "MPI_Win_start", 20100, 20110, "1");
	call(2, "MPI_Put", 20200, 20210, 1, 200, 0);
	call(2, "MPI_Put", 20220, 20230, 0, 7, 0);   /* 0 is not in its group */
	call(2, "MPI_Win_complete", 20300, 20310, TPROF_MPI_NONE, 0, 0);
	call(1, "MPI_Win_wait", 20020, 20400, TPROF_MPI_NONE, 0, 0);
	group_call(1, "MPI_Win_post", 30000, 30010, "0,2-2");
	group_call(0, "MPI_Win_start", 30100, 30110, "1");
	call(0, "MPI_Put", 30200, 30210, 1, 300, 0);
	call(0, "MPI_Win_complete", 30300, 30310, TPROF_MPI_NONE, 0, 0);
	group_call(2, "MPI_Win_start", 30120, 30130, "1");
	call(2, "MPI_Put", 30220, 30230, 1, 400, 0);
	call(2, "MPI_Win_complete", 30320, 30330, TPROF_MPI_NONE, 0, 0);
	call(1, "MPI_Win_wait", 30020, 30500, TPROF_MPI_NONE, 0, 0);
	/* lock epochs: 2 is in a barrier when 0's unlock returns; 1 in no call, its next one later */
	mw_coll(&r[2], "MPI_Barrier", 39000, 41000, TPROF_COMM_SELF, 1, TPROF_MPI_NONE, 0, 0);
	call(0, "MPI_Win_lock", 40000, 40010, 2, 0, 0);
	call(0, "MPI_Put", 40020, 40030, 2, 500, 0);
	call(0, "MPI_Win_unlock", 40040, 40100, 2, 0, 0);
	call(0, "MPI_Win_lock", 50000, 50010, 1, 0, 0);
	call(0, "MPI_Put", 50020, 50030, 1, 600, 0);
	call(0, "MPI_Win_unlock", 50040, 50100, 1, 0, 0);
	mw_coll(&r[1], "MPI_Barrier", 52000, 52100, TPROF_COMM_SELF, 1, TPROF_MPI_NONE, 0, 0);
	/* a fence epoch: 0 puts to 1 between fences 1 and 2 */
	for (int i = 0; i < N; i++)
		call(i, "MPI_Win_fence", 60000, 60100 + 10 * (uint64_t)i, TPROF_MPI_NONE, 0, 1);
	call(0, "MPI_Put", 60200, 60210, 1, 700, 1);
	for (int i = 0; i < N; i++)
		call(i, "MPI_Win_fence", 61000, 61500 + 10 * (uint64_t)i, TPROF_MPI_NONE, 0, 2);
	/* an exposure epoch ended by MPI_Win_test: the last test before the next post */
	group_call(2, "MPI_Win_post", 80000, 80010, "0");
	group_call(0, "MPI_Win_start", 80100, 80110, "2");
	call(0, "MPI_Put", 80200, 80210, 2, 800, 0);
	call(0, "MPI_Win_complete", 80300, 80310, TPROF_MPI_NONE, 0, 0);
	call(2, "MPI_Win_test", 80020, 80030, TPROF_MPI_NONE, 0, 0);
	call(2, "MPI_Win_test", 80400, 80410, TPROF_MPI_NONE, 0, 0);
	group_call(2, "MPI_Win_post", 90000, 90010, "0");
	call(2, "MPI_Win_wait", 90020, 90100, TPROF_MPI_NONE, 0, 0);
	/* damaged groups: a range past the job's ranks reads as its ranks, nonsense as none */
	group_call(1, "MPI_Win_post", 70000, 70010, "0-2000000000");
	call(1, "MPI_Win_wait", 70020, 70100, TPROF_MPI_NONE, 0, 0);
	group_call(2, "MPI_Win_post", 70000, 70010, "x,,-5");
	call(2, "MPI_Win_wait", 70020, 70100, TPROF_MPI_NONE, 0, 0);
	for (int i = 0; i < N; i++)
		mw_end(&r[i]);
}

static const struct rma_info *by_bytes(const struct mpicap *c, uint64_t bytes)
{
	for (int i = 0; i < c->nrma; i++)
		if (c->rma[i].bytes == bytes)
			return &c->rma[i];
	return NULL;
}

/* The transfer of `bytes` from origin to target, linked inside t0..t1 of the target's call
 * at `at`. */
static void linked(const struct mpicap *c, uint64_t bytes, int origin, int target, int64_t t0,
		   int64_t t1, int64_t at, const char *what)
{
	const struct rma_info *ri = by_bytes(c, bytes);
	ok(ri && ri->origin == origin && ri->target == target && ri->t_t0 == T(t0) &&
	   ri->t_t1 == T(t1) && ri->t_at == T(at) && ri->tthread &&
	   ri->tthread->proc->rank == (uint32_t)target,
	   "%s: linked to %lld..%lld at %lld (got %lld..%lld at %lld)", what, (long long)t0,
	   (long long)t1, (long long)at, ri ? (long long)ri->t_t0 + 1000 : -1,
	   ri ? (long long)ri->t_t1 + 1000 : -1, ri ? (long long)ri->t_at + 1000 : -1);
}

int main(void)
{
	char dir[256];
	if (make_tmpdir(dir, sizeof(dir), "mpi-rma") < 0)
		return 99;
	make(dir);
	struct trace tr = { 0 };
	static struct mpicap c;
	ok(mpicap_run(&tr, dir, &c, NULL) == 0 && tr.nprocs == N, "three ranks load");
	ok(c.nrma == 8 && tr.mpi.rma_linked == 8 && tr.mpi.rma_unlinked == 1,
	   "8 transfers linked, 1 unlinked (got %d, %llu, %llu)", c.nrma,
	   (unsigned long long)tr.mpi.rma_linked, (unsigned long long)tr.mpi.rma_unlinked);
	linked(&c, 100, 0, 1, 10020, 10400, 10400, "PSCW: 0's first access epoch, 1's first wait");
	linked(&c, 200, 2, 1, 20020, 20400, 20400, "PSCW: 2's access epoch, 1's second wait");
	linked(&c, 300, 0, 1, 30020, 30500, 30500,
	       "PSCW: 0's second access epoch, 1's third wait (the second that exposes to 0)");
	linked(&c, 400, 2, 1, 30020, 30500, 30500, "PSCW: 2's second access epoch, 1's third wait");
	linked(&c, 500, 0, 2, 39000, 41000, 40100,
	       "lock: at the unlock's return, inside the target's barrier");
	linked(&c, 600, 0, 1, 52000, 52100, 52000,
	       "lock: the target in no call then: at the start of its next one");
	linked(&c, 700, 0, 1, 61000, 61510, 61510, "fence: the target's next fence");
	linked(&c, 800, 0, 2, 80400, 80410, 80410,
	       "PSCW: the target's last MPI_Win_test before its next post");
	ok(!by_bytes(&c, 7), "the put outside the access epoch's group is not linked");
	trace_free(&tr);
	rm_rf(dir);
	return tap_done();
}

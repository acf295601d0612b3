/* hook-mpi-rma.c — one-sided communication (op RMA): the calls that make windows, which
 * number each among the windows made over its communicator (the same number on every member:
 * making one is collective) and keep it in the table of windows (mpi-win.h), and
 * MPI_Win_free; the calls that open and close epochs (MPI_Win_fence, which counts the
 * window's fences, lock and unlock, post and start with their groups, complete, wait, test),
 * flushes; and the calls that move data: each with its window, its target, and its bytes
 * (the origin's: sent to the target, TPROF_MPIF_WRITE, or fetched from it, _READ; the atomic
 * ones both, the bytes fetched in args2.bytes), the request-based ones (MPI_Rput...) with
 * their request, which completes in an MPIREQ.  The other calls on a window are generated
 * from the list (QW). */
#include "hook-mpi.h"

/* The start of every wrapper here: a CALL of op RMA of ext units. */
#define MPI_RMA_BEGIN_CALL(name, ext, follow, args)                                        \
	MPI_WRAPPER_BEGIN(name, ext, TPROF_MPI_RMA, follow, args)

/* ---- windows made and freed --------------------------------------------------------------- */

/* A window made collectively over `comm` into *win: args2.bytes = its size (bytes). */
#define MPI_WIN_MADE(name, size, params, ...)                                              \
	TPROF_EXPORT int name params                                                       \
	{                                                                                  \
		MPI_RMA_BEGIN_CALL(name, 2, 0, (__VA_ARGS__));                             \
		struct tprof_mpi_comm *p;                                                  \
		c->a->comm = mpi_comm_of(comm, &p);                                        \
		uint32_t n = tprof_mpi_comm_window(p);                                     \
		c->a->tag = (int32_t)n;                                                    \
		c->b->bytes = (uint64_t)(size);                                            \
		tprof_call_enter(&c->call);                                                \
		int rc = real(__VA_ARGS__);                                                \
		if (rc == TMPI_SUCCESS && win)                                             \
			tprof_mpi_win_made(MPI_KEY(*win), c->a->comm, n);                  \
		return tprof_call_leave(&c->call, rc);                                     \
	}

MPI_WIN_MADE(MPI_Win_create, size > 0 ? size : 0,
	     (void *base, MAint size, int disp_unit, MInfo info, MComm comm, MWin *win),
	     base, size, disp_unit, info, comm, win)
MPI_WIN_MADE(MPI_Win_allocate, size > 0 ? size : 0,
	     (MAint size, int disp_unit, MInfo info, MComm comm, void *baseptr, MWin *win),
	     size, disp_unit, info, comm, baseptr, win)
MPI_WIN_MADE(MPI_Win_allocate_shared, size > 0 ? size : 0,
	     (MAint size, int disp_unit, MInfo info, MComm comm, void *baseptr, MWin *win),
	     size, disp_unit, info, comm, baseptr, win)
MPI_WIN_MADE(MPI_Win_create_dynamic, 0, (MInfo info, MComm comm, MWin *win), info, comm, win)

TPROF_EXPORT int MPI_Win_free(MWin *win)
{
	MPI_RMA_BEGIN_CALL(MPI_Win_free, 1, 0, (win));
	void *key = win ? MPI_KEY(*win) : NULL;
	mpi_rma_win(c, key);
	tprof_call_enter(&c->call);
	int rc = real(win);
	if (rc == TMPI_SUCCESS)
		tprof_mpi_win_freed(key);
	return tprof_call_leave(&c->call, rc);
}

/* ---- epochs and flushes ------------------------------------------------------------------- */

TPROF_EXPORT int MPI_Win_fence(int assert_, MWin win)
{
	MPI_RMA_BEGIN_CALL(MPI_Win_fence, 1, 0, (assert_, win));
	struct tprof_mpi_win *w = mpi_rma_win(c, MPI_KEY(win));
	if (w)
		c->a->seq = __atomic_add_fetch(&w->fences, 1, __ATOMIC_RELAXED);
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(assert_, win));
}

/* A call on a window about one rank of it (lock, unlock, flush): peer = the rank; flags. */
#define MPI_WIN_RANK(name, fl, params, ...)                                                \
	TPROF_EXPORT int name params                                                       \
	{                                                                                  \
		MPI_RMA_BEGIN_CALL(name, 1, 0, (__VA_ARGS__));                             \
		mpi_rma_win(c, MPI_KEY(win));                                              \
		c->a->peer = mpi_rank(rank);                                               \
		c->a->flags = (uint8_t)(fl);                                               \
		tprof_call_enter(&c->call);                                                \
		return tprof_call_leave(&c->call, real(__VA_ARGS__));                      \
	}

/* An exclusive lock as a writer's (TPROF_MPIF_WRITE), a shared one as a reader's (_READ). */
#define MPI_LOCK_FLAGS(type) ((type) == TMPI_LOCK_EXCLUSIVE ? TPROF_MPIF_WRITE : TPROF_MPIF_READ)
MPI_WIN_RANK(MPI_Win_lock, MPI_LOCK_FLAGS(lock_type),
	     (int lock_type, int rank, int assert_, MWin win), lock_type, rank, assert_, win)
MPI_WIN_RANK(MPI_Win_unlock, 0, (int rank, MWin win), rank, win)
MPI_WIN_RANK(MPI_Win_flush, 0, (int rank, MWin win), rank, win)
MPI_WIN_RANK(MPI_Win_flush_local, 0, (int rank, MWin win), rank, win)

/* A call on a window as a whole (the other epochs' calls, flushes of all ranks). */
#define MPI_WIN_WHOLE(name, params, ...)                                                   \
	TPROF_EXPORT int name params                                                       \
	{                                                                                  \
		MPI_RMA_BEGIN_CALL(name, 1, 0, (__VA_ARGS__));                             \
		mpi_rma_win(c, MPI_KEY(win));                                              \
		tprof_call_enter(&c->call);                                                \
		return tprof_call_leave(&c->call, real(__VA_ARGS__));                      \
	}

MPI_WIN_WHOLE(MPI_Win_lock_all, (int assert_, MWin win), assert_, win)
MPI_WIN_WHOLE(MPI_Win_unlock_all, (MWin win), win)

/* MPI_Win_post and MPI_Win_start: args2.group = the group's world ranks (mpi-comm.h), which
 * tell the analyzer which exposure epoch of a target each access epoch of an origin meets. */
#define MPI_WIN_GROUP(name)                                                                \
	TPROF_EXPORT int name(MGroup group, int assert_, MWin win)                         \
	{                                                                                  \
		MPI_RMA_BEGIN_CALL(name, 2, 0, (group, assert_, win));                     \
		mpi_rma_win(c, MPI_KEY(win));                                              \
		if (c->call.r)                                                             \
			c->b->group = tprof_mpi_group_text(MPI_KEY(group));               \
		tprof_call_enter(&c->call);                                                \
		return tprof_call_leave(&c->call, real(group, assert_, win));              \
	}
MPI_WIN_GROUP(MPI_Win_post)
MPI_WIN_GROUP(MPI_Win_start)
MPI_WIN_WHOLE(MPI_Win_complete, (MWin win), win)
MPI_WIN_WHOLE(MPI_Win_wait, (MWin win), win)
MPI_WIN_WHOLE(MPI_Win_test, (MWin win, int *flag), win, flag)
MPI_WIN_WHOLE(MPI_Win_flush_all, (MWin win), win)
MPI_WIN_WHOLE(MPI_Win_flush_local_all, (MWin win), win)
MPI_WIN_WHOLE(MPI_Win_sync, (MWin win), win)

/* ---- moving data -------------------------------------------------------------------------- */

/* What every data call records before it runs: its window and target, `rw`, the origin's
 * bytes and (the atomic ones) the bytes it fetches. */
static inline void rma_op(struct mpi_call *c, MWin win, int target, uint8_t rw, uint64_t bytes,
			  uint64_t fetched)
{
	mpi_rma_win(c, MPI_KEY(win));
	c->a->peer = mpi_rank(target);
	c->a->flags = rw;
	if (target == TMPI_PROC_NULL)
		c->a->flags |= TPROF_MPIF_PROC_NULL;
	c->a->bytes = bytes;
	c->b->bytes = fetched;
}

/* Put, Get, Accumulate: the origin's buffer sent or filled. */
#define MPI_RMA_MOVE(name, rw, bufq, OPP, ...)                                             \
	TPROF_EXPORT int name(bufq void *origin, int ocount, MType otype, int target,       \
			      MAint disp, int tcount, MType ttype, OPP MWin win)           \
	{                                                                                  \
		MPI_RMA_BEGIN_CALL(name, 2, 0, (origin, ocount, otype, target, disp, tcount, \
						ttype, __VA_ARGS__ win));                  \
		rma_op(c, win, target, rw, mpi_bytes(ocount, otype), 0);                   \
		tprof_call_enter(&c->call);                                                \
		return tprof_call_leave(&c->call, real(origin, ocount, otype, target, disp, \
						       tcount, ttype, __VA_ARGS__ win));  \
	}
#define MPI_RMA_NO_OP
#define MPI_RMA_COMMA ,
MPI_RMA_MOVE(MPI_Put, TPROF_MPIF_WRITE, const, MPI_RMA_NO_OP, )
MPI_RMA_MOVE(MPI_Get, TPROF_MPIF_READ, , MPI_RMA_NO_OP, )
MPI_RMA_MOVE(MPI_Accumulate, TPROF_MPIF_WRITE, const, MOp op_ MPI_RMA_COMMA, op_, )
#undef MPI_RMA_MOVE

/* The request of a request-based call: in args2.req, and tracked to its completion. */
static inline void mpi_rma_track(struct mpi_call *c, MReq req)
{
	c->b->req = (uint64_t)(uintptr_t)MPI_KEY(req);
	mpi_track(c, req, TPROF_MPI_RMA, 0, NULL);
}

/* The same, request-based: the request completes in an MPIREQ. */
#define MPI_RMA_RMOVE(name, rw, bufq, OPP, ...)                                            \
	TPROF_EXPORT int name(bufq void *origin, int ocount, MType otype, int target,       \
			      MAint disp, int tcount, MType ttype, OPP MWin win, MReq *req) \
	{                                                                                  \
		MPI_RMA_BEGIN_CALL(name, 2, MPI_REQ_UNITS(1),                              \
				   (origin, ocount, otype, target, disp, tcount, ttype,    \
				    __VA_ARGS__ win, req));                                \
		rma_op(c, win, target, rw | TPROF_MPIF_NONBLOCKING, mpi_bytes(ocount, otype), \
		       0);                                                                 \
		tprof_call_enter(&c->call);                                                \
		int rc = real(origin, ocount, otype, target, disp, tcount, ttype, __VA_ARGS__ \
			      win, req);                                                   \
		if (rc == TMPI_SUCCESS && req)                                             \
			mpi_rma_track(c, *req);                                            \
		return tprof_call_leave(&c->call, rc);                                     \
	}

MPI_RMA_RMOVE(MPI_Rput, TPROF_MPIF_WRITE, const, MPI_RMA_NO_OP, )
MPI_RMA_RMOVE(MPI_Rget, TPROF_MPIF_READ, , MPI_RMA_NO_OP, )
MPI_RMA_RMOVE(MPI_Raccumulate, TPROF_MPIF_WRITE, const, MOp op_ MPI_RMA_COMMA, op_, )

/* The atomic ones: they send the origin's buffer and fetch into the result's. */
TPROF_EXPORT int MPI_Get_accumulate(const void *origin, int ocount, MType otype, void *result,
				    int rcount, MType rtype, int target, MAint disp, int tcount,
				    MType ttype, MOp op, MWin win)
{
	MPI_RMA_BEGIN_CALL(MPI_Get_accumulate, 2, 0, (origin, ocount, otype, result, rcount,
						      rtype, target, disp, tcount, ttype, op, win));
	rma_op(c, win, target, TPROF_MPIF_READ | TPROF_MPIF_WRITE, mpi_bytes(ocount, otype),
	       mpi_bytes(rcount, rtype));
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(origin, ocount, otype, result, rcount, rtype,
					       target, disp, tcount, ttype, op, win));
}

TPROF_EXPORT int MPI_Rget_accumulate(const void *origin, int ocount, MType otype, void *result,
				     int rcount, MType rtype, int target, MAint disp, int tcount,
				     MType ttype, MOp op, MWin win, MReq *req)
{
	MPI_RMA_BEGIN_CALL(MPI_Rget_accumulate, 2, MPI_REQ_UNITS(1),
			   (origin, ocount, otype, result, rcount, rtype, target, disp, tcount,
			    ttype, op, win, req));
	rma_op(c, win, target, TPROF_MPIF_READ | TPROF_MPIF_WRITE | TPROF_MPIF_NONBLOCKING,
	       mpi_bytes(ocount, otype), mpi_bytes(rcount, rtype));
	tprof_call_enter(&c->call);
	int rc = real(origin, ocount, otype, result, rcount, rtype, target, disp, tcount, ttype,
		      op, win, req);
	if (rc == TMPI_SUCCESS && req)
		mpi_rma_track(c, *req);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT int MPI_Fetch_and_op(const void *origin, void *result, MType type, int target,
				  MAint disp, MOp op, MWin win)
{
	MPI_RMA_BEGIN_CALL(MPI_Fetch_and_op, 2, 0,
			   (origin, result, type, target, disp, op, win));
	uint64_t one = mpi_bytes(1, type);
	rma_op(c, win, target, TPROF_MPIF_READ | TPROF_MPIF_WRITE, one, one);
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(origin, result, type, target, disp, op, win));
}

TPROF_EXPORT int MPI_Compare_and_swap(const void *origin, const void *compare, void *result,
				      MType type, int target, MAint disp, MWin win)
{
	MPI_RMA_BEGIN_CALL(MPI_Compare_and_swap, 2, 0,
			   (origin, compare, result, type, target, disp, win));
	uint64_t one = mpi_bytes(1, type);
	rma_op(c, win, target, TPROF_MPIF_READ | TPROF_MPIF_WRITE, one, one);
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(origin, compare, result, type, target, disp, win));
}

/* The rest: generated (QW), here for C; the Fortran entries record them around the real
 * binding (fortran/entries.c). */
#ifndef TPROF_MPI_FORTRAN_SIDE
MPI_RMA_API(MPI_GENERATE)
#endif

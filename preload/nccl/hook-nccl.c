/* hook-nccl.c — NCCL and RCCL (libnccl.so.2, librccl.so.1, found at run time): the hook
 * table, the generated wrappers, communicators and groups.  A communicator made through these
 * wrappers (InitRank, InitRankConfig, InitRankScalable, InitAll, Split) is entered in the table
 * of nccl-comm.c with its id (the same on every rank), its rank, size and device (asked of the
 * library itself, after the real call) and the runtime whose events time its work; one the
 * wrappers never saw made gets an entry of its own at its first use.  Groups nest per thread;
 * the outermost ncclGroupEnd, which launches the group's work, is where the group's device
 * timing starts and ends (nccl-group.c).  The thread's guard is up during the real call:
 * what the library calls meanwhile is its own doing.  The collectives, sends and receives
 * are wrapped in hook-nccl-work.c. */
#include "hook-nccl.h"
#include "nccl-group.h"

#define NCCL_REAL(kind, name, params, args) TPROF_REAL_DEFINE(name)
NCCL_API(NCCL_REAL)
#undef NCCL_REAL

/* ---- generated wrappers ------------------------------------------------------------------ */

/* A wrapper of its own for each NCCL function the list names: `more` fills what the call
 * gives beyond its name (a communicator's ranks for QC). */
#define NCCL_GEN_BODY(name, params, args, more)                                           \
	TPROF_EXPORT ncclResult_t name params                                              \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		struct nccl_call c_, *c = &c_;                                             \
		if (!tprof_wrapper_records(t, real) ||                                     \
		    !nccl_begin(c, t, NCCL_HOOK(name), TPROF_NCCL_OTHER, (void *)real,    \
				NULL))                                                     \
			return real ? real(NCCL_UNPAREN args) : NCCL_NO_LIB;               \
		more;                                                                      \
		tprof_call_enter(&c->call);                                               \
		return tprof_call_leave(&c->call, real args);                             \
	}
#define NCCL_GEN_Q(name, params, args) NCCL_GEN_BODY(name, params, args, (void)0)
#define NCCL_GEN_QC(name, params, args)                                                   \
	NCCL_GEN_BODY(name, params, args, nccl_comm_args(c, nccl_comm(comm)))
#define NCCL_GEN_H(name, params, args)
#define NCCL_UNPAREN(...) __VA_ARGS__
#define NCCL_GENERATE(kind, name, params, args) NCCL_GEN_##kind(name, params, args)
NCCL_API(NCCL_GENERATE)
#undef NCCL_GENERATE

/* ---- communicators ----------------------------------------------------------------------- */

/* Called with the guard up, after the real call made `comm`: its entry, with what the
 * library says of it where it can (a nonblocking communicator still being made cannot). */
static struct tprof_nccl_comm *comm_made(ncclComm_t comm, uint64_t id, int rank, int nranks)
{
	struct tprof_nccl_comm d = { .id = id, .rank = rank, .nranks = nranks, .device = -1 };
	int v;
	if (get_ncclCommUserRank() && real_ncclCommUserRank(comm, &v) == ncclSuccess)
		d.rank = v;
	if (get_ncclCommCount() && real_ncclCommCount(comm, &v) == ncclSuccess)
		d.nranks = v;
	if (get_ncclCommCuDevice() && real_ncclCommCuDevice(comm, &v) == ncclSuccess)
		d.device = v;
	d.rt = tprof_nccl_runtime();
	return tprof_nccl_comm_add(comm, &d);
}

struct tprof_nccl_comm *nccl_comm_describe(ncclComm_t comm)
{
	TPROF_KEEP_ERRNO;
	struct tprof_thread *t = &tprof_tls;
	t->guard++;
	struct tprof_nccl_comm *e = comm_made(comm, tprof_nccl_id_local(), -1, 0);
	t->guard--;
	return e;
}

/* The library took the call (a nonblocking communicator may still be working on it). */
static inline int taken(ncclResult_t rc)
{
	return rc == ncclSuccess || rc == ncclInProgress;
}

/* What a creating call records once the library answered. */
static void made(struct nccl_call *c, ncclResult_t rc, ncclComm_t *out, uint64_t id, int rank,
		 int nranks)
{
	if (taken(rc) && out && *out)
		nccl_comm_args(c, comm_made(*out, id, rank, nranks));
}

/* ---- unique ids and creation ------------------------------------------------------------- */

TPROF_EXPORT ncclResult_t ncclGetUniqueId(ncclUniqueId *uniqueId)
{
	struct tprof_thread *t = &tprof_tls;
	ncclGetUniqueId_fn real = get_ncclGetUniqueId();
	struct nccl_call c_, *c = &c_;
	if (!tprof_wrapper_records(t, real) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclGetUniqueId), TPROF_NCCL_OTHER, (void *)real, NULL))
		return real ? real(uniqueId) : NCCL_NO_LIB;
	tprof_call_enter(&c->call);
	ncclResult_t rc = real(uniqueId);
	if (rc == ncclSuccess && uniqueId)
		c->a->comm = tprof_nccl_id_unique(uniqueId->internal);
	return tprof_call_leave(&c->call, rc);
}

#define NCCL_INIT_RANK(name, params, ...)                                                  \
	TPROF_EXPORT ncclResult_t name params                                               \
	{                                                                                   \
		struct tprof_thread *t = &tprof_tls;                                        \
		name##_fn real = get_##name();                                              \
		struct nccl_call c_, *c = &c_;                                              \
		if (!tprof_wrapper_records(t, real) ||                                      \
		    !nccl_begin(c, t, NCCL_HOOK(name), TPROF_NCCL_COMM_INIT, (void *)real,  \
				NULL))                                                      \
			return real ? real(__VA_ARGS__) : NCCL_NO_LIB;                      \
		uint64_t id = tprof_nccl_id_unique(commId.internal);                        \
		c->a->comm = id;                                                            \
		c->b->rank = rank;                                                          \
		c->b->nranks = nranks;                                                      \
		tprof_call_enter(&c->call);                                               \
		ncclResult_t rc = real(__VA_ARGS__);                                        \
		made(c, rc, comm, id, rank, nranks);                                        \
		return tprof_call_leave(&c->call, rc);                                    \
	}

NCCL_INIT_RANK(ncclCommInitRank, (ncclComm_t *comm, int nranks, ncclUniqueId commId, int rank),
	       comm, nranks, commId, rank)
NCCL_INIT_RANK(ncclCommInitRankConfig, (ncclComm_t *comm, int nranks, ncclUniqueId commId,
					int rank, ncclConfig_t *config),
	       comm, nranks, commId, rank, config)

TPROF_EXPORT ncclResult_t ncclCommInitRankScalable(ncclComm_t *newcomm, int nranks, int myrank,
						   int nId, ncclUniqueId *commIds,
						   ncclConfig_t *config)
{
	struct tprof_thread *t = &tprof_tls;
	ncclCommInitRankScalable_fn real = get_ncclCommInitRankScalable();
	struct nccl_call c_, *c = &c_;
	if (!tprof_wrapper_records(t, real) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclCommInitRankScalable), TPROF_NCCL_COMM_INIT,
			(void *)real, NULL))
		return real ? real(newcomm, nranks, myrank, nId, commIds, config) : NCCL_NO_LIB;
	uint64_t id = tprof_nccl_id_uniques(commIds, nId);
	c->a->comm = id;
	c->b->rank = myrank;
	c->b->nranks = nranks;
	tprof_call_enter(&c->call);
	ncclResult_t rc = real(newcomm, nranks, myrank, nId, commIds, config);
	made(c, rc, newcomm, id, myrank, nranks);
	return tprof_call_leave(&c->call, rc);
}

/* One process holds every rank: one id for the communicator, an entry per rank. */
TPROF_EXPORT ncclResult_t ncclCommInitAll(ncclComm_t *comm, int ndev, const int *devlist)
{
	struct tprof_thread *t = &tprof_tls;
	ncclCommInitAll_fn real = get_ncclCommInitAll();
	struct nccl_call c_, *c = &c_;
	if (!tprof_wrapper_records(t, real) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclCommInitAll), TPROF_NCCL_COMM_INIT, (void *)real, NULL))
		return real ? real(comm, ndev, devlist) : NCCL_NO_LIB;
	uint64_t id = tprof_nccl_id_local();
	c->a->comm = id;
	c->b->nranks = ndev;
	tprof_call_enter(&c->call);
	ncclResult_t rc = real(comm, ndev, devlist);
	for (int i = 0; taken(rc) && comm && i < ndev; i++)
		if (comm[i])
			comm_made(comm[i], id, i, ndev);
	return tprof_call_leave(&c->call, rc);
}

/* Every rank of the parent takes part, NCCL_SPLIT_NOCOLOR ones included (they get no
 * communicator), so the parent's split count agrees across ranks. */
TPROF_EXPORT ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *newcomm,
					ncclConfig_t *config)
{
	struct tprof_thread *t = &tprof_tls;
	ncclCommSplit_fn real = get_ncclCommSplit();
	struct nccl_call c_, *c = &c_;
	if (!tprof_wrapper_records(t, real) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclCommSplit), TPROF_NCCL_COMM_SPLIT, (void *)real, NULL))
		return real ? real(comm, color, key, newcomm, config) : NCCL_NO_LIB;
	struct tprof_nccl_comm *parent = nccl_comm(comm);
	uint32_t number = tprof_nccl_split_number(parent);
	uint64_t parent_id = parent ? parent->id : 0;
	uint64_t id = color == NCCL_SPLIT_NOCOLOR ? 0 : tprof_nccl_id_split(parent_id, number, color);
	c->a->comm = id;
	c->b->aux = parent_id;
	tprof_call_enter(&c->call);
	ncclResult_t rc = real(comm, color, key, newcomm, config);
	if (id)
		made(c, rc, newcomm, id, -1, 0);
	return tprof_call_leave(&c->call, rc);
}

/* ---- the end of a communicator ----------------------------------------------------------- */

/* Once a communicator ends, what its operations ran is written out at once: a rank may
 * leave right after with _exit (a forked worker), which runs no exit handler. */
#define NCCL_COMM_END(name, forget_when)                                                   \
	TPROF_EXPORT ncclResult_t name(ncclComm_t comm)                                     \
	{                                                                                   \
		struct tprof_thread *t = &tprof_tls;                                        \
		name##_fn real = get_##name();                                              \
		struct nccl_call c_, *c = &c_;                                              \
		if (!tprof_wrapper_records(t, real) ||                                      \
		    !nccl_begin(c, t, NCCL_HOOK(name), TPROF_NCCL_COMM_END, (void *)real,   \
				NULL))                                                      \
			return real ? real(comm) : NCCL_NO_LIB;                             \
		nccl_comm_args(c, tprof_nccl_comm_find(comm));                              \
		tprof_call_enter(&c->call);                                               \
		ncclResult_t rc = real(comm);                                               \
		if (forget_when)                                                            \
			tprof_nccl_comm_forget(comm);                                       \
		rc = tprof_call_leave(&c->call, rc);                                      \
		t->guard++;                                                                 \
		tprof_dev_flush();                                                          \
		t->guard--;                                                                 \
		return rc;                                                                  \
	}

NCCL_COMM_END(ncclCommFinalize, 0)
NCCL_COMM_END(ncclCommDestroy, rc == ncclSuccess)
NCCL_COMM_END(ncclCommAbort, 1)

/* ---- memory ------------------------------------------------------------------------------ */

TPROF_EXPORT ncclResult_t ncclCommRegister(const ncclComm_t comm, void *buff, size_t size,
					   void **handle)
{
	struct tprof_thread *t = &tprof_tls;
	ncclCommRegister_fn real = get_ncclCommRegister();
	struct nccl_call c_, *c = &c_;
	if (!tprof_wrapper_records(t, real) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclCommRegister), TPROF_NCCL_OTHER, (void *)real, NULL))
		return real ? real(comm, buff, size, handle) : NCCL_NO_LIB;
	nccl_comm_args(c, nccl_comm(comm));
	c->a->count = size;
	c->a->bytes = size;
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(comm, buff, size, handle));
}

TPROF_EXPORT ncclResult_t ncclMemAlloc(void **ptr, size_t size)
{
	struct tprof_thread *t = &tprof_tls;
	ncclMemAlloc_fn real = get_ncclMemAlloc();
	struct nccl_call c_, *c = &c_;
	if (!tprof_wrapper_records(t, real) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclMemAlloc), TPROF_NCCL_OTHER, (void *)real, NULL))
		return real ? real(ptr, size) : NCCL_NO_LIB;
	c->a->count = size;
	c->a->bytes = size;
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real(ptr, size));
}

/* ---- groups ------------------------------------------------------------------------------ */

/* Nesting is followed whenever the program (not the library, not the profiler) calls: the
 * group's operations are timed at its outermost end whatever gets recorded meanwhile. */
TPROF_EXPORT ncclResult_t ncclGroupStart(void)
{
	struct tprof_thread *t = &tprof_tls;
	ncclGroupStart_fn real = get_ncclGroupStart();
	if (TPROF_UNLIKELY(!real))
		return NCCL_NO_LIB;
	struct nccl_call c_, *c = &c_;
	if (t->guard)
		return real();
	if (!tprof_should_record(t) ||
	    !nccl_begin(c, t, NCCL_HOOK(ncclGroupStart), TPROF_NCCL_GROUP_START, (void *)real, NULL)) {
		ncclResult_t rc = real();
		if (rc == ncclSuccess)
			tprof_nccl_group_start(0);
		return rc;
	}
	c->b->aux = tprof_nccl_in_group() ? tprof_nccl_gs.id : c->call.corr;
	tprof_call_enter(&c->call);
	ncclResult_t rc = real();
	if (rc == ncclSuccess)
		tprof_nccl_group_start(c->call.corr);
	return tprof_call_leave(&c->call, rc);
}

TPROF_EXPORT ncclResult_t ncclGroupEnd(void)
{
	struct tprof_thread *t = &tprof_tls;
	ncclGroupEnd_fn real = get_ncclGroupEnd();
	if (TPROF_UNLIKELY(!real))
		return NCCL_NO_LIB;
	struct nccl_call c_, *c = &c_;
	if (t->guard)
		return real();
	int rec = tprof_should_record(t) &&
		  nccl_begin(c, t, NCCL_HOOK(ncclGroupEnd), TPROF_NCCL_GROUP_END, (void *)real, NULL);
	if (!rec) {
		uint64_t t0 = tprof_now();
		t->guard++;
		tprof_nccl_group_launch(t);
		t->guard--;
		ncclResult_t rc = real();
		t->guard++;
		tprof_nccl_group_end(t, 0, t0, 0, taken(rc));
		t->guard--;
		return rc;
	}
	c->b->aux = tprof_nccl_gs.id;
	tprof_call_enter(&c->call);
	uint64_t t0 = c->call.r ? c->call.r->t0 : tprof_now();
	tprof_nccl_group_launch(t);   /* the group's work goes on its streams in the real call */
	ncclResult_t rc = real();
	tprof_nccl_group_end(t, c->call.corr, t0, tprof_hook_name(c->call.h), taken(rc));
	return tprof_call_leave(&c->call, rc);
}

/* ---- the table --------------------------------------------------------------------------- */

#define NCCL_ENTRY(kind, name, params, args)                                              \
	[NCCLH_##name] = { .domain = TPROF_DOM_NCCL, .record = 1 },
struct tprof_hook tprof_nccl_hooks[NCCLH_COUNT] = {
	NCCL_API(NCCL_ENTRY)
};

#define NCCL_FILL(kind, name, params, args)                                               \
	tprof_hook_set(&tprof_nccl_hooks[NCCLH_##name], #name, NULL, (void *)name,        \
		       (void **)&real_##name);
static void tprof_nccl_hooks_fill(void)
{
	NCCL_API(NCCL_FILL)
}
TPROF_HOOK_TABLE(nccl, tprof_nccl_hooks, NCCLH_COUNT, tprof_nccl_hooks_fill, TPROF_DOM_NCCL);

/* hook-mpi.c — MPI (Open MPI's libmpi, found at run time): the hook table, the generated
 * wrappers of calls with nothing to record but their communicator, and the life of MPI in
 * the process: MPI_Init/MPI_Init_thread (then rank, size, WORLD and SELF, and a clock offset
 * measurement against rank 0) and MPI_Finalize (a last measurement, before the real call). */
#include "hook-mpi.h"

#define MPI_REAL(kind, name, ...) TPROF_REAL_DEFINE(name)
MPI_API(MPI_REAL)
#undef MPI_REAL

/* ---- generated wrappers ----------------------------------------------------------------- */

/* A wrapper of its own for each MPI function the list names: `more` fills what the call
 * gives beyond its name (its communicator for QC). */
#define MPI_GEN_BODY(name, params, args, more)                                             \
	TPROF_EXPORT int name params                                                       \
	{                                                                                  \
		struct tprof_thread *t = &tprof_tls;                                       \
		name##_fn real = get_##name();                                             \
		if (!tprof_wrapper_records(t, real) || !tprof_mpi_ready())                 \
			return real ? real(MPI_UNPAREN args) : TMPI_ERR_OTHER;             \
		struct mpi_call c_, *c = &c_;                                              \
		mpi_begin(c, t, MPI_HOOK(name), 1, TPROF_MPI_OTHER);                       \
		more;                                                                      \
		tprof_call_enter(&c->call);                                                \
		return tprof_call_leave(&c->call, real args);                              \
	}
#define MPI_GEN_Q(name, params, args) MPI_GEN_BODY(name, params, args, (void)0)
#define MPI_GEN_QC(name, params, args)                                                    \
	MPI_GEN_BODY(name, params, args, c->a->comm = mpi_comm_id(comm))
#define MPI_GEN_H(name, params, args)
#define MPI_GEN_P(name, params, args)
#define MPI_UNPAREN(...) __VA_ARGS__
#define MPI_GENERATE(kind, name, fname, FNAME, ...)                                       \
	MPI_GEN_##kind(name, MPI_PARAMS(__VA_ARGS__), MPI_ARGS(__VA_ARGS__))
MPI_API(MPI_GENERATE)
#undef MPI_GENERATE

/* ---- init and finalize ------------------------------------------------------------------ */

/* After the runtime started: what the records need (rank, size, WORLD, SELF), then the
 * recorder's collective work, outside the program's MPI_Init span. */
static void started(int rc)
{
	if (rc != TMPI_SUCCESS)
		return;
	tprof_tls.guard++;
	if (tprof_mpi_collective_work()) {
		tprof_mpi_started();
		tprof_mpi_sync_setup();
		tprof_mpi_sync(TPROF_CSYNC_INIT);
	}
	tprof_tls.guard--;
}

/* An init is recorded when this thread records; the collective work happens whenever the
 * recorder is enabled, so that every rank takes part in it. */
#define MPI_INIT_BODY(name, ...)                                                           \
	struct tprof_thread *t = &tprof_tls;                                               \
	name##_fn real = get_##name();                                                     \
	if (TPROF_UNLIKELY(!real))                                                         \
		return TMPI_ERR_OTHER;                                                     \
	if (!tprof_mpi_on(t)) {                                                            \
		int rc_ = real(__VA_ARGS__);                                               \
		if (!t->guard)                                                             \
			started(rc_);                                                      \
		return rc_;                                                                \
	}                                                                                  \
	struct mpi_call c_, *c = &c_;                                                      \
	mpi_begin(c, t, MPI_HOOK(name), 1, TPROF_MPI_INIT);                                \
	tprof_call_enter(&c->call);                                                       \
	int rc = tprof_call_leave(&c->call, real(__VA_ARGS__));                           \
	started(rc);                                                                       \
	return rc

TPROF_EXPORT int MPI_Init(int *argc, char ***argv)
{
	MPI_INIT_BODY(MPI_Init, argc, argv);
}

TPROF_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	MPI_INIT_BODY(MPI_Init_thread, argc, argv, required, provided);
}

TPROF_EXPORT int MPI_Finalize(void)
{
	struct tprof_thread *t = &tprof_tls;
	MPI_Finalize_fn real = get_MPI_Finalize();
	if (TPROF_UNLIKELY(!real))
		return TMPI_ERR_OTHER;
	if (!t->guard && __atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE) == TPROF_MPI_READY) {
		t->guard++;
		if (tprof_mpi_collective_work()) {
			tprof_mpi_sync(TPROF_CSYNC_FINALIZE);
			tprof_mpi_sync_teardown();
		}
		t->guard--;
	}
	int rec = tprof_mpi_on(t);
	if (!t->guard) {
		t->guard++;
		tprof_mpi_stopping();
		t->guard--;
	}
	if (!rec)
		return real();
	struct mpi_call c_, *c = &c_;
	mpi_begin(c, t, MPI_HOOK(MPI_Finalize), 1, TPROF_MPI_FINALIZE);
	tprof_call_enter(&c->call);
	return tprof_call_leave(&c->call, real());
}

/* ---- the table -------------------------------------------------------------------------- */

#define MPI_POLLS_Q 0
#define MPI_POLLS_QC 0
#define MPI_POLLS_H 0
#define MPI_POLLS_P 1
/* the polls with a fast side: their slot in a run's `armed`, + 1 */
#define MPI_ARM_OF(i)                                                                     \
	((i) == MPIH_MPI_Test ? MPI_ARM_TEST + 1 :                                        \
	 (i) == MPIH_MPI_Testany ? MPI_ARM_TESTANY + 1 :                                  \
	 (i) == MPIH_MPI_Iprobe ? MPI_ARM_IPROBE + 1 : 0)
#define MPI_ENTRY(kind, fn, ...)                                                         \
	[MPIH_##fn] = { .domain = TPROF_DOM_MPI, .record = 1, .poll = MPI_POLLS_##kind,   \
			.arm = MPI_ARM_OF(MPIH_##fn) },
struct tprof_hook tprof_mpi_hooks[MPIH_COUNT] = {
	MPI_API(MPI_ENTRY)
};

#define MPI_FILL(kind, fn, ...)                                                          \
	tprof_hook_set(&tprof_mpi_hooks[MPIH_##fn], #fn, NULL, (void *)fn, (void **)&real_##fn);
static void tprof_mpi_hooks_fill(void)
{
	MPI_API(MPI_FILL)
}
TPROF_HOOK_TABLE(mpi, tprof_mpi_hooks, MPIH_COUNT, tprof_mpi_hooks_fill, TPROF_DOM_MPI);

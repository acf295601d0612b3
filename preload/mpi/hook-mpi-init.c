/* hook-mpi-init.c — the life of MPI in the process: MPI_Init/MPI_Init_thread (then rank,
 * size, WORLD and SELF, and a clock offset measurement against rank 0) and MPI_Finalize (a
 * last measurement, before the real call). */
#include "hook-mpi.h"

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
 * recorder is enabled, so that every rank takes part in it.  Asked first which library this
 * is, so that it is found out before the first call's checks. */
#define MPI_INIT_BODY(name, ...)                                                           \
	struct tprof_thread *t = &tprof_tls;                                               \
	name##_fn real = get_##name();                                                     \
	if (TPROF_UNLIKELY(!real))                                                         \
		return TMPI_ERR_OTHER;                                                     \
	MPI_TO_MPICH(name, tprof_mpi_abi_found(), (__VA_ARGS__))                          \
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
	MPI_TO_MPICH(MPI_Finalize, tprof_mpi_abi_found(), ())
	if (!t->guard && tprof_mpi_is_ready(__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE))) {
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


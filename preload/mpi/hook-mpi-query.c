/* hook-mpi-query.c — the generated wrappers: one for each call of the list (hook-mpi.h) with
 * nothing to record but its name (Q entries) or its communicator (QC). */
#include "hook-mpi.h"

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


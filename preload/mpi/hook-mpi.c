/* hook-mpi.c — MPI (Open MPI's libmpi, found at run time): the hook table of the call list
 * (hook-mpi.h), and the real functions' pointers, found on first use. */
#include "hook-mpi.h"

#define MPI_REAL(kind, name, ...) TPROF_REAL_DEFINE(name)
MPI_API(MPI_REAL)
#undef MPI_REAL

/* ---- the table -------------------------------------------------------------------------- */

#define MPI_POLLS_Q 0
#define MPI_POLLS_QC 0
#define MPI_POLLS_QF 0
#define MPI_POLLS_QW 0
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

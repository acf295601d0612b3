/* mpi-win.c — the table of one-sided communication's windows (see mpi-win.h). */
#include "../core/core.h"
#include "mpi-win.h"

struct tprof_mpi_win tprof_mpi_wins[TPROF_MPI_WIN_SLOTS];
static int full_warned;

void tprof_mpi_win_made(void *win, uint64_t comm, uint32_t number)
{
	if (!tprof_handle_is_key(win))
		return;
	struct tprof_mpi_win *e =
		tprof_handle_claim(TPROF_HANDLES(tprof_mpi_wins, TPROF_MPI_WIN_PROBE), win);
	if (TPROF_UNLIKELY(!e)) {
		tprof_handles_full(&full_warned, "too many MPI windows at once: the calls on some "
				   "are recorded without their window");
		return;
	}
	e->comm = comm;
	e->number = number;
	__atomic_store_n(&e->fences, 0, __ATOMIC_RELAXED);
}

void tprof_mpi_win_freed(void *win)
{
	struct tprof_mpi_win *e = tprof_mpi_win_find(win);
	if (e)
		tprof_handle_remove(e);
}

/* mpi-win.h — the windows of one-sided communication a process has, as the MPI hooks know
 * them: for each window handle, the communicator it was made over, its number among the
 * windows made over that communicator (from 1: the same on every member, since making a
 * window is collective), which every call on it records (op RMA) so that the analyzer finds
 * the one window in all its members' records, and the fences called on it so far.  A handle
 * table (core/handles.h): a window goes in when it is made and out when it is freed. */
#ifndef TPROF_MPI_WIN_H
#define TPROF_MPI_WIN_H

#include <stdint.h>

#include "../core/handles.h"

struct tprof_mpi_win {
	void *handle;              /* the key: the window (MPI_KEY) */
	uint64_t comm;             /* id of the communicator it was made over */
	uint32_t number;           /* from 1, among the windows made over comm */
	uint32_t fences;           /* MPI_Win_fence calls on it so far (atomic) */
};

#define TPROF_MPI_WIN_SLOTS 1024u
#define TPROF_MPI_WIN_PROBE 64u

extern struct tprof_mpi_win tprof_mpi_wins[TPROF_MPI_WIN_SLOTS];
TPROF_HANDLES_CHECK(tprof_mpi_wins, handle);

/* The entry of a window, or NULL (MPI_WIN_NULL, a window made unseen). */
static inline struct tprof_mpi_win *tprof_mpi_win_find(void *win)
{
	if (!tprof_handle_is_key(win))
		return NULL;
	return tprof_handle_find(TPROF_HANDLES(tprof_mpi_wins, TPROF_MPI_WIN_PROBE), win);
}

/* Window win was made over communicator comm, the number-th made over it. */
void tprof_mpi_win_made(void *win, uint64_t comm, uint32_t number);
/* MPI_Win_free freed it: the handle may come back for another window. */
void tprof_mpi_win_freed(void *win);

#endif

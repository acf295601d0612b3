/* mpi-file.c — the table of open MPI-IO files (see mpi-file.h). */
#include "../core/core.h"
#include "mpi-file.h"

struct tprof_mpi_file tprof_mpi_files[TPROF_MPI_FILE_SLOTS];
static uint32_t opened;
static int full_warned;

uint32_t tprof_mpi_file_opened(tmpi_File fh, uint64_t comm, uint32_t name)
{
	uint32_t number = __atomic_add_fetch(&opened, 1, __ATOMIC_RELAXED);
	if (!tprof_handle_is_key(fh))
		return number;
	struct tprof_mpi_file *e =
		tprof_handle_claim(TPROF_HANDLES(tprof_mpi_files, TPROF_MPI_FILE_PROBE), fh);
	if (TPROF_UNLIKELY(!e)) {
		tprof_handles_full(&full_warned, "too many MPI files open at once: the calls on "
				   "some are recorded without their file");
		return number;
	}
	e->comm = comm;
	e->number = number;
	e->name = name;
	return number;
}

void tprof_mpi_file_closed(tmpi_File fh)
{
	struct tprof_mpi_file *e = (struct tprof_mpi_file *)tprof_mpi_file_find(fh);
	if (e)
		tprof_handle_remove(e);
}

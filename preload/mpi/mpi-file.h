/* mpi-file.h — the MPI-IO files a process has open, as the MPI hooks know them: for each file
 * handle, the communicator it was opened over, its number in the process (from 1, in opening
 * order) and the string id of its name, which every call on it records (op IO).  A handle
 * table (core/handles.h): a file handle goes in at MPI_File_open and out at MPI_File_close;
 * a lookup is a few loads, never a lock. */
#ifndef TPROF_MPI_FILE_H
#define TPROF_MPI_FILE_H

#include <stdint.h>

#include "../core/handles.h"
#include "mpi-abi.h"

struct tprof_mpi_file {
	void *handle;              /* the key */
	uint64_t comm;             /* id of the communicator it was opened over */
	uint32_t number;           /* from 1, in opening order */
	uint32_t name;             /* string id of its name as opened, 0 when none */
};

#define TPROF_MPI_FILE_SLOTS 1024u
#define TPROF_MPI_FILE_PROBE 64u

extern struct tprof_mpi_file tprof_mpi_files[TPROF_MPI_FILE_SLOTS];
TPROF_HANDLES_CHECK(tprof_mpi_files, handle);

/* The entry of an open file's handle, or NULL (MPI_FILE_NULL, a file opened unseen). */
static inline const struct tprof_mpi_file *tprof_mpi_file_find(tmpi_File fh)
{
	if (!tprof_handle_is_key(fh))
		return NULL;
	return tprof_handle_find(TPROF_HANDLES(tprof_mpi_files, TPROF_MPI_FILE_PROBE), fh);
}

/* MPI_File_open made fh over communicator comm, from the file named by string id name: its
 * number (0 when the table is full, and its calls then record no file). */
uint32_t tprof_mpi_file_opened(tmpi_File fh, uint64_t comm, uint32_t name);
/* MPI_File_close closed fh: the handle may come back for another file. */
void tprof_mpi_file_closed(tmpi_File fh);

#endif

/* test-mpi-abi-mpich.c — what the recorder declares of MPICH's C ABI itself
 * (preload/mpi/mpi-abi-mpich.h), checked against MPICH's real mpi.h and library: the handle
 * type, MPI_Status's layout and how the bytes received are kept in it, the constants and the
 * predefined handles, that the handles of MPI_COMM_WORLD's group and of a request fit the
 * key the recorder keeps (zero-extended), and the version string it knows MPICH by.  Built
 * with mpicc.mpich, run under mpirun.mpich -np 1 (tests/func/t-mpi-abi-mpich.sh). */
#include <mpi.h>
#include <stddef.h>
#include <string.h>

#include "../../preload/mpi/mpi-abi.h"
#include "../../preload/mpi/mpi-abi-mpich.h"
#include "tap.h"

#define SAME_OFFSET(field)                                                                  \
	ok(offsetof(MPI_Status, field) == offsetof(tmpich_Status, field),                   \
	   "MPI_Status." #field " at offset %zu", offsetof(MPI_Status, field))

int main(int argc, char **argv)
{
	ok(sizeof(tmpich_Status) == sizeof(MPI_Status), "MPI_Status is %zu bytes",
	   sizeof(MPI_Status));
	SAME_OFFSET(count_lo);
	SAME_OFFSET(count_hi_and_cancelled);
	SAME_OFFSET(MPI_SOURCE);
	SAME_OFFSET(MPI_TAG);
	SAME_OFFSET(MPI_ERROR);
	ok(sizeof(MPI_Comm) == sizeof(tmpich_Handle) && sizeof(MPI_Datatype) == sizeof(tmpich_Handle) &&
	   sizeof(MPI_Request) == sizeof(tmpich_Handle) && sizeof(MPI_Group) == sizeof(tmpich_Handle) &&
	   sizeof(MPI_Op) == sizeof(tmpich_Handle) && sizeof(MPI_Info) == sizeof(tmpich_Handle) &&
	   sizeof(MPI_Message) == sizeof(tmpich_Handle) &&
	   sizeof(MPI_Errhandler) == sizeof(tmpich_Handle), "handles are ints");
	ok(sizeof(MPI_Aint) == 8 && sizeof(MPI_Count) == 8, "MPI_Aint and MPI_Count are 8 bytes");
	ok(sizeof(MPI_File) == sizeof(tmpi_File) && sizeof(MPI_Offset) == sizeof(tmpi_Offset) &&
	   (MPI_Offset)-1 < 0, "MPI_File is a pointer, MPI_Offset a signed 8 bytes, as in Open MPI");
	ok(TMPICH_SUCCESS == MPI_SUCCESS && TMPICH_ERR_OTHER == MPI_ERR_OTHER,
	   "MPI_SUCCESS, MPI_ERR_OTHER");
	ok(TMPICH_ANY_SOURCE == MPI_ANY_SOURCE && TMPICH_PROC_NULL == MPI_PROC_NULL &&
	   TMPICH_ROOT == MPI_ROOT, "MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT");
	ok(TMPICH_ANY_TAG == MPI_ANY_TAG && TMPICH_UNDEFINED == MPI_UNDEFINED,
	   "MPI_ANY_TAG, MPI_UNDEFINED");
	ok(TMPICH_IN_PLACE == MPI_IN_PLACE && TMPICH_BOTTOM == MPI_BOTTOM, "MPI_IN_PLACE, MPI_BOTTOM");
	ok(TMPICH_THREAD_MULTIPLE == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE");
	ok(TMPICH_LOCK_EXCLUSIVE == MPI_LOCK_EXCLUSIVE, "MPI_LOCK_EXCLUSIVE");
	ok(TMPICH_CART == MPI_CART && TMPICH_GRAPH == MPI_GRAPH &&
	   TMPICH_DIST_GRAPH == MPI_DIST_GRAPH, "MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH");
	ok((void *)TMPICH_STATUS_IGNORE == (void *)MPI_STATUS_IGNORE &&
	   (void *)TMPICH_STATUSES_IGNORE == (void *)MPI_STATUSES_IGNORE,
	   "MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE");
	ok(TMPICH_COMM_WORLD == MPI_COMM_WORLD && TMPICH_COMM_SELF == MPI_COMM_SELF &&
	   TMPICH_COMM_NULL == MPI_COMM_NULL, "MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL");
	ok(TMPICH_REQUEST_NULL == MPI_REQUEST_NULL && TMPICH_MESSAGE_NULL == MPI_MESSAGE_NULL &&
	   TMPICH_MESSAGE_NO_PROC == MPI_MESSAGE_NO_PROC,
	   "MPI_REQUEST_NULL, MPI_MESSAGE_NULL, MPI_MESSAGE_NO_PROC");
	ok(TMPICH_BYTE == MPI_BYTE, "MPI_BYTE");
	ok(TMPICH_WIN_NULL == MPI_WIN_NULL, "MPI_WIN_NULL");

	char version[MPI_MAX_LIBRARY_VERSION_STRING];
	int len = 0;
	ok(MPI_Get_library_version(version, &len) == MPI_SUCCESS && strstr(version, "MPICH"),
	   "the library's version string, asked before MPI_Init, names MPICH");

	if (!tap_ok(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init"))
		return tap_done();
	int out[3] = { 1, 2, 3 }, in[3];
	MPI_Status st;
	int count = -1;
	MPI_Sendrecv(out, 3, MPI_INT, 0, 5, in, 3, MPI_INT, 0, 5, MPI_COMM_SELF, &st);
	MPI_Get_count(&st, MPI_INT, &count);
	tmpich_Status *ts = (tmpich_Status *)(void *)&st;
	ok(tmpich_status_bytes(ts) == 3 * sizeof(int) && count == 3 && ts->MPI_SOURCE == 0 &&
	   ts->MPI_TAG == 5, "a status holds the bytes received (%llu)",
	   (unsigned long long)tmpich_status_bytes(ts));
	/* use mpi_f08's bindings (fortran-mpich/): the entries take a Fortran handle for the C
	 * one and a Fortran status for the C status, and know MPI_STATUS_IGNORE by the address
	 * MPI_F08_STATUS_IGNORE holds */
	MPI_Fint fst[sizeof(MPI_Status) / sizeof(MPI_Fint)];
	MPI_Status_c2f(&st, fst);
	ok(memcmp(fst, &st, sizeof(st)) == 0, "a Fortran status is the C status, int for int");
	ok(MPI_Comm_c2f(MPI_COMM_WORLD) == (MPI_Fint)MPI_COMM_WORLD &&
	   MPI_Type_c2f(MPI_BYTE) == (MPI_Fint)MPI_BYTE && MPI_Op_c2f(MPI_SUM) == (MPI_Fint)MPI_SUM &&
	   MPI_Comm_f2c((MPI_Fint)MPI_COMM_SELF) == MPI_COMM_SELF,
	   "a Fortran handle is the C handle");
	ok(MPI_F08_STATUS_IGNORE != NULL && MPI_F08_STATUSES_IGNORE != NULL,
	   "MPI_F08_STATUS_IGNORE and MPI_F08_STATUSES_IGNORE point to the f08 sentinels");
	MPI_Request req;
	MPI_Irecv(in, 3, MPI_INT, 0, 6, MPI_COMM_SELF, &req);
	ok(MPI_Request_c2f(req) == (MPI_Fint)req, "a Fortran request is the C request");
	ok(tmpich_key(req) == (void *)(uintptr_t)(unsigned)req && (uintptr_t)tmpich_key(req) >> 32 == 0,
	   "a request's key is its handle, zero-extended (0x%x)", (unsigned)req);
	MPI_Send(out, 3, MPI_INT, 0, 6, MPI_COMM_SELF);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return tap_done();
}

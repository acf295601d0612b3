/* test-mpi-abi.c — the recorder declares the little of Open MPI's ABI it needs itself
 * (preload/mpi/mpi-abi.h) and finds predefined handles at run time; this checks both against the
 * real mpi.h and libmpi: sizes and offsets of MPI_Status, the constants, that the exported
 * objects are the predefined handles, that a status's _ucount is the bytes received, and
 * that an operation completed at once answers the shared ompi_request_empty.  Built with
 * mpicc, run under mpirun -np 1 (tests/func/t-mpi-abi.sh). */
#include <dlfcn.h>
#include <mpi.h>
#include <stddef.h>

#include "../../preload/mpi/mpi-abi.h"
#include "tap.h"

#define SAME_OFFSET(field)                                                                  \
	ok(offsetof(MPI_Status, field) == offsetof(tmpi_Status, field),                     \
	   "MPI_Status." #field " at offset %zu", offsetof(MPI_Status, field))

int main(int argc, char **argv)
{
	ok(sizeof(tmpi_Status) == sizeof(MPI_Status), "MPI_Status is %zu bytes", sizeof(MPI_Status));
	SAME_OFFSET(MPI_SOURCE);
	SAME_OFFSET(MPI_TAG);
	SAME_OFFSET(MPI_ERROR);
	SAME_OFFSET(_cancelled);
	SAME_OFFSET(_ucount);
	ok(sizeof(tmpi_Comm) == sizeof(MPI_Comm) && sizeof(tmpi_Datatype) == sizeof(MPI_Datatype) &&
	   sizeof(tmpi_Request) == sizeof(MPI_Request) && sizeof(tmpi_Group) == sizeof(MPI_Group) &&
	   sizeof(tmpi_Op) == sizeof(MPI_Op) && sizeof(tmpi_Info) == sizeof(MPI_Info) &&
	   sizeof(tmpi_Message) == sizeof(MPI_Message) && sizeof(tmpi_File) == sizeof(MPI_File) &&
	   sizeof(tmpi_Win) == sizeof(MPI_Win),
	   "handles are pointer-sized");
	ok(sizeof(tmpi_Offset) == sizeof(MPI_Offset) && (MPI_Offset)-1 < 0,
	   "MPI_Offset is a signed %zu bytes", sizeof(MPI_Offset));
	ok(TMPI_SUCCESS == MPI_SUCCESS && TMPI_ERR_OTHER == MPI_ERR_OTHER, "MPI_SUCCESS, MPI_ERR_OTHER");
	ok(TMPI_ANY_SOURCE == MPI_ANY_SOURCE && TMPI_PROC_NULL == MPI_PROC_NULL &&
	   TMPI_ROOT == MPI_ROOT, "MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT");
	ok(TMPI_ANY_TAG == MPI_ANY_TAG && TMPI_UNDEFINED == MPI_UNDEFINED, "MPI_ANY_TAG, MPI_UNDEFINED");
	ok(TMPI_IN_PLACE == MPI_IN_PLACE && TMPI_BOTTOM == MPI_BOTTOM, "MPI_IN_PLACE, MPI_BOTTOM");
	ok(TMPI_THREAD_MULTIPLE == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE");
	ok(TMPI_LOCK_EXCLUSIVE == MPI_LOCK_EXCLUSIVE, "MPI_LOCK_EXCLUSIVE");
	ok(TMPI_CART == MPI_CART && TMPI_GRAPH == MPI_GRAPH && TMPI_DIST_GRAPH == MPI_DIST_GRAPH,
	   "MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH");
	ok((void *)TMPI_STATUS_IGNORE == (void *)MPI_STATUS_IGNORE &&
	   (void *)TMPI_STATUSES_IGNORE == (void *)MPI_STATUSES_IGNORE,
	   "MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE");

	if (!tap_ok(MPI_Init(&argc, &argv) == MPI_SUCCESS, "MPI_Init"))
		return tap_done();
	static const struct {
		const char *symbol;
		void *handle;
	} objects[] = {
		{ "ompi_mpi_comm_world", (void *)MPI_COMM_WORLD },
		{ "ompi_mpi_comm_self", (void *)MPI_COMM_SELF },
		{ "ompi_mpi_comm_null", (void *)MPI_COMM_NULL },
		{ "ompi_request_null", (void *)MPI_REQUEST_NULL },
		{ "ompi_message_null", (void *)MPI_MESSAGE_NULL },
		{ "ompi_message_no_proc", (void *)MPI_MESSAGE_NO_PROC },
		{ "ompi_mpi_byte", (void *)MPI_BYTE },
	};
	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++)
		ok(dlsym(RTLD_DEFAULT, objects[i].symbol) == objects[i].handle,
		   "%s is the predefined handle", objects[i].symbol);

	/* What the Fortran bindings' entries rely on (preload/mpi/fortran/): Fortran's sentinels,
	 * found by name, and a Fortran status as many integers as a C one. */
	MPI_Fint *const *ign = dlsym(RTLD_DEFAULT, "MPI_F_STATUS_IGNORE");
	MPI_Fint *const *igns = dlsym(RTLD_DEFAULT, "MPI_F_STATUSES_IGNORE");
	ok(ign && *ign == MPI_F_STATUS_IGNORE && igns && *igns == MPI_F_STATUSES_IGNORE,
	   "MPI_F_STATUS_IGNORE and MPI_F_STATUSES_IGNORE are found by name");
	ok(dlsym(RTLD_DEFAULT, "mpi_fortran_in_place_") && dlsym(RTLD_DEFAULT, "mpi_fortran_bottom_"),
	   "Fortran's MPI_IN_PLACE and MPI_BOTTOM are the objects mpi_fortran_in_place_, "
	   "mpi_fortran_bottom_");
	MPI_Fint fst[64];
	MPI_Status cst = { 0 };
	for (int i = 0; i < 64; i++)
		fst[i] = -7;
	MPI_Status_c2f(&cst, fst);
	int ints = 64;
	while (ints > 0 && fst[ints - 1] == -7)
		ints--;
	ok(ints == (int)(sizeof(tmpi_Status) / sizeof(MPI_Fint)),
	   "a Fortran status is %d integers, the size of a C one", ints);

	int out[3] = { 1, 2, 3 }, in[3];
	MPI_Status st;
	int count = -1;
	MPI_Sendrecv(out, 3, MPI_INT, 0, 5, in, 3, MPI_INT, 0, 5, MPI_COMM_SELF, &st);
	MPI_Get_count(&st, MPI_INT, &count);
	tmpi_Status *ts = (tmpi_Status *)(void *)&st;
	ok(ts->_ucount == 3 * sizeof(int) && count == 3 && ts->MPI_SOURCE == 0 && ts->MPI_TAG == 5,
	   "a status's _ucount is the bytes received (%zu)", ts->_ucount);

	MPI_Request req;
	MPI_Isend(out, 3, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_SELF, &req);
	void *empty = dlsym(RTLD_DEFAULT, "ompi_request_empty");
	ok(empty && (void *)req == empty,
	   "a send to MPI_PROC_NULL answers the shared, completed ompi_request_empty");
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return tap_done();
}

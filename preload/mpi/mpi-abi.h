/* mpi-abi.h — the little of Open MPI's C ABI (4.x, Debian's 4.1) the recorder relies on,
 * declared here so that it builds without MPI's headers and never links libmpi: handles are
 * pointers, the public fields of MPI_Status, the constants it compares arguments with.
 * Predefined handles (MPI_COMM_WORLD, MPI_REQUEST_NULL...) are the addresses of libmpi's
 * data symbols, found at run time (mpi-runtime.c).  tests/unit/test-mpi-abi.c checks all of
 * this against the real mpi.h. */
#ifndef TPROF_MPI_ABI_H
#define TPROF_MPI_ABI_H

#include <stddef.h>

/* Handles: pointers to opaque structures (Open MPI's struct ompi_*_t). */
typedef struct tmpi_comm *tmpi_Comm;
typedef struct tmpi_datatype *tmpi_Datatype;
typedef struct tmpi_group *tmpi_Group;
typedef struct tmpi_info *tmpi_Info;
typedef struct tmpi_op *tmpi_Op;
typedef struct tmpi_request *tmpi_Request;
typedef struct tmpi_message *tmpi_Message;
typedef struct tmpi_errhandler *tmpi_Errhandler;
typedef struct tmpi_file *tmpi_File;   /* a pointer in MPICH too */
typedef struct tmpi_win *tmpi_Win;

/* Addresses and counts: ptrdiff_t and long long in Open MPI. */
typedef ptrdiff_t tmpi_Aint;
typedef long long tmpi_Count;
typedef long long tmpi_Offset;         /* the same in MPICH */

/* struct ompi_status_public_t: the three public fields, then Open MPI's own two, of which
 * _ucount is the number of bytes the message carried. */
typedef struct tmpi_status {
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
	int _cancelled;
	size_t _ucount;
} tmpi_Status;

#define TMPI_SUCCESS 0
#define TMPI_ERR_OTHER 16            /* what a wrapper returns when libmpi has no such call */
#define TMPI_ANY_SOURCE (-1)
#define TMPI_PROC_NULL (-2)
#define TMPI_ROOT (-4)
#define TMPI_ANY_TAG (-1)
#define TMPI_UNDEFINED (-32766)
#define TMPI_THREAD_MULTIPLE 3
#define TMPI_LOCK_EXCLUSIVE 1
#define TMPI_CART 1                  /* topologies (MPI_Topo_test) */
#define TMPI_GRAPH 2
#define TMPI_DIST_GRAPH 3
#define TMPI_IN_PLACE ((void *)1)
#define TMPI_BOTTOM ((void *)0)
#define TMPI_STATUS_IGNORE ((tmpi_Status *)0)
#define TMPI_STATUSES_IGNORE ((tmpi_Status *)0)

#endif

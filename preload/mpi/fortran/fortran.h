/* fortran.h — the Fortran bindings of the MPI call list (hook-mpi.h): for each kind of
 * parameter (mpi-kinds.h), its Fortran parameter, the C value the Fortran argument stands for
 * on the C side, and what the C side learns back once the real binding ran.
 *
 * A Fortran call (MPI_SEND, mpi_send_, mpi_send_f08_...) is recorded by the C wrapper of the
 * same call compiled again (fortran/p2p.c and the like): its entry (entries.c) converts the
 * Fortran arguments to C ones (handles with PMPI_*_f2c, indices from 1 to from 0, a status it
 * provides where the program ignores it), keeps the program's own arguments in a frame, and
 * calls that wrapper; where the wrapper calls the real function, the thunk calls the real
 * Fortran binding with the program's arguments, then converts back what the wrapper reads
 * (the status, the requests completed, the handle made).  What the program's binding does
 * stays its own: its buffers, sentinels, strings and error handling.  A binding that calls
 * the C function (MPICH's) is not recorded twice: the C wrapper runs inside the recorded
 * call, with the guard up. */
#ifndef TPROF_MPI_FORTRAN_H
#define TPROF_MPI_FORTRAN_H

#include <stddef.h>

#include "../mpi-kinds.h"

typedef int MFint;   /* MPI_Fint: a default INTEGER, and a default LOGICAL */

/* Each kind K has:
 *   MPI_FP_K(n)   its Fortran parameter(s), each followed by a comma (none for ARGC, ARGV, VOID);
 *   MPI_FH_K(n)   its hidden parameter after ierr, preceded by a comma (a string's length);
 *   MPI_FN_K(n)   the same names as arguments;  MPI_FNH_K(n) the hidden ones;
 *   MPI_FF_K(n)   its field in the call's frame, where the thunk finds what to pass on, and
 *   MPI_FSET_K(n) how the entry fills it (in `fr`);
 *   MPI_FL_K(n)   the C local it needs in the entry (and 0 from `ok` when that failed);
 *   MPI_FA_K(n)   the C argument the wrapper is given;
 *   MPI_FB_K(n)   what the thunk gives back to the wrapper's C arguments after a success;
 *   MPI_FM_K      1 when converting it needs a running MPI (handles, statuses). */

#define MPI_FPARAM(kind, n) MPI_FP_##kind(n)
#define MPI_FHIDDEN(kind, n) MPI_FH_##kind(n)
#define MPI_FNAME(kind, n) MPI_FN_##kind(n)
#define MPI_FNAMEH(kind, n) MPI_FNH_##kind(n)
#define MPI_FFIELD(kind, n) MPI_FF_##kind(n)
#define MPI_FLOCAL(kind, n) MPI_FL_##kind(n)
#define MPI_FCARG(kind, n) MPI_FA_##kind(n)
#define MPI_FBACK(kind, n) MPI_FB_##kind(n)
#define MPI_FMPI(kind, n) | MPI_FM_##kind
#define MPI_FSTORE(kind, n) MPI_FSET_##kind(n)
/* the thunk's arguments to the real binding: the frame's */
#define MPI_FTHUNK(kind, n) MPI_FN_##kind(f->n)
#define MPI_FTHUNKH(kind, n) MPI_FNH_##kind(f->n)

/* A Fortran handle as the C handle, C's null handles, and a Fortran status as a C status.
 * Open MPI converts them (its f2c functions); in MPICH a Fortran handle is the C handle and a
 * Fortran status the C status, int for int (tests/unit/test-mpi-abi-mpich.c).  A file is a
 * pointer in both, converted by the library. */
#ifdef TPROF_MPI_MPICH_SIDE
#define MPI_F2C(what, v) ((tmpich_Handle)(v))
#define MPI_F_COMM_NULL TMPICH_COMM_NULL
#define MPI_F_REQUEST_NULL TMPICH_REQUEST_NULL
#define MPI_F_MESSAGE_NULL TMPICH_MESSAGE_NULL
#define MPI_F_WIN_NULL TMPICH_WIN_NULL
#define MPI_F_STATUS_F2C(f, c) memcpy((c), (f), sizeof(MStatus))
/* MPICH 4.0's use mpi_f08 bindings give the indices of MPI_Waitany, MPI_Testany, MPI_Waitsome
 * and MPI_Testsome counted from 0, as C's (pmodels/mpich#6270; from 1 again since 4.1). */
#define MPI_F_INDEX_BASE (1 - tprof_mpi_h.f08_indices_from_0)
#else
#define MPI_F_INDEX_BASE 1
#define MPI_F2C(what, v) tprof_pmpi.what##_f2c(v)
#define MPI_F_COMM_NULL tprof_mpi_h.comm_null
#define MPI_F_REQUEST_NULL tprof_mpi_h.request_null
#define MPI_F_MESSAGE_NULL tprof_mpi_h.message_null
#define MPI_F_WIN_NULL NULL
#define MPI_F_STATUS_F2C(f, c) tprof_pmpi.Status_f2c((f), (c))
#endif

/* ---- kinds with no Fortran parameter ---------------------------------------------------- */

#define MPI_FP_VOID(n)
#define MPI_FN_VOID(n)
#define MPI_FF_VOID(n)
#define MPI_FL_VOID(n)
#define MPI_FA_VOID(n)
#define MPI_FB_VOID(n)
#define MPI_FM_VOID 0
#define MPI_FP_ARGC(n)
#define MPI_FN_ARGC(n)
#define MPI_FF_ARGC(n)
#define MPI_FL_ARGC(n)
#define MPI_FA_ARGC(n) NULL
#define MPI_FB_ARGC(n)
#define MPI_FM_ARGC 0
#define MPI_FP_ARGV(n)
#define MPI_FN_ARGV(n)
#define MPI_FF_ARGV(n)
#define MPI_FL_ARGV(n)
#define MPI_FA_ARGV(n) NULL
#define MPI_FB_ARGV(n)
#define MPI_FM_ARGV 0

/* ---- integers, logicals, indices -------------------------------------------------------- */

#define MPI_FP_INT(n) MFint *n,
#define MPI_FN_INT(n) n,
#define MPI_FF_INT(n) MFint *n;
#define MPI_FL_INT(n)
#define MPI_FA_INT(n) *n
#define MPI_FB_INT(n)
#define MPI_FM_INT 0

#define MPI_FP_INTS(n) MFint *n,
#define MPI_FN_INTS(n) n,
#define MPI_FF_INTS(n) MFint *n;
#define MPI_FL_INTS(n)
#define MPI_FA_INTS(n) (const int *)n
#define MPI_FB_INTS(n)
#define MPI_FM_INTS 0

#define MPI_FP_IOUT(n) MFint *n,
#define MPI_FN_IOUT(n) n,
#define MPI_FF_IOUT(n) MFint *n;
#define MPI_FL_IOUT(n) int c_##n = 0;
#define MPI_FA_IOUT(n) &c_##n
#define MPI_FB_IOUT(n) *n = *f->n;
#define MPI_FM_IOUT 0

#define MPI_FP_FLAG(n) MFint *n,
#define MPI_FN_FLAG(n) n,
#define MPI_FF_FLAG(n) MFint *n;
#define MPI_FL_FLAG(n) int c_##n = 0;
#define MPI_FA_FLAG(n) &c_##n
#define MPI_FB_FLAG(n) *n = *f->n != 0;
#define MPI_FM_FLAG 0

#define MPI_FP_INDEX(n) MFint *n,
#define MPI_FN_INDEX(n) n,
#define MPI_FF_INDEX(n) MFint *n;
#define MPI_FL_INDEX(n) int c_##n = TMPI_UNDEFINED;
#define MPI_FA_INDEX(n) &c_##n
#define MPI_FB_INDEX(n)                                                                    \
	*n = *f->n == TMPI_UNDEFINED ? TMPI_UNDEFINED : *f->n - MPI_F_INDEX_BASE;
#define MPI_FM_INDEX 0

/* indices[0..*outcount): outcount comes first in every call that has them */
#define MPI_FP_INDICES(n) MFint *n,
#define MPI_FN_INDICES(n) n,
#define MPI_FF_INDICES(n) MFint *n;
#define MPI_FL_INDICES(n) int *c_##n = mpi_f_scratch(MPI_F_INDICES, *count, sizeof(int), &ok);
#define MPI_FA_INDICES(n) c_##n
#define MPI_FB_INDICES(n)                                                                  \
	for (int i_ = 0; *outcount != TMPI_UNDEFINED && i_ < *outcount; i_++)               \
		n[i_] = f->n[i_] - MPI_F_INDEX_BASE;
#define MPI_FM_INDICES 0

/* ---- buffers and names ------------------------------------------------------------------ */

#define MPI_FP_CBUF(n) void *n,
#define MPI_FN_CBUF(n) n,
#define MPI_FF_CBUF(n) void *n;
#define MPI_FL_CBUF(n)
#define MPI_FA_CBUF(n) mpi_f_buffer(n)
#define MPI_FB_CBUF(n)
#define MPI_FM_CBUF 0
#define MPI_FP_BUF MPI_FP_CBUF
#define MPI_FN_BUF MPI_FN_CBUF
#define MPI_FF_BUF MPI_FF_CBUF
#define MPI_FL_BUF MPI_FL_CBUF
#define MPI_FA_BUF(n) (void *)mpi_f_buffer(n)
#define MPI_FB_BUF MPI_FB_CBUF
#define MPI_FM_BUF 0

/* A name given: blank-padded, its length hidden after ierr; NUL-terminated for the wrapper. */
#define MPI_FP_STR(n) char *n,
#define MPI_FH_STR(n) , size_t n##_len
#define MPI_FN_STR(n) n,
#define MPI_FNH_STR(n) , n##_len
#define MPI_FF_STR(n) char *n; size_t n##_len;
#define MPI_FL_STR(n)                                                                      \
	char c_##n[MPI_F_NAME_MAX];                                                        \
	mpi_f_string(c_##n, n, n##_len);
#define MPI_FA_STR(n) c_##n
#define MPI_FB_STR(n)
#define MPI_FM_STR 0
/* A name returned: the wrappers never read it (MPI_Get_processor_name) */
#define MPI_FP_STR_OUT MPI_FP_STR
#define MPI_FH_STR_OUT MPI_FH_STR
#define MPI_FN_STR_OUT MPI_FN_STR
#define MPI_FNH_STR_OUT MPI_FNH_STR
#define MPI_FF_STR_OUT MPI_FF_STR
#define MPI_FL_STR_OUT(n)
#define MPI_FA_STR_OUT(n) n
#define MPI_FB_STR_OUT(n)
#define MPI_FM_STR_OUT 0

/* ---- handles ---------------------------------------------------------------------------- */

/* A handle given: converted before the call. */
#define MPI_FP_TYPE(n) MFint *n,
#define MPI_FN_TYPE(n) n,
#define MPI_FF_TYPE(n) MFint *n;
#define MPI_FL_TYPE(n)
#define MPI_FA_TYPE(n) MPI_F2C(Type, *n)
#define MPI_FB_TYPE(n)
#define MPI_FM_TYPE 1
#define MPI_FP_COMM MPI_FP_TYPE
#define MPI_FN_COMM MPI_FN_TYPE
#define MPI_FF_COMM MPI_FF_TYPE
#define MPI_FL_COMM MPI_FL_TYPE
#define MPI_FA_COMM(n) MPI_F2C(Comm, *n)
#define MPI_FB_COMM MPI_FB_TYPE
#define MPI_FM_COMM 1
#define MPI_FP_OP MPI_FP_TYPE
#define MPI_FN_OP MPI_FN_TYPE
#define MPI_FF_OP MPI_FF_TYPE
#define MPI_FL_OP MPI_FL_TYPE
#define MPI_FA_OP(n) MPI_F2C(Op, *n)
#define MPI_FB_OP MPI_FB_TYPE
#define MPI_FM_OP 1
#define MPI_FP_INFO MPI_FP_TYPE
#define MPI_FN_INFO MPI_FN_TYPE
#define MPI_FF_INFO MPI_FF_TYPE
#define MPI_FL_INFO MPI_FL_TYPE
#define MPI_FA_INFO(n) MPI_F2C(Info, *n)
#define MPI_FB_INFO MPI_FB_TYPE
#define MPI_FM_INFO 1
#define MPI_FP_GROUP MPI_FP_TYPE
#define MPI_FN_GROUP MPI_FN_TYPE
#define MPI_FF_GROUP MPI_FF_TYPE
#define MPI_FL_GROUP MPI_FL_TYPE
#define MPI_FA_GROUP(n) MPI_F2C(Group, *n)
#define MPI_FB_GROUP MPI_FB_TYPE
#define MPI_FM_GROUP 1

/* A datatype for each rank of `comm` (MPI_Alltoallw). */
#define MPI_FP_TYPES(n) MFint *n,
#define MPI_FN_TYPES(n) n,
#define MPI_FF_TYPES(n) MFint *n;
#define MPI_FL_TYPES(n) MType *c_##n = mpi_f_types(MPI_F_TYPES_##n, n, *comm, &ok);
#define MPI_FA_TYPES(n) c_##n
#define MPI_FB_TYPES(n)
#define MPI_FM_TYPES 1

/* A handle made, or given and maybe freed: the wrapper's C handle, read back after. */
#define MPI_FP_COMM_OUT(n) MFint *n,
#define MPI_FN_COMM_OUT(n) n,
#define MPI_FF_COMM_OUT(n) MFint *n;
#define MPI_FL_COMM_OUT(n) MComm c_##n = MPI_F_COMM_NULL;
#define MPI_FA_COMM_OUT(n) &c_##n
#define MPI_FB_COMM_OUT(n) *n = MPI_F2C(Comm, *f->n);
#define MPI_FM_COMM_OUT 1
#define MPI_FP_COMM_INOUT MPI_FP_COMM_OUT
#define MPI_FN_COMM_INOUT MPI_FN_COMM_OUT
#define MPI_FF_COMM_INOUT MPI_FF_COMM_OUT
#define MPI_FL_COMM_INOUT(n) MComm c_##n = MPI_F2C(Comm, *n);
#define MPI_FA_COMM_INOUT MPI_FA_COMM_OUT
#define MPI_FB_COMM_INOUT MPI_FB_COMM_OUT
#define MPI_FM_COMM_INOUT 1
#define MPI_FP_REQ_OUT MPI_FP_COMM_OUT
#define MPI_FN_REQ_OUT MPI_FN_COMM_OUT
#define MPI_FF_REQ_OUT MPI_FF_COMM_OUT
#define MPI_FL_REQ_OUT(n) MReq c_##n = MPI_F_REQUEST_NULL;
#define MPI_FA_REQ_OUT MPI_FA_COMM_OUT
#define MPI_FB_REQ_OUT(n) *n = MPI_F2C(Request, *f->n);
#define MPI_FM_REQ_OUT 1
#define MPI_FP_REQ_INOUT MPI_FP_COMM_OUT
#define MPI_FN_REQ_INOUT MPI_FN_COMM_OUT
#define MPI_FF_REQ_INOUT MPI_FF_COMM_OUT
#define MPI_FL_REQ_INOUT(n) MReq c_##n = MPI_F2C(Request, *n);
#define MPI_FA_REQ_INOUT MPI_FA_COMM_OUT
#define MPI_FB_REQ_INOUT MPI_FB_REQ_OUT
#define MPI_FM_REQ_INOUT 1
#define MPI_FP_MSG_OUT MPI_FP_COMM_OUT
#define MPI_FN_MSG_OUT MPI_FN_COMM_OUT
#define MPI_FF_MSG_OUT MPI_FF_COMM_OUT
#define MPI_FL_MSG_OUT(n) MMsg c_##n = MPI_F_MESSAGE_NULL;
#define MPI_FA_MSG_OUT MPI_FA_COMM_OUT
#define MPI_FB_MSG_OUT(n) *n = MPI_F2C(Message, *f->n);
#define MPI_FM_MSG_OUT 1
#define MPI_FP_MSG_INOUT MPI_FP_COMM_OUT
#define MPI_FN_MSG_INOUT MPI_FN_COMM_OUT
#define MPI_FF_MSG_INOUT MPI_FF_COMM_OUT
#define MPI_FL_MSG_INOUT(n) MMsg c_##n = MPI_F2C(Message, *n);
#define MPI_FA_MSG_INOUT MPI_FA_COMM_OUT
#define MPI_FB_MSG_INOUT MPI_FB_MSG_OUT
#define MPI_FM_MSG_INOUT 1

/* An MPI-IO file: given, made, or given and closed (the wrapper reads the handle before). */
#define MPI_FP_FILE MPI_FP_TYPE
#define MPI_FN_FILE MPI_FN_TYPE
#define MPI_FF_FILE MPI_FF_TYPE
#define MPI_FL_FILE MPI_FL_TYPE
#define MPI_FA_FILE(n) tprof_pmpi.File_f2c(*n)
#define MPI_FB_FILE MPI_FB_TYPE
#define MPI_FM_FILE 1
#define MPI_FP_FILE_OUT MPI_FP_COMM_OUT
#define MPI_FN_FILE_OUT MPI_FN_COMM_OUT
#define MPI_FF_FILE_OUT MPI_FF_COMM_OUT
#define MPI_FL_FILE_OUT(n) MFile c_##n = NULL;
#define MPI_FA_FILE_OUT MPI_FA_COMM_OUT
#define MPI_FB_FILE_OUT(n) *n = tprof_pmpi.File_f2c(*f->n);
#define MPI_FM_FILE_OUT 1
#define MPI_FP_FILE_INOUT MPI_FP_COMM_OUT
#define MPI_FN_FILE_INOUT MPI_FN_COMM_OUT
#define MPI_FF_FILE_INOUT MPI_FF_COMM_OUT
#define MPI_FL_FILE_INOUT(n) MFile c_##n = tprof_pmpi.File_f2c(*n);
#define MPI_FA_FILE_INOUT MPI_FA_COMM_OUT
#define MPI_FB_FILE_INOUT MPI_FB_FILE_OUT
#define MPI_FM_FILE_INOUT 1

/* A window: given, made, or given and freed (the wrapper reads the handle before). */
#define MPI_FP_WIN MPI_FP_TYPE
#define MPI_FN_WIN MPI_FN_TYPE
#define MPI_FF_WIN MPI_FF_TYPE
#define MPI_FL_WIN MPI_FL_TYPE
#define MPI_FA_WIN(n) MPI_F2C(Win, *n)
#define MPI_FB_WIN MPI_FB_TYPE
#define MPI_FM_WIN 1
#define MPI_FP_WIN_OUT MPI_FP_COMM_OUT
#define MPI_FN_WIN_OUT MPI_FN_COMM_OUT
#define MPI_FF_WIN_OUT MPI_FF_COMM_OUT
#define MPI_FL_WIN_OUT(n) MWin c_##n = MPI_F_WIN_NULL;
#define MPI_FA_WIN_OUT MPI_FA_COMM_OUT
#define MPI_FB_WIN_OUT(n) *n = MPI_F2C(Win, *f->n);
#define MPI_FM_WIN_OUT 1
#define MPI_FP_WIN_INOUT MPI_FP_COMM_OUT
#define MPI_FN_WIN_INOUT MPI_FN_COMM_OUT
#define MPI_FF_WIN_INOUT MPI_FF_COMM_OUT
#define MPI_FL_WIN_INOUT(n) MWin c_##n = MPI_F2C(Win, *n);
#define MPI_FA_WIN_INOUT MPI_FA_COMM_OUT
#define MPI_FB_WIN_INOUT MPI_FB_WIN_OUT
#define MPI_FM_WIN_INOUT 1

/* An address, displacement or size: INTEGER(KIND=MPI_ADDRESS_KIND), C's MPI_Aint. */
#define MPI_FP_AINT(n) MAint *n,
#define MPI_FN_AINT(n) n,
#define MPI_FF_AINT(n) MAint *n;
#define MPI_FL_AINT(n)
#define MPI_FA_AINT(n) *n
#define MPI_FB_AINT(n)
#define MPI_FM_AINT 0

/* Displacements: INTEGER(KIND=MPI_ADDRESS_KIND) arrays, C's MPI_Aint. */
#define MPI_FP_AINTS(n) MAint *n,
#define MPI_FN_AINTS(n) n,
#define MPI_FF_AINTS(n) MAint *n;
#define MPI_FL_AINTS(n)
#define MPI_FA_AINTS(n) (const MAint *)n
#define MPI_FB_AINTS(n)
#define MPI_FM_AINTS 0

/* A datatype for each source (TYPES_IN) or destination (TYPES_OUT_NB) of `comm`'s topology
 * (MPI_Neighbor_alltoallw). */
#define MPI_FP_TYPES_IN(n) MFint *n,
#define MPI_FN_TYPES_IN(n) n,
#define MPI_FF_TYPES_IN(n) MFint *n;
#define MPI_FL_TYPES_IN(n) MType *c_##n = mpi_f_ntypes(MPI_F_TYPES_##n, n, *comm, 0, &ok);
#define MPI_FA_TYPES_IN(n) c_##n
#define MPI_FB_TYPES_IN(n)
#define MPI_FM_TYPES_IN 1
#define MPI_FP_TYPES_OUT_NB MPI_FP_TYPES_IN
#define MPI_FN_TYPES_OUT_NB MPI_FN_TYPES_IN
#define MPI_FF_TYPES_OUT_NB MPI_FF_TYPES_IN
#define MPI_FL_TYPES_OUT_NB(n) MType *c_##n = mpi_f_ntypes(MPI_F_TYPES_##n, n, *comm, 1, &ok);
#define MPI_FA_TYPES_OUT_NB MPI_FA_TYPES_IN
#define MPI_FB_TYPES_OUT_NB MPI_FB_TYPES_IN
#define MPI_FM_TYPES_OUT_NB 1

/* A large count: INTEGER(KIND=MPI_COUNT_KIND), C's MPI_Count. */
#define MPI_FP_COUNT(n) MCount *n,
#define MPI_FN_COUNT(n) n,
#define MPI_FF_COUNT(n) MCount *n;
#define MPI_FL_COUNT(n)
#define MPI_FA_COUNT(n) *n
#define MPI_FB_COUNT(n)
#define MPI_FM_COUNT 0

/* A place in a file: INTEGER(KIND=MPI_OFFSET_KIND), C's MPI_Offset. */
#define MPI_FP_OFFSET(n) MOffset *n,
#define MPI_FN_OFFSET(n) n,
#define MPI_FF_OFFSET(n) MOffset *n;
#define MPI_FL_OFFSET(n)
#define MPI_FA_OFFSET(n) *n
#define MPI_FB_OFFSET(n)
#define MPI_FM_OFFSET 0

/* `count` requests, converted before the call and read back after it (completed ones are
 * null then). */
#define MPI_FP_REQS(n) MFint *n,
#define MPI_FN_REQS(n) n,
#define MPI_FF_REQS(n) MFint *n;
#define MPI_FL_REQS(n) MReq *c_##n = mpi_f_requests(n, *count, &ok);
#define MPI_FA_REQS(n) c_##n
#define MPI_FB_REQS(n)                                                                     \
	for (int i_ = 0; i_ < count; i_++)                                                 \
		n[i_] = MPI_F2C(Request, f->n[i_]);
#define MPI_FM_REQS 1

/* ---- statuses --------------------------------------------------------------------------- */

/* The binding always gets a status to fill: the program's, or the entry's own where the
 * program passed MPI_STATUS_IGNORE; the wrapper reads it converted. */
#define MPI_FP_STATUS(n) MFint *n,
#define MPI_FN_STATUS(n) n,
#define MPI_FF_STATUS(n) MFint *n;
#define MPI_FL_STATUS(n)                                                                   \
	MStatus c_##n;                                                                     \
	MFint own_##n[MPI_F_STATUS_INTS];                                                  \
	if (mpi_f_status_ignored(n))                                                       \
		n = own_##n;
#define MPI_FA_STATUS(n) &c_##n
#define MPI_FB_STATUS(n)                                                                   \
	if (n)                                                                             \
		MPI_F_STATUS_F2C(f->n, n);
#define MPI_FM_STATUS 1

#define MPI_FP_STATUSES(n) MFint *n,
#define MPI_FN_STATUSES(n) n,
#define MPI_FF_STATUSES(n) MFint *n;
#define MPI_FL_STATUSES(n)                                                                 \
	MStatus *c_##n = mpi_f_scratch(MPI_F_STATUSES, *count, sizeof(MStatus), &ok);       \
	if (mpi_f_statuses_ignored(n))                                                     \
		n = mpi_f_scratch(MPI_F_OWN_STATUSES, *count,                              \
				  MPI_F_STATUS_INTS * sizeof(MFint), &ok);
#define MPI_FA_STATUSES(n) c_##n
#define MPI_FB_STATUSES(n)                                                                 \
	for (int i_ = 0; n && i_ < count; i_++)                                            \
		MPI_F_STATUS_F2C(f->n + (size_t)i_ * MPI_F_STATUS_INTS, &n[i_]);
#define MPI_FM_STATUSES 1

/* ---- the kinds of calls recorded by name: passed on as they came ------------------------- */

#define MPI_FP_INTS_OUT(n) void *n,
#define MPI_FN_INTS_OUT(n) n,
#define MPI_FH_INTS_OUT(n)
#define MPI_FNH_INTS_OUT(n)
#define MPI_FP_RANGES(n) void *n,
#define MPI_FN_RANGES(n) n,
#define MPI_FH_RANGES(n)
#define MPI_FNH_RANGES(n)
#define MPI_FP_AINT_OUT(n) void *n,
#define MPI_FN_AINT_OUT(n) n,
#define MPI_FH_AINT_OUT(n)
#define MPI_FNH_AINT_OUT(n)
#define MPI_FP_AINTS_OUT(n) void *n,
#define MPI_FN_AINTS_OUT(n) n,
#define MPI_FH_AINTS_OUT(n)
#define MPI_FNH_AINTS_OUT(n)
#define MPI_FP_COUNT_OUT(n) void *n,
#define MPI_FN_COUNT_OUT(n) n,
#define MPI_FH_COUNT_OUT(n)
#define MPI_FNH_COUNT_OUT(n)
#define MPI_FP_FUNC(n) void *n,
#define MPI_FN_FUNC(n) n,
#define MPI_FH_FUNC(n)
#define MPI_FNH_FUNC(n)
#define MPI_FP_ERRH(n) void *n,
#define MPI_FN_ERRH(n) n,
#define MPI_FH_ERRH(n)
#define MPI_FNH_ERRH(n)
#define MPI_FP_REQ(n) void *n,
#define MPI_FN_REQ(n) n,
#define MPI_FH_REQ(n)
#define MPI_FNH_REQ(n)
#define MPI_FP_TYPES_OUT(n) void *n,
#define MPI_FN_TYPES_OUT(n) n,
#define MPI_FH_TYPES_OUT(n)
#define MPI_FNH_TYPES_OUT(n)
#define MPI_FP_STATUS_IN(n) void *n,
#define MPI_FN_STATUS_IN(n) n,
#define MPI_FH_STATUS_IN(n)
#define MPI_FNH_STATUS_IN(n)
#define MPI_FP_STATUS_INOUT(n) void *n,
#define MPI_FN_STATUS_INOUT(n) n,
#define MPI_FH_STATUS_INOUT(n)
#define MPI_FNH_STATUS_INOUT(n)
#define MPI_FP_TYPE_OUT(n) void *n,
#define MPI_FN_TYPE_OUT(n) n,
#define MPI_FH_TYPE_OUT(n)
#define MPI_FNH_TYPE_OUT(n)
#define MPI_FP_TYPE_INOUT(n) void *n,
#define MPI_FN_TYPE_INOUT(n) n,
#define MPI_FH_TYPE_INOUT(n)
#define MPI_FNH_TYPE_INOUT(n)
#define MPI_FP_GROUP_OUT(n) void *n,
#define MPI_FN_GROUP_OUT(n) n,
#define MPI_FH_GROUP_OUT(n)
#define MPI_FNH_GROUP_OUT(n)
#define MPI_FP_GROUP_INOUT(n) void *n,
#define MPI_FN_GROUP_INOUT(n) n,
#define MPI_FH_GROUP_INOUT(n)
#define MPI_FNH_GROUP_INOUT(n)
#define MPI_FP_INFO_OUT(n) void *n,
#define MPI_FN_INFO_OUT(n) n,
#define MPI_FH_INFO_OUT(n)
#define MPI_FNH_INFO_OUT(n)
#define MPI_FP_INFO_INOUT(n) void *n,
#define MPI_FN_INFO_INOUT(n) n,
#define MPI_FH_INFO_INOUT(n)
#define MPI_FNH_INFO_INOUT(n)
#define MPI_FP_OP_OUT(n) void *n,
#define MPI_FN_OP_OUT(n) n,
#define MPI_FH_OP_OUT(n)
#define MPI_FNH_OP_OUT(n)
#define MPI_FP_OP_INOUT(n) void *n,
#define MPI_FN_OP_INOUT(n) n,
#define MPI_FH_OP_INOUT(n)
#define MPI_FNH_OP_INOUT(n)
#define MPI_FP_ERRH_OUT(n) void *n,
#define MPI_FN_ERRH_OUT(n) n,
#define MPI_FH_ERRH_OUT(n)
#define MPI_FNH_ERRH_OUT(n)
#define MPI_FP_ERRH_INOUT(n) void *n,
#define MPI_FN_ERRH_INOUT(n) n,
#define MPI_FH_ERRH_INOUT(n)
#define MPI_FNH_ERRH_INOUT(n)
/* Arrays of names (CHARACTER*(*) ARGV(*), ARRAY_OF_ARGV(COUNT, *)): one hidden length each. */
#define MPI_FP_STRS(n) char *n,
#define MPI_FN_STRS(n) n,
#define MPI_FH_STRS(n) , size_t n##_len
#define MPI_FNH_STRS(n) , n##_len
#define MPI_FP_STRSS MPI_FP_STRS
#define MPI_FN_STRSS MPI_FN_STRS
#define MPI_FH_STRSS MPI_FH_STRS
#define MPI_FNH_STRSS MPI_FNH_STRS
#define MPI_FP_INFOS(n) void *n,
#define MPI_FN_INFOS(n) n,
#define MPI_FH_INFOS(n)
#define MPI_FNH_INFOS(n)
#define MPI_FP_OFFSET_OUT(n) void *n,
#define MPI_FN_OFFSET_OUT(n) n,
#define MPI_FH_OFFSET_OUT(n)
#define MPI_FNH_OFFSET_OUT(n)

/* ---- the frame: what the thunk passes on ------------------------------------------------ */

#define MPI_FSET_VOID(n)
#define MPI_FSET_ARGC(n)
#define MPI_FSET_ARGV(n)
#define MPI_FSET_INT(n) fr.n = n;
#define MPI_FSET_INTS(n) fr.n = n;
#define MPI_FSET_IOUT(n) fr.n = n;
#define MPI_FSET_FLAG(n) fr.n = n;
#define MPI_FSET_INDEX(n) fr.n = n;
#define MPI_FSET_INDICES(n) fr.n = n;
#define MPI_FSET_CBUF(n) fr.n = n;
#define MPI_FSET_BUF(n) fr.n = n;
#define MPI_FSET_TYPE(n) fr.n = n;
#define MPI_FSET_COMM(n) fr.n = n;
#define MPI_FSET_OP(n) fr.n = n;
#define MPI_FSET_INFO(n) fr.n = n;
#define MPI_FSET_GROUP(n) fr.n = n;
#define MPI_FSET_TYPES(n) fr.n = n;
#define MPI_FSET_COMM_OUT(n) fr.n = n;
#define MPI_FSET_COMM_INOUT(n) fr.n = n;
#define MPI_FSET_REQ_OUT(n) fr.n = n;
#define MPI_FSET_REQ_INOUT(n) fr.n = n;
#define MPI_FSET_MSG_OUT(n) fr.n = n;
#define MPI_FSET_MSG_INOUT(n) fr.n = n;
#define MPI_FSET_REQS(n) fr.n = n;
#define MPI_FSET_STATUS(n) fr.n = n;
#define MPI_FSET_STATUSES(n) fr.n = n;
#define MPI_FSET_FILE(n) fr.n = n;
#define MPI_FSET_FILE_OUT(n) fr.n = n;
#define MPI_FSET_FILE_INOUT(n) fr.n = n;
#define MPI_FSET_OFFSET(n) fr.n = n;
#define MPI_FSET_AINTS(n) fr.n = n;
#define MPI_FSET_COUNT(n) fr.n = n;
#define MPI_FSET_TYPES_IN(n) fr.n = n;
#define MPI_FSET_TYPES_OUT_NB(n) fr.n = n;
#define MPI_FSET_WIN(n) fr.n = n;
#define MPI_FSET_WIN_OUT(n) fr.n = n;
#define MPI_FSET_WIN_INOUT(n) fr.n = n;
#define MPI_FSET_AINT(n) fr.n = n;
#define MPI_FSET_STR(n) fr.n = n; fr.n##_len = n##_len;
#define MPI_FSET_STR_OUT MPI_FSET_STR

/* ---- hidden parameters: only names have them -------------------------------------------- */

#define MPI_FH_VOID(n)
#define MPI_FNH_VOID(n)
#define MPI_FH_ARGC(n)
#define MPI_FNH_ARGC(n)
#define MPI_FH_ARGV(n)
#define MPI_FNH_ARGV(n)
#define MPI_FH_INT(n)
#define MPI_FNH_INT(n)
#define MPI_FH_INTS(n)
#define MPI_FNH_INTS(n)
#define MPI_FH_IOUT(n)
#define MPI_FNH_IOUT(n)
#define MPI_FH_FLAG(n)
#define MPI_FNH_FLAG(n)
#define MPI_FH_INDEX(n)
#define MPI_FNH_INDEX(n)
#define MPI_FH_INDICES(n)
#define MPI_FNH_INDICES(n)
#define MPI_FH_CBUF(n)
#define MPI_FNH_CBUF(n)
#define MPI_FH_BUF(n)
#define MPI_FNH_BUF(n)
#define MPI_FH_TYPE(n)
#define MPI_FNH_TYPE(n)
#define MPI_FH_COMM(n)
#define MPI_FNH_COMM(n)
#define MPI_FH_OP(n)
#define MPI_FNH_OP(n)
#define MPI_FH_INFO(n)
#define MPI_FNH_INFO(n)
#define MPI_FH_GROUP(n)
#define MPI_FNH_GROUP(n)
#define MPI_FH_TYPES(n)
#define MPI_FNH_TYPES(n)
#define MPI_FH_COMM_OUT(n)
#define MPI_FNH_COMM_OUT(n)
#define MPI_FH_COMM_INOUT(n)
#define MPI_FNH_COMM_INOUT(n)
#define MPI_FH_REQ_OUT(n)
#define MPI_FNH_REQ_OUT(n)
#define MPI_FH_REQ_INOUT(n)
#define MPI_FNH_REQ_INOUT(n)
#define MPI_FH_MSG_OUT(n)
#define MPI_FNH_MSG_OUT(n)
#define MPI_FH_MSG_INOUT(n)
#define MPI_FNH_MSG_INOUT(n)
#define MPI_FH_REQS(n)
#define MPI_FNH_REQS(n)
#define MPI_FH_STATUS(n)
#define MPI_FNH_STATUS(n)
#define MPI_FH_STATUSES(n)
#define MPI_FNH_STATUSES(n)
#define MPI_FH_FILE(n)
#define MPI_FNH_FILE(n)
#define MPI_FH_FILE_OUT(n)
#define MPI_FNH_FILE_OUT(n)
#define MPI_FH_FILE_INOUT(n)
#define MPI_FNH_FILE_INOUT(n)
#define MPI_FH_OFFSET(n)
#define MPI_FNH_OFFSET(n)
#define MPI_FH_AINTS(n)
#define MPI_FNH_AINTS(n)
#define MPI_FH_COUNT(n)
#define MPI_FNH_COUNT(n)
#define MPI_FH_TYPES_IN(n)
#define MPI_FNH_TYPES_IN(n)
#define MPI_FH_TYPES_OUT_NB(n)
#define MPI_FNH_TYPES_OUT_NB(n)
#define MPI_FH_WIN(n)
#define MPI_FNH_WIN(n)
#define MPI_FH_WIN_OUT(n)
#define MPI_FNH_WIN_OUT(n)
#define MPI_FH_WIN_INOUT(n)
#define MPI_FNH_WIN_INOUT(n)
#define MPI_FH_AINT(n)
#define MPI_FNH_AINT(n)

/* The ints of a Fortran status (MPI_STATUS_SIZE): the C status's, in both ABIs. */
#define MPI_F_STATUS_INTS ((int)(sizeof(MStatus) / sizeof(MFint)))

#endif

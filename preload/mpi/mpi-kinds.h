/* mpi-kinds.h — the kinds of argument the MPI call list (hook-mpi.h) gives each parameter,
 * and the macros that walk a list of (KIND, name) pairs.  A kind says more than a C type:
 * which way the argument goes (a request made, or one given and maybe completed), whether
 * it is a buffer, a handle or an array, so that the C prototype and the Fortran binding of a
 * call (mpi-fortran.h) both follow from the one list.  Here: the C parameter of each kind. */
#ifndef TPROF_MPI_KINDS_H
#define TPROF_MPI_KINDS_H

#include "mpi-abi.h"
#ifdef TPROF_MPI_MPICH_SIDE
#include "mpi-abi-mpich.h"
#endif

/* The types of the arguments as the program passes them (its ABI's), and what the recorder
 * keeps of a handle (MPI_KEY: mpi-abi.h's pointer-sized types) and of a status. */
#ifndef TPROF_MPI_MPICH_SIDE
typedef tmpi_Comm MComm;
typedef tmpi_Datatype MType;
typedef tmpi_Request MReq;
typedef tmpi_Op MOp;
typedef tmpi_Info MInfo;
typedef tmpi_Group MGroup;
typedef tmpi_Message MMsg;
typedef tmpi_Errhandler MErrh;
typedef tmpi_Win MWin;
typedef tmpi_Status MStatus;
#define MPI_KEY(h) ((void *)(h))
#define MPI_STATUS_BYTES(st) ((st)->_ucount)
#else
typedef tmpich_Handle MComm, MType, MReq, MOp, MInfo, MGroup, MMsg, MErrh, MWin;
typedef tmpich_Status MStatus;
#define MPI_KEY(h) tmpich_key(h)
#define MPI_STATUS_BYTES(st) tmpich_status_bytes(st)
#endif
typedef tmpi_Aint MAint;     /* the same in both: long */
typedef tmpi_Count MCount;
typedef tmpi_File MFile;     /* a pointer in both */
typedef tmpi_Offset MOffset;

/* ---- walking the pairs ------------------------------------------------------------------- */

/* MPI_EACH(m, sep, (K1, n1), (K2, n2)...) is m(K1, n1) sep() m(K2, n2)...: up to 13 pairs. */
#define MPI_EACH(m, sep, ...) MPI_CAT(MPI_EACH_, MPI_NPAIRS(__VA_ARGS__))(m, sep, __VA_ARGS__)
#define MPI_NPAIRS(...) MPI_NPAIRS_(__VA_ARGS__, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define MPI_NPAIRS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, n, ...) n
#define MPI_CAT(a, b) MPI_CAT_(a, b)
#define MPI_CAT_(a, b) a##b
#define MPI_COMMA() ,
#define MPI_NOSEP()
#define MPI_EACH_1(m, s, p) m p
#define MPI_EACH_2(m, s, p, ...) m p s() MPI_EACH_1(m, s, __VA_ARGS__)
#define MPI_EACH_3(m, s, p, ...) m p s() MPI_EACH_2(m, s, __VA_ARGS__)
#define MPI_EACH_4(m, s, p, ...) m p s() MPI_EACH_3(m, s, __VA_ARGS__)
#define MPI_EACH_5(m, s, p, ...) m p s() MPI_EACH_4(m, s, __VA_ARGS__)
#define MPI_EACH_6(m, s, p, ...) m p s() MPI_EACH_5(m, s, __VA_ARGS__)
#define MPI_EACH_7(m, s, p, ...) m p s() MPI_EACH_6(m, s, __VA_ARGS__)
#define MPI_EACH_8(m, s, p, ...) m p s() MPI_EACH_7(m, s, __VA_ARGS__)
#define MPI_EACH_9(m, s, p, ...) m p s() MPI_EACH_8(m, s, __VA_ARGS__)
#define MPI_EACH_10(m, s, p, ...) m p s() MPI_EACH_9(m, s, __VA_ARGS__)
#define MPI_EACH_11(m, s, p, ...) m p s() MPI_EACH_10(m, s, __VA_ARGS__)
#define MPI_EACH_12(m, s, p, ...) m p s() MPI_EACH_11(m, s, __VA_ARGS__)
#define MPI_EACH_13(m, s, p, ...) m p s() MPI_EACH_12(m, s, __VA_ARGS__)

/* The C prototype's parameters and the arguments that pass them on, in parentheses. */
#define MPI_PARAMS(...) (MPI_EACH(MPI_CPARAM, MPI_COMMA, __VA_ARGS__))
#define MPI_ARGS(...) (MPI_EACH(MPI_CARG, MPI_COMMA, __VA_ARGS__))
#define MPI_CPARAM(kind, n) MPI_CP_##kind(n)
#define MPI_CARG(kind, n) MPI_CA_##kind(n)

/* ---- the kinds --------------------------------------------------------------------------- */

#define MPI_CP_VOID(n) void            /* no parameter at all (MPI_Finalize) */
#define MPI_CA_VOID(n)
#define MPI_CP_ARGC(n) int *n          /* MPI_Init's argc and argv: Fortran has neither */
#define MPI_CP_ARGV(n) char ***n
#define MPI_CP_INT(n) int n            /* a count, rank, tag, colour... given */
#define MPI_CP_IOUT(n) int *n          /* an integer returned */
#define MPI_CP_FLAG(n) int *n          /* a logical returned */
#define MPI_CP_INDEX(n) int *n         /* an index into the requests, returned (from 0) */
#define MPI_CP_INDICES(n) int n[]      /* indices returned, `*outcount` of them */
#define MPI_CP_INTS(n) const int n[]   /* integers given */
#define MPI_CP_CBUF(n) const void *n   /* a buffer read */
#define MPI_CP_BUF(n) void *n          /* a buffer written */
#define MPI_CP_STR(n) const char *n    /* a name given */
#define MPI_CP_STR_OUT(n) char *n      /* a name returned */
#define MPI_CP_TYPE(n) MType n         /* handles given */
#define MPI_CP_COMM(n) MComm n
#define MPI_CP_OP(n) MOp n
#define MPI_CP_INFO(n) MInfo n
#define MPI_CP_GROUP(n) MGroup n
#define MPI_CP_TYPES(n) const MType n[] /* a datatype per rank of `comm` */
#define MPI_CP_TYPES_IN(n) const MType n[]  /* one per source, destination of `comm`'s */
#define MPI_CP_TYPES_OUT_NB(n) const MType n[] /* topology (neighbourhood collectives) */
#define MPI_CP_AINTS(n) const MAint n[] /* displacements given */
#define MPI_CP_COMM_OUT(n) MComm *n    /* handles made */
#define MPI_CP_REQ_OUT(n) MReq *n
#define MPI_CP_MSG_OUT(n) MMsg *n
#define MPI_CP_COMM_INOUT(n) MComm *n  /* handles given, and maybe freed (set to null) */
#define MPI_CP_REQ_INOUT(n) MReq *n
#define MPI_CP_MSG_INOUT(n) MMsg *n
#define MPI_CP_REQS(n) MReq n[]        /* `count` requests given, maybe completed */
#define MPI_CP_STATUS(n) MStatus *n    /* a status returned, or ignored */
#define MPI_CP_STATUSES(n) MStatus n[] /* `count` statuses returned, or ignored */
#define MPI_CP_FILE(n) MFile n         /* a file given, made, or given and closed */
#define MPI_CP_FILE_OUT(n) MFile *n
#define MPI_CP_FILE_INOUT(n) MFile *n
#define MPI_CP_OFFSET(n) MOffset n     /* a place in a file, in its view's units */
#define MPI_CP_WIN(n) MWin n           /* a window given, made, or given and freed */
#define MPI_CP_WIN_OUT(n) MWin *n
#define MPI_CP_WIN_INOUT(n) MWin *n
#define MPI_CP_AINT(n) MAint n         /* addresses, displacements, sizes */

#define MPI_CA_ARGC(n) n
#define MPI_CA_ARGV(n) n
#define MPI_CA_INT(n) n
#define MPI_CA_IOUT(n) n
#define MPI_CA_FLAG(n) n
#define MPI_CA_INDEX(n) n
#define MPI_CA_INDICES(n) n
#define MPI_CA_INTS(n) n
#define MPI_CA_CBUF(n) n
#define MPI_CA_BUF(n) n
#define MPI_CA_STR(n) n
#define MPI_CA_STR_OUT(n) n
#define MPI_CA_TYPE(n) n
#define MPI_CA_COMM(n) n
#define MPI_CA_OP(n) n
#define MPI_CA_INFO(n) n
#define MPI_CA_GROUP(n) n
#define MPI_CA_TYPES(n) n
#define MPI_CA_TYPES_IN(n) n
#define MPI_CA_TYPES_OUT_NB(n) n
#define MPI_CA_COMM_OUT(n) n
#define MPI_CA_REQ_OUT(n) n
#define MPI_CA_MSG_OUT(n) n
#define MPI_CA_COMM_INOUT(n) n
#define MPI_CA_REQ_INOUT(n) n
#define MPI_CA_MSG_INOUT(n) n
#define MPI_CA_REQS(n) n
#define MPI_CA_STATUS(n) n
#define MPI_CA_STATUSES(n) n
#define MPI_CA_FILE(n) n
#define MPI_CA_FILE_OUT(n) n
#define MPI_CA_FILE_INOUT(n) n
#define MPI_CA_OFFSET(n) n
#define MPI_CA_WIN(n) n
#define MPI_CA_WIN_OUT(n) n
#define MPI_CA_WIN_INOUT(n) n

/* Kinds of the calls recorded by name alone (Q and QC entries): their C parameters. */
#define MPI_CP_INTS_OUT(n) int n[]     /* integers returned */
#define MPI_CP_RANGES(n) int n[][3]    /* (first, last, stride) triplets given */
#define MPI_CP_AINT_OUT(n) MAint *n
#define MPI_CP_AINTS_OUT(n) MAint n[]
#define MPI_CP_COUNT(n) MCount n
#define MPI_CP_COUNT_OUT(n) MCount *n
#define MPI_CP_FUNC(n) void (*n)(void)   /* a function of the program's (MPI calls it back) */
#define MPI_CP_ERRH(n) MErrh n
#define MPI_CP_REQ(n) MReq n
#define MPI_CP_TYPES_OUT(n) MType n[]
#define MPI_CP_STATUS_IN(n) const MStatus *n
#define MPI_CP_STATUS_INOUT(n) MStatus *n
#define MPI_CP_TYPE_OUT(n) MType *n
#define MPI_CP_TYPE_INOUT(n) MType *n
#define MPI_CP_GROUP_OUT(n) MGroup *n
#define MPI_CP_GROUP_INOUT(n) MGroup *n
#define MPI_CP_INFO_OUT(n) MInfo *n
#define MPI_CP_INFO_INOUT(n) MInfo *n
#define MPI_CP_OP_OUT(n) MOp *n
#define MPI_CP_OP_INOUT(n) MOp *n
#define MPI_CP_ERRH_OUT(n) MErrh *n
#define MPI_CP_ERRH_INOUT(n) MErrh *n
#define MPI_CP_STRS(n) char *n[]       /* names given (MPI_Comm_spawn's argv) */
#define MPI_CP_STRSS(n) char **n[]     /* an argv per command (MPI_Comm_spawn_multiple) */
#define MPI_CP_INFOS(n) const MInfo n[]
#define MPI_CP_OFFSET_OUT(n) MOffset *n

#define MPI_CA_INTS_OUT(n) n
#define MPI_CA_RANGES(n) n
#define MPI_CA_AINT(n) n
#define MPI_CA_AINT_OUT(n) n
#define MPI_CA_AINTS(n) n
#define MPI_CA_AINTS_OUT(n) n
#define MPI_CA_COUNT(n) n
#define MPI_CA_COUNT_OUT(n) n
#define MPI_CA_FUNC(n) n
#define MPI_CA_ERRH(n) n
#define MPI_CA_REQ(n) n
#define MPI_CA_TYPES_OUT(n) n
#define MPI_CA_STATUS_IN(n) n
#define MPI_CA_STATUS_INOUT(n) n
#define MPI_CA_TYPE_OUT(n) n
#define MPI_CA_TYPE_INOUT(n) n
#define MPI_CA_GROUP_OUT(n) n
#define MPI_CA_GROUP_INOUT(n) n
#define MPI_CA_INFO_OUT(n) n
#define MPI_CA_INFO_INOUT(n) n
#define MPI_CA_OP_OUT(n) n
#define MPI_CA_OP_INOUT(n) n
#define MPI_CA_ERRH_OUT(n) n
#define MPI_CA_ERRH_INOUT(n) n
#define MPI_CA_STRS(n) n
#define MPI_CA_STRSS(n) n
#define MPI_CA_INFOS(n) n
#define MPI_CA_OFFSET_OUT(n) n

#endif

/* mpi-abi-mpich.h — the little of MPICH's C ABI (MPICH 3 and 4: Debian's 4.0, and the MPIs
 * built on it: Intel MPI, Cray MPICH, MVAPICH) the recorder relies on, as mpi-abi.h holds
 * Open MPI's: handles are ints, predefined ones constants; MPI_Status has the count in bytes
 * split over two ints, then the public fields; other constants than Open MPI's.  The MPICH
 * wrappers (mpich/) are compiled with these in place of Open MPI's; what the recorder keeps
 * (its tables, struct tprof_mpi_handles) holds a handle in the pointer-sized type of
 * mpi-abi.h, zero-extended (tmpich_key).  tests/unit/test-mpi-abi.c, built with mpicc.mpich,
 * checks all of this against MPICH's mpi.h. */
#ifndef TPROF_MPI_ABI_MPICH_H
#define TPROF_MPI_ABI_MPICH_H

#include <stdint.h>

typedef int tmpich_Handle;   /* every handle: communicators, datatypes, requests... */

typedef struct tmpich_status {
	int count_lo;                  /* bytes received, low 32 bits */
	int count_hi_and_cancelled;    /* bit 0: cancelled; above it, the count's high bits */
	int MPI_SOURCE;
	int MPI_TAG;
	int MPI_ERROR;
} tmpich_Status;

static inline uint64_t tmpich_status_bytes(const tmpich_Status *st)
{
	return (uint64_t)(unsigned)st->count_lo |
	       (uint64_t)((unsigned)st->count_hi_and_cancelled >> 1) << 32;
}

/* A handle as the recorder keeps it (mpi-abi.h's pointer-sized types). */
#define tmpich_key(h) ((void *)(uintptr_t)(unsigned)(h))

#define TMPICH_SUCCESS 0
#define TMPICH_ERR_OTHER 15
#define TMPICH_ANY_SOURCE (-2)
#define TMPICH_PROC_NULL (-1)
#define TMPICH_ROOT (-3)
#define TMPICH_ANY_TAG (-1)
#define TMPICH_UNDEFINED (-32766)
#define TMPICH_THREAD_MULTIPLE 3
#define TMPICH_LOCK_EXCLUSIVE 234
#define TMPICH_GRAPH 1
#define TMPICH_CART 2
#define TMPICH_DIST_GRAPH 3
#define TMPICH_IN_PLACE ((void *)-1)
#define TMPICH_BOTTOM ((void *)0)
#define TMPICH_STATUS_IGNORE ((tmpich_Status *)1)
#define TMPICH_STATUSES_IGNORE ((tmpich_Status *)1)

/* Predefined handles. */
#define TMPICH_COMM_WORLD 0x44000000
#define TMPICH_COMM_SELF 0x44000001
#define TMPICH_COMM_NULL 0x04000000
#define TMPICH_REQUEST_NULL 0x2c000000
#define TMPICH_MESSAGE_NULL 0x2c000000
#define TMPICH_MESSAGE_NO_PROC 0x6c000000
#define TMPICH_WIN_NULL 0x20000000
#define TMPICH_BYTE 0x4c00010d

#endif

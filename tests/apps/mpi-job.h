/* mpi-job.h — what the MPI test jobs over the stand-in HIP and NCCL runtimes share
 * (apps/diag-causes, apps/hang-job): an error said on stderr with the rank and the call that
 * failed, and every rank ended with it (MPI_Abort); HK, CK and MK check a HIP, an NCCL and an
 * MPI call.  The including program names itself in job_name and sets job_rank once it knows
 * its rank. */
#ifndef TPROF_TESTS_MPI_JOB_H
#define TPROF_TESTS_MPI_JOB_H

#include <stdio.h>
#include <stdlib.h>

static int job_rank;

static void job_fail(const char *name, const char *what, const char *why)
{
	fprintf(stderr, "%s rank %d: %s: %s\n", name, job_rank, what, why);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

#define HK(call)                                                                             \
	do {                                                                                 \
		hipError_t e_ = (call);                                                      \
		if (e_ != hipSuccess)                                                        \
			job_fail(job_name, #call, hipGetErrorString(e_));                    \
	} while (0)
#define CK(call)                                                                             \
	do {                                                                                 \
		ncclResult_t r_ = (call);                                                    \
		if (r_ != ncclSuccess)                                                       \
			job_fail(job_name, #call, ncclGetErrorString(r_));                   \
	} while (0)
#define MK(call)                                                                             \
	do {                                                                                 \
		int m_ = (call), l_;                                                         \
		char s_[MPI_MAX_ERROR_STRING];                                               \
		if (m_ != MPI_SUCCESS) {                                                     \
			MPI_Error_string(m_, s_, &l_);                                       \
			job_fail(job_name, #call, s_);                                       \
		}                                                                            \
	} while (0)

#endif

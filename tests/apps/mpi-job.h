/* mpi-job.h — what the MPI test jobs over the stand-in HIP and NCCL runtimes share
 * (apps/diag-causes, apps/hang-job): an error said on stderr with the rank and the call that
 * failed, and every rank ended with it (MPI_Abort); HK, CK and MK check a HIP, an NCCL and an
 * MPI call; job_start begins the job (MPI, the rank's device and stream, the program's own
 * kernels as a module).  The including program names itself in job_name and includes mpi.h
 * and the HIP and NCCL headers first. */
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

/* MPI started (errors returned, not fatal), job_rank and *size set, the rank's device (rank
 * modulo the devices) current, *stream made and *mod the program's own kernels. */
static void job_start(int *argc, char ***argv, int *size, hipStream_t *stream, hipModule_t *mod)
{
	int ndev = 1;
	MPI_Init(argc, argv);
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &job_rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
	HK(hipGetDeviceCount(&ndev));
	HK(hipSetDevice(job_rank % ndev));
	HK(hipStreamCreate(stream));
	HK(hipModuleLoad(mod, "/proc/self/exe"));  /* the stand-in wants an existing file */
}

#endif

/* parallel/par.h — the analysis processes of `mpirun -np K tprof-analyze --parallel`: which
 * one this is, and how they exchange data.  They talk through the MPI library of the launcher
 * that started them (Open MPI's or MPICH's ABI), loaded at run time, so that the analyzer
 * links no MPI and a serial run loads none.  Every call here is collective: all processes make
 * it, in the same order.  A failing MPI call ends the job (MPI's default error handler). */
#ifndef TPROF_ANALYZE_PAR_H
#define TPROF_ANALYZE_PAR_H

#include <stddef.h>
#include <stdint.h>

/* Starts MPI when a launcher started this process: Open MPI's mpirun (libmpi.so.40), MPICH's
 * Hydra (libmpich.so.12), or any, with the library TPROF_MPI_LIB names (a file or a path).
 * 0 when none did (one process, MPI not loaded) or MPI started; -1, said on stderr, when the
 * library could not be loaded or lacks a function. */
int par_start(int *argc, char ***argv);
int par_rank(void);             /* 0 without MPI */
int par_size(void);             /* 1 without MPI */
/* Which library was loaded ("libmpi.so.40"), NULL without MPI. */
const char *par_library(void);
void par_stop(void);            /* MPI_Finalize, when started */
void par_abort(int status);     /* ends every process (MPI_Abort), or exits without MPI */

void par_barrier(void);
void par_bcast(void *buf, size_t len, int root);
/* Element by element over all processes, in place. */
void par_sum_u64(uint64_t *v, size_t n);
void par_min_i64(int64_t *v, size_t n);
void par_max_i64(int64_t *v, size_t n);

/* Every process's `len` bytes at `mine`, concatenated in process order, to every process
 * (malloc'd); len_of[p] (malloc'd, par_size() entries) says each one's length. */
void *par_allgather(const void *mine, size_t len, size_t **len_of);
/* The same, when only the total matters: every process's bytes concatenated, *total of them. */
void *par_allgather_total(const void *mine, size_t len, size_t *total);
/* The same to `root` only; NULL (and *len_of NULL) on the others. */
void *par_gather(const void *mine, size_t len, int root, size_t **len_of);
/* All to all: this process sends out[p] bytes to process p, taken from `buf` in process order,
 * and gets in[p] bytes from each (in: par_size() entries it fills), returned concatenated in
 * process order (malloc'd).  Sizes past 2 GiB go in rounds. */
void *par_exchange(const void *buf, const size_t *out, size_t *in);

/* The most bytes one message of par_exchange carries (tests make it small to force rounds). */
void par_set_round_bytes(size_t n);
/* Bytes this process sent and received through the calls above (for the benchmark). */
void par_traffic(uint64_t *sent, uint64_t *received);

#endif

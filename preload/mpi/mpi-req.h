/* mpi-req.h — what each pending MPI request stands for (request handle -> the operation that
 * made it), so that its completion in some Wait or Test call can say which message or
 * collective it was.  A handle table (core/handles.h): claiming a slot is one compare-and-swap,
 * looking a handle up reads keys until it or an empty slot; a removed entry becomes a
 * tombstone that a later claim may take.  Never a lock, a system call or an allocation. */
#ifndef TPROF_MPI_REQ_H
#define TPROF_MPI_REQ_H

#include <stdint.h>

#include "../core/handles.h"
#include "mpi-abi.h"

struct tprof_mpi_req {
	void *key;                  /* the request (or matched message) handle; see below */
	uint64_t comm;              /* communicator id; for MPI_Comm_idup its parent's */
	uint64_t bytes;             /* sends and collectives: bytes sent; receives: as posted */
	uint64_t bytes2;            /* collectives: bytes received */
	void *out;                  /* MPI_Comm_idup: where the new communicator appears;
				     * a persistent collective: its communicator's entry */
	int32_t peer, tag;          /* as the records store them (posted, for receives) */
	uint32_t seq;               /* receive post number, collective number; idup: the
				     * parent's creation count; IO: the file's number */
	uint16_t hook;              /* index of the call that made it (its name) */
	uint8_t op;                 /* enum tprof_mpi_op of what it does */
	uint8_t flags;              /* TPROF_MPIF_* */
	uint8_t active;             /* persistent: started and not yet completed */
	uint8_t cancel;             /* MPI_Cancel was called on it */
	uint8_t pad[2];
	uint32_t file;              /* IO: the file's name (string id) */
};

#define TPROF_MPI_REQ_SLOTS 16384u

/* A slot for handle, its fields zero for the caller to fill; NULL when the table is full
 * (that request's completion then goes unrecorded). */
struct tprof_mpi_req *tprof_mpi_req_add(void *handle);
/* The entry of a handle, or NULL. */
struct tprof_mpi_req *tprof_mpi_req_find(void *handle);
/* Whether e still stands for handle. */
static inline int tprof_mpi_req_holds(const struct tprof_mpi_req *e, const void *handle)
{
	return e && __atomic_load_n(&e->key, __ATOMIC_ACQUIRE) == handle;
}

/* The request is gone (completed or freed): its slot may be taken again. */
static inline void tprof_mpi_req_remove(struct tprof_mpi_req *e)
{
	if (e)
		tprof_handle_remove(e);
}

#endif

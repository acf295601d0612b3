/* mpi-req.c — the table of pending MPI requests (see mpi-req.h).  One request handle is
 * live in the table at most once: Open MPI hands a request object out again only after it
 * completed or was freed, and the wrappers remove an entry when theirs does (finding the
 * entry before the real call, so a handle reused by another thread meanwhile never takes
 * its place).  A full table costs only the completions of the requests it could not hold. */
#include <string.h>

#include "../core/core.h"
#include "mpi-req.h"

static struct tprof_mpi_req table[TPROF_MPI_REQ_SLOTS];
static int full_warned;

/* How far a lookup or a claim goes before giving up. */
#define MAX_PROBE 256u

static inline size_t slot_of(const void *handle)
{
	return (size_t)(((uintptr_t)handle * 0x9e3779b97f4a7c15ull) >> 50) & (TPROF_MPI_REQ_SLOTS - 1);
}

struct tprof_mpi_req *tprof_mpi_req_add(void *handle)
{
	for (;;) {
		size_t i = slot_of(handle);
		struct tprof_mpi_req *take = NULL;
		void *was = NULL;
		for (unsigned n = 0; n < MAX_PROBE; n++, i = (i + 1) & (TPROF_MPI_REQ_SLOTS - 1)) {
			void *k = __atomic_load_n(&table[i].key, __ATOMIC_ACQUIRE);
			if (k == handle) {
				/* Left behind by a completion the wrappers did not see: the
				 * handle stands for the new request now. */
				take = &table[i];
				was = k;
				break;
			}
			if ((k == TPROF_MPI_REQ_EMPTY || k == TPROF_MPI_REQ_GONE) && !take) {
				take = &table[i];
				was = k;
			}
			if (k == TPROF_MPI_REQ_EMPTY)
				break;
		}
		if (!take)
			break;
		if (was != handle && !__atomic_compare_exchange_n(&take->key, &was, handle, 0,
								   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			continue;   /* another thread took that slot first: look again */
		memset((char *)take + sizeof(take->key), 0, sizeof(*take) - sizeof(take->key));
		return take;
	}
	if (!__atomic_exchange_n(&full_warned, 1, __ATOMIC_RELAXED))
		tprof_log_warn("too many MPI requests pending at once: some completions go unrecorded");
	return NULL;
}

struct tprof_mpi_req *tprof_mpi_req_find(void *handle)
{
	size_t i = slot_of(handle);
	for (unsigned n = 0; n < MAX_PROBE; n++, i = (i + 1) & (TPROF_MPI_REQ_SLOTS - 1)) {
		void *k = __atomic_load_n(&table[i].key, __ATOMIC_ACQUIRE);
		if (k == handle)
			return &table[i];
		if (k == TPROF_MPI_REQ_EMPTY)
			return NULL;
	}
	return NULL;
}

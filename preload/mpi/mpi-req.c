/* mpi-req.c — the table of pending MPI requests (see mpi-req.h).  One request handle is
 * live in the table at most once: Open MPI hands a request object out again only after it
 * completed or was freed, and the wrappers remove an entry when theirs does (finding the
 * entry before the real call, so a handle reused by another thread meanwhile never takes
 * its place).  A handle still in the table takes its own slot again: left behind by a
 * completion the wrappers did not see, it stands for the new request now.  A full table
 * costs only the completions of the requests it could not hold. */
#include <string.h>

#include "../core/core.h"
#include "mpi-req.h"

static struct tprof_mpi_req table[TPROF_MPI_REQ_SLOTS];
static int full_warned;
TPROF_HANDLES_CHECK(table, key);

/* How far a lookup or a claim goes before giving up. */
#define MAX_PROBE 256u

struct tprof_mpi_req *tprof_mpi_req_add(void *handle)
{
	struct tprof_mpi_req *e = tprof_handle_claim(TPROF_HANDLES(table, MAX_PROBE), handle);
	if (TPROF_UNLIKELY(!e)) {
		tprof_handles_full(&full_warned, "too many MPI requests pending at once: some "
				   "completions go unrecorded");
		return NULL;
	}
	memset((char *)e + sizeof(e->key), 0, sizeof(*e) - sizeof(e->key));
	return e;
}

struct tprof_mpi_req *tprof_mpi_req_find(void *handle)
{
	return tprof_handle_find(TPROF_HANDLES(table, MAX_PROBE), handle);
}

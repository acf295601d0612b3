/* transfers.h — point-to-point transfers in neutral terms, for the report's communication
 * matrix (render/html/matrix.c): bytes one rank sent another, and the time they took.  Only a
 * runtime knows which of its events moved data between two ranks (an MPI message, an NCCL
 * send matched with its receive); it says so through its struct runtime's `transfers` hook
 * (model/runtime.h), so that the matrix reads the model's structs, never a runtime's. */
#ifndef TPROF_ANALYZE_TRANSFERS_H
#define TPROF_ANALYZE_TRANSFERS_H

#include <stdint.h>

struct transfer {
	int64_t src, dst;                /* world ranks */
	uint64_t bytes;
	int64_t ns;                      /* from when both ends were there to its end (0: not
					  * known) */
};

/* Where a runtime's `transfers` hook puts what it finds. */
struct transfer_sink {
	void *ctx;
	void (*transfer)(void *ctx, const struct transfer *t);
};

#endif

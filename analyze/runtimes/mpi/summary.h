/* runtimes/mpi/summary.h — the summary's MPI part: calls with bytes, ranks, messages, collectives and
 * clock alignment, fed event by event and printed at the end (runtimes/mpi/summary.c). */
#ifndef TPROF_ANALYZE_SUMMARY_MPI_H
#define TPROF_ANALYZE_SUMMARY_MPI_H

#include <stdint.h>
#include <stdio.h>

#include "../../model/output.h"
#include "../../summary/write.h"

struct mpisum;
struct mpisum *mpisum_new(void);
/* EV_CALL of domain MPI, EV_MPIREQ, EV_MESSAGE and EV_COLLECTIVE */
void mpisum_event(struct mpisum *m, const struct event *ev);
/* Writes the MPI tables (the covered time is lo..hi, ns from the trace start) and frees m. */
void mpisum_end(struct mpisum *m, struct sumw *w, const struct trace *tr, int64_t lo, int64_t hi,
		int top);

#endif

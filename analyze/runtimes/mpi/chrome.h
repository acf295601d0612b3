/* runtimes/mpi/chrome.h — the MPI part of the Chrome trace (runtimes/mpi/chrome.c), written for the
 * output (render/chrome/chrome.c): the arguments of an MPI call, messages and collectives. */
#ifndef TPROF_ANALYZE_OUT_CHROME_MPI_H
#define TPROF_ANALYZE_OUT_CHROME_MPI_H

#include "../../render/chrome/write.h"

void chrome_mpi_args(struct jw *w, int *n, const struct mpi_info *mi);
void chrome_message(struct chrome *c, const struct event *ev);
void chrome_collective(struct chrome *c, const struct event *ev);

#endif

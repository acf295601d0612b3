/* runtimes/mpi/summary.h — the summary's MPI part: calls with bytes, ranks, messages,
 * collectives, MPI-IO, one-sided communication and clock alignment, fed event by event and
 * printed at the end (runtimes/mpi/summary.c, summary-io.c, summary-rma.c). */
#ifndef TPROF_ANALYZE_SUMMARY_MPI_H
#define TPROF_ANALYZE_SUMMARY_MPI_H

#include <stdint.h>
#include <stdio.h>

#include "../../model/output.h"
#include "../../model/runtime.h"
#include "../../summary/write.h"

struct mpisum;
struct mpisum *mpisum_new(void);
/* EV_CALL of domain MPI, EV_MPIREQ, EV_MESSAGE and EV_COLLECTIVE */
void mpisum_event(struct mpisum *m, const struct event *ev);
/* Writes the MPI tables (span: the covered time, the processes) and frees m. */
void mpisum_end(struct mpisum *m, struct sumw *w, const struct sum_span *span, int top);
/* The parallel analyzer's (model/runtime.h): what m counted, packed; another's added in. */
void mpisum_pack(struct mpisum *m, const struct sum_span *span, struct pack *b);
void mpisum_merge(struct mpisum *m, const struct sum_span *span, struct unpack *u);

/* runtimes/mpi/summary-io.c: the MPI-IO table, fed each call of op IO (dur: its time) */
struct mpi_info;
struct mpiio;
struct mpiio *mpiio_new(void);
void mpiio_call(struct mpiio *m, const struct mpi_info *mi, uint32_t name, int64_t dur);
void mpiio_end(struct mpiio *m, struct sumw *w, int top);   /* and frees m */
void mpiio_pack(const struct mpiio *m, struct pack *b);
void mpiio_merge(struct mpiio *m, struct unpack *u);

/* runtimes/mpi/summary-rma.c: the one-sided communication table, fed each call of op RMA */
struct mpirma;
struct mpirma *mpirma_new(void);
void mpirma_call(struct mpirma *m, const struct mpi_info *mi, uint32_t name, int64_t dur);
/* t: the links to targets found over the whole trace (rma.c).  Frees m. */
void mpirma_end(struct mpirma *m, struct sumw *w, const struct mpi_totals *t, int top);
void mpirma_pack(const struct mpirma *m, struct pack *b);
void mpirma_merge(struct mpirma *m, struct unpack *u);

#endif

/* runtimes/nccl/summary.h — the summary's NCCL/RCCL part (runtimes/nccl/summary.c): the API calls with their
 * bytes, the collectives by operation and size with nccl-tests' bandwidths and the ranks'
 * wait, and the send/receive traffic, fed event by event and printed at the end. */
#ifndef TPROF_ANALYZE_SUMMARY_NCCL_H
#define TPROF_ANALYZE_SUMMARY_NCCL_H

#include <stdio.h>

#include "../../model/output.h"
#include "../../summary/write.h"

struct ncclsum;
struct ncclsum *ncclsum_new(void);
/* EV_CALL of domain NCCL, EV_NCCL */
void ncclsum_event(struct ncclsum *m, const struct event *ev);
/* The parallel analyzer: m's tables packed by an analysis process, merged into the first's. */
struct pack;
struct unpack;
void ncclsum_pack(const struct ncclsum *m, struct pack *b);
void ncclsum_merge(struct ncclsum *m, struct unpack *u);
/* Writes the NCCL tables and frees m. */
void ncclsum_end(struct ncclsum *m, struct sumw *w, int top);

#endif

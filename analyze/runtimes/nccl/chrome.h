/* runtimes/nccl/chrome.h — the NCCL/RCCL part of the Chrome trace (runtimes/nccl/chrome.c), written for
 * the output (render/chrome/chrome.c): the arguments of an NCCL call, and the collectives' device spans,
 * held until their cross-rank facts are known (EV_NCCL) and written then with those facts
 * and the arrows between ranks. */
#ifndef TPROF_ANALYZE_OUT_CHROME_NCCL_H
#define TPROF_ANALYZE_OUT_CHROME_NCCL_H

#include "../../render/chrome/write.h"

struct nccl_info;

void chrome_nccl_args(struct jw *w, int *n, const struct nccl_info *ni);
/* A collective's device span (EV_DEVICE): kept until its EV_NCCL; returns 1 when kept. */
int chrome_nccl_hold(struct chrome *c, const struct event *ev);
/* EV_NCCL: the spans it names, written with its facts, and the arrows between ranks. */
void chrome_nccl_inst(struct chrome *c, const struct event *ev);
/* Writes the spans still held (as unmatched) and frees what was kept. */
void chrome_nccl_flush(struct chrome *c);

#endif

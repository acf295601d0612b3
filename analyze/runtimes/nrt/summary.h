/* runtimes/nrt/summary.h — the summary's Neuron runtime part: executions by model, tensor traffic by
 * operation and placement, the busy share of each NeuronCore and the calls that failed, fed
 * event by event and printed at the end (runtimes/nrt/summary.c). */
#ifndef TPROF_ANALYZE_SUMMARY_NRT_H
#define TPROF_ANALYZE_SUMMARY_NRT_H

#include <stdint.h>
#include <stdio.h>

#include "../../model/output.h"
#include "../../model/runtime.h"
#include "../../summary/write.h"

struct nrtsum;
struct nrtsum *nrtsum_new(void);
/* EV_CALL of domain NRT */
void nrtsum_event(struct nrtsum *s, const struct event *ev);
/* Writes the NRT tables (span: the time the numbers cover, the processes) and frees s. */
void nrtsum_end(struct nrtsum *s, struct sumw *w, const struct sum_span *span, int top);
/* The parallel analyzer's (model/runtime.h): what s counted, packed; another's added in. */
void nrtsum_pack(struct nrtsum *s, struct pack *b);
void nrtsum_merge(struct nrtsum *s, struct unpack *u);

#endif

/* runtimes/nrt/summary.h — the summary's Neuron runtime part: executions by model, tensor traffic by
 * operation and placement, the busy share of each NeuronCore and the calls that failed, fed
 * event by event and printed at the end (runtimes/nrt/summary.c). */
#ifndef TPROF_ANALYZE_SUMMARY_NRT_H
#define TPROF_ANALYZE_SUMMARY_NRT_H

#include <stdint.h>
#include <stdio.h>

#include "../../model/output.h"
#include "../../summary/write.h"

struct nrtsum;
struct nrtsum *nrtsum_new(void);
/* EV_CALL of domain NRT */
void nrtsum_event(struct nrtsum *s, const struct event *ev);
/* Writes the NRT tables (`covered`: the time the numbers cover) and frees s. */
void nrtsum_end(struct nrtsum *s, struct sumw *w, const struct trace *tr, int64_t covered,
		int top);

#endif

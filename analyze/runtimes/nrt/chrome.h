/* runtimes/nrt/chrome.h — the Neuron runtime part of the Chrome trace (runtimes/nrt/chrome.c), written
 * for the output (render/chrome/chrome.c): the arguments of an NRT call on its thread, and the work it
 * put on the NeuronCore tracks. */
#ifndef TPROF_ANALYZE_OUT_CHROME_NRT_H
#define TPROF_ANALYZE_OUT_CHROME_NRT_H

#include "../../render/chrome/write.h"

/* The NRT arguments of the call ev (ev->call->nrt set), into its open "args". */
void chrome_nrt_args(struct jw *w, int *n, const struct event *ev);
/* The call's work on each NeuronCore it occupies, with a flow from the call; nothing for a
 * call that occupies none. */
void chrome_nrt_core(struct chrome *c, const struct event *ev);

#endif

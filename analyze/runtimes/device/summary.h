/* runtimes/device/summary.h — the summary's device part: busy share, idle gaps, kernels, copies and
 * launching functions, fed event by event and printed at the end. */
#ifndef TPROF_ANALYZE_SUMMARY_DEVICE_H
#define TPROF_ANALYZE_SUMMARY_DEVICE_H

#include <stdint.h>
#include <stdio.h>

#include "../../model/output.h"
#include "../../model/runtime.h"
#include "../../summary/write.h"

struct devsum;
struct devsum *devsum_new(void);
void devsum_event(struct devsum *d, const struct event *ev);
/* Writes the device tables and frees d. */
void devsum_end(struct devsum *d, struct sumw *w, const struct sum_span *span, int top);
/* The parallel analyzer's (model/runtime.h): what d counted, packed; another's added in. */
void devsum_pack(struct devsum *d, struct pack *b);
void devsum_merge(struct devsum *d, struct unpack *u);

#endif

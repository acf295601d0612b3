/* runtimes/device/summary.h — the summary's device part: busy share, idle gaps, kernels, copies and
 * launching functions, fed event by event and printed at the end. */
#ifndef TPROF_ANALYZE_SUMMARY_DEVICE_H
#define TPROF_ANALYZE_SUMMARY_DEVICE_H

#include <stdint.h>
#include <stdio.h>

#include "../../model/output.h"
#include "../../summary/write.h"

struct devsum;
struct devsum *devsum_new(void);
void devsum_event(struct devsum *d, const struct event *ev);
/* Writes the device tables and frees d. */
void devsum_end(struct devsum *d, struct sumw *w, const struct trace *tr, int64_t covered,
		int top);

#endif

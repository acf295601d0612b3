/* import/jobview.h — the job's recorded processes as placing an imported file needs them
 * (jobview.c), the same in every analysis process of the parallel analyzer. */
#ifndef TPROF_ANALYZE_IMPORT_JOBVIEW_H
#define TPROF_ANALYZE_IMPORT_JOBVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "../read/trace.h"

/* A host's clock: that of its first recorded process (in the order the files were found). */
struct host_clock {
	uint32_t host;                   /* trace-wide string id */
	uint32_t order;                  /* its process's scan order */
	int64_t real_mono;               /* realtime minus monotonic at its first clock point */
	int64_t offset;                  /* its timebase's offset to the global axis */
	int corrected;
	struct clock_corr corr;
};

struct job_view {
	int64_t start;                   /* the profile's earliest clock point (0: none) */
	uint32_t one_host;               /* the host of every recorded process, 0 when several */
	struct host_clock *clocks;
	size_t nclocks, capclocks;
};

/* Once every recorded process has its clock (collective under --parallel). */
void job_view_make(const struct trace *tr, struct job_view *v);
/* The clock of host, or NULL when no recorded process of it has one. */
const struct host_clock *job_view_clock(const struct job_view *v, uint32_t host);
void job_view_free(struct job_view *v);

#endif

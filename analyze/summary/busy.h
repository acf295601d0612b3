/* summary/busy.h — the tables of busy shares (a GPU, a NeuronCore of each process): per unit
 * the share of the covered time it was busy, how long, how many operations, whose; past
 * --ranks rows, their spread (spread.h).  The device and NRT parts of the summary write theirs
 * through it. */
#ifndef TPROF_ANALYZE_BUSY_H
#define TPROF_ANALYZE_BUSY_H

#include <stdint.h>

#include "write.h"

struct sum_span;

struct busy_row {
	int proc;                   /* the process's number */
	int64_t unit;               /* the device's or NeuronCore's */
	int64_t busy;               /* ns */
	uint64_t count;             /* operations run */
};

/* What a table is called: its JSON key ("devices") and title ("Devices"), what its rows are
 * ("devices"), its count's header and key ("Ops", "ops"), its unit's header, key and text
 * ("Device", "device", "GPU"). */
struct busy_names {
	const char *key, *title, *rows, *count_title, *count_key, *unit_title, *unit_key,
		*unit_text;
};

void busy_table(struct sumw *w, const struct busy_names *names, const struct busy_row *rows,
		size_t n, const struct sum_span *span);

#endif

/* chrome-read.h — reading a Chrome trace-event JSON file (PyTorch's profiler, Kineto, JAX and
 * TensorFlow, anything that writes the format; plain or gzip) one event at a time, with its
 * top-level metadata: the reader that tprof-analyze's import stands on. */
#ifndef TPROF_ANALYZE_CHROME_READ_H
#define TPROF_ANALYZE_CHROME_READ_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "chrome-event.h"
#include "chrome-scan.h"

#define CHROME_NO_OFFSET UINT64_MAX

struct chrome_read_opts {
	/* Messages go to stderr as "<prefix>warning: FILE: offset N: what" and
	 * "<prefix>FILE: offset N: what" (errors); prefix e.g. "tprof-analyze: ", NULL for none. */
	const char *prefix;
	/* Or, when set, to this: offset is CHROME_NO_OFFSET when none applies; text has neither
	 * the prefix, nor the file, nor a newline. */
	void (*report)(void *ctx, int is_error, const char *path, uint64_t offset,
		       const char *text);
	void *report_ctx;
	unsigned max_warnings;  /* skipped events named one by one, then only counted; 0: 10 */
	size_t max_event;       /* bytes; a larger event is skipped with a warning; 0: 64 MiB */
	size_t block;           /* bytes read at a time; 0: 1 MiB */
	/* Parse on a thread of its own, which hands the events over in batches while the
	 * callback runs (for a callback with work of its own to do); 0: on the caller's. */
	int thread;
	/* Nonzero: each event's args as the bytes argblob_encode makes of them, at most this many
	 * (chrome_event.args_blob), without their tree but for M and C events; 0: trees. */
	size_t args_blob;
};

/* What the file says besides its events.  Members found before traceEvents are set when the
 * first event is handed over; those after it (Kineto writes baseTimeNanoseconds and traceName
 * there) only when chrome_read returns.  Strings and cJSON values belong to the meta: valid
 * until chrome_meta_free. */
struct chrome_meta {
	enum chrome_form form;          /* {"traceEvents": [...], ...} or a bare [...]; NONE when
					 * the read failed before knowing */
	int has_base_time;
	int64_t base_time_ns;           /* "baseTimeNanoseconds", exact */
	int has_dist;                   /* "distributedInfo" (an object) */
	int64_t rank, world_size;       /* its "rank" and "world_size"; -1 when absent */
	const char *backend;            /* its "backend" ("nccl"...), or NULL */
	const cJSON *distributed_info;
	int device_count;               /* "deviceProperties": the length of the array; 0: none */
	const cJSON *device_properties;
	const char *display_time_unit;  /* "displayTimeUnit" ("ms" or "ns"): for display only */
	const char *trace_name;         /* "traceName" */
	const char *schema_version;     /* "schemaVersion": a number's text, or the string */
	const cJSON *tprof;             /* "tprof", an object ({"host", "pid", "tid", ...}) written
					 * by tprof's own helper; NULL when absent */
	uint64_t events;                /* handed to the callback */
	uint64_t skipped;               /* damaged or too large, each named in a warning (or counted
					 * once the warnings stop) */
	/* What the reading changed or left out, by enum chrome_fix (chrome-event.h), and the
	 * offset where each cause was first met. */
	uint64_t fix_n[CHROME_FIX_N];
	uint64_t fix_at[CHROME_FIX_N];
	uint64_t bytes;                 /* of (decompressed) input read */
	cJSON *kept;                    /* owns the above: each kept member by its key */
	char schema_text[32];           /* what schema_version points to when it is a number */
};

/* Reads path (gzip when it starts with the gzip magic, whatever its name) and calls each once
 * per event in file order; ev and what it points to are valid only during the call (the cJSON
 * values too: never cJSON_Delete them).  o may be NULL; meta is set in any case (NULL: not
 * kept) and must be freed with chrome_meta_free.
 *
 * Returns 0 when the file was read to its end, each's value when it returned non-zero (the
 * read stops there), -1 after an error, reported: the file cannot be opened or read, is empty,
 * is not Chrome JSON, or is damaged past an event in a way the reader cannot resynchronise
 * from (cut inside an event, bytes between events, a bad gzip stream); every event before the
 * damage has been handed over.  A damaged event (bad JSON inside one object) is skipped with a
 * warning naming the file and its offset, and the read goes on.  An object-form file cut
 * between two events is a warning only: every complete event was read.
 *
 * Memory is bounded by the largest event plus the block, whatever the size of the file (and
 * 3 MiB for a gzip file, inflated ahead on a helper thread that takes no signal).  Reads of
 * different files may run on different threads at once. */
int chrome_read(const char *path, const struct chrome_read_opts *o,
		int (*each)(void *ctx, const struct chrome_event *ev), void *ctx,
		struct chrome_meta *meta);
void chrome_meta_free(struct chrome_meta *meta);

#endif

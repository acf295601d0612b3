/* render/split/split.h — a trace written as a series of self-contained parts by time
 * (--split steps:N, --split size:MB), each drawn by a renderer of its own that a factory
 * makes (Chrome, Perfetto...), with an index of what each part covers.  Knows no runtime
 * and no format. */
#ifndef TPROF_ANALYZE_RENDER_SPLIT_H
#define TPROF_ANALYZE_RENDER_SPLIT_H

#include "../../model/output.h"
#include "../../model/scene.h"

enum split_mode {
	SPLIT_STEPS = 1,         /* N training steps a part */
	SPLIT_SIZE,              /* parts of about a size (the trace as written, uncompressed) */
	SPLIT_PROCESS,           /* --parallel: a part per analysis process, of the processes it
				  * reads, each written by that one; the first writes the index
				  * (a collective end: every analysis process ends its part) */
};

struct split_spec {
	int mode;                /* enum split_mode */
	uint64_t steps;          /* SPLIT_STEPS: steps a part, >= 1 */
	uint64_t bytes;          /* SPLIT_SIZE: a part's size, >= 10 kB */
	char text[48];           /* as given ("steps:4"), for the index */
};

/* Parses "steps:N" (N >= 1) or "size:MB" (a decimal number of megabytes, 10^6 bytes, from
 * 0.01); -1 when s is neither. */
int split_parse(const char *s, struct split_spec *sp);

/* The parts --split steps:N makes: each its first and last step and the time its range
 * starts (ns from the trace start; the first part's range starts with the window). */
struct split_group {
	uint64_t first, last;
	int64_t start;
};

/* Groups the steps of `v` (window_step_starts: in step order, each with the latest start of
 * any process) that start in the window [win_start, win_end) into parts of `per` steps; a
 * part whose first step does not start after the part before it starts is merged into that
 * one.  Returns the number of parts (0 when no step starts in the window). */
size_t split_group_steps(const struct step_start *v, size_t n, uint64_t per, int64_t win_start,
			 int64_t win_end, struct split_group **out);

/* Makes the renderer of one part, writing to path. */
typedef struct scene_renderer (*split_make_fn)(const char *path, void *ctx);

struct split_opts {
	struct split_spec spec;
	const struct split_group *groups;   /* SPLIT_STEPS: the parts (copied) */
	size_t ngroups;
	int64_t start, end;                 /* the window, ns from the trace start (no window:
					     * 0 and INT64_MAX) */
	const char *format;                 /* the parts' format, for the index ("chrome") */
	const char *label;                  /* and as the message names it ("Chrome") */
	int64_t lag;                        /* how far behind the latest item a part stays
					     * open (ns); 0: SPLIT_LAG_NS */
	unsigned max_open;                  /* parts open at once, at most; 0: SPLIT_MAX_OPEN */
};

#define SPLIT_LAG_NS 200000000ll        /* 200 ms */
#define SPLIT_MAX_OPEN 8

/* The parts go to PATH's stem + ".part-0001" + PATH's extension ("-o out/t.json.gz":
 * out/t.part-0001.json.gz...), the index to stem + ".index.json".  They are put in place
 * together once all are written, the index last (util/outname.h; under --parallel at the
 * caller's release, which the analysis processes order so).  Under --parallel with steps:N,
 * K analysis processes each write every group's part of their share: part g * K + k + 1 is
 * group g's (from 0) of analysis process k; with SPLIT_SIZE each analysis process cuts its
 * share by its own size, and its parts take, once all are written, the numbers after those
 * of the analysis processes before it. */
struct scene_renderer render_split(const char *path, const struct split_opts *o,
				   split_make_fn make, void *ctx);

/* 0 when the index and the first part (of format part) may be written at the names PATH
 * gives them (util/outname.h); else -1 (outname_error says why).  Creates nothing. */
struct out_format;
int split_check(const char *path, const struct out_format *part);

#endif

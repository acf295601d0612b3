/* render/split/state.h — the splitter's state (split.c), shared with the slices it keeps
 * track of (held.c) and the part files and index (index.c). */
#ifndef TPROF_ANALYZE_SPLIT_STATE_H
#define TPROF_ANALYZE_SPLIT_STATE_H

#include "../../util/hindex.h"
#include "split.h"

/* PART_AWAY: --parallel, put aside until something comes to it (render/split/split.c) */
enum part_state { PART_NEW = 0, PART_OPEN, PART_AWAY, PART_DONE };

/* One part: the items whose key (split.c) lies in (lo, hi]. */
struct part {
	size_t number;                   /* in its file's name (.part-NNNN), from 1 */
	size_t reader;                   /* --parallel: the analysis process that writes it */
	int first_of_reader, last_of_reader;   /* --parallel size:MB: its first, its last */
	int state;                       /* enum part_state */
	int failed;
	int64_t lo, hi;                  /* INT64_MIN, INT64_MAX: unbounded */
	int64_t hold;                    /* open at least until the front passes this (the ends
					  * of slices it holds beyond hi) */
	struct scene_renderer r;
	uint64_t first_step, last_step;  /* SPLIT_STEPS: its group; SPLIT_SIZE: as drawn */
	int has_steps;
	uint64_t slices, instants, counters, asyncs, flows, samples;
	uint64_t flow_halves;            /* --parallel: arrow ends whose other end is in a part
					  * another analysis process writes */
	int64_t *procs, *ranks;          /* --parallel, in the index: the processes it holds
					  * (numbers) and their ranks (-1: none) */
	size_t nprocs;
	uint64_t before;                 /* slices that began before its range (lo) */
	uint64_t beyond;                 /* items that end after its range (hi), kept whole */
	uint64_t late;                   /* items of a part already closed, put here */
	uint64_t late_flows;             /* arrows whose end slice went to a part already closed */
	uint64_t flows_back;             /* arrows that start before its range */
	int64_t t_min, t_max;            /* the earliest start and latest end of what it holds */
	uint64_t cut_bytes;              /* SPLIT_SIZE: its size when its range was ended */
	uint64_t json_bytes, file_bytes; /* its size as written (uncompressed) and on disk */
};

/* A slice kept in another part than its end time puts it in (late, or beyond a cut). */
struct held {
	int64_t pid, tid, t0, t1;
	size_t part;
};

/* Items of the newest part that end after the front (SPLIT_SIZE). */
struct ahead {
	struct track tr;
	int64_t t0, t1, key;
	int slice;
};

struct split {
	struct split_opts o;
	struct split_group *groups;
	split_make_fn make;
	void *ctx;
	char *stem, *ext;                /* the parts' names: stem.part-NNNN.ext */
	size_t readers, me;              /* the analysis processes (1 serially) and which this
					  * is: part i of this one is number i * readers + me + 1
					  * (the index lists a group's parts together); with
					  * size:MB renumbered at the end (renumber) */
	const struct trace *tr;
	struct tracks *tracks;
	struct part *parts;
	size_t nparts, cap;
	size_t first_open;               /* parts before it are done */
	size_t hint;                     /* the part the last item went to */
	unsigned nopen;                  /* parts with a renderer open */
	int64_t front;                   /* the latest start of any item so far */
	int64_t delay_max;               /* the largest lag of an item's key behind the front */
	uint64_t reserve;                /* SPLIT_SIZE: what the last part closed grew by after
					  * its cut (late items, metadata): a part is cut that much
					  * before the size */
	uint64_t late, late_flows;
	int failed;
	struct held *held;               /* in the order kept (held.c) */
	size_t nheld, capheld;
	struct hindex held_by_key;       /* their numbers (index + 1) by (track, t0, t1) */
	struct ahead *ahead;
	size_t nahead, capahead;
};

/* held.c */
void held_add(struct split *s, struct track tr, int64_t t0, int64_t t1, size_t part);
/* The part a slice was kept in, or -1 when it is where its end time puts it. */
long held_find(const struct split *s, struct track tr, int64_t t0, int64_t t1);
/* Forgets the slices no arrow will come for any more (their part closed, their end lag
 * behind the front). */
void held_prune(struct split *s);
void ahead_add(struct split *s, const struct scene_item *it, int64_t key);
/* At a cut at `at`: the slices still ahead that end after it are kept in `part` (held);
 * returns how many items end after it, and the latest end among them in *hold. */
uint64_t ahead_cut(struct split *s, int64_t at, size_t part, int64_t *hold);
void held_free(struct split *s);

/* index.c */
char *split_part_path(const struct split *s, size_t number);
int split_names(struct split *s, const char *path);
int split_write_index(struct split *s);
/* --parallel, every analysis process: its parts described to the first, which then holds
 * every one's in s->parts, in the order of their numbers (parts.c). */
void split_gather_parts(struct split *s);
/* --parallel size:MB, every analysis process once its parts are written: they take the
 * numbers after those of the analysis processes before it, their files to be put at those
 * names (outname_retarget).  -1 when one cannot be (said). */
int split_renumber(struct split *s);
void split_parts_free(struct split *s);
/* The size of a part's file on disk, and of what was written to it (a .gz file's content,
 * `content` bytes or more; without compression the same). */
void split_file_bytes(const char *path, uint64_t content, uint64_t *disk, uint64_t *json);

#endif

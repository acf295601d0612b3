/* render/sqlite/out.h — the SQLite renderer's state, shared by its parts: the timeline
 * (timeline.c: the scene's tracks, slices, instants, counters, async ranges, CPU samples with
 * their callsites, and flows), the
 * domain facts (facts.c: processes, threads, device operations, MPI messages, collectives,
 * steps, clock offsets, from the pipeline's events), and the output that runs both and
 * finishes the database (sqlite.c: meta, strings, indexes, views).  Knows no runtime. */
#ifndef TPROF_ANALYZE_SQLITE_H
#define TPROF_ANALYZE_SQLITE_H

#include "db.h"
#include "../callsites.h"
#include "../../model/output.h"
#include "../../model/scene.h"
#include "../../util/hindex.h"
#include "../../util/jsonw.h"

/* A track seen by the timeline: its row id, and what its items said it is. */
struct sqtrack {
	struct track track;
	int64_t id;                      /* its row */
	const struct proc *proc;         /* of its first item */
	uint8_t counters;                /* it holds counters */
};

struct sqlout {
	struct sqldb db;
	char *path, *dir;
	const struct window *win;
	int64_t tr_start;                /* the trace's start (realtime ns): times are from it */
	double t_begin, t_finish;        /* when the output began, when it began to finish (s,
					  * CLOCK_MONOTONIC) */
	struct output scene;             /* the scene drawn for the timeline (model/scene.c) */
	const struct runtime_set *rts;   /* the runtimes, for the facts only they can give */
	struct json_writer args;                  /* the args JSON of the row being written */
	struct tracks *tracks;           /* the scene's, from its begin to its end */
	struct sqtrack *tv;              /* the tracks in the order first seen */
	size_t ntv, captv;
	struct hindex tv_by_track;       /* their numbers (index + 1) by (pid, tid) */
	int64_t next[ST_COUNT];          /* the last row id given, per table */
	uint64_t corr_slices;            /* slices with a correlation (under --parallel, once
					  * the parts are written: in all of them) */
	uint64_t part_rows;              /* under --parallel: the rows of the other parts */
	struct callsites callsites;      /* the samples' stacks: rows up to `written` are in */
	size_t callsites_written;
	int64_t *thread_base;            /* by process index: threads' ids are base + stream */
	size_t nprocs;
	struct { const char *s; uint32_t id; } cats[64];   /* category strings by address */
	struct diagnosis *dx;            /* --diagnose: its tables are written (NULL: none) */
	int failed;
};

/* The id of the next row of a table. */
static inline int64_t sqlout_row_id(struct sqlout *o, enum stmt_id t)
{
	return ++o->next[t];
}

/* A category string's id in the string table (cached by its address). */
uint32_t sqlout_string(struct sqlout *o, const char *s);
/* A thread's row id (0 for NULL). */
int64_t sqlout_thread_id(const struct sqlout *o, const struct thread *th);

/* timeline.c: the scene renderer that writes into o. */
struct scene_renderer sqlite_timeline(struct sqlout *o);
/* Writes the tracks seen, with what tracks_each and tracks_metadata say of them. */
void sqlite_timeline_tracks(struct sqlout *o, const struct trace *tr);

/* diagnosis.c: the diagnosis's tables, when there is one (o->dx, settled by then). */
void sqlite_diagnosis(struct sqlout *o);

/* facts.c */
void sqlite_facts_begin(struct sqlout *o, const struct trace *tr);
void sqlite_facts_event(struct sqlout *o, const struct event *ev);
void sqlite_facts_end(struct sqlout *o, const struct trace *tr);

/* sqlite.c: after the scene's end (rc: its result): processes, threads, clock offsets and
 * strings, the other analysis processes' parts under --parallel (merge.c), then what the
 * database covers (meta), the links, indexes and views (schema.c), the latter by the first
 * analysis process only.  -1 when the database cannot be whole. */
int sqlite_finish(struct sqlout *o, const struct trace *tr, int rc);

/* schema.c: after the rows: the links found by SQL (each device operation's launching call,
 * the slices each arrow joins); under --parallel, each analysis process's on its part. */
int sqlite_schema_links(struct sqlout *o);
/* Then the indexes and views, after the links (flows_since < 0) or, in the parts' merged
 * database, the links of the arrows whose ids are above flows_since only. */
int sqlite_schema_finish(struct sqlout *o, int64_t flows_since);

#endif

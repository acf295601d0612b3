/* output.h — what every output back end sees: events in (roughly) time order, after ranges
 * are paired and the window is applied.  Chrome JSON and the summary are peers behind these
 * ops; each gets begin, every event, and end (where it writes its per-process metadata). */
#ifndef TPROF_ANALYZE_OUTPUT_H
#define TPROF_ANALYZE_OUTPUT_H

#include <stdio.h>

#include "trace.h"

enum ev_kind {
	EV_RANGE = 1,    /* a closed range: t0..t1, depth */
	EV_MARK,         /* an instant at t0 */
	EV_COUNTER,      /* value from t0 on */
	EV_STEP,         /* training step `step`: t0..t1 (process-wide) */
	EV_CALL,         /* an API call on a host thread: t0..t1, struct call_info */
	EV_DEVICE,       /* work a device ran: t0..t1, struct device_info */
	EV_ASYNC,        /* a range that may cross threads (roctxRangeStart/Stop): t0..t1, id */
};

/* What an API call recorded (EV_CALL). */
struct call_info {
	uint8_t domain;                  /* enum tprof_domain */
	uint64_t corr;
	int ret;
	int has_args;
	struct tprof_call_args args;
	int has_dims;
	struct tprof_launch_dims dims;
	const uint32_t *stack;           /* frame name ids, innermost first (TPROF_CALLSTACK) */
	uint32_t nstack;
};

/* What a device ran (EV_DEVICE). */
struct device_info {
	uint8_t kind;                    /* enum tprof_devop_kind */
	uint64_t corr;
	struct tprof_devop op;
	struct thread *launcher;         /* the thread that launched it, when known */
	int64_t launch_ns;               /* its launch, from the trace start */
};

#define EVF_UNFINISHED 0x1  /* never closed: ends where its process's data ends */
#define EVF_CLIPPED 0x2     /* cut to the window */

struct event {
	enum ev_kind kind;
	unsigned flags;
	struct proc *proc;
	struct thread *thread;   /* NULL for process-wide events (steps) */
	uint32_t name;           /* trace-wide string id */
	int64_t t0, t1;          /* ns from the trace start */
	uint32_t depth;
	double value;
	uint64_t step;                   /* EV_STEP; EV_ASYNC: the range id */
	uint8_t source;                  /* ranges and marks: enum tprof_source */
	const struct call_info *call;    /* EV_CALL */
	const struct device_info *dev;   /* EV_DEVICE */
};

struct output_ops {
	const char *name;
	int (*begin)(void *priv, const struct trace *tr);
	void (*event)(void *priv, const struct event *ev);
	/* Finishes the output and frees priv; called once after begin, even a failed one. */
	int (*end)(void *priv, const struct trace *tr);
};

struct output {
	const struct output_ops *ops;
	void *priv;
};

/* The window every output is restricted to, in ns from the trace start. */
struct window {
	int64_t start, end;
	int active;
	char desc[128];
};

struct pipeline {
	struct trace *tr;
	struct output *outs;
	int nouts;
	struct window win;
};

void pipeline_record(struct pipeline *pl, struct stream *s, const struct tprof_rec *r, int64_t ns);
void pipeline_finish(struct pipeline *pl);
int merge_run(struct trace *tr, struct pipeline *pl);

/* window.c */
int window_parse_time(const char *s, int64_t *ns);
int window_from_steps(struct trace *tr, const char *spec, struct window *w);

/* back ends */
struct output output_chrome(const char *path, int by_domain);
struct output output_summary(FILE *f, const char *dir, int top);
void summary_set_window(const struct window *w);

#endif

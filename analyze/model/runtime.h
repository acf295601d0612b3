/* runtime.h — what a runtime adds to the analysis (struct runtime): how its calls are
 * decoded and followed across ranks in the pipeline, what it draws in the scene, its summary
 * tables and its domain facts.  The model
 * defines the interface; runtimes/<name>/ implement it and runtimes/registry.c lists them;
 * main.c hands the list to the pipeline and the scene (struct runtime_set). */
#ifndef TPROF_ANALYZE_RUNTIME_H
#define TPROF_ANALYZE_RUNTIME_H

#include "scene.h"

#define RT_KIND(k) (1u << (k))   /* a bit of struct runtime's `events` per enum ev_kind */
#define RT_SCRATCH 512           /* bytes a runtime may decode a call into (pipe_call) */

struct sumw;
struct facts_sink;
struct pack;
struct unpack;
struct sum_procs;
struct wait_sink;
struct transfer_sink;
struct hang_sink;

/* What the summary's numbers cover: ns from the trace start, lo..hi (covered = hi - lo); and
 * what it says of each process (summary/procs.h: every process's, in the parallel analyzer
 * too, where tr holds only this analysis process's share). */
struct sum_span {
	const struct trace *tr;
	int64_t lo, hi, covered;
	const struct sum_procs *procs;
};

/* Where a runtime's summary tables go. */
enum sum_at {
	SUM_NONE = 0,
	SUM_AFTER_STEPS,     /* after the ranges and steps (device work, NeuronCores) */
	SUM_AT_DOMAIN,       /* in place of its domain's API-call table */
};

struct runtime {
	const char *name;
	int domain;                      /* the enum tprof_domain of its API calls, or -1 */
	const char *category;            /* its calls' category in the scene ("mpi"), or NULL */

	/* ---- the pipeline (model/pipeline.c) ---- */
	/* One of its API calls, before it goes to the outputs: decodes the call's `next`
	 * extension units into `scratch` (RT_SCRATCH bytes) and points the event at them
	 * (ci->info), and takes note of it.  Without it, the units are read as the
	 * generic argument shapes of common/events.h. */
	void (*pipe_call)(struct pipeline *pl, struct event *ev, struct call_info *ci,
			  const uint8_t *ext, unsigned next, void *scratch);
	/* After the call went to the outputs (ev as read, before the window clipped it). */
	void (*pipe_called)(struct pipeline *pl, const struct event *ev);
	/* Records of a kind only it knows (TPROF_K_MPIREQ): `records` has bit 1 << kind. */
	uint64_t records;
	void (*pipe_record)(struct pipeline *pl, struct thread *t, const struct tprof_rec *r,
			    int64_t ns);
	/* Every device span, in order on its stream, after it went to the outputs. */
	void (*pipe_device)(struct pipeline *pl, const struct event *ev);
	/* At the end: emits what it still holds, frees its state. */
	void (*pipe_finish)(struct pipeline *pl);

	/* ---- the scene (model/scene.c) ---- */
	/* The arguments of one of its API calls (ev->kind EV_CALL, ev->call->domain == domain),
	 * after the generic ones (correlation, return value). */
	void (*call_args)(struct scene_args *a, const struct event *ev);
	/* The event kinds (RT_KIND bits) for which scene_event is called, before the scene draws
	 * the event itself: it returns 1 when it drew the event (or holds it to draw later), and
	 * the scene draws nothing more of it.  EV_BEGIN comes only to a renderer that hears the
	 * announcements: the runtime then gives the SI_BEGIN of a range it draws itself. */
	uint32_t events;
	int (*scene_event)(struct scene *s, const struct event *ev, unsigned self);
	/* After the last event: draws what it still holds and frees its scene state. */
	void (*scene_end)(struct scene *s, unsigned self);
	/* What one of its events did in message passing (struct msgpass, output.h): one of its
	 * calls, or an EV_MPIREQ it emitted.  1 with *mp filled, or 0 when it passed none. */
	int (*msgpass)(const struct event *ev, struct msgpass *mp);

	/* ---- the summary (summary/summary.c) ---- */
	void *(*sum_new)(void);
	/* The event kinds (RT_KIND bits) sum_event is handed; EV_CALL only of its domain. */
	uint32_t sum_events;
	int sum_own_calls;               /* its domain's calls are not in the generic table */
	void (*sum_event)(void *priv, const struct event *ev);
	int sum_at;                      /* enum sum_at */
	/* Writes its tables (text or JSON through w) and frees priv. */
	void (*sum_end)(void *priv, struct sumw *w, const struct sum_span *span, int top);
	/* The parallel analyzer (summary/summary.c): each analysis process packs what its part
	 * counted (util/pack.h), and the first adds each other's pack into its own part
	 * (sum_merge, in the order of the analysis processes) before sum_end writes the tables,
	 * which must then be those of the serial analyzer.  A runtime without them cannot be
	 * summarized in parallel: --parallel refuses a profile with events of its. */
	void (*sum_pack)(void *priv, const struct sum_span *span, struct pack *b);
	void (*sum_merge)(void *priv, const struct sum_span *span, struct unpack *u);

	/* ---- the domain facts (model/facts.c) ---- */
	/* The event kinds (RT_KIND bits; EV_CALL: of its domain) it has domain facts about, and
	 * what they are as the model's neutral rows (model/facts.h), for tabular outputs. */
	uint32_t fact_events;
	void (*facts)(const struct event *ev, const struct facts_sink *s);

	/* ---- the diagnosis (diagnose/) ---- */
	int communication;               /* its calls talk to other processes (MPI, NCCL): a
					  * device idle meanwhile is not the host launching */
	/* The event kinds (RT_KIND bits) it knows wait states of, and what they are in the
	 * model's neutral terms (model/waits.h): who waited, and who made them wait. */
	uint32_t wait_events;
	void (*waits)(const struct event *ev, const struct wait_sink *s);

	/* ---- the report (render/html/) ---- */
	/* The event kinds (RT_KIND bits) that moved data from one rank to another, and what
	 * they moved, in the model's neutral terms (model/transfers.h). */
	uint32_t transfer_events;
	void (*transfers)(const struct event *ev, const struct transfer_sink *s);

	/* ---- the hang analysis (hang/) ---- */
	/* The event kinds (RT_KIND bits; EV_CALL: of its domain) it can say of what was in
	 * progress (model/hangs.h): its collectives, and its calls that never returned
	 * (EVF_UNFINISHED).  What it holds when the data ends goes to the pipeline's `hangs`
	 * sink from its pipe_finish. */
	uint32_t hang_events;
	void (*hangs)(const struct event *ev, const struct hang_sink *s);
};

/* The runtimes of one analysis, indexed by what they read. */
struct runtime_set {
	const struct runtime *const *all;
	unsigned n;
	const struct runtime *by_domain[256];
	const struct runtime *by_record[64];
};

void runtime_set_init(struct runtime_set *s, const struct runtime *const *all, unsigned n);

static inline const struct runtime *runtime_of_domain(const struct runtime_set *s, unsigned d)
{
	return d < 256 ? s->by_domain[d] : NULL;
}

static inline const struct runtime *runtime_of_record(const struct runtime_set *s, unsigned kind)
{
	return kind < 64 ? s->by_record[kind] : NULL;
}

/* Where runtime rt keeps its own state in pipeline pl (NULL until it makes it). */
static inline void **pipeline_state(struct pipeline *pl, const struct runtime *rt)
{
	unsigned i = 0;
	while (pl->rts->all[i] != rt)
		i++;
	return &pl->rt_state[i];
}

#endif

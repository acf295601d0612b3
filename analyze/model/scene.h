/* scene.h — the trace model every timeline renderer draws: tracks (model/tracks.h), slices
 * with typed arguments, instants, counters, cross-thread ranges and flow arrows.  The scene
 * (model/scene.c) turns the pipeline's events into these items, asking each runtime of the
 * registry (runtimes/registry.h) for what only it knows (its calls' arguments, the items it
 * draws itself); renderers (render/chrome, render/perfetto, ...) know no runtime.  Items come
 * roughly in time order, one at a time: nothing is kept but what a renderer keeps itself. */
#ifndef TPROF_ANALYZE_SCENE_H
#define TPROF_ANALYZE_SCENE_H

#include "args.h"
#include "output.h"
#include "tracks.h"

/* ---- items ------------------------------------------------------------------------------- */

enum scene_item_kind {
	SI_SLICE = 1,    /* t0..t1 on its track */
	SI_INSTANT,      /* at t0 */
	SI_COUNTER,      /* `value` from t0 on, on the process's counter track named `name` */
	SI_ASYNC,        /* t0..t1, may cross threads: `id` pairs its two ends (roctxRangeStart) */
	/* Announcements, only to renderers that ask (output_scene_announced): they draw nothing,
	 * but tell a renderer that writes each track in time order (OTF2) what is to come. */
	SI_BEGIN,        /* a range opened at t0 (name, cat, depth); its SI_SLICE comes at its end
			  * (none when the window leaves the range out) */
	SI_HELD,         /* a runtime took the device span t0..t1 of this track to draw later; its
			  * SI_SLICE (on this track, at these times) comes then */
	SI_MSGPASS,      /* at t0, inside the call open on this thread's track: `msgpass` (a
			  * request completed, or a persistent one started) */
	SI_SAMPLE,       /* a CPU sample at t0 on a thread's track: `stack`; name = its
			  * innermost frame's function */
};

/* The call stack of a CPU sample (SI_SAMPLE): function names as trace-wide string ids,
 * innermost first; the first nkernel are kernel frames, the rest user frames. */
struct scene_stack {
	const uint32_t *frames;
	uint32_t n, nkernel;
	uint32_t cpu;                    /* the CPU it ran on */
};

/* What each slice, instant, counter or async range is.  (scene.c's item_of sets every field
 * one by one: a field added here is added there.) */
struct scene_item {
	uint8_t kind;                    /* enum scene_item_kind */
	const char *cat;                 /* category: "hip", "mpi", "kernel", "range", "step"...
					  * a string constant: renderers may know it by address */
	uint32_t name;                   /* its name: a string id, or 0 and name_str */
	const char *name_str;
	const char *color;               /* a Chrome colour name ("terrible": failed), or NULL */
	struct track track;
	const struct proc *proc;         /* the process it belongs to */
	int64_t t0, t1;                  /* ns from the trace start */
	uint32_t depth;                  /* nesting on its thread, for ranges (0 otherwise) */
	double value;                    /* SI_COUNTER */
	uint64_t id;                     /* SI_ASYNC */
	const struct msgpass *msgpass;   /* API calls, SI_MSGPASS: what it did in message
					  * passing (output.h), or NULL */
	uint32_t ranges_open;            /* on a thread's track: the ranges open there when it
					  * happened (drawn or not; a range's: around it) */
	const struct scene_args *args;   /* NULL when none */
	const struct scene_stack *stack; /* SI_SAMPLE, else NULL */
	const struct event *ev;          /* the event it draws (renderers may not look into it
					  * beyond kind, flags, the times and an EV_STEP's step) */
};

/* A flow arrow from a point inside one slice to a point inside another. */
struct scene_flow {
	uint64_t id;                     /* unique within the trace */
	const char *key;                 /* a readable identity, unique too, or NULL: the
					  * launch's "process:correlation", "m<message>"...
					  * (Chrome's id) */
	const char *cat, *name;          /* "launch", "mpi"/"message", "nccl"/"collective"...:
					  * string constants, as an item's category */
	struct track from, to;
	int64_t from_ts, to_ts;          /* ns from the trace start; from_ts <= to_ts */
	int64_t to_t0, to_t1;            /* the slice it ends in, as drawn (to_ts lies in it;
					  * to_t0 = to_t1 = to_ts when none is drawn there): a
					  * renderer that splits the trace keeps them together */
	const struct scene_args *args;   /* NULL when none */
	int half;                        /* 0: the whole arrow; under --parallel, where another
					  * analysis process draws the other end, SF_FROM (only
					  * `from`, from_ts and args are set) or SF_TO (only `to`,
					  * to_ts, to_t0 and to_t1): the parts together hold it */
};

enum scene_flow_half { SF_FROM = 1, SF_TO = 2 };

/* A renderer of the scene: begin, every item and flow, end.  `tracks` names and orders the
 * tracks items are on (tracks_metadata, tracks_info). */
struct scene_ops {
	const char *name;
	int (*begin)(void *priv, const struct trace *tr, struct tracks *tracks);
	void (*item)(void *priv, const struct scene_item *it);
	void (*flow)(void *priv, const struct scene_flow *fl);   /* NULL: draws no arrows */
	/* Finishes and frees priv; called once after begin, even a failed one. */
	int (*end)(void *priv, const struct trace *tr, struct tracks *tracks);
	/* The bytes of the trace written so far, before any compression (what --split size:
	 * counts); NULL when the renderer cannot tell. */
	uint64_t (*size)(void *priv);
	/* A renderer of one part of a split trace, put aside (suspend: its file closed, what
	 * it buffers written and freed) and taken up again (resume) for what comes to that part
	 * later; NULL when it cannot be (scene items are then not taken late, render/split). */
	void (*suspend)(void *priv);
	void (*resume)(void *priv);
};

struct scene_renderer {
	const struct scene_ops *ops;
	void *priv;
};

/* The scene as an output of the pipeline: draws every event for `r` (its tracks grouped as
 * --group-by asks, enum tracks_group), with the help of the runtimes `rts` (runtime.h). */
struct runtime_set;
struct output output_scene(struct scene_renderer r, int group_by, const struct runtime_set *rts);
/* The same for a renderer that writes each track in time order (OTF2): it also hears the
 * announcements (SI_BEGIN, SI_HELD, SI_MSGPASS); the pipeline's want_begins must be set. */
struct output output_scene_announced(struct scene_renderer r, int group_by,
				     const struct runtime_set *rts);

/* ---- for the runtimes (runtimes/registry.h): drawing what only they know ---------------- */

struct scene;
struct tracks *scene_tracks(struct scene *s);
void scene_item(struct scene *s, const struct scene_item *it);
/* A flow with a fresh id, ending at to_ts inside the slice [to_t0, to_t1] drawn on `to`. */
void scene_flow(struct scene *s, const char *key, const char *cat, const char *name,
		struct track from, int64_t from_ts, struct track to, int64_t to_ts, int64_t to_t0,
		int64_t to_t1, const struct scene_args *args);
/* One end of an arrow between processes: a thread's call track, or a device stream's track
 * (the process's own, as tracks_device draws it). */
struct flow_end {
	const struct proc *proc;
	const struct thread *thread;     /* NULL: the stream's track */
	uint32_t device;
	uint64_t stream;
};
static inline struct flow_end flow_end_thread(const struct thread *th)
{
	return (struct flow_end){ .proc = th->proc, .thread = th };
}
static inline struct flow_end flow_end_stream(const struct proc *p, uint32_t device, uint64_t stream)
{
	return (struct flow_end){ .proc = p, .device = device, .stream = stream };
}
/* A flow between two ends, as scene_flow.  Under --parallel an end in a process another
 * analysis process reads is drawn by that one (its half, model/scene-halves.h): one analysis
 * process decides each such arrow. */
void scene_flow_between(struct scene *s, const char *key, const char *cat, const char *name,
			struct flow_end from, int64_t from_ts, struct flow_end to, int64_t to_ts,
			int64_t to_t0, int64_t to_t1, const struct scene_args *args);
/* The launch arrow from the call on `from` that entered at `launch` to the device span
 * [t0, t1] it started on `to`: inside both, never ending before it starts.  Its key is the
 * process index and correlation, with ".k" for the k-th span of one launch (k > 0). */
void scene_launch_flow(struct scene *s, const struct proc *p, uint64_t corr, unsigned k,
		       struct track from, struct track to, int64_t launch, int64_t t0, int64_t t1);
/* A time at which a flow end binds to the slice [t0, t1]: t, kept off the slice's edges when
 * the slice is long enough to have an inside. */
int64_t scene_flow_ts(int64_t t, int64_t t0, int64_t t1);
/* Per-runtime state in the scene, made on first use, freed by the runtime's scene_end. */
void **scene_runtime_state(struct scene *s, unsigned runtime_index);
/* Draws an event as the scene does when no runtime claims it (a runtime that draws more
 * than the generic items, NeuronCore spans after an NRT call, say, calls these first). */
void scene_draw_event(struct scene *s, const struct event *ev);
void scene_draw_call(struct scene *s, const struct event *ev);

#endif

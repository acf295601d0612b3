/* registry.h — the runtimes the analyzer knows (runtimes/registry.c): what each adds to the
 * scene (its calls' arguments, the items only it can draw).  Adding a runtime is a folder
 * under runtimes/ and one line in registry.c; no renderer changes. */
#ifndef TPROF_ANALYZE_REGISTRY_H
#define TPROF_ANALYZE_REGISTRY_H

#include "../model/facts.h"
#include "../model/scene.h"

#define RT_MAX 16
#define RT_KIND(k) (1u << (k))   /* a bit of struct runtime's `events` per enum ev_kind */
#define RT_SCRATCH 512           /* bytes a runtime may decode a call into (pipe_call) */

struct runtime {
	const char *name;
	int domain;                      /* the enum tprof_domain of its API calls, or -1 */

	/* ---- the pipeline (model/pipeline.c) ---- */
	/* One of its API calls, before it goes to the outputs: decodes the call's `next`
	 * extension units into `scratch` (RT_SCRATCH bytes) and points the event at them
	 * (ev->mpi, ci->nrt...), and takes note of it.  Without it, the units are read as the
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
	 * the scene draws nothing more of it. */
	uint32_t events;
	int (*scene_event)(struct scene *s, const struct event *ev, unsigned self);
	/* After the last event: draws what it still holds and frees its scene state. */
	void (*scene_end)(struct scene *s, unsigned self);

	/* ---- the domain facts (model/facts.c) ---- */
	/* The event kinds (RT_KIND bits; EV_CALL: of its domain) it has domain facts about, and
	 * what they are as the model's neutral rows (model/facts.h), for tabular outputs. */
	uint32_t fact_events;
	void (*facts)(const struct event *ev, const struct facts_sink *s);
};

/* Every runtime, in order; n is set to their number. */
const struct runtime *const *runtimes_all(unsigned *n);
/* Adds a runtime after those of registry.c (tests, extensions); 0, or -1 when full.  Before
 * any analysis starts. */
int runtimes_add(const struct runtime *rt);
/* The runtime whose API calls have this domain, or NULL. */
const struct runtime *runtime_of_domain(unsigned domain);
/* The runtime that reads records of this kind, or NULL. */
const struct runtime *runtime_of_record(unsigned kind);

#endif

/* registry.h — the runtimes the analyzer knows (runtimes/registry.c): what each adds to the
 * scene (its calls' arguments, the items only it can draw).  Adding a runtime is a folder
 * under runtimes/ and one line in registry.c; no renderer changes. */
#ifndef TPROF_ANALYZE_REGISTRY_H
#define TPROF_ANALYZE_REGISTRY_H

#include "../model/scene.h"

#define RT_MAX 16
#define RT_KIND(k) (1u << (k))   /* a bit of struct runtime's `events` per enum ev_kind */

struct runtime {
	const char *name;
	int domain;                      /* the enum tprof_domain of its API calls, or -1 */
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
};

/* Every runtime, in order; n is set to their number. */
const struct runtime *const *runtimes_all(unsigned *n);
/* Adds a runtime after those of registry.c (tests, extensions); 0, or -1 when full. */
int runtimes_add(const struct runtime *rt);

#endif

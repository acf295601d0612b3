/* render/callsites.h — the call stacks of CPU samples (SI_SAMPLE) as a tree of callsites, for
 * the renderers that name each stack once and refer to it by number (Perfetto's callstacks,
 * OTF2's calling contexts, SQLite's callsites table): a callsite is a frame with the callsite
 * it was called from, numbered from 1 in order of first use, so a parent's number is always
 * below its children's (callsites.c). */
#ifndef TPROF_ANALYZE_RENDER_CALLSITES_H
#define TPROF_ANALYZE_RENDER_CALLSITES_H

#include <stddef.h>
#include <stdint.h>

#include "../model/scene.h"
#include "../util/hindex.h"

struct callsite {
	uint32_t parent;                 /* 0: an outermost frame */
	uint32_t name;                   /* the function: a trace string id */
	uint32_t depth;                  /* 0 for an outermost frame */
	uint32_t kernel;                 /* 1: a kernel frame */
};

struct callsites {
	struct callsite *v;              /* by number - 1 */
	size_t n, cap;
	struct hindex tree;              /* the numbers, by (parent, name, kernel) */
	struct hindex stacks;            /* whole stacks seen: their innermost callsite, by the
					  * hash of their frames */
};

/* The number of the stack's innermost callsite, its callers' made on the way when new (0
 * for an empty stack).  A stack seen before costs a hash of its frames and one look. */
uint32_t callsites_intern(struct callsites *c, const struct scene_stack *st);
/* The number of the callsite (parent, function, kernel), made when new (parent 0: an
 * outermost frame). */
uint32_t callsites_node(struct callsites *c, uint32_t parent, uint32_t name, uint32_t kernel);

static inline const struct callsite *callsites_at(const struct callsites *c, uint32_t id)
{
	return &c->v[id - 1];
}

void callsites_free(struct callsites *c);

#endif

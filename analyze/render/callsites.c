/* render/callsites.c — the callsite tree of the samples' stacks: each callsite found by
 * (parent, function, kernel) in one hash index, and each whole stack by a hash of its frames
 * in another, checked against the tree, so that a stack seen again (most are) costs no walk
 * down the tree. */
#include <stdlib.h>

#include "../util/grow.h"
#include "callsites.h"

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xbf58476d1ce4e5b9ull;
}

static uint64_t node_hash(uint32_t parent, uint32_t name, uint32_t kernel)
{
	uint64_t h = mix(mix(0x6a09e667f3bcc909ull, parent), (uint64_t)name << 1 | kernel);
	return h ^ (h >> 31);
}

static uint64_t stack_hash(const struct scene_stack *st)
{
	uint64_t h = mix(0x243f6a8885a308d3ull, (uint64_t)st->n << 32 | st->nkernel);
	for (uint32_t i = 0; i < st->n; i++)
		h = mix(h, st->frames[i]);
	return h ^ (h >> 31);
}

uint32_t callsites_node(struct callsites *c, uint32_t parent, uint32_t name, uint32_t kernel)
{
	uint64_t h = node_hash(parent, name, kernel);
	size_t at;
	for (uint32_t id = hindex_first(&c->tree, h, &at); id; id = hindex_next(&c->tree, h, &at)) {
		const struct callsite *s = callsites_at(c, id);
		if (s->parent == parent && s->name == name && s->kernel == kernel)
			return id;
	}
	c->v = util_grow(c->v, &c->cap, c->n, sizeof(*c->v), 256);
	uint32_t depth = parent ? callsites_at(c, parent)->depth + 1 : 0;
	c->v[c->n++] = (struct callsite){ parent, name, depth, kernel };
	hindex_add(&c->tree, h, (uint32_t)c->n);
	return (uint32_t)c->n;
}

/* Whether the callsite `leaf` is the stack st, frame by frame from the innermost. */
static int same(const struct callsites *c, uint32_t leaf, const struct scene_stack *st)
{
	if (callsites_at(c, leaf)->depth + 1 != st->n)
		return 0;
	for (uint32_t i = 0; i < st->n; i++) {
		const struct callsite *s = callsites_at(c, leaf);
		if (s->name != st->frames[i] || s->kernel != (i < st->nkernel))
			return 0;
		leaf = s->parent;
	}
	return 1;
}

uint32_t callsites_intern(struct callsites *c, const struct scene_stack *st)
{
	if (!st || !st->n)
		return 0;
	uint64_t h = stack_hash(st);
	size_t at;
	for (uint32_t leaf = hindex_first(&c->stacks, h, &at); leaf;
	     leaf = hindex_next(&c->stacks, h, &at))
		if (same(c, leaf, st))
			return leaf;
	uint32_t id = 0;
	for (uint32_t i = st->n; i-- > 0;)
		id = callsites_node(c, id, st->frames[i], i < st->nkernel);
	hindex_add(&c->stacks, h, id);
	return id;
}

void callsites_free(struct callsites *c)
{
	free(c->v);
	hindex_free(&c->tree);
	hindex_free(&c->stacks);
	*c = (struct callsites){ 0 };
}

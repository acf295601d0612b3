/* render/callsites.c — the callsite tree of the samples' stacks: each callsite found by
 * (parent, function, kernel) in one hash table, and each whole stack by a hash of its frames
 * in another, checked against the tree, so that a stack seen again (most are) costs no walk
 * down the tree.  Both tables are open addressing, linear probing, at most half full. */
#include <stdlib.h>

#include "../../common/xalloc.h"
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
	return (h ^ (h >> 31)) | 1;  /* never 0: 0 marks a free slot */
}

static void tree_put(struct callsites *c, uint32_t id)
{
	const struct callsite *s = callsites_at(c, id);
	size_t j = node_hash(s->parent, s->name, s->kernel) & (c->captree - 1);
	while (c->tree[j])
		j = (j + 1) & (c->captree - 1);
	c->tree[j] = id;
}

/* The callsite (parent, name, kernel), new when there was none. */
static uint32_t node(struct callsites *c, uint32_t parent, uint32_t name, uint32_t kernel)
{
	if ((c->n + 1) * 2 > c->captree) {
		free(c->tree);
		c->captree = c->captree ? c->captree * 2 : 256;
		c->tree = xcalloc(c->captree, sizeof(*c->tree));
		for (size_t i = 1; i <= c->n; i++)
			tree_put(c, (uint32_t)i);
	}
	size_t j = node_hash(parent, name, kernel) & (c->captree - 1);
	for (; c->tree[j]; j = (j + 1) & (c->captree - 1)) {
		const struct callsite *s = callsites_at(c, c->tree[j]);
		if (s->parent == parent && s->name == name && s->kernel == kernel)
			return c->tree[j];
	}
	c->v = util_grow(c->v, &c->cap, c->n, sizeof(*c->v), 256);
	uint32_t depth = parent ? callsites_at(c, parent)->depth + 1 : 0;
	c->v[c->n++] = (struct callsite){ parent, name, depth, kernel };
	c->tree[j] = (uint32_t)c->n;
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

/* The slot of st, or the free one it would take (any free one for its hash when NULL). */
static struct cs_stack *stack_slot(struct callsites *c, uint64_t h, const struct scene_stack *st)
{
	size_t j = h & (c->capstacks - 1);
	for (; c->stacks[j].hash; j = (j + 1) & (c->capstacks - 1))
		if (st && c->stacks[j].hash == h && same(c, c->stacks[j].leaf, st))
			break;
	return &c->stacks[j];
}

static void stacks_grow(struct callsites *c)
{
	struct cs_stack *old = c->stacks;
	size_t n = c->capstacks;
	c->capstacks = n ? n * 2 : 256;
	c->stacks = xcalloc(c->capstacks, sizeof(*c->stacks));
	for (size_t i = 0; i < n; i++)
		if (old[i].hash)
			*stack_slot(c, old[i].hash, NULL) = old[i];
	free(old);
}

uint32_t callsites_intern(struct callsites *c, const struct scene_stack *st)
{
	if (!st || !st->n)
		return 0;
	if ((c->nstacks + 1) * 2 > c->capstacks)
		stacks_grow(c);
	uint64_t h = stack_hash(st);
	struct cs_stack *s = stack_slot(c, h, st);
	if (s->hash)
		return s->leaf;
	uint32_t id = 0;
	for (uint32_t i = st->n; i-- > 0;)
		id = node(c, id, st->frames[i], i < st->nkernel);
	*s = (struct cs_stack){ h, id };
	c->nstacks++;
	return id;
}

void callsites_free(struct callsites *c)
{
	free(c->v);
	free(c->tree);
	free(c->stacks);
	*c = (struct callsites){ 0 };
}

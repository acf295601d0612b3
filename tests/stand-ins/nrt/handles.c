/* handles.c — the registry of live objects (models, tensors, tensor sets): an open-addressing
 * set of pointers with their kind, under sn_lock.  A handle is looked up here before it is
 * ever dereferenced, so a freed, unloaded or made-up one is an error status, as in the real
 * runtime, and not a crash of the stand-in. */
#include "internal.h"

#include <stdlib.h>

struct slot {
	const void *p;          /* NULL: empty; GONE: removed */
	int kind;
};

#define GONE ((const void *)1)

static struct slot *table;
static size_t cap, used;    /* used counts live and removed slots */

static size_t hash(const void *p)
{
	return (size_t)(((uintptr_t)p * 0x9e3779b97f4a7c15ull) >> 17);
}

static int rebuild(size_t ncap)
{
	struct slot *nt = calloc(ncap, sizeof(*nt));
	if (!nt)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < cap; i++) {
		if (!table[i].p || table[i].p == GONE)
			continue;
		size_t j = hash(table[i].p) & (ncap - 1);
		while (nt[j].p)
			j = (j + 1) & (ncap - 1);
		nt[j] = table[i];
		n++;
	}
	free(table);
	table = nt;
	cap = ncap;
	used = n;
	return 0;
}

int sn_handle_add(const void *p, int kind)
{
	if ((used + 1) * 2 > cap && rebuild(cap ? cap * 2 : 256) < 0)
		return -1;
	size_t j = hash(p) & (cap - 1);
	while (table[j].p && table[j].p != GONE && table[j].p != p)
		j = (j + 1) & (cap - 1);
	if (!table[j].p)
		used++;
	table[j].p = p;
	table[j].kind = kind;
	return 0;
}

static struct slot *find(const void *p)
{
	if (!cap || !p || p == GONE)
		return NULL;
	for (size_t j = hash(p) & (cap - 1), n = 0; table[j].p && n < cap; j = (j + 1) & (cap - 1), n++)
		if (table[j].p == p)
			return &table[j];
	return NULL;
}

int sn_handle_is(const void *p, int kind)
{
	struct slot *s = find(p);
	return s && s->kind == kind;
}

void sn_handle_del(const void *p)
{
	struct slot *s = find(p);
	if (s)
		s->p = GONE;
}

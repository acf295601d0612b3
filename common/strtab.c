/* strtab.c — the recorder's string table (strtab.h): a new string's copy and slot, found
 * after the table grows when it would be more than half full. */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

static int grow(struct tprof_strtab *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 256;
	struct tprof_strent *ns = calloc(ncap, sizeof(*ns));
	if (!ns)
		return -1;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slots[i].str)
			continue;
		size_t j = t->slots[i].hash & (ncap - 1);
		while (ns[j].str)
			j = (j + 1) & (ncap - 1);
		ns[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = ns;
	t->cap = ncap;
	return 0;
}

uint32_t tprof_strtab_add(struct tprof_strtab *t, const char *s, size_t len, uint64_t h,
			  const char **stored)
{
	if ((t->count + 1) * 2 > t->cap && grow(t) < 0)
		return 0;
	size_t j = h & (t->cap - 1);
	while (t->slots[j].str)
		j = (j + 1) & (t->cap - 1);
	char *copy = malloc(len + 1);
	if (!copy)
		return 0;
	memcpy(copy, s, len);
	copy[len] = '\0';
	t->slots[j] = (struct tprof_strent){ h, copy, len, (uint32_t)++t->count };
	if (stored)
		*stored = copy;
	return t->slots[j].id;
}

void tprof_strtab_free(struct tprof_strtab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].str);
	free(t->slots);
	t->slots = NULL;
	t->cap = t->count = 0;
}

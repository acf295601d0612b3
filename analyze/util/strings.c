/* strings.c — the trace-wide string table: every process numbers its strings itself; the
 * analyzer maps each onto one id here, so outputs and tables can key on plain integers. */
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"
#include "../../common/xalloc.h"
#include "strings.h"

struct sentry {
	char *s;
	uint32_t len;
	uint64_t hash;
};

static struct sentry *ents;     /* by id; ents[0] is the empty string */
static uint32_t nents, capents;
static uint32_t *slots;         /* open-addressing hash of ids */
static size_t nslots;

static void rehash(void)
{
	size_t n = nslots ? nslots * 2 : 4096;
	uint32_t *ns = xcalloc(n, sizeof(*ns));
	for (uint32_t id = 1; id < nents; id++) {
		size_t j = ents[id].hash & (n - 1);
		while (ns[j])
			j = (j + 1) & (n - 1);
		ns[j] = id;
	}
	free(slots);
	slots = ns;
	nslots = n;
}

uint32_t strings_add(const char *s, size_t len)
{
	if (!nents) {
		ents = xcalloc(1024, sizeof(*ents));
		capents = 1024;
		ents[0].s = xstrdup("");
		nents = 1;
	}
	if (len == 0)
		return 0;
	if ((size_t)(nents + 1) * 2 > nslots)
		rehash();
	uint64_t h = tprof_hash_table(s, len);
	size_t j = h & (nslots - 1);
	while (slots[j]) {
		struct sentry *e = &ents[slots[j]];
		if (e->hash == h && e->len == len && !memcmp(e->s, s, len))
			return slots[j];
		j = (j + 1) & (nslots - 1);
	}
	if (nents == capents) {
		ents = xreallocarray(ents, (size_t)capents * 2, sizeof(*ents));
		capents *= 2;
	}
	char *copy = xmalloc(len + 1);
	memcpy(copy, s, len);
	copy[len] = 0;
	ents[nents] = (struct sentry){ copy, (uint32_t)len, h };
	slots[j] = nents;
	return nents++;
}

const char *strings_get(uint32_t id)
{
	return id < nents ? ents[id].s : "";
}

size_t strings_len(uint32_t id)
{
	return id < nents ? ents[id].len : 0;
}

uint32_t strings_count(void)
{
	return nents;
}

void strings_free(void)
{
	for (uint32_t i = 0; i < nents; i++)
		free(ents[i].s);
	free(ents);
	free(slots);
	ents = NULL;
	slots = NULL;
	nents = capents = 0;
	nslots = 0;
}

/* render/perfetto/intern.h — the tables behind Perfetto's interning (intern.c): strings known
 * by their content (categories, argument names, counter names) numbered once for the whole
 * trace, and per sequence the set of numbers already defined on it, so that each name is
 * written once per sequence and then referred to by its number (iid). */
#ifndef TPROF_ANALYZE_PERFETTO_INTERN_H
#define TPROF_ANALYZE_PERFETTO_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "../../util/u64map.h"

/* Strings by content, numbered from 1 in order of first use. */
struct pf_strmap {
	struct pf_str {
		uint64_t hash;
		char *s;
		uint32_t len, id;
	} *v;                            /* open addressing, cap a power of two */
	uint32_t *order;                 /* id - 1 -> slot */
	size_t n, cap;
};

/* The number of s[0..len), numbered now when new (*fresh set to 1; may be NULL). */
uint32_t pf_strmap_id(struct pf_strmap *m, const char *s, size_t len, int *fresh);
const char *pf_strmap_str(const struct pf_strmap *m, uint32_t id, size_t *len);
void pf_strmap_free(struct pf_strmap *m);

/* A set of 64-bit keys. */
struct pf_idset {
	struct u64map m;                 /* key -> 0 */
};

/* Adds k; 1 when it was not there yet. */
int pf_idset_add(struct pf_idset *s, uint64_t k);
void pf_idset_free(struct pf_idset *s);

#endif

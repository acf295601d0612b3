/* render/perfetto/intern.h — the tables behind Perfetto's interning (intern.c): strings known
 * by their content (categories, argument names, counter names) are numbered once for the
 * whole trace in string sets (util/strings.h); per sequence, the set of numbers already
 * defined on it, so that each name is written once per sequence and then referred to by its
 * number (iid). */
#ifndef TPROF_ANALYZE_PERFETTO_INTERN_H
#define TPROF_ANALYZE_PERFETTO_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "../../util/strings.h"
#include "../../util/u64map.h"

/* A set of 64-bit keys. */
struct pf_idset {
	struct u64map m;                 /* key -> 0 */
};

/* Adds k; 1 when it was not there yet. */
int pf_idset_add(struct pf_idset *s, uint64_t k);
void pf_idset_free(struct pf_idset *s);

#endif

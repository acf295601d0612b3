/* registry.h — the runtimes the analyzer knows (runtimes/registry.c).  Adding a runtime is
 * a folder under runtimes/ that defines a struct runtime (model/runtime.h) and one line in
 * registry.c; no renderer changes. */
#ifndef TPROF_ANALYZE_REGISTRY_H
#define TPROF_ANALYZE_REGISTRY_H

#include "../model/runtime.h"

/* Every runtime, in order; n is set to their number. */
const struct runtime *const *runtimes_all(unsigned *n);
/* Adds a runtime after those of registry.c (tests, extensions); 0, or -1 when full.  Before
 * the analysis starts. */
int runtimes_add(const struct runtime *rt);

#endif

/* render/perfetto/samples.h — CPU samples as PerfSample packets (samples.c). */
#ifndef TPROF_ANALYZE_PERFETTO_SAMPLES_H
#define TPROF_ANALYZE_PERFETTO_SAMPLES_H

#include "writer.h"

/* A sample (SI_SAMPLE) on its thread's sequence, its callstack interned there. */
void pf_sample(struct perfetto_writer *w, const struct scene_item *it);

#endif

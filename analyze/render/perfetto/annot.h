/* render/perfetto/annot.h — the scene's arguments as debug annotations (annot.c). */
#ifndef TPROF_ANALYZE_PERFETTO_ANNOT_H
#define TPROF_ANALYZE_PERFETTO_ANNOT_H

#include "writer.h"

/* The scene's typed arguments as TrackEvent.debug_annotations of the open event. */
void pf_annotations(struct perfetto_writer *w, struct pf_seq *s, const struct scene_args *a);

#endif

/* render/perfetto/perfetto.h — the Perfetto native trace renderer of the scene (perfetto.c). */
#ifndef TPROF_ANALYZE_RENDER_PERFETTO_H
#define TPROF_ANALYZE_RENDER_PERFETTO_H

#include "../../model/scene.h"

/* Writes a Perfetto protobuf trace to path ("-": standard output). */
struct scene_renderer render_perfetto(const char *path);

/* What may be at the path of a Perfetto trace (util/outname.h): an earlier one tprof wrote. */
extern const struct out_format perfetto_format;

#endif

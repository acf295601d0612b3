/* render/otf2/otf2.h — the OTF2 renderer as main.c sees it: an archive of the scene written
 * as a directory (render/otf2/otf2.c). */
#ifndef TPROF_ANALYZE_OUT_OTF2_H
#define TPROF_ANALYZE_OUT_OTF2_H

#include "../../model/scene.h"

/* What may be at the directory of an archive (util/outname.h): an empty directory or an
 * earlier archive tprof wrote. */
extern const struct out_format otf2_format;
/* The archive dir/traces.otf2 (dir is created, or replaced once complete), of a scene
 * grouped by process and drawn
 * with its announcements (output_scene_announced); items are restricted to *w, which must
 * stay valid until the output ends. */
struct scene_renderer render_otf2(const char *dir, const struct window *w);

#endif

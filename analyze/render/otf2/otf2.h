/* render/otf2/otf2.h — the OTF2 renderer as main.c sees it: an archive of the scene written
 * into a new or empty directory (render/otf2/otf2.c). */
#ifndef TPROF_ANALYZE_OUT_OTF2_H
#define TPROF_ANALYZE_OUT_OTF2_H

#include "../../model/scene.h"

/* 0 when dir can take an archive (it does not exist, or is an empty directory); otherwise
 * says why on stderr and returns -1.  Creates nothing. */
int otf2_check_dir(const char *dir);
/* The archive dir/traces.otf2 (dir is created), of a scene grouped by process and drawn
 * with its announcements (output_scene_announced); items are restricted to *w, which must
 * stay valid until the output ends. */
struct scene_renderer render_otf2(const char *dir, const struct window *w);

#endif

/* render/chrome/chrome.h — the Chrome trace-event JSON renderer of the scene (chrome.c). */
#ifndef TPROF_ANALYZE_RENDER_CHROME_H
#define TPROF_ANALYZE_RENDER_CHROME_H

#include "../../model/scene.h"

/* Writes to path ("-": standard output; a name ending in .gz is gzip-compressed). */
struct scene_renderer render_chrome(const char *path);

/* What may be at the path of a Chrome trace (util/outname.h): an earlier one tprof wrote. */
extern const struct out_format chrome_format;

#endif

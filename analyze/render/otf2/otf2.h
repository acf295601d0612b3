/* render/otf2/otf2.h — the OTF2 back end as main.c sees it: an archive written into a new or empty
 * directory (render/otf2/otf2.c). */
#ifndef TPROF_ANALYZE_OUT_OTF2_H
#define TPROF_ANALYZE_OUT_OTF2_H

#include "../../model/output.h"

/* 0 when dir can take an archive (it does not exist, or is an empty directory); otherwise
 * says why on stderr and returns -1.  Creates nothing. */
int otf2_check_dir(const char *dir);
/* The archive dir/traces.otf2 (dir is created); events are restricted to *w, which must
 * stay valid until the output ends. */
struct output output_otf2(const char *dir, const struct window *w);

#endif

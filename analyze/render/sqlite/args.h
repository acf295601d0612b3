/* render/sqlite/args.h — a scene item's typed arguments as the JSON text of its args column
 * (args.c), written as the Chrome trace writes them, so that both show the same values. */
#ifndef TPROF_ANALYZE_SQLITE_ARGS_H
#define TPROF_ANALYZE_SQLITE_ARGS_H

#include "../../util/jsonw.h"
#include "../../model/scene.h"

/* The arguments as one JSON object in w (w->len bytes from w->buf; the caller resets len);
 * 0 when there are none.  *corr is set to the top-level "correlation" (an unsigned value)
 * when there is one, to -1 otherwise.  -1 when the text did not fit (w->err). */
int sqlite_args_json(struct json_writer *w, const struct scene_args *a, int64_t *corr);

#endif

/* render/args-json.h — a scene item's typed arguments (struct scene_args) as one JSON object,
 * for the renderers that write JSON text: the Chrome trace's "args" and SQLite's args column,
 * so that both show the same values. */
#ifndef TPROF_ANALYZE_RENDER_ARGS_JSON_H
#define TPROF_ANALYZE_RENDER_ARGS_JSON_H

#include "../model/scene.h"
#include "../util/jsonw.h"

/* Writes {"key":value,...} (nested objects and arrays as such): numbers as numbers, handles
 * as "0x..." strings, durations in microseconds with three decimals, names and strings
 * escaped.  `{}` when a is NULL or empty.  An object or array nested deeper than the
 * writer follows is written as null (the builders never nest that deep). */
void render_args_json(struct json_writer *w, const struct scene_args *a);

#endif

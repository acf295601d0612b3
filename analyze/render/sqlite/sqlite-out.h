/* render/sqlite/sqlite-out.h — the SQLite output as main.c sees it (render/sqlite/): one
 * database file with the schema of docs/sqlite-schema.md. */
#ifndef TPROF_ANALYZE_SQLITE_OUT_H
#define TPROF_ANALYZE_SQLITE_OUT_H

#include "../../model/output.h"

/* The version of the schema written (meta.schema_version); docs/sqlite-schema.md. */
#define SQLITE_SCHEMA_VERSION 1

/* What may be at the path of the database (util/outname.h): an earlier one tprof wrote. */
extern const struct out_format sqlite_format;
/* The database path, replaced only once complete; dir is the profile read (for meta); events
 * are restricted to *w, which must stay valid until the output ends; rts are the runtimes
 * (model/runtime.h) the scene and the domain facts ask; dx (NULL: none) a diagnosis whose
 * tables are written too, which an output before this one in the pipeline's list feeds
 * (diagnose/diagnosis.h's output_diagnosis). */
struct runtime_set;
struct diagnosis;
struct output output_sqlite(const char *path, const char *dir, const struct window *w,
			    const struct runtime_set *rts, struct diagnosis *dx);

#endif

/* render/html/html.h — the report as one HTML page (--format html): the summary's JSON
 * document (with the diagnosis) embedded in a page that draws it, its scripts and styles
 * inlined, so that the file opens anywhere, offline. */
#ifndef TPROF_ANALYZE_HTML_H
#define TPROF_ANALYZE_HTML_H

#include "../../model/output.h"
#include "../../util/outname.h"

extern const struct out_format html_format;

/* The overview strips' bytes, about, whatever the job's size (diagnosis_keep_overview). */
#define HTML_OVERVIEW_BYTES (1536u * 1024)

/* An output writing the page to path ("-": standard output) once the summary output made
 * by make_summary(f) — given the stream the page takes the document from — has ended, with
 * the view of dx (its overview kept: diagnose/overview.h) and the transfers the runtimes
 * rts say of their events.  Under --parallel only the first analysis process writes it. */
struct diagnosis;
struct runtime_set;
struct output output_html(const char *path, struct output (*make_summary)(FILE *f, void *ctx),
			  void *ctx, const struct diagnosis *dx, const struct runtime_set *rts);

#endif

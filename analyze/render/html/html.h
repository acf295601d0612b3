/* render/html/html.h — the report as one HTML page (--format html): the summary's JSON
 * document (with the diagnosis) embedded in a page that draws it, its scripts and styles
 * inlined, so that the file opens anywhere, offline. */
#ifndef TPROF_ANALYZE_HTML_H
#define TPROF_ANALYZE_HTML_H

#include "../../model/output.h"
#include "../../util/outname.h"

extern const struct out_format html_format;

/* An output writing the page to path ("-": standard output) once the summary output made
 * by make_summary(f) — given the stream the page takes the document from — has ended.
 * Under --parallel only the first analysis process writes it. */
struct output output_html(const char *path, struct output (*make_summary)(FILE *f, void *ctx),
			  void *ctx);

#endif

/* render/html/view.h — what the report draws beyond the summary's tables: the document of
 * #tprof-view (view.c), built from the diagnosis. */
#ifndef TPROF_ANALYZE_HTML_VIEW_H
#define TPROF_ANALYZE_HTML_VIEW_H

#include <stdio.h>

struct diagnosis;
struct matrix;

/* Writes the view's JSON to f (after diagnosis_settle): the diagnosis's overview and step
 * map, and the communication matrix. */
void html_view_write(FILE *f, const struct diagnosis *dx, struct matrix *m);

#endif

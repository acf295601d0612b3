/* render/html/page-doc.h — the summary document cut to what the report page draws
 * (page-doc.c). */
#ifndef TPROF_ANALYZE_HTML_PAGE_DOC_H
#define TPROF_ANALYZE_HTML_PAGE_DOC_H

#include <stddef.h>
#include <stdio.h>

/* Writes the page's document made from the summary's JSON (len bytes) to out; -1 when the
 * summary's cannot be read. */
int html_page_doc(FILE *out, const char *doc, size_t len);

#endif

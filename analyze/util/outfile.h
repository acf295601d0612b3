/* outfile.h — where an output goes: a file, standard output, or a gzip file compressed on a
 * helper thread while the caller goes on formatting (two buffers, handed back and forth). */
#ifndef TPROF_ANALYZE_OUTFILE_H
#define TPROF_ANALYZE_OUTFILE_H

#include <stddef.h>

struct outfile;

/* "-" is standard output; a name ending in .gz is gzip-compressed.  *buf receives the
 * first buffer to fill (cap bytes).  NULL on failure (errno set). */
struct outfile *outfile_open(const char *path, size_t cap, char **buf);
/* Hands over len bytes of buf; returns the buffer to fill next. */
char *outfile_swap(struct outfile *of, char *buf, size_t len);
/* Writes the last len bytes of buf, closes, frees; -1 if anything failed to be written. */
int outfile_close(struct outfile *of, char *buf, size_t len);

#endif

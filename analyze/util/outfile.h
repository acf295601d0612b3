/* outfile.h — where an output goes: a file, standard output, or a gzip file compressed on a
 * helper thread while the caller goes on formatting (two buffers, handed back and forth).  A
 * file is written whole or not at all (outname.h): under a temporary name until closed. */
#ifndef TPROF_ANALYZE_OUTFILE_H
#define TPROF_ANALYZE_OUTFILE_H

#include <stddef.h>

struct outfile;
struct out_format;

/* "-" is standard output; a name ending in .gz is gzip-compressed; fmt says what may be at
 * path already (outname.h).  *buf receives the first buffer to fill (cap bytes).  NULL on
 * failure (outname_error says why). */
struct outfile *outfile_open(const char *path, const struct out_format *fmt, size_t cap,
			     char **buf);
/* Hands over len bytes of buf; returns the buffer to fill next. */
char *outfile_swap(struct outfile *of, char *buf, size_t len);
/* Puts the file aside: writes the last len bytes of buf, frees it, and lets go of the file
 * and what writing it holds (the descriptor, buffers, compressor), keeping its place. */
void outfile_suspend(struct outfile *of, char *buf, size_t len);
/* Takes a file put aside up again where it was; returns the buffer to fill.  When it cannot
 * be, what is handed over is dropped and outfile_close fails. */
char *outfile_resume(struct outfile *of);
/* Writes the last len bytes of buf, closes, frees.  Kept (keep) and written: the file is put
 * in place (outname_end), 0.  Otherwise it is removed: -1, with errno the write's error (0
 * when the caller gave it up, or when the file could not be put in place). */
int outfile_close(struct outfile *of, char *buf, size_t len, int keep);

#endif

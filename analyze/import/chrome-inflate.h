/* chrome-inflate.h — a gzip stream (one member or several) inflated on a helper thread a few
 * blocks ahead of the reader, so that inflate runs beside the parsing instead of before it;
 * every byte made before damage is handed over before the damage is reported. */
#ifndef TPROF_ANALYZE_CHROME_INFLATE_H
#define TPROF_ANALYZE_CHROME_INFLATE_H

#include <stddef.h>
#include <sys/types.h>

struct chrome_inflate;

/* Starts inflating the file open at fd (read from its current offset; the caller closes it
 * after chrome_inflate_stop).  NULL on failure, with the reason in err. */
struct chrome_inflate *chrome_inflate_start(int fd, char *err, size_t errlen);
/* Up to n bytes: how many (> 0), 0 at the end, -1 on an error (chrome_inflate_error says it,
 * with the compressed offset). */
ssize_t chrome_inflate_read(struct chrome_inflate *z, void *to, size_t n);
const char *chrome_inflate_error(const struct chrome_inflate *z);
/* Stops the thread and frees everything. */
void chrome_inflate_stop(struct chrome_inflate *z);

#endif

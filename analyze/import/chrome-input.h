/* chrome-input.h — the bytes of a file for the scanner, inflated (chrome-inflate.h) when it
 * starts with the gzip magic, whatever its name. */
#ifndef TPROF_ANALYZE_CHROME_INPUT_H
#define TPROF_ANALYZE_CHROME_INPUT_H

#include <stddef.h>
#include <sys/types.h>

struct chrome_input;

/* NULL on failure, with the reason (no path) in err. */
struct chrome_input *chrome_input_open(const char *path, char *err, size_t errlen);
/* Up to n bytes: how many (> 0), 0 at the end, -1 on an error (chrome_input_error says it,
 * with the compressed offset for a gzip stream). */
ssize_t chrome_input_read(struct chrome_input *in, void *to, size_t n);
const char *chrome_input_error(const struct chrome_input *in);
void chrome_input_close(struct chrome_input *in);

#endif

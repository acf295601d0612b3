/* import/send.h — an imported file sent between the analysis processes of the parallel
 * analyzer (send.c): packed by the one that read it, unpacked by the one that reads its home
 * process. */
#ifndef TPROF_ANALYZE_IMPORT_SEND_H
#define TPROF_ANALYZE_IMPORT_SEND_H

#include <stdint.h>

#include "transcode.h"

struct pack;
struct unpack;

/* f (its description and its images' bytes, read from f->pack) as file `index` of the
 * import; -1 when its images cannot be read. */
int imp_send_pack(struct pack *b, uint64_t index, const struct imp_file *f);
/* One file packed so: *f made anew, its images written to a file of scratch (f->pack); -1
 * when the bytes end early or the file cannot be written. */
int imp_send_unpack(struct unpack *u, const char *scratch, uint64_t *index, struct imp_file *f);

#endif

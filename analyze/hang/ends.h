/* hang/ends.h — whether a point-to-point operation the job was in the middle of has its other
 * end among the others the runtimes said (a send on its way for a receive, a receive posted
 * for a send), found through a hash of (communicator, sender, receiver, tag) rather than by
 * search: a profile that holds many messages without their other end costs what it holds. */
#ifndef TPROF_ANALYZE_HANG_ENDS_H
#define TPROF_ANALYZE_HANG_ENDS_H

#include <stddef.h>

#include "../model/hangs.h"

struct hang_ends;

/* The operations p2p[0..n), looked up by their ends (p2p is kept, not copied). */
struct hang_ends *hang_ends_new(const struct hang_p2p *p2p, size_t n);
/* Whether x (one of them) has its other end among them: for a receive, a send to its process
 * from its peer (any, when it takes any) with its tag (any...); for a send, a receive. */
int hang_ends_paired(const struct hang_ends *e, const struct hang_p2p *x);
void hang_ends_free(struct hang_ends *e);

#endif

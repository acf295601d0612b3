/* render/perfetto/out.h — where a Perfetto trace goes (out.c): packets written as they are, or
 * bundled into one compressed_packets packet each (deflate, zlib format, as Perfetto's own
 * service writes them) by a helper thread, so that compression runs beside the encoding; in
 * either case in the order they were handed over. */
#ifndef TPROF_ANALYZE_PERFETTO_OUT_H
#define TPROF_ANALYZE_PERFETTO_OUT_H

#include "wire.h"

/* A bundle's raw packets are cut at about this size: a compressed bundle then stays well
 * under the 512 KiB Perfetto allows one. */
#define PF_BUNDLE (256u << 10)

struct pf_out;

/* "-" is standard output.  NULL on failure (errno set). */
struct pf_out *pf_out_open(const char *path);
/* The packets in b (each a Trace.packet field), written as they are; b is left empty. */
void pf_out_plain(struct pf_out *o, struct pb *b);
/* The packets in b written as one compressed bundle; b is left empty (its memory goes with
 * the bundle). */
void pf_out_bundle(struct pf_out *o, struct pb *b);
/* An empty buffer of at least cap bytes, one a written bundle left when there is one. */
struct pb pf_out_spare(struct pf_out *o, size_t cap);
/* Waits for the helper, closes, frees; -1 if anything failed to be written. */
int pf_out_close(struct pf_out *o);

#endif

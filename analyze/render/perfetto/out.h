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

struct out_format;

/* "-" is standard output; a file is written whole or not at all, as fmt says (util/outname.h).
 * NULL on failure (outname_error says why). */
struct pf_out *pf_out_open(const char *path, const struct out_format *fmt);
/* The packets in b (each a Trace.packet field), written as they are; b is left empty. */
void pf_out_plain(struct pf_out *o, struct proto_buf *b);
/* The packets in b written as one compressed bundle; b is left empty (its memory goes with
 * the bundle). */
void pf_out_bundle(struct pf_out *o, struct proto_buf *b);
/* An empty buffer of at least cap bytes, one a written bundle left when there is one. */
struct proto_buf pf_out_spare(struct pf_out *o, size_t cap);
/* Puts the file aside: what was handed over written, the helper and the file closed, its
 * buffers freed; and takes it up again where it was (when it cannot be, what is handed
 * over is dropped and pf_out_close fails). */
void pf_out_suspend(struct pf_out *o);
void pf_out_resume(struct pf_out *o);
/* Waits for the helper, closes, frees; the file is put in place when kept (keep) and
 * written, else removed: -1 (outname_error says why). */
int pf_out_close(struct pf_out *o, int keep);

#endif

/* codec.h — turns records (32-byte units) into a compact byte stream and back.
 * Per record: varint kind, ext byte, flags byte, varint name, zigzag varint of the t0 delta,
 * varint t1 (0, or zigzag(t1 - t0) + 1), varint arg, then the extension units verbatim.
 * Deflate runs on top of that; see chunk.h. */
#ifndef TPROF_CODEC_H
#define TPROF_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "format.h"

/* Largest encoding of one record unit and of one whole record. */
#define TPROF_CODEC_UNIT_MAX 40u
#define TPROF_CODEC_RECORD_MAX (TPROF_CODEC_UNIT_MAX + TPROF_MAX_EXT * TPROF_UNIT)

struct tprof_enc_info {
	uint32_t units;     /* units consumed */
	uint32_t records;   /* records encoded */
	uint64_t t_first;   /* t0 of the first record */
	uint64_t t_last;    /* largest t0 seen */
};

static inline size_t tprof_codec_bound(uint32_t units)
{
	return (size_t)units * TPROF_CODEC_UNIT_MAX + 16;
}

/* Encodes records from u[0..max_units) until a unit with kind 0 or the end.  A record whose
 * extension would run past max_units is not encoded.  Returns bytes written to out, which must
 * hold tprof_codec_bound(max_units). */
size_t tprof_encode(const struct tprof_rec *u, uint32_t max_units, uint8_t *out,
		    struct tprof_enc_info *info);

/* Incremental decoder state: the t0 base carries across calls within one chunk. */
struct tprof_decoder {
	uint64_t prev_t0;
};

/* Decodes one record from in[0..len) into out (which must hold 1 + TPROF_MAX_EXT units).
 * Returns bytes consumed, 0 when more input is needed for a whole record, or -1 when the
 * bytes are not a valid record. */
long tprof_decode_one(struct tprof_decoder *d, const uint8_t *in, size_t len,
		      struct tprof_rec *out);

#endif

/* codec.h — turns records (32-byte units) into a compact byte stream and back.
 * Per record: varint kind, ext byte, flags byte, varint name, zigzag varint of the t0 delta,
 * varint t1 (0, or zigzag(t1 - t0) + 1), varint arg, then the extension units.
 * Version 2 (written now): a record with one or two extension units (up to eight 8-byte
 * words) follows its fields with a byte whose bit i says that word i differs from the last
 * record of the same kind and ext in the chunk, and only those words follow; the first of a
 * kind in a chunk sends them all.  A launch loop's records repeat their extension whole, so a
 * 76-byte record becomes about 12 before compression, and the compressor has a sixth of the
 * bytes to go through.  Longer extensions, and every one in version 1 (files written before),
 * are the units verbatim.  Deflate runs on top of that; see chunk.h. */
#ifndef TPROF_CODEC_H
#define TPROF_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "format.h"

/* Largest encoding of one record unit and of one whole record (version 2's mask byte fits
 * in the room a record with an extension has over its words). */
#define TPROF_CODEC_UNIT_MAX 40u
#define TPROF_CODEC_RECORD_MAX (TPROF_CODEC_UNIT_MAX + TPROF_MAX_EXT * TPROF_UNIT)

/* Extensions of up to this many units are sent as differences from the last of their kind. */
#define TPROF_CODEC_DIFF_EXT 2u
#define TPROF_CODEC_DIFF_WORDS (TPROF_CODEC_DIFF_EXT * TPROF_UNIT / 8u)
#define TPROF_CODEC_SLOTS 8u    /* kinds remembered at once: kind % TPROF_CODEC_SLOTS */

/* The last extension seen of a kind (tag = kind << 8 | ext; 0: none yet). */
struct tprof_codec_slot {
	uint32_t tag;
	uint64_t w[TPROF_CODEC_DIFF_WORDS];
};

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

/* Encodes records from u[0..max_units) until a unit with kind 0 or the end, in version 2, as
 * one chunk (a decoder reads it from its start).  A record whose extension would run past
 * max_units is not encoded.  Returns bytes written to out, which must hold
 * tprof_codec_bound(max_units). */
size_t tprof_encode(const struct tprof_rec *u, uint32_t max_units, uint8_t *out,
		    struct tprof_enc_info *info);

/* Incremental decoder state: the t0 base and the extensions carry across calls within one
 * chunk; tprof_decoder_start sets it up at each chunk's start. */
struct tprof_decoder {
	uint64_t prev_t0;
	uint32_t version;       /* of the codec: 1 or 2 */
	struct tprof_codec_slot slot[TPROF_CODEC_SLOTS];
};

/* Readies d for the start of a chunk of the given encoding (TPROF_ENC_*). */
void tprof_decoder_start(struct tprof_decoder *d, uint32_t encoding);

/* Decodes one record from in[0..len) into out (which must hold 1 + TPROF_MAX_EXT units).
 * Returns bytes consumed, 0 when more input is needed for a whole record, or -1 when the
 * bytes are not a valid record. */
long tprof_decode_one(struct tprof_decoder *d, const uint8_t *in, size_t len,
		      struct tprof_rec *out);

#endif

/* varint.h — LEB128 varints and zigzag, shared by the record codec (codec.c) and the import's
 * runs on disk (analyze/import/item-code.c): inline, for loops that encode one per field. */
#ifndef TPROF_VARINT_H
#define TPROF_VARINT_H

#include <stdint.h>

static inline uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Reads a varint; returns the new position, or NULL when it runs past end or is too long. */
static inline const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		if (p == end)
			return NULL;
		uint8_t b = *p++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return p;
		}
	}
	return NULL;
}

/* The same where at least 10 bytes can be read at p: no check against the end on the way. */
static inline const uint8_t *get_varint10(const uint8_t *p, uint64_t *v)
{
	if (*p < 0x80) {
		*v = *p;
		return p + 1;
	}
	uint64_t x = *p & 0x7f;
	for (unsigned i = 1; i < 10; i++) {
		uint8_t b = p[i];
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = x;
			return p + i + 1;
		}
	}
	return NULL;
}

static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif

/* render/perfetto/wire.h — the protobuf wire format, written by hand into a growing buffer:
 * varints, fixed64 and double fields, bytes, and nested messages whose length is written
 * when they close (one byte reserved, the content moved on in the rare case it needs more).
 * Callers reserve room once per packet (pb_need) and then write without further checks. */
#ifndef TPROF_ANALYZE_PERFETTO_WIRE_H
#define TPROF_ANALYZE_PERFETTO_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2 };

/* The most bytes a key and a varint value take together. */
#define PB_MAX_FIELD 15

struct proto_buf {
	uint8_t *p;
	size_t len, cap;
};

void pb_grow(struct proto_buf *b, size_t more);
void pb_free(struct proto_buf *b);

/* Room for `more` bytes past len (out of memory, the program says so and exits). */
static inline void pb_need(struct proto_buf *b, size_t more)
{
	if (__builtin_expect(b->len + more > b->cap, 0))
		pb_grow(b, more);
}

static inline void pb_varint(struct proto_buf *b, uint64_t v)
{
	uint8_t *p = b->p + b->len;
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	b->len = (size_t)(p - b->p);
}

static inline size_t pb_varint_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* sint32/sint64 values: small negative numbers stay short. */
static inline uint64_t pb_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline void pb_key(struct proto_buf *b, uint32_t field, enum pb_wire w)
{
	pb_varint(b, (uint64_t)field << 3 | w);
}

/* uint32/uint64/bool/enum fields; int32/int64 as their two's complement (ten bytes when
 * negative, as protobuf encodes them). */
static inline void pb_uint(struct proto_buf *b, uint32_t field, uint64_t v)
{
	pb_key(b, field, PB_VARINT);
	pb_varint(b, v);
}

static inline void pb_fixed64(struct proto_buf *b, uint32_t field, uint64_t v)
{
	pb_key(b, field, PB_I64);
	uint8_t *p = b->p + b->len;
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	b->len += 8;
}

static inline void pb_double(struct proto_buf *b, uint32_t field, double d)
{
	uint64_t v;
	memcpy(&v, &d, sizeof(v));
	pb_fixed64(b, field, v);
}

/* string and bytes fields (reserves room itself). */
static inline void pb_bytes(struct proto_buf *b, uint32_t field, const void *s, size_t n)
{
	pb_need(b, n + PB_MAX_FIELD);
	pb_key(b, field, PB_LEN);
	pb_varint(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

/* A nested message: pb_open returns where its content starts, pb_close writes its length. */
static inline size_t pb_open(struct proto_buf *b, uint32_t field)
{
	pb_key(b, field, PB_LEN);
	b->p[b->len++] = 0;
	return b->len;
}

void pb_close_long(struct proto_buf *b, size_t start, size_t n);

static inline void pb_close(struct proto_buf *b, size_t start)
{
	size_t n = b->len - start;
	if (__builtin_expect(n < 0x80, 1))
		b->p[start - 1] = (uint8_t)n;
	else
		pb_close_long(b, start, n);
}

#endif

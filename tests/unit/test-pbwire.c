/* test-pbwire.c — the protobuf writer of the Perfetto output (render/perfetto/wire.h) against
 * the bytes the protobuf encoding prescribes: varints at every length boundary, negative
 * int64, zigzag, keys of large field numbers, fixed64 and double (little-endian), bytes, and
 * nested messages whose length is written when they close, including lengths of two and
 * three bytes inside another message (the content moved, the outer length still right). */
#include <stdlib.h>
#include <string.h>

#include "../../analyze/render/perfetto/wire.h"
#include "tap.h"

static int same(const struct proto_buf *b, const uint8_t *want, size_t n)
{
	if (b->len == n && !memcmp(b->p, want, n))
		return 1;
	printf("#   got ");
	for (size_t i = 0; i < b->len && i < 24; i++)
		printf("%02x ", b->p[i]);
	printf("(%zu bytes), want ", b->len);
	for (size_t i = 0; i < n && i < 24; i++)
		printf("%02x ", want[i]);
	printf("(%zu bytes)\n", n);
	return 0;
}

#define BYTES(...) (const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ })

static void varint_is(uint64_t v, const uint8_t *want, size_t n, const char *what)
{
	struct proto_buf b = { 0 };
	pb_need(&b, PB_MAX_FIELD);
	pb_varint(&b, v);
	ok(same(&b, want, n) && pb_varint_len(v) == n, "varint %s", what);
	pb_free(&b);
}

static void varints(void)
{
	varint_is(0, BYTES(0x00), "0");
	varint_is(1, BYTES(0x01), "1");
	varint_is(127, BYTES(0x7f), "127 (the last one-byte value)");
	varint_is(128, BYTES(0x80, 0x01), "128");
	varint_is(300, BYTES(0xac, 0x02), "300");
	varint_is(16383, BYTES(0xff, 0x7f), "16383");
	varint_is(16384, BYTES(0x80, 0x80, 0x01), "16384");
	varint_is(1ull << 32, BYTES(0x80, 0x80, 0x80, 0x80, 0x10), "2^32");
	varint_is(UINT64_MAX, BYTES(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
		  "2^64-1 (ten bytes)");
	varint_is((uint64_t)(int64_t)-1,
		  BYTES(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
		  "int64 -1 (two's complement, ten bytes)");
}

static void zigzags(void)
{
	is_u64(pb_zigzag(0), 0, "zigzag 0");
	is_u64(pb_zigzag(-1), 1, "zigzag -1");
	is_u64(pb_zigzag(1), 2, "zigzag 1");
	is_u64(pb_zigzag(-2), 3, "zigzag -2");
	is_u64(pb_zigzag(2147483647), 4294967294u, "zigzag 2^31-1");
	is_u64(pb_zigzag(-2147483647 - 1), 4294967295u, "zigzag -2^31");
	is_u64(pb_zigzag(INT64_MAX), UINT64_MAX - 1, "zigzag INT64_MAX");
	is_u64(pb_zigzag(INT64_MIN), UINT64_MAX, "zigzag INT64_MIN");
}

static void fields(void)
{
	struct proto_buf b = { 0 };
	pb_need(&b, 64);
	pb_uint(&b, 1, 150);
	ok(same(&b, BYTES(0x08, 0x96, 0x01)), "field 1 = 150");
	b.len = 0;
	pb_uint(&b, 58, 64);
	ok(same(&b, BYTES(0xd0, 0x03, 0x40)), "field 58 (a two-byte key) = 64");
	b.len = 0;
	pb_fixed64(&b, 47, 0x0102030405060708ull);
	ok(same(&b, BYTES(0xf9, 0x02, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01)),
	   "fixed64 field 47, little-endian");
	b.len = 0;
	pb_double(&b, 5, 1.5);
	ok(same(&b, BYTES(0x29, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f)), "double field 5 = 1.5");
	b.len = 0;
	pb_double(&b, 44, -0.0);
	ok(same(&b, BYTES(0xe1, 0x02, 0, 0, 0, 0, 0, 0, 0, 0x80)), "double field 44 = -0.0");
	b.len = 0;
	pb_bytes(&b, 2, "abc", 3);
	ok(same(&b, BYTES(0x12, 0x03, 'a', 'b', 'c')), "string field 2 = \"abc\"");
	b.len = 0;
	pb_bytes(&b, 6, "", 0);
	ok(same(&b, BYTES(0x32, 0x00)), "empty string field 6");
	pb_free(&b);
}

static void nested(void)
{
	struct proto_buf b = { 0 };
	pb_need(&b, 64);
	size_t m = pb_open(&b, 11);
	pb_uint(&b, 9, 1);
	pb_close(&b, m);
	ok(same(&b, BYTES(0x5a, 0x02, 0x48, 0x01)), "a short nested message, its length in a byte");
	b.len = 0;
	m = pb_open(&b, 11);
	pb_close(&b, m);
	ok(same(&b, BYTES(0x5a, 0x00)), "an empty nested message");

	/* inner messages of 127, 128, 200 and 20000 bytes inside an outer one, then a field */
	static const size_t sizes[] = { 127, 128, 200, 20000 };
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k];
		struct proto_buf c = { 0 };
		pb_need(&c, PB_MAX_FIELD);
		size_t outer = pb_open(&c, 1);
		size_t inner = pb_open(&c, 2);
		pb_need(&c, n);
		for (size_t i = 0; i < n; i++)
			c.p[c.len++] = (uint8_t)(i * 7 + 1);
		pb_close(&c, inner);
		pb_need(&c, PB_MAX_FIELD);
		pb_uint(&c, 3, 5);
		pb_close(&c, outer);
		/* the expected bytes, built from their parts */
		size_t ilen = pb_varint_len(n), olen_v = 1 + ilen + n + 2;
		size_t want_n = 1 + pb_varint_len(olen_v) + olen_v;
		uint8_t *want = malloc(want_n), *p = want;
		struct proto_buf w = { 0 };
		pb_need(&w, 2 * PB_MAX_FIELD);
		pb_varint(&w, olen_v);
		pb_varint(&w, n);
		*p++ = 0x0a;
		size_t olen_b = pb_varint_len(olen_v);
		memcpy(p, w.p, olen_b);
		p += olen_b;
		*p++ = 0x12;
		memcpy(p, w.p + olen_b, ilen);
		p += ilen;
		for (size_t i = 0; i < n; i++)
			*p++ = (uint8_t)(i * 7 + 1);
		*p++ = 0x18;
		*p++ = 0x05;
		ok(same(&c, want, want_n), "a %zu-byte message in another (lengths of %zu and %zu)",
		   n, ilen, olen_b);
		free(want);
		pb_free(&w);
		pb_free(&c);
	}
	pb_free(&b);
}

/* A buffer that starts empty grows as fields are written, keeping what was written. */
static void growth(void)
{
	struct proto_buf b = { 0 };
	for (uint32_t i = 0; i < 100000; i++) {
		pb_need(&b, PB_MAX_FIELD);
		pb_uint(&b, 1, i);
	}
	size_t at = 0, bad = 0;
	for (uint32_t i = 0; i < 100000 && !bad; i++) {
		if (b.p[at++] != 0x08)
			bad++;
		uint64_t v = 0;
		for (int s = 0;; s += 7) {
			uint8_t c = b.p[at++];
			v |= (uint64_t)(c & 0x7f) << s;
			if (!(c & 0x80))
				break;
		}
		bad += v != i;
	}
	ok(!bad && at == b.len, "100000 fields through a growing buffer read back in order");
	pb_free(&b);
}

int main(void)
{
	varints();
	zigzags();
	fields();
	nested();
	growth();
	return tap_done();
}

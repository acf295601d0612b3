/* test-codec.c — records survive encode/decode unchanged, including extension units (sent
 * whole, or as the words that differ from the last of their kind), time going backwards,
 * t1 = 0 and extreme values; truncated and malformed input is refused; the version written
 * before extensions were sent as differences still decodes. */
#include <stdlib.h>
#include <string.h>

#include "../../common/codec.h"
#include "tap.h"

static void fill(struct tprof_rec *u, int n)
{
	uint64_t t = 1000;
	for (int i = 0; i < n; i++) {
		memset(&u[i], 0, sizeof(u[i]));
		u[i].kind = (uint16_t)(1 + i % 20);
		u[i].name = (uint32_t)(i * 7919u);
		t += (uint64_t)(i % 5) * 37;
		u[i].t0 = i % 11 == 10 ? t - 500 : t;  /* sometimes backwards */
		u[i].t1 = i % 3 == 0 ? 0 : u[i].t0 + (uint64_t)i * 13;
		u[i].arg = i % 4 == 0 ? UINT64_MAX - (uint64_t)i : (uint64_t)i;
		u[i].flags = (uint8_t)i;
	}
}

static void roundtrip(void)
{
	enum { N = 1000 };
	struct tprof_rec u[N], out[1 + TPROF_MAX_EXT];
	fill(u, N);
	/* Two records with extension units in the middle. */
	u[100].ext = 2;
	memset(&u[101], 0xab, 2 * sizeof(u[0]));
	u[500].ext = 1;
	memset(&u[501], 0x00, sizeof(u[0]));
	uint8_t *buf = malloc(tprof_codec_bound(N));
	struct tprof_enc_info info;
	size_t len = tprof_encode(u, N, buf, &info);
	is_u64(info.units, N, "every unit is consumed");
	is_u64(info.records, N - 3, "extension units are not records");
	ok(len < (size_t)N * sizeof(u[0]), "the encoding is smaller than the records (%zu bytes)", len);

	struct tprof_decoder d;
	tprof_decoder_start(&d, TPROF_ENC_PACKED_RAW);
	size_t pos = 0;
	int same = 1;
	for (uint32_t i = 0; i < N; i += 1u + u[i].ext) {
		long n = tprof_decode_one(&d, buf + pos, len - pos, out);
		if (n <= 0 || memcmp(out, &u[i], (1u + u[i].ext) * sizeof(u[0]))) {
			same = 0;
			printf("# record %u differs (n=%ld)\n", i, n);
			break;
		}
		pos += (size_t)n;
	}
	ok(same, "every record decodes to exactly what was encoded");
	is_u64(pos, len, "the decoder consumes the whole encoding");
	free(buf);
}

static void stops_at_empty_unit(void)
{
	struct tprof_rec u[8];
	memset(u, 0, sizeof(u));
	for (int i = 0; i < 3; i++) {
		u[i].kind = 16;
		u[i].t0 = 10u + (uint64_t)i;
	}
	uint8_t buf[512];
	struct tprof_enc_info info;
	tprof_encode(u, 8, buf, &info);
	is_u64(info.units, 3, "encoding stops at the first unit with kind 0");
	is_u64(info.t_first, 10, "t_first is the first record's t0");
	is_u64(info.t_last, 12, "t_last is the largest t0");

	/* A record whose extension would run past the end is left out. */
	u[2].ext = 9;
	tprof_encode(u, 8, buf, &info);
	is_u64(info.units, 2, "a record running past the buffer is not encoded");
}

static void refuses_bad_input(void)
{
	struct tprof_rec u[2] = { { .kind = 18, .name = 5, .t0 = 123456789, .t1 = 0, .arg = 42 } };
	struct tprof_rec out[1 + TPROF_MAX_EXT];
	uint8_t buf[256];
	struct tprof_enc_info info;
	size_t len = tprof_encode(u, 1, buf, &info);
	struct tprof_decoder d;
	tprof_decoder_start(&d, TPROF_ENC_PACKED_DEFLATE);
	int short_ok = 1;
	for (size_t cut = 0; cut < len; cut++) {
		d.prev_t0 = 0;
		if (tprof_decode_one(&d, buf, cut, out) != 0)
			short_ok = 0;
	}
	ok(short_ok, "every truncation of a record asks for more input");
	uint8_t zero[16] = { 0 };
	d.prev_t0 = 0;
	ok(tprof_decode_one(&d, zero, sizeof(zero), out) < 0, "kind 0 is refused");
	uint8_t endless[16];
	memset(endless, 0xff, sizeof(endless));
	d.prev_t0 = 0;
	ok(tprof_decode_one(&d, endless, sizeof(endless), out) < 0, "an over-long varint is refused");
	/* the same with room for the longest fields, read without checking the end */
	uint8_t room[80];
	memset(room, 0, sizeof(room));
	d.prev_t0 = 0;
	ok(tprof_decode_one(&d, room, sizeof(room), out) < 0, "kind 0 is refused, with room");
	memset(room, 0xff, sizeof(room));
	d.prev_t0 = 0;
	ok(tprof_decode_one(&d, room, sizeof(room), out) < 0,
	   "an over-long varint is refused, with room");
	memset(room, 0, sizeof(room));
	room[0] = 18;                   /* kind, ext, flags, then a name of eleven bytes */
	memset(room + 3, 0x80, 10);
	room[13] = 1;
	d.prev_t0 = 0;
	ok(tprof_decode_one(&d, room, sizeof(room), out) < 0,
	   "an over-long name is refused, with room");
	room[0] = 0x80;                 /* a kind of 2^16 */
	room[1] = 0x80;
	room[2] = 0x04;
	memset(room + 3, 0, 7);
	d.prev_t0 = 0;
	ok(tprof_decode_one(&d, room, sizeof(room), out) < 0, "a kind of 2^16 is refused, with room");
	memcpy(room, buf, len);         /* a good record, then more */
	d.prev_t0 = 0;
	ok(tprof_decode_one(&d, room, sizeof(room), out) == (long)len && out->kind == 18 &&
	   out->name == 5 && out->t0 == 123456789 && out->t1 == 0 && out->arg == 42 && out->ext == 0,
	   "a record read with room: its fields and length");
}

/* Decodes len bytes of one chunk into out[0..n) units; returns records read or -1. */
static long decode_all(uint32_t encoding, const uint8_t *buf, size_t len, struct tprof_rec *out,
		       size_t n)
{
	struct tprof_decoder d;
	tprof_decoder_start(&d, encoding);
	size_t pos = 0, at = 0;
	long records = 0;
	while (pos < len) {
		if (at + 1 + TPROF_MAX_EXT > n)
			return -1;
		long k = tprof_decode_one(&d, buf + pos, len - pos, out + at);
		if (k <= 0)
			return -1;
		pos += (size_t)k;
		at += 1u + out[at].ext;
		records++;
	}
	return records;
}

/* A launch loop: the same kind with the same two extension units, now and then one word
 * changed, another kind in the same slot between, and a longer extension sent whole. */
static void differences(void)
{
	enum { N = 3000 };
	static struct tprof_rec u[N], out[N + 1 + TPROF_MAX_EXT];
	uint32_t i = 0, recs = 0, launches = 0;
	uint64_t t = 5000;
	while (i + 4 <= N) {
		memset(&u[i], 0, 4 * sizeof(u[0]));
		int other = recs % 97 == 5, longer = recs % 211 == 7;
		u[i].kind = other ? 24 + TPROF_CODEC_SLOTS : 24;
		u[i].ext = longer ? 3 : 2;
		u[i].t0 = t += 150;
		u[i].t1 = t + 90;
		u[i].arg = recs % 3;
		uint64_t w[12] = { 0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666, 0x7777, 0x8888 };
		if (recs % 10 == 3)
			w[5] = recs;    /* one word changes */
		if (other)
			w[0] = 0xdead;
		memcpy(&u[i + 1], w, (size_t)u[i].ext * sizeof(u[0]));
		launches += u[i].kind == 24 && !longer;
		i += 1u + u[i].ext;
		recs++;
	}
	static uint8_t buf[N * TPROF_CODEC_UNIT_MAX + 16];
	struct tprof_enc_info info;
	size_t len = tprof_encode(u, i, buf, &info);
	is_u64(info.records, recs, "every record is encoded");
	ok(len < (size_t)recs * 16, "repeated extensions cost a byte: %zu bytes for %u records "
	   "(%u of them repeating their two units)", len, recs, launches);
	ok(decode_all(TPROF_ENC_PACKED_DEFLATE, buf, len, out, N + 1 + TPROF_MAX_EXT) == recs &&
	   !memcmp(out, u, (size_t)i * sizeof(u[0])), "every record and extension decodes as it was");
	ok(decode_all(TPROF_ENC_VARINT_DEFLATE, buf, len, out, N + 1 + TPROF_MAX_EXT) < 0 ||
	   memcmp(out, u, (size_t)i * sizeof(u[0])), "read as version 1, the bytes are not those records");

	/* Cut anywhere in a record sent as differences: more input is asked for, and the
	 * decoder's state is unchanged until the record is whole. */
	struct tprof_decoder d;
	tprof_decoder_start(&d, TPROF_ENC_PACKED_RAW);
	long first = tprof_decode_one(&d, buf, len, out);
	long second = tprof_decode_one(&d, buf + first, len - (size_t)first, out);
	int asks = first > 0 && second > 0;
	tprof_decoder_start(&d, TPROF_ENC_PACKED_RAW);
	tprof_decode_one(&d, buf, len, out);
	for (long cut = 0; asks && cut < second; cut++)
		if (tprof_decode_one(&d, buf + first, (size_t)cut, out) != 0)
			asks = 0;
	ok(asks && tprof_decode_one(&d, buf + first, len - (size_t)first, out) == second &&
	   !memcmp(out, &u[3], 3 * sizeof(u[0])), "a record cut short asks for more, then decodes");

	/* A mask with a bit past the extension's words, or a partial mask for a kind the chunk
	 * has not sent yet, cannot be a record. */
	uint8_t bad[64] = { 24, 1, 0, 0, 1, 0, 0, 0x10 };      /* ext 1: four words, bit 4 */
	tprof_decoder_start(&d, TPROF_ENC_PACKED_RAW);
	ok(tprof_decode_one(&d, bad, sizeof(bad), out) < 0, "a mask naming a word past the end is refused");
	bad[7] = 0x03;
	tprof_decoder_start(&d, TPROF_ENC_PACKED_RAW);
	ok(tprof_decode_one(&d, bad, sizeof(bad), out) < 0,
	   "a partial mask for a kind not seen in the chunk is refused");
}

/* Version 1, as written before: extensions verbatim, whatever their length. */
static void version1(void)
{
	uint8_t v1[2 * (7 + 32)];
	struct tprof_rec out[3 + TPROF_MAX_EXT];
	for (int k = 0; k < 2; k++) {
		uint8_t *p = v1 + k * (7 + 32);
		p[0] = 24;              /* kind */
		p[1] = 1;               /* ext */
		p[2] = 0;               /* flags */
		p[3] = 9;               /* name */
		p[4] = 100;             /* t0 delta, zigzag: +50 */
		p[5] = 0;               /* no t1 */
		p[6] = 7;               /* arg */
		memset(p + 7, 0x5a + k, 32);
	}
	ok(decode_all(TPROF_ENC_VARINT_DEFLATE, v1, sizeof(v1), out, 3 + TPROF_MAX_EXT) == 2 &&
	   out[0].kind == 24 && out[0].ext == 1 && out[0].t0 == 50 && out[2].t0 == 100 &&
	   out[0].arg == 7 && out[1].arg == 0x5a5a5a5a5a5a5a5aull &&
	   out[3].arg == 0x5b5b5b5b5b5b5b5bull, "version 1 chunks decode: extensions verbatim");
}

int main(void)
{
	roundtrip();
	differences();
	version1();
	stops_at_empty_unit();
	refuses_bad_input();
	return tap_done();
}

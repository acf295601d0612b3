/* test-codec.c — records survive encode/decode unchanged, including extension units, time
 * going backwards, t1 = 0 and extreme values; truncated and malformed input is refused. */
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

	struct tprof_decoder d = { 0 };
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
	struct tprof_decoder d = { 0 };
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

int main(void)
{
	roundtrip();
	stops_at_empty_unit();
	refuses_bad_input();
	return tap_done();
}

/* codec.c — varint/delta encoding of records (see codec.h for the layout). */
#include "codec.h"
#include "varint.h"

#include <string.h>

/* Writes a short extension as its mask byte and the words that differ from the slot's (all of
 * them when the slot held another kind), and keeps it in the slot. */
static uint8_t *put_diff(uint8_t *p, struct tprof_codec_slot *s, uint32_t tag, const void *ext,
			 unsigned words)
{
	const uint8_t *src = ext;
	uint8_t *mask = p++;
	unsigned m = 0;
	int fresh = s->tag != tag;
	s->tag = tag;
	for (unsigned k = 0; k < words; k++) {
		uint64_t w;
		memcpy(&w, src + 8 * k, 8);
		if (fresh || w != s->w[k]) {
			m |= 1u << k;
			s->w[k] = w;
			memcpy(p, &w, 8);
			p += 8;
		}
	}
	*mask = (uint8_t)m;
	return p;
}

size_t tprof_encode(const struct tprof_rec *u, uint32_t max_units, uint8_t *out,
		    struct tprof_enc_info *info)
{
	uint8_t *p = out;
	uint64_t prev = 0;
	uint32_t i = 0;
	struct tprof_codec_slot slot[TPROF_CODEC_SLOTS];

	for (unsigned k = 0; k < TPROF_CODEC_SLOTS; k++)
		slot[k].tag = 0;

	info->records = 0;
	info->t_first = 0;
	info->t_last = 0;
	while (i < max_units) {
		const struct tprof_rec *r = &u[i];
		/* The buffer may still be in use by its thread: the header word is published last
		 * (release), and a span's t1 may be stored after it. */
		uint64_t w = __atomic_load_n((const tprof_word *)r, __ATOMIC_ACQUIRE);
		uint16_t kind = (uint16_t)w;
		uint8_t ext = (uint8_t)(w >> 16), flags = (uint8_t)(w >> 24);
		uint32_t name = (uint32_t)(w >> 32);
		if (kind == 0 || (uint64_t)i + 1 + ext > max_units)
			break;
		uint64_t t1 = __atomic_load_n(&r->t1, __ATOMIC_RELAXED);
		p = put_varint(p, kind);
		*p++ = ext;
		*p++ = flags;
		p = put_varint(p, name);
		p = put_varint(p, zigzag((int64_t)(r->t0 - prev)));
		p = put_varint(p, t1 ? zigzag((int64_t)(t1 - r->t0)) + 1 : 0);
		p = put_varint(p, r->arg);
		if (ext > TPROF_CODEC_DIFF_EXT) {
			memcpy(p, r + 1, (size_t)ext * TPROF_UNIT);
			p += (size_t)ext * TPROF_UNIT;
		} else if (ext) {
			p = put_diff(p, &slot[kind % TPROF_CODEC_SLOTS], (uint32_t)kind << 8 | ext,
				     r + 1, ext * TPROF_UNIT / 8u);
		}
		if (info->records == 0)
			info->t_first = r->t0;
		if (r->t0 > info->t_last)
			info->t_last = r->t0;
		info->records++;
		prev = r->t0;
		i += 1u + ext;
	}
	info->units = i;
	return (size_t)(p - out);
}

void tprof_decoder_start(struct tprof_decoder *d, uint32_t encoding)
{
	d->prev_t0 = 0;
	d->version = encoding == TPROF_ENC_VARINT_DEFLATE || encoding == TPROF_ENC_VARINT_RAW ? 1 : 2;
	for (unsigned k = 0; k < TPROF_CODEC_SLOTS; k++)
		d->slot[k].tag = 0;
}

/* Reads a short extension written by put_diff into to; returns the bytes it took, 0 when
 * they are not all in [p, end) yet, -1 when they cannot be one.  The slot changes only when
 * the whole extension is there. */
static long get_diff(struct tprof_codec_slot *s, uint32_t tag, const uint8_t *p,
		     const uint8_t *end, void *to, unsigned words)
{
	if (p == end)
		return 0;
	unsigned m = *p, all = (1u << words) - 1;
	if (m & ~all || (s->tag != tag && m != all))
		return -1;
	size_t need = 1 + 8 * (size_t)__builtin_popcount(m);
	if ((size_t)(end - p) < need)
		return 0;
	const uint8_t *q = p + 1;
	s->tag = tag;
	for (unsigned k = 0; k < words; k++)
		if (m & (1u << k)) {
			memcpy(&s->w[k], q, 8);
			q += 8;
		}
	memcpy(to, s->w, 8 * (size_t)words);
	return (long)need;
}

/* Distinguishes "ran out of input" (0) from "malformed" (-1) for a varint at p. */
static long short_or_bad(const uint8_t *p, const uint8_t *end)
{
	return (end - p) >= 10 ? -1 : 0;
}

long tprof_decode_one(struct tprof_decoder *d, const uint8_t *in, size_t len,
		      struct tprof_rec *out)
{
	const uint8_t *p = in, *end = in + len, *q;
	uint64_t kind, name, dt, t1, arg;
	uint8_t ext, flags;

	if (len >= 5 * 10 + 2) {
		/* room for the longest fields: read without checking the end (the same results) */
		if (!(p = get_varint10(p, &kind)))
			return -1;
		ext = p[0];
		flags = p[1];
		if (!(p = get_varint10(p + 2, &name)) || !(p = get_varint10(p, &dt)) ||
		    !(p = get_varint10(p, &t1)) || !(p = get_varint10(p, &arg)))
			return -1;
		goto fields;
	}
	if (!(q = get_varint(p, end, &kind)))
		return short_or_bad(p, end);
	p = q;
	if (end - p < 2)
		return 0;
	ext = p[0];
	flags = p[1];
	p += 2;
	if (!(q = get_varint(p, end, &name)))
		return short_or_bad(p, end);
	p = q;
	if (!(q = get_varint(p, end, &dt)))
		return short_or_bad(p, end);
	p = q;
	if (!(q = get_varint(p, end, &t1)))
		return short_or_bad(p, end);
	p = q;
	if (!(q = get_varint(p, end, &arg)))
		return short_or_bad(p, end);
	p = q;
fields:
	if (kind == 0 || kind >= 0x10000 || name > UINT32_MAX)
		return -1;
	/* the first word in one store: the record is copied whole soon after */
	uint64_t w0 = kind | (uint64_t)ext << 16 | (uint64_t)flags << 24 | name << 32;
	memcpy(out, &w0, sizeof(w0));
	out->t0 = d->prev_t0 + (uint64_t)unzigzag(dt);
	out->t1 = t1 ? out->t0 + (uint64_t)unzigzag(t1 - 1) : 0;
	out->arg = arg;
	if (ext && ext <= TPROF_CODEC_DIFF_EXT && d->version >= 2) {
		long n = get_diff(&d->slot[kind % TPROF_CODEC_SLOTS], (uint32_t)kind << 8 | ext, p,
				  end, out + 1, ext * TPROF_UNIT / 8u);
		if (n <= 0)
			return n;
		p += n;
	} else {
		if ((size_t)(end - p) < (size_t)ext * TPROF_UNIT)
			return 0;
		if (ext)
			memcpy(out + 1, p, (size_t)ext * TPROF_UNIT);
		p += (size_t)ext * TPROF_UNIT;
	}
	d->prev_t0 = out->t0;
	return (long)(p - in);
}

/* item-code.c — an import item in a run on disk (the layout: item-code.h).
 *
 *   tag      bits 0-1 cls; 2 a new stream (its number follows, the time and the offset count
 *            from 0 again); 3 dur; 4-5 arg (0 none, 1 varint, 2 eight bytes); 6 flags; 7 head
 *   [gs]     varint
 *   t        zigzag varint of the difference from the item before
 *   [dur]    zigzag varint
 *   [arg]    varint or eight bytes, little-endian (hashes are long)
 *   name, kind, cat   varints
 *   [flags], [head]   a byte each
 *   offset   zigzag varint of the difference from the item before
 *   len      varint, then len payload bytes */
#include "item-code.h"

#include <string.h>

#include "../../common/varint.h"

enum {
	TAG_CLS = 0x03, TAG_STREAM = 0x04, TAG_DUR = 0x08, TAG_ARG_VAR = 0x10, TAG_ARG_8 = 0x20,
	TAG_FLAGS = 0x40, TAG_HEAD = 0x80,
};

size_t item_encode(struct item_coder *c, const struct item *it, const void *payload,
		   uint8_t *out)
{
	uint8_t *p = out + 1;
	unsigned tag = it->cls & TAG_CLS;
	if (!c->started || it->gs != c->gs) {
		tag |= TAG_STREAM;
		p = put_varint(p, it->gs);
		c->gs = it->gs;
		c->t = 0;
		c->offset = 0;
		c->started = 1;
	}
	p = put_varint(p, zigzag((int64_t)((uint64_t)it->t - (uint64_t)c->t)));
	c->t = it->t;
	if (it->dur) {
		tag |= TAG_DUR;
		p = put_varint(p, zigzag(it->dur));
	}
	if (it->arg >> 49) {
		tag |= TAG_ARG_8;
		for (int i = 0; i < 8; i++)
			*p++ = (uint8_t)(it->arg >> (8 * i));
	} else if (it->arg) {
		tag |= TAG_ARG_VAR;
		p = put_varint(p, it->arg);
	}
	p = put_varint(p, it->name);
	p = put_varint(p, it->kind);
	p = put_varint(p, it->cat);
	if (it->flags) {
		tag |= TAG_FLAGS;
		*p++ = it->flags;
	}
	if (it->head) {
		tag |= TAG_HEAD;
		*p++ = it->head;
	}
	p = put_varint(p, zigzag((int64_t)(it->offset - c->offset)));
	c->offset = it->offset;
	p = put_varint(p, it->len);
	if (it->len)
		memcpy(p, payload, it->len);
	*out = (uint8_t)tag;
	return (size_t)(p - out) + it->len;
}

/* A varint of at most max into *v: the new position, or NULL. */
static inline const uint8_t *get_small(const uint8_t *p, const uint8_t *end, uint64_t max,
				       uint64_t *v)
{
	p = get_varint(p, end, v);
	return p && *v <= max ? p : NULL;
}

size_t item_decode(struct item_coder *c, const uint8_t *p, const uint8_t *end, struct item *it,
		   size_t max_len)
{
	const uint8_t *start = p;
	uint64_t v;
	if (p == end)
		return 0;
	unsigned tag = *p++;
	memset(it, 0, sizeof(*it));
	it->cls = (uint8_t)(tag & TAG_CLS);
	if (tag & TAG_STREAM) {
		if (!(p = get_small(p, end, UINT32_MAX, &v)))
			return 0;
		c->gs = (uint32_t)v;
		c->t = 0;
		c->offset = 0;
		c->started = 1;
	} else if (!c->started) {
		return 0;
	}
	it->gs = c->gs;
	if (!(p = get_varint(p, end, &v)))
		return 0;
	it->t = c->t = (int64_t)((uint64_t)c->t + (uint64_t)unzigzag(v));
	if (tag & TAG_DUR) {
		if (!(p = get_varint(p, end, &v)))
			return 0;
		it->dur = unzigzag(v);
	}
	if ((tag & (TAG_ARG_8 | TAG_ARG_VAR)) == (TAG_ARG_8 | TAG_ARG_VAR))
		return 0;
	if (tag & TAG_ARG_8) {
		if (end - p < 8)
			return 0;
		for (int i = 0; i < 8; i++)
			it->arg |= (uint64_t)*p++ << (8 * i);
	} else if (tag & TAG_ARG_VAR) {
		if (!(p = get_varint(p, end, &it->arg)))
			return 0;
	}
	if (!(p = get_small(p, end, UINT32_MAX, &v)))
		return 0;
	it->name = (uint32_t)v;
	if (!(p = get_small(p, end, UINT16_MAX, &v)))
		return 0;
	it->kind = (uint16_t)v;
	if (!(p = get_small(p, end, UINT32_MAX, &v)))
		return 0;
	it->cat = (uint32_t)v;
	if (tag & TAG_FLAGS) {
		if (p == end)
			return 0;
		it->flags = *p++;
	}
	if (tag & TAG_HEAD) {
		if (p == end)
			return 0;
		it->head = *p++;
	}
	if (!(p = get_varint(p, end, &v)))
		return 0;
	it->offset = c->offset = c->offset + (uint64_t)unzigzag(v);
	if (!(p = get_small(p, end, max_len, &v)) || (uint64_t)(end - p) < v)
		return 0;
	it->len = (uint32_t)v;
	memcpy(it + 1, p, it->len);
	return (size_t)(p - start) + it->len;
}

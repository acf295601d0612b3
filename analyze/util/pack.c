/* util/pack.c — values packed into bytes and read back (pack.h). */
#include <string.h>

#include "../../common/xalloc.h"
#include "pack.h"
#include "strings.h"

void pack_bytes(struct pack *b, const void *p, size_t n)
{
	if (!n)
		return;
	if (n > b->cap - b->n) {
		b->cap = (b->n + n) * 2 + 64;
		b->v = xrealloc(b->v, b->cap);
	}
	memcpy(b->v + b->n, p, n);
	b->n += n;
}

void pack_u64(struct pack *b, uint64_t v)
{
	pack_bytes(b, &v, sizeof(v));
}

void pack_i64(struct pack *b, int64_t v)
{
	pack_bytes(b, &v, sizeof(v));
}

void pack_f64(struct pack *b, double v)
{
	pack_bytes(b, &v, sizeof(v));
}

void pack_str(struct pack *b, const char *s)
{
	uint64_t len = s ? strlen(s) : 0;
	pack_u64(b, len);
	pack_bytes(b, s, (size_t)len);
}

void pack_name(struct pack *b, uint32_t id)
{
	uint64_t len = strings_len(id);
	pack_u64(b, len);
	pack_bytes(b, strings_get(id), (size_t)len);
}

void pack_free(struct pack *b)
{
	free(b->v);
	*b = (struct pack){ 0 };
}

int unpack_bytes(struct unpack *u, void *p, size_t n)
{
	if (u->short_read || (size_t)(u->end - u->at) < n) {
		u->short_read = 1;
		u->at = u->end;
		memset(p, 0, n);
		return 0;
	}
	memcpy(p, u->at, n);
	u->at += n;
	return 1;
}

uint64_t unpack_u64(struct unpack *u)
{
	uint64_t v;
	unpack_bytes(u, &v, sizeof(v));
	return v;
}

int64_t unpack_i64(struct unpack *u)
{
	int64_t v;
	unpack_bytes(u, &v, sizeof(v));
	return v;
}

double unpack_f64(struct unpack *u)
{
	double v;
	unpack_bytes(u, &v, sizeof(v));
	return v;
}

const char *unpack_str(struct unpack *u, size_t *len)
{
	uint64_t n = unpack_u64(u);
	if (u->short_read || n > (uint64_t)(u->end - u->at)) {
		u->short_read = 1;
		u->at = u->end;
		*len = 0;
		return "";
	}
	const char *s = u->at;
	u->at += n;
	*len = (size_t)n;
	return s;
}

char *unpack_strdup(struct unpack *u)
{
	size_t len;
	const char *s = unpack_str(u, &len);
	return xstrndup(s, len);
}

uint32_t unpack_name(struct unpack *u)
{
	size_t len;
	const char *s = unpack_str(u, &len);
	return len ? strings_add(s, len) : 0;
}

size_t unpack_count(struct unpack *u, size_t min)
{
	uint64_t n = unpack_u64(u);
	if (min && n > (uint64_t)(u->end - u->at) / min) {
		u->short_read = 1;
		u->at = u->end;
		return 0;
	}
	return (size_t)n;
}

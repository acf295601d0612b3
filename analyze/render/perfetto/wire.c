/* render/perfetto/wire.c — the out-of-line parts of the protobuf writer (wire.h): growing the
 * buffer, and closing a nested message too long for the one length byte reserved. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "wire.h"

void pb_grow(struct proto_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + more)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void pb_free(struct proto_buf *b)
{
	free(b->p);
	*b = (struct proto_buf){ 0 };
}

/* The content [start, len) moves on by the extra bytes its length takes. */
void pb_close_long(struct proto_buf *b, size_t start, size_t n)
{
	size_t extra = pb_varint_len(n) - 1;
	pb_need(b, extra);
	memmove(b->p + start + extra, b->p + start, n);
	b->len = start - 1;
	pb_varint(b, n);
	b->len += n;
}

/* item-code.h — an import item as a run on disk holds it (item-code.c): a tag byte saying which
 * fields are there, varints for the rest (the time and the file offset as differences from the
 * item before in the same stream), then the payload.  A run's items come grouped by stream and
 * in time order, so most take a quarter of their bytes in memory: fewer bytes to write and to
 * read back is the point, runs being written and read once each. */
#ifndef TPROF_ANALYZE_ITEM_CODE_H
#define TPROF_ANALYZE_ITEM_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "items.h"

/* The most bytes an item's fields take, before its payload. */
#define ITEM_CODE_FIELDS 64

/* Where a run's writer or reader is: what the next item is told apart from.  Zeroed at the
 * start of each run. */
struct item_coder {
	int64_t t;
	uint64_t offset;
	uint32_t gs;
	int started;
};

/* it (and its it->len payload bytes, at payload) at out, which has room for
 * ITEM_CODE_FIELDS + it->len; returns the bytes written. */
size_t item_encode(struct item_coder *c, const struct item *it, const void *payload,
		   uint8_t *out);

/* The item at [p, end) into it, its payload after it (room for max_len bytes); the image and
 * the stream are left for the caller (from it->gs).  Returns the bytes read, or 0 when they do
 * not hold an item (cut short or damaged). */
size_t item_decode(struct item_coder *c, const uint8_t *p, const uint8_t *end, struct item *it,
		   size_t max_len);

#endif

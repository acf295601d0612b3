/* items.h — the import's events waiting to be put in order (items.c).  Each event of a Chrome
 * trace becomes an item: a fixed header (the record's fields and those of its imported head)
 * and its payload (the encoded args).  Items are held in a run in memory; a full run is sorted
 * and written to a scratch file, compactly (item-code.h), and at the end the runs are merged, so
 * that memory stays at one run whatever the file's size.  Items come back by image, stream
 * (thread), time, and at one time: ends, then begins (the longer first), then the rest, in the
 * file's order where all that is equal. */
#ifndef TPROF_ANALYZE_ITEMS_H
#define TPROF_ANALYZE_ITEMS_H

#include <stddef.h>
#include <stdint.h>

struct item {
	int64_t t, dur;                 /* the file's own ns; dur orders begins */
	uint64_t arg;
	uint64_t offset;                /* the event's byte offset in the file (head) */
	uint32_t image, stream;
	uint32_t name;                  /* trace-wide string id */
	uint32_t len;                   /* payload bytes that follow */
	uint32_t cat;                   /* trace-wide string id of "cat" (head) */
	uint32_t gs;                    /* the stream's dense number (items_stream) */
	uint16_t kind;                  /* TPROF_K_I*; IEND for an E */
	uint8_t flags;
	uint8_t cls;                    /* 0 end, 1 begin, 2 the rest */
	uint8_t head;                   /* TPROF_IMP_* head flags | ITEM_HEAD: it has a head */
	uint8_t pad[3];
};

#define ITEM_HEAD 0x80u                 /* the record carries struct tprof_imp_head */


struct items;

/* Items held in runs of run_bytes, spilled under dir. */
struct items *items_new(const char *dir, size_t run_bytes);
void items_free(struct items *x);

/* The dense number of (image, stream), given once per stream by the caller, from 0 up. */
void items_stream(struct items *x, uint32_t gs, uint32_t image, uint32_t stream);

/* A copy of head (whose gs names a stream given) and its head->len payload bytes.  -1 when a
 * run could not be written (the reason has been said). */
int items_add(struct items *x, const struct item *head, const void *payload);

/* Each item in order, with its payload (which each may rewrite).  -1 when a run could not be
 * written or read back (the reason has been said). */
int items_each(struct items *x, void (*each)(void *ctx, const struct item *it, uint8_t *payload),
	       void *ctx);

/* How many runs went to disk. */
size_t items_runs(const struct items *x);

#endif

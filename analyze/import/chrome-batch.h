/* chrome-batch.h — what the reader's parsing thread hands to the caller's (chrome-batch.c):
 * batches of entries (events parsed, kept members, messages) whose text and trees live in the
 * batch's own arena, passed through a queue of a few batches.  Parsing one batch while the
 * caller goes through the last one puts the parse on a core of its own. */
#ifndef TPROF_ANALYZE_CHROME_BATCH_H
#define TPROF_ANALYZE_CHROME_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "chrome-arena.h"
#include "chrome-event.h"

enum chrome_entry_kind {
	CHROME_E_EVENT,                 /* ev */
	CHROME_E_MEMBER,                /* a top-level member kept: key, text..len, offset */
	CHROME_E_SKIP,                  /* an event skipped: text says why, offset */
	CHROME_E_SAY,                   /* a message: is_error, text, offset */
	CHROME_E_END,                   /* the read is over: rc 0, or -1 after an error */
};

struct chrome_entry {
	enum chrome_entry_kind kind;
	int is_error, rc;
	int fix;                        /* SKIP and SAY: the enum chrome_fix it counts, or -1 */
	int form;                       /* the scanner's form and bytes read at this entry */
	uint64_t bytes;
	uint64_t offset;
	const char *key, *text;
	size_t len;
	struct chrome_event ev;
};

struct chrome_batch {
	struct chrome_entry *e;
	size_t n, cap;
	struct chrome_arena *arena;
};

struct chrome_queue;

/* A queue of batches; the producer runs fill(ctx, q) on a thread of its own, which puts its
 * entries into chrome_queue_filling's batch with chrome_batch_add and returns when it has put CHROME_E_END or
 * chrome_queue_cancelled says so.  NULL when no thread could be started. */
struct chrome_queue *chrome_queue_start(void (*fill)(void *ctx, struct chrome_queue *q),
					void *ctx);

/* The producer's side: the batch being filled (for its arena; NULL once the consumer has
 * stopped), and room for one more entry in it, zeroed but for its event (which the parse
 * fills, or which is not read). */
struct chrome_batch *chrome_queue_filling(struct chrome_queue *q);
struct chrome_entry *chrome_batch_add(struct chrome_batch *b);
/* Sends the batch being filled (after CHROME_E_END). */
void chrome_queue_send(struct chrome_queue *q);
int chrome_queue_cancelled(struct chrome_queue *q);

/* The consumer's side: the next full batch (waiting for it), to be given back when done. */
struct chrome_batch *chrome_queue_take(struct chrome_queue *q);
void chrome_queue_give(struct chrome_queue *q, struct chrome_batch *b);
/* Stops the producer (when the consumer stops early) and waits for its thread. */
void chrome_queue_finish(struct chrome_queue *q);

#endif

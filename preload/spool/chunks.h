/* chunks.h — the queue of full buffers and the chunk writer (chunks.c). */
#ifndef TPROF_CHUNKS_H
#define TPROF_CHUNKS_H

#include "../core/core.h"

int tprof_chunks_init(void);                       /* encoder buffers for this image */
void tprof_chunks_enqueue(struct tprof_slot *s);   /* under tprof_g.lock; wakes the flusher */
struct tprof_slot *tprof_chunks_dequeue(void);     /* under tprof_g.lock */
int tprof_chunks_write(struct tprof_slot *s);      /* under flush_lock: its new records */
void tprof_chunks_clear(struct tprof_slot *s);     /* under flush_lock: ready for reuse */
int tprof_chunks_write_all(void);                  /* takes flush_lock: every buffer now */

#endif

/* spool.h — what spool/ gives the rest of the recorder: the process image and its moments
 * (image.c), the loss table (losses.h), a recording thread and the slow path behind
 * buffer.h's hot path (thread.c), buffers for writers (slots.c), the mapped spool (spool.c),
 * the flusher (flusher.c), the process stream, stream 0 (proc-stream.c), the process's
 * properties (procinfo.c, props.c) and interned strings (intern.c).  The hot path itself is
 * buffer.h, over the thread's guard (guard.h); the chunk writer's queue, chunks.h. */
#ifndef TPROF_SPOOL_H
#define TPROF_SPOOL_H

#include "../core/core.h"
#include "losses.h"

/* image.c: the process image */
void tprof_image_begin(int clock_source);
int tprof_image_start(void);            /* PENDING -> STARTED; 0 on success */
int tprof_image_ensure(void);           /* started (or finished); 0 when records can be written */
void tprof_image_checkpoint(void);      /* everything flushed, before exec */
void tprof_image_flush(void);           /* everything flushed; recording goes on */
void tprof_image_finish(void);          /* final flush at exit */
void tprof_image_finish_failed(void);   /* at exit after a write error */
void tprof_image_reset_child(void);     /* new image after fork */
void tprof_image_fork_prepare(void);   /* start_lock taken, the child's start time */
void tprof_image_fork_parent(void);


/* thread.c: the recording thread, and the slow path behind buffer.h */
struct tprof_rec *tprof_reserve_slow(struct tprof_thread *t, unsigned units);
void tprof_room_slow(struct tprof_thread *t, unsigned units);
int tprof_thread_enter(struct tprof_thread *t); /* registered (image started); 0 when so */
void tprof_thread_note_name(struct tprof_thread *t, const char *name);
struct tprof_thread *tprof_thread_find(pthread_t which);
void tprof_threads_reset(void);
void tprof_threads_final(void);

/* slots.c: buffers for writers; `hold`: the current buffer has an unfinished record, keep it
 * (t->held) instead of handing it to the flusher */
struct tprof_rec *tprof_slot_next(struct tprof_thread *t, unsigned units, int hold, int *reason);
void tprof_slot_retire(struct tprof_thread *t);

/* spool.c */
int tprof_spool_open(const char *path, uint32_t slot_bytes);
struct tprof_slot *tprof_spool_acquire(void);  /* under tprof_g.lock */
void tprof_spool_release(struct tprof_slot *s); /* under tprof_g.lock */
void tprof_spool_forget(void);                  /* child after fork: drop the parent's mapping */
int tprof_spool_idle(void);                     /* every slot flushed to its end */
void tprof_spool_keep_reserve(void);            /* flusher: a few free, pre-touched slots */

/* flusher.c */
void tprof_flusher_cond_init(void);
int tprof_flusher_start(void);
void tprof_flusher_stop(void);

/* proc-stream.c — records of stream 0, written under proc_lock; 1 when written */
int tprof_proc_record(uint16_t kind, uint8_t flags, uint32_t name, uint64_t t0, uint64_t t1,
		      uint64_t arg);
void tprof_proc_string(uint32_t id, const char *s, size_t len);
/* A record with `units` extension units copied from ext (COMM, CSYNC). */
void tprof_proc_record_ext(uint16_t kind, uint8_t flags, uint32_t name, uint64_t t0, uint64_t t1,
			   uint64_t arg, const void *ext, unsigned units);
void tprof_proc_clock(int when);

/* procinfo.c: the process's properties as its image starts, and one property now */
void tprof_procinfo_record(void);
void tprof_procinfo_str(const char *key, const char *value);
void tprof_procinfo_int(const char *key, int64_t value);

/* props.c: a property a runtime gives, the image started for it if need be */
void tprof_proc_prop_str(const char *key, const char *value);
void tprof_proc_prop_int(const char *key, int64_t value);

/* intern.c */
uint32_t tprof_intern(const char *s, size_t len);
uint32_t tprof_intern_slow(struct tprof_thread *t, const char *s);
void tprof_intern_reset(void);
void tprof_intern_invalidate(void);
void tprof_strcache_alloc(struct tprof_thread *t);
void tprof_intern_lock(void);
void tprof_intern_unlock(void);

#endif

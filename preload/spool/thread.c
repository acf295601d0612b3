/* thread.c — the life of a recording thread: registered (stream id, name, exit destructor) at
 * its first record, its slow path (a fresh buffer, the GAP record of what was lost first
 * (guard.c), the losses reported), renames, and at its exit its last buffer handed over.
 * Also the pass over all threads at exit or exec.
 *
 * Everything here runs with the thread busy (buffer.h): a signal handler that interrupts it
 * records nothing (its annotations are counted as lost), so it never finds a lock of ours
 * held by the code it interrupted, nor the thread's buffer half switched. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../core/clock.h"
#include "../core/core.h"
#include "guard.h"
#include "spool.h"
#include "intern.h"

static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
/* Thread names are compared and set by their thread and, at exit or exec, by whichever
 * thread does the final pass: a leaf lock of their own, taken around nothing else. */
static pthread_mutex_t name_lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;

static void thread_exit(void *arg);

static void make_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}


/* DROP records for what the thread lost since its last report, one per reason (the loss table
 * has them already; these put them in the chunk file). */
static void report_drops(struct tprof_thread *t)
{
	if (!t->stream)
		return;
	for (unsigned k = 1; k < TPROF_DROP_REASONS; k++) {
		uint64_t n = __atomic_exchange_n(&t->pend[k], 0, __ATOMIC_RELAXED);
		if (n && tprof_proc_record(TPROF_K_DROP, (uint8_t)k, 0, tprof_now(), n, t->stream))
			__atomic_add_fetch(&tprof_g.reported, n, __ATOMIC_RELAXED);
	}
}

/* ---- names and registration ----------------------------------------------------------------- */

void tprof_thread_note_name(struct tprof_thread *t, const char *name)
{
	TPROF_KEEP_ERRNO;
	char copy[sizeof(t->name)];
	if (!t->stream)
		return;
	struct tprof_thread *self = &tprof_tls;
	tprof_busy_enter(self);
	pthread_mutex_lock(&name_lock);
	int same = !strncmp(t->name, name, sizeof(t->name) - 1);
	if (!same)
		snprintf(t->name, sizeof(t->name), "%s", name);
	memcpy(copy, t->name, sizeof(copy));
	pthread_mutex_unlock(&name_lock);
	if (!same) {
		uint32_t id = tprof_intern(copy, strlen(copy));
		tprof_proc_record(TPROF_K_THREAD, 0, id, tprof_now(), (uint64_t)t->tid, t->stream);
	}
	tprof_busy_leave(self);
}

static void unlink_registry(struct tprof_thread *t)
{
	for (struct tprof_thread **pp = &tprof_g.threads; *pp; pp = &(*pp)->reg_next)
		if (*pp == t) {
			*pp = t->reg_next;
			break;
		}
	t->registered = 0;
}

static struct tprof_rec *take(struct tprof_thread *t, unsigned units, int nested, int *reason);

/* Records lost since the last GAP record: one now, where the thread ends (in its buffer, or in
 * a fresh one when there is one), so that a reader does not take its ranges as unfinished. */
static void gap_flush(struct tprof_thread *t)
{
	if (!__atomic_load_n(&t->gap.n, __ATOMIC_RELAXED) || tprof_gap_here(t))
		return;
	int reason;
	take(t, 0, t->guard > 1, &reason);
}

static void thread_exit(void *arg)
{
	TPROF_KEEP_ERRNO;
	struct tprof_thread *t = &tprof_tls;
	(void)arg;
	t->key_armed = 0;
	if (t->generation != tprof_g.generation || !t->registered)
		return;
	tprof_inside_enter(t);
	char name[17] = "";
	prctl(PR_GET_NAME, name, 0, 0, 0);
	tprof_thread_note_name(t, name);
	gap_flush(t);
	report_drops(t);
	tprof_slot_retire(t);
	pthread_mutex_lock(&tprof_g.lock);
	unlink_registry(t);
	pthread_mutex_unlock(&tprof_g.lock);
	free(t->cache);
	t->cache = NULL;
	tprof_inside_leave(t);
}

/* A thread's state from before a fork belongs to another process image (its busy and guard
 * belong to the code running now, and stay). */
TPROF_START_CODE static void forget_stale(struct tprof_thread *t)
{
	t->pos = t->end = NULL;
	t->slot = NULL;
	t->held = NULL;
	t->stream = 0;
	t->seq = 0;
	t->registered = 0;
	memset(t->pend, 0, sizeof(t->pend));
	memset(t->loss, 0, sizeof(t->loss));
	memset(&t->gap, 0, sizeof(t->gap));
	t->tid = 0;
	t->name[0] = 0;
	memset(&t->poll, 0, sizeof(t->poll));   /* no run of polls open (poll.h) */
	t->generation = tprof_g.generation;
}

static int thread_register(struct tprof_thread *t)
{
	pthread_once(&key_once, make_key);
	t->tid = (pid_t)gettid();
	t->self = pthread_self();
	if (!t->cache)
		tprof_strcache_alloc(t);
	pthread_mutex_lock(&tprof_g.lock);
	if (tprof_g.phase != TPROF_PHASE_STARTED) {
		pthread_mutex_unlock(&tprof_g.lock);
		return -1;
	}
	if (!t->stream)
		t->stream = ++tprof_g.next_stream;
	t->reg_next = tprof_g.threads;
	tprof_g.threads = t;
	t->registered = 1;
	pthread_mutex_unlock(&tprof_g.lock);
	if (!t->key_armed && pthread_setspecific(exit_key, t) == 0)
		t->key_armed = 1;
	char name[17] = "";
	prctl(PR_GET_NAME, name, 0, 0, 0);
	pthread_mutex_lock(&name_lock);
	t->name[0] = 0;
	pthread_mutex_unlock(&name_lock);
	if (!name[0])
		snprintf(name, sizeof(name), "thread %d", (int)t->tid);
	tprof_thread_note_name(t, name);
	return 0;
}

/* Starts a thread's stream, or, the first record of the process, its files; 0 when it can
 * record, else the reason its records are lost.  Inside the recorder (enter). */
static int thread_ready(struct tprof_thread *t)
{
	TPROF_KEEP_ERRNO;
	if (t->generation != tprof_g.generation)
		forget_stale(t);
	if (tprof_image_ensure() != 0)
		return !tprof_g.spool.path && !tprof_g.losses ? TPROF_DROP_NO_FILES
							       : TPROF_DROP_STOPPED;
	return t->registered || thread_register(t) == 0 ? 0 : TPROF_DROP_STOPPED;
}

/* ---- the slow path -------------------------------------------------------------------------- */

/* Does the thread's current buffer hold a call that has not returned yet?  Only asked when a
 * buffer fills inside a wrapped call (a signal handler, or the runtime annotating), where the
 * flusher must not take it before the call's end is written into it. */
static int unfinished(const struct tprof_thread *t)
{
	const struct tprof_rec *r = t->slot->units, *end = t->pos;
	while (r < end) {
		uint64_t w = __atomic_load_n((const tprof_word *)r, __ATOMIC_ACQUIRE);
		uint16_t kind = (uint16_t)w;
		if (kind == 0)
			return 1;   /* not published: cannot happen while busy; kept to be safe */
		if (kind == TPROF_K_CALL && __atomic_load_n(&r->t1, __ATOMIC_ACQUIRE) == 0)
			return 1;
		r += 1 + (unsigned)(uint8_t)(w >> 16);
	}
	return 0;
}

/* A fresh buffer with `units` units reserved, a GAP record before them when records were
 * lost; NULL (and the reason) when there is none.  `nested`: the thread was inside a wrapped
 * call when it came here. */
static struct tprof_rec *take(struct tprof_thread *t, unsigned units, int nested, int *reason)
{
	int gap = __atomic_load_n(&t->gap.n, __ATOMIC_RELAXED) != 0;
	int hold = nested && t->slot && unfinished(t);
	struct tprof_rec *r = tprof_slot_next(t, units + (gap ? 2u : 0u), hold, reason);
	if (!r) {
		/* Still holding part of a buffer (the image stopped writing): the next record comes
		 * here too, so that nothing is kept after a loss without its GAP record. */
		if (t->slot)
			t->end = t->pos;
		return NULL;
	}
	if (gap) {
		tprof_gap_write(t, r);
		r += 2;
	}
	report_drops(t);
	return r;
}

/* A fresh buffer now, its first `units` units left free for what follows (buffer.h's
 * tprof_room); nothing is counted as lost, the records are reserved afterwards. */
void tprof_room_slow(struct tprof_thread *t, unsigned units)
{
	TPROF_KEEP_ERRNO;
	int reason, nested = t->guard > 0;
	tprof_inside_enter(t);
	if (thread_ready(t) == 0) {
		struct tprof_rec *r = take(t, units, nested, &reason);
		if (r)
			t->pos = r;
	}
	tprof_inside_leave(t);
}

/* Entered busy (tprof_reserve); leaves busy when the record is lost. */
struct tprof_rec *tprof_reserve_slow(struct tprof_thread *t, unsigned units)
{
	TPROF_KEEP_ERRNO;
	int reason = TPROF_DROP_STOPPED, nested = t->guard > 0;
	struct tprof_rec *r = NULL;
	t->guard++;
	if (units <= 1 + TPROF_MAX_EXT && (reason = thread_ready(t)) == 0)
		r = take(t, units, nested, &reason);
	t->guard--;
	if (!r) {
		tprof_lost(t, (unsigned)reason, 1);
		tprof_busy_leave(t);
	}
	return r;
}

int tprof_thread_enter(struct tprof_thread *t)
{
	if (TPROF_LIKELY(t->registered && t->generation == tprof_g.generation))
		return 0;
	tprof_inside_enter(t);
	int rc = thread_ready(t) ? -1 : 0;
	tprof_inside_leave(t);
	return rc;
}

/* The thread that forked is the child's only thread, and a stranger to its new image. */
TPROF_START_CODE void tprof_threads_reset(void)
{
	tprof_mutex_reset(&name_lock);
	tprof_g.threads = NULL;
	tprof_g.next_stream = 0;
	forget_stale(&tprof_tls);
	memset(&tprof_g.proc, 0, sizeof(tprof_g.proc));
	tprof_g.proc.generation = tprof_g.generation;
}

static void refresh_name(struct tprof_thread *t)
{
	char path[64], name[32] = "";
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", (int)t->tid);
	int fd = tprof_fd_open(path, O_RDONLY, 0);
	if (fd < 0)
		return;
	ssize_t k = read(fd, name, sizeof(name) - 1);
	tprof_fd_close(fd);
	if (k > 0) {
		name[k] = 0;
		name[strcspn(name, "\n")] = 0;
		tprof_thread_note_name(t, name);
	}
}

/* At the final flush (exit, exec): thread names as they are now, and the drops nobody
 * reported yet. */
void tprof_threads_final(void)
{
	size_t n = 0, cap = 0;
	struct tprof_thread **list = NULL;
	struct tprof_thread *self = &tprof_tls;
	tprof_inside_enter(self);
	pthread_mutex_lock(&tprof_g.lock);
	for (struct tprof_thread *t = tprof_g.threads; t; t = t->reg_next)
		cap++;
	list = cap ? malloc(cap * sizeof(*list)) : NULL;
	for (struct tprof_thread *t = tprof_g.threads; t && n < cap && list; t = t->reg_next)
		list[n++] = t;
	pthread_mutex_unlock(&tprof_g.lock);
	for (size_t i = 0; i < n; i++) {
		refresh_name(list[i]);
		report_drops(list[i]);
	}
	free(list);
	pthread_mutex_lock(&tprof_g.proc_lock);
	uint64_t lost = tprof_g.proc_dropped;
	tprof_g.proc_dropped = 0;
	pthread_mutex_unlock(&tprof_g.proc_lock);
	if (lost)
		tprof_proc_record(TPROF_K_DROP, TPROF_DROP_NO_BUFFER, 0, tprof_now(), lost, 0);
	tprof_inside_leave(self);
}

/* The registered thread whose pthread_t is `which`, or NULL. */
struct tprof_thread *tprof_thread_find(pthread_t which)
{
	struct tprof_thread *found = NULL, *self = &tprof_tls;
	tprof_busy_enter(self);
	pthread_mutex_lock(&tprof_g.lock);
	for (struct tprof_thread *t = tprof_g.threads; t; t = t->reg_next)
		if (pthread_equal(t->self, which))
			found = t;
	pthread_mutex_unlock(&tprof_g.lock);
	tprof_busy_leave(self);
	return found;
}

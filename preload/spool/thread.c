/* thread.c — the life of a recording thread: registered (stream id, name, exit destructor) at
 * its first record, its slow path (a fresh buffer, drops counted and reported), renames, and
 * at its exit its last buffer handed over.  Also the pass over all threads at exit or exec. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../core/clock.h"
#include "../core/core.h"
#include "intern.h"

static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
/* Thread names are compared and set by their thread and, at exit or exec, by whichever
 * thread does the final pass: a leaf lock of their own, taken around nothing else. */
static pthread_mutex_t name_lock = PTHREAD_MUTEX_INITIALIZER;

static void thread_exit(void *arg);

static void make_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

static void report_drops(struct tprof_thread *t)
{
	uint64_t n = __atomic_exchange_n(&t->dropped, 0, __ATOMIC_RELAXED);
	if (n)
		tprof_proc_record(TPROF_K_DROP, __atomic_load_n(&t->drop_reason, __ATOMIC_RELAXED), 0,
				  tprof_now(), n, t->stream);
}

void tprof_thread_note_name(struct tprof_thread *t, const char *name)
{
	char copy[sizeof(t->name)];
	if (!t->stream)
		return;
	pthread_mutex_lock(&name_lock);
	int same = !strncmp(t->name, name, sizeof(t->name) - 1);
	if (!same)
		snprintf(t->name, sizeof(t->name), "%s", name);
	memcpy(copy, t->name, sizeof(copy));
	pthread_mutex_unlock(&name_lock);
	if (same)
		return;
	uint32_t id = tprof_intern(copy, strlen(copy));
	tprof_proc_record(TPROF_K_THREAD, 0, id, tprof_now(), (uint64_t)t->tid, t->stream);
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

static void thread_exit(void *arg)
{
	struct tprof_thread *t = &tprof_tls;
	(void)arg;
	t->key_armed = 0;
	if (t->generation != tprof_g.generation || !t->registered)
		return;
	t->guard++;
	char name[17] = "";
	prctl(PR_GET_NAME, name, 0, 0, 0);
	tprof_thread_note_name(t, name);
	report_drops(t);
	tprof_slot_retire(t);
	pthread_mutex_lock(&tprof_g.lock);
	unlink_registry(t);
	pthread_mutex_unlock(&tprof_g.lock);
	free(t->cache);
	t->cache = NULL;
	t->guard--;
}

/* A thread's state from before a fork belongs to another process image. */
static void forget_stale(struct tprof_thread *t)
{
	t->pos = t->end = NULL;
	t->slot = NULL;
	t->stream = 0;
	t->seq = 0;
	t->registered = 0;
	t->dropped = 0;
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
 * record.  Under the thread's guard. */
static int thread_ready(struct tprof_thread *t)
{
	if (t->generation != tprof_g.generation)
		forget_stale(t);
	return tprof_image_ensure() == 0 && (t->registered || thread_register(t) == 0) ? 0 : -1;
}

/* A fresh buffer now, its first `units` units left free for what follows (buffer.h's
 * tprof_room); nothing is counted as dropped, the records are reserved afterwards. */
void tprof_room_slow(struct tprof_thread *t, unsigned units)
{
	int reason;
	t->guard++;
	if (thread_ready(t) == 0) {
		struct tprof_rec *r = tprof_slot_next(t, units, &reason);
		if (r)
			t->pos = r;
	}
	t->guard--;
}

struct tprof_rec *tprof_reserve_slow(struct tprof_thread *t, unsigned units)
{
	int reason = TPROF_DROP_STOPPED;
	struct tprof_rec *r = NULL;

	if (units > 1 + TPROF_MAX_EXT)
		return NULL;
	t->guard++;
	if (thread_ready(t) == 0)
		r = tprof_slot_next(t, units, &reason);
	if (r) {
		if (__atomic_load_n(&t->dropped, __ATOMIC_RELAXED))
			report_drops(t);
	} else {
		__atomic_add_fetch(&t->dropped, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&t->drop_reason, (uint8_t)reason, __ATOMIC_RELAXED);
	}
	t->guard--;
	return r;
}

int tprof_thread_enter(struct tprof_thread *t)
{
	if (TPROF_LIKELY(t->registered && t->generation == tprof_g.generation))
		return 0;
	t->guard++;
	int rc = thread_ready(t);
	t->guard--;
	return rc;
}

/* The thread that forked is the child's only thread, and a stranger to its new image. */
void tprof_threads_reset(void)
{
	pthread_mutex_init(&name_lock, NULL);
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
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t k = read(fd, name, sizeof(name) - 1);
	close(fd);
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
}

/* The registered thread whose pthread_t is `which`, or NULL. */
struct tprof_thread *tprof_thread_find(pthread_t which)
{
	struct tprof_thread *found = NULL;
	pthread_mutex_lock(&tprof_g.lock);
	for (struct tprof_thread *t = tprof_g.threads; t; t = t->reg_next)
		if (pthread_equal(t->self, which))
			found = t;
	pthread_mutex_unlock(&tprof_g.lock);
	return found;
}

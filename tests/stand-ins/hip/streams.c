/* streams.c — streams and their worker threads.  Every stream (user streams, the null stream
 * of each device, each thread's hipStreamPerThread stream) is a FIFO of operations served in
 * order by its own worker thread.  The device timeline is nominal: an operation starts at
 * max(when it was queued, when the previous one on its stream ended, when what it waits for
 * ended) and lasts its configured duration; the worker sleeps until the nominal end before it
 * marks the operation complete, so completion is never seen before the device time says
 * (it may be seen later: a callback, or a host copy slower than the configured bandwidth).
 * The null stream keeps HIP's legacy semantics: it waits for earlier work on the device's
 * blocking streams, and blocking streams wait for earlier work on it (hipStreamNonBlocking
 * streams do neither).  Also: synchronisation, callbacks, stream waits, teardown at exit,
 * and fork. */
#include "internal.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SPIN_NS 50000u          /* busy-wait the last 50 us of a duration */
#define MAX_SLEEP_NS 20000000u  /* sleep in slices of at most 20 ms (exit stays quick) */

static pthread_mutex_t done_mu = PTHREAD_MUTEX_INITIALIZER; /* op completion */
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static atomic_int fast_forward;    /* set at exit: no more waiting out durations */
static atomic_int restart_workers; /* set in a forked child: workers are gone */

/* Live user and per-thread streams, to validate handles. */
static pthread_mutex_t set_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sh_stream **live;
static size_t nlive, caplive;

static _Thread_local struct sh_stream *tls_pt[SH_MAX_DEVICES];
static pthread_key_t pt_key;

/* ------------------------------------------------------------------ operations */
struct sh_op *sh_op_new(enum sh_op_kind kind)
{
	struct sh_op *op = calloc(1, sizeof(*op));
	if (!op)
		return NULL;
	atomic_init(&op->refs, 1);
	atomic_init(&op->done, 0);
	op->kind = kind;
	op->t_enqueue = sh_now_ns();
	return op;
}

void sh_op_ref(struct sh_op *op)
{
	atomic_fetch_add(&op->refs, 1);
}

void sh_op_unref(struct sh_op *op)
{
	int i;
	if (!op || atomic_fetch_sub(&op->refs, 1) != 1)
		return;
	for (i = 0; i < op->ndeps; i++)
		sh_op_unref(op->deps[i]);
	free(op->deps);
	free(op);
}

int sh_op_add_dep(struct sh_op *op, struct sh_op *dep)
{
	if (!dep || atomic_load(&dep->done))
		return 0; /* complete: ended before `op` was queued, changes nothing */
	if (op->ndeps == op->capdeps) {
		int cap = op->capdeps ? 2 * op->capdeps : 4;
		struct sh_op **d = realloc(op->deps, (size_t)cap * sizeof(*d));
		if (!d)
			return -1;
		op->deps = d;
		op->capdeps = cap;
	}
	sh_op_ref(dep);
	op->deps[op->ndeps++] = dep;
	return 0;
}

void sh_op_wait(struct sh_op *op)
{
	if (atomic_load(&op->done))
		return;
	pthread_mutex_lock(&done_mu);
	while (!atomic_load(&op->done))
		pthread_cond_wait(&done_cv, &done_mu);
	pthread_mutex_unlock(&done_mu);
}

static void complete(struct sh_op *op, uint64_t end)
{
	pthread_mutex_lock(&done_mu);
	op->t_end = end;
	atomic_store(&op->done, 1);
	pthread_cond_broadcast(&done_cv);
	pthread_mutex_unlock(&done_mu);
}

static void sleep_until(uint64_t t)
{
	for (;;) {
		uint64_t now;
		if (atomic_load(&fast_forward))
			return;
		now = sh_now_ns();
		if (now >= t)
			return;
		if (t - now > SPIN_NS) {
			uint64_t wake = t - SPIN_NS;
			struct timespec ts;
			if (wake - now > MAX_SLEEP_NS)
				wake = now + MAX_SLEEP_NS;
			ts.tv_sec = (time_t)(wake / 1000000000u);
			ts.tv_nsec = (long)(wake % 1000000000u);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
}

static void do_copy(struct sh_op *op)
{
	size_t r;
	if (!op->dst || !op->src)
		return;
	if (op->height <= 1) {
		memmove(op->dst, op->src, op->width);
		return;
	}
	for (r = 0; r < op->height; r++)
		memmove((char *)op->dst + r * op->dpitch, (const char *)op->src + r * op->spitch,
			op->width);
}

static void do_memset(struct sh_op *op)
{
	size_t r, i, rows = op->height ? op->height : 1;
	for (r = 0; r < rows; r++) {
		char *row = (char *)op->dst + r * op->dpitch;
		switch (op->elem) {
		case 2:
			for (i = 0; i < op->width; i++)
				((uint16_t *)(void *)row)[i] = (uint16_t)op->value;
			break;
		case 4:
			for (i = 0; i < op->width; i++)
				((uint32_t *)(void *)row)[i] = op->value;
			break;
		default:
			memset(row, (int)(op->value & 0xff), op->width);
		}
	}
}

static const char *kind_name(enum sh_op_kind k)
{
	static const char *const names[] = {"kernel", "graph", "copy", "memset", "event",
					    "wait", "callback", "free", "nop"};
	return names[k];
}

/* Runs one operation on the device timeline of `s` (the worker, or the caller after exit). */
static void run_op(struct sh_stream *s, struct sh_op *op)
{
	uint64_t ready = op->t_enqueue, start, end;
	int i, dev = s->dev->id;
	for (i = 0; i < op->ndeps; i++) {
		sh_op_wait(op->deps[i]);
		if (op->deps[i]->t_end > ready)
			ready = op->deps[i]->t_end;
		sh_op_unref(op->deps[i]);
	}
	op->ndeps = 0;
	start = s->cursor > ready ? s->cursor : ready;
	end = start;
	switch (op->kind) {
	case SH_OP_KERNEL:
	case SH_OP_GRAPH:
		end = start + op->dur_ns;
		break;
	case SH_OP_COPY:
	case SH_OP_MEMSET: {
		/* The bytes move now; the device duration stays the nominal one even when the
		 * host copy takes longer (completion is then only seen later). */
		size_t bytes = op->width * (op->height ? op->height : 1) *
			       (op->kind == SH_OP_MEMSET && op->elem > 1 ? (size_t)op->elem : 1);
		if (op->kind == SH_OP_COPY)
			do_copy(op);
		else
			do_memset(op);
		end = start + sh_copy_ns(bytes);
		break;
	}
	case SH_OP_CALLBACK: {
		uint64_t now;
		op->cb(op->cb_handle, hipSuccess, op->cb_data);
		now = sh_now_ns();
		end = now > start ? now : start;
		break;
	}
	case SH_OP_FREE:
		sh_mem_release(op->dst, 0);
		break;
	case SH_OP_EVENT:
	case SH_OP_WAIT:
	case SH_OP_NOP:
		break;
	}
	op->t_start = start;
	sleep_until(end);
	s->cursor = end;
	sh_trace(2, "device-op dev=%d stream=%p op=%s label=%s start=%lld end=%lld host_end=%llu",
		 dev, (void *)s, kind_name(op->kind), op->label[0] ? op->label : "-",
		 (long long)sh_device_time(dev, start), (long long)sh_device_time(dev, end),
		 (unsigned long long)end);
	complete(op, end);
}

static void *worker_main(void *arg)
{
	struct sh_stream *s = arg;
	for (;;) {
		struct sh_op *op;
		pthread_mutex_lock(&s->mu);
		while (!s->head && !s->stop)
			pthread_cond_wait(&s->cv, &s->mu);
		op = s->head;
		pthread_mutex_unlock(&s->mu);
		if (!op)
			break; /* stopped and drained */
		run_op(s, op);
		pthread_mutex_lock(&s->mu);
		s->head = op->next;
		if (!s->head)
			s->tail = NULL;
		pthread_mutex_unlock(&s->mu);
		sh_op_unref(op);
	}
	return NULL;
}

/* With s->mu held. */
static void start_worker(struct sh_stream *s)
{
	sigset_t all, old;
	if (s->worker_running)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* application signals go elsewhere */
	if (pthread_create(&s->worker, NULL, worker_main, s) == 0)
		s->worker_running = 1;
	else
		fprintf(stderr, "standin-hip: cannot start a stream worker\n");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ------------------------------------------------------------------ stream objects */
/* With d->mu held. */
static struct sh_stream *stream_new(struct sh_device *d, enum sh_stream_kind kind,
				    unsigned flags, int priority)
{
	struct sh_stream *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->magic = SH_STREAM_MAGIC;
	s->kind = kind;
	s->dev = d;
	s->flags = flags;
	s->priority = priority;
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->cv, NULL);
	s->next = d->streams;
	d->streams = s;
	if (kind != SH_STREAM_NULL) {
		pthread_mutex_lock(&set_mu);
		if (nlive == caplive) {
			size_t cap = caplive ? 2 * caplive : 16;
			struct sh_stream **l = realloc(live, cap * sizeof(*l));
			if (l) {
				live = l;
				caplive = cap;
			}
		}
		if (nlive < caplive)
			live[nlive++] = s;
		pthread_mutex_unlock(&set_mu);
	}
	return s;
}

static int is_live(const struct sh_stream *s)
{
	size_t i;
	int found = 0;
	pthread_mutex_lock(&set_mu);
	for (i = 0; i < nlive && !found; i++)
		found = live[i] == s;
	pthread_mutex_unlock(&set_mu);
	return found;
}

struct sh_op *sh_stream_last(struct sh_stream *s)
{
	struct sh_op *op;
	pthread_mutex_lock(&s->mu);
	op = s->last;
	if (op)
		sh_op_ref(op);
	pthread_mutex_unlock(&s->mu);
	return op;
}

/* Waits for the stream's work, stops its worker and frees it. */
static void stream_destroy(struct sh_stream *s)
{
	struct sh_device *d = s->dev;
	struct sh_stream **pp;
	struct sh_op *last = sh_stream_last(s);
	size_t i;
	int running;
	if (last) {
		sh_op_wait(last);
		sh_op_unref(last);
	}
	pthread_mutex_lock(&set_mu);
	for (i = 0; i < nlive; i++)
		if (live[i] == s) {
			live[i] = live[--nlive];
			break;
		}
	pthread_mutex_unlock(&set_mu);
	pthread_mutex_lock(&d->mu);
	for (pp = &d->streams; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&d->mu);
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	running = s->worker_running;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	if (running) {
		if (pthread_equal(pthread_self(), s->worker))
			pthread_detach(s->worker); /* destroyed from its own callback */
		else
			pthread_join(s->worker, NULL);
	}
	sh_op_unref(s->last);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->cv);
	s->magic = 0;
	free(s);
}

static struct sh_stream *null_stream(int dev)
{
	struct sh_device *d = &sh_devices[dev];
	struct sh_stream *s;
	pthread_mutex_lock(&d->mu);
	if (!d->null_stream)
		d->null_stream = stream_new(d, SH_STREAM_NULL, hipStreamDefault, 0);
	s = d->null_stream;
	pthread_mutex_unlock(&d->mu);
	return s;
}

static struct sh_stream *per_thread_stream(int dev)
{
	if (!tls_pt[dev]) {
		struct sh_device *d = &sh_devices[dev];
		pthread_mutex_lock(&d->mu);
		tls_pt[dev] = stream_new(d, SH_STREAM_PER_THREAD, hipStreamDefault, 0);
		pthread_mutex_unlock(&d->mu);
		pthread_setspecific(pt_key, tls_pt);
	}
	return tls_pt[dev];
}

/* Thread exit: the thread's per-thread streams go (after their work), as in HIP. */
static void pt_key_destructor(void *unused)
{
	int d;
	(void)unused;
	for (d = 0; d < SH_MAX_DEVICES; d++)
		if (tls_pt[d]) {
			if (!sh_devices[d].torn_down)
				stream_destroy(tls_pt[d]);
			tls_pt[d] = NULL;
		}
}

static void restart_all(void)
{
	int d;
	if (!atomic_exchange(&restart_workers, 0))
		return;
	for (d = 0; d < SH_MAX_DEVICES; d++) {
		struct sh_stream *s;
		pthread_mutex_lock(&sh_devices[d].mu);
		for (s = sh_devices[d].streams; s; s = s->next) {
			pthread_mutex_lock(&s->mu);
			if (s->head)
				start_worker(s);
			pthread_mutex_unlock(&s->mu);
		}
		pthread_mutex_unlock(&sh_devices[d].mu);
	}
}

struct sh_stream *sh_stream_resolve(hipStream_t h, hipError_t *err)
{
	int dev = sh_current_device();
	struct sh_stream *s = (struct sh_stream *)h;
	if (atomic_load(&restart_workers))
		restart_all();
	*err = hipSuccess;
	if (!h || h == hipStreamPerThread) {
		if (!sh_valid_device(dev)) {
			*err = hipErrorNoDevice;
			return NULL;
		}
		s = h ? per_thread_stream(dev) : null_stream(dev);
		if (!s)
			*err = hipErrorOutOfMemory;
		return s;
	}
	if (!is_live(s)) {
		*err = hipErrorContextIsDestroyed; /* what HIP 5.2 answers for a stale handle */
		return NULL;
	}
	return s;
}

/* ------------------------------------------------------------------ queueing */
void sh_enqueue(struct sh_stream *s, struct sh_op *op)
{
	struct sh_device *d = s->dev;
	struct sh_op *old;
	op->stream = s;
	pthread_mutex_lock(&d->mu);
	/* Legacy null-stream ordering. */
	if (s->kind == SH_STREAM_NULL) {
		struct sh_stream *t;
		for (t = d->streams; t; t = t->next)
			if (t != s && !(t->flags & hipStreamNonBlocking)) {
				struct sh_op *l = sh_stream_last(t);
				sh_op_add_dep(op, l);
				sh_op_unref(l);
			}
	} else if (!(s->flags & hipStreamNonBlocking) && d->null_stream) {
		struct sh_op *l = sh_stream_last(d->null_stream);
		sh_op_add_dep(op, l);
		sh_op_unref(l);
	}
	if (d->torn_down) {
		/* After exit began: no workers; run it here, after what is still queued. */
		pthread_mutex_unlock(&d->mu);
		pthread_mutex_lock(&s->mu);
		old = s->last;
		if (old)
			sh_op_wait(old);
		sh_op_ref(op);
		s->last = op;
		run_op(s, op);
		pthread_mutex_unlock(&s->mu);
		sh_op_unref(old);
		sh_op_unref(op);
		return;
	}
	pthread_mutex_lock(&s->mu);
	if (s->tail)
		s->tail->next = op;
	else
		s->head = op;
	s->tail = op; /* the queue's reference is the caller's */
	old = s->last;
	sh_op_ref(op);
	s->last = op;
	start_worker(s);
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_mutex_unlock(&d->mu);
	sh_op_unref(old);
}

void sh_enqueue_wait(struct sh_stream *s, struct sh_op *op)
{
	sh_op_ref(op);
	sh_enqueue(s, op);
	sh_op_wait(op);
	sh_op_unref(op);
}

void sh_device_sync(int dev)
{
	struct sh_device *d = &sh_devices[dev];
	struct sh_stream *s;
	struct sh_op **ops = NULL;
	size_t n = 0, cap = 0, i;
	if (atomic_load(&restart_workers))
		restart_all();
	pthread_mutex_lock(&d->mu);
	for (s = d->streams; s; s = s->next) {
		struct sh_op *l = sh_stream_last(s);
		if (!l)
			continue;
		if (n == cap) {
			size_t c = cap ? 2 * cap : 16;
			struct sh_op **o = realloc(ops, c * sizeof(*o));
			if (!o) {
				sh_op_unref(l);
				break;
			}
			ops = o;
			cap = c;
		}
		ops[n++] = l;
	}
	pthread_mutex_unlock(&d->mu);
	for (i = 0; i < n; i++) {
		sh_op_wait(ops[i]);
		sh_op_unref(ops[i]);
	}
	free(ops);
}

/* ------------------------------------------------------------------ exit and fork */
/* In the order the rest of the file takes them: a device, then the live-stream set. */
static void fork_prepare(void)
{
	int d;
	for (d = 0; d < SH_MAX_DEVICES; d++)
		pthread_mutex_lock(&sh_devices[d].mu);
	pthread_mutex_lock(&set_mu);
	pthread_mutex_lock(&done_mu);
}

static void fork_parent(void)
{
	int d;
	pthread_mutex_unlock(&done_mu);
	pthread_mutex_unlock(&set_mu);
	for (d = SH_MAX_DEVICES - 1; d >= 0; d--)
		pthread_mutex_unlock(&sh_devices[d].mu);
}

/* The child has the parent's streams but none of their workers: start them again when
 * next needed.  Mutexes a worker may have held at the fork are re-initialised. */
static void fork_child(void)
{
	int d;
	pthread_mutex_init(&done_mu, NULL);
	pthread_cond_init(&done_cv, NULL);
	for (d = 0; d < SH_MAX_DEVICES; d++) {
		struct sh_stream *s;
		pthread_mutex_init(&sh_devices[d].mu, NULL);
		for (s = sh_devices[d].streams; s; s = s->next) {
			pthread_mutex_init(&s->mu, NULL);
			pthread_cond_init(&s->cv, NULL);
			s->worker_running = 0;
		}
	}
	pthread_mutex_init(&set_mu, NULL);
	atomic_store(&restart_workers, 1);
}

void sh_streams_setup(void)
{
	pthread_key_create(&pt_key, pt_key_destructor);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* At exit: queued work completes at once (durations are no longer waited out), workers are
 * stopped and joined; later calls run their operations on the calling thread.  Objects stay
 * allocated (and reachable) for whatever runs later in the exit sequence. */
__attribute__((destructor)) static void sh_teardown(void)
{
	int dv;
	atomic_store(&fast_forward, 1);
	for (dv = 0; dv < SH_MAX_DEVICES; dv++) {
		struct sh_device *d = &sh_devices[dv];
		struct sh_stream *s, **join = NULL;
		size_t n = 0, i;
		pthread_mutex_lock(&d->mu);
		d->torn_down = 1;
		for (s = d->streams; s; s = s->next)
			n++;
		join = n ? calloc(n, sizeof(*join)) : NULL;
		n = 0;
		for (s = d->streams; s; s = s->next) {
			pthread_mutex_lock(&s->mu);
			s->stop = 1;
			pthread_cond_signal(&s->cv);
			if (s->worker_running && join)
				join[n++] = s;
			pthread_mutex_unlock(&s->mu);
		}
		pthread_mutex_unlock(&d->mu);
		for (i = 0; i < n; i++) {
			if (pthread_equal(pthread_self(), join[i]->worker))
				pthread_detach(join[i]->worker); /* exit() from a callback */
			else
				pthread_join(join[i]->worker, NULL);
			join[i]->worker_running = 0;
		}
		free(join);
	}
}

/* ------------------------------------------------------------------ stream API */
static hipError_t stream_create(hipStream_t *stream, unsigned flags, int priority)
{
	int dev = sh_current_device();
	struct sh_device *d;
	if (!stream)
		return hipErrorInvalidValue;
	if (flags != hipStreamDefault && flags != hipStreamNonBlocking)
		return hipErrorInvalidValue;
	if (!sh_valid_device(dev))
		return hipErrorNoDevice;
	d = &sh_devices[dev];
	pthread_mutex_lock(&d->mu);
	*stream = (hipStream_t)stream_new(d, SH_STREAM_USER, flags, priority);
	pthread_mutex_unlock(&d->mu);
	return *stream ? hipSuccess : hipErrorOutOfMemory;
}

SH_EXPORT hipError_t hipStreamCreate(hipStream_t *stream)
{
	hipError_t e;
	sh_init();
	e = stream_create(stream, hipStreamDefault, 0);
	SH_RET(e, "%p", e == hipSuccess ? (void *)*stream : NULL);
}

SH_EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags)
{
	hipError_t e;
	sh_init();
	e = stream_create(stream, flags, 0);
	SH_RET(e, "%p, flags=%u", e == hipSuccess ? (void *)*stream : NULL, flags);
}

SH_EXPORT hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags,
						 int priority)
{
	hipError_t e;
	sh_init();
	/* HIP has three priorities: high (-1), normal (0), low (1). */
	e = stream_create(stream, flags, priority <= -1 ? -1 : priority >= 1 ? 1 : 0);
	SH_RET(e, "%p, flags=%u, priority=%d", e == hipSuccess ? (void *)*stream : NULL, flags,
	       priority);
}

SH_EXPORT hipError_t hipDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
	sh_init();
	if (leastPriority)
		*leastPriority = 1;
	if (greatestPriority)
		*greatestPriority = -1;
	SH_RET(hipSuccess, "1, -1");
}

SH_EXPORT hipError_t hipStreamDestroy(hipStream_t stream)
{
	struct sh_stream *s = (struct sh_stream *)stream;
	uintptr_t id = (uintptr_t)stream; /* for the trace, after the free */
	sh_init();
	if (!stream || stream == hipStreamPerThread)
		SH_RET(hipErrorInvalidHandle, "%p", (void *)stream);
	if (!is_live(s) || s->kind != SH_STREAM_USER)
		SH_RET(hipErrorContextIsDestroyed, "%p", (void *)stream);
	if (s->dev->torn_down)
		SH_RET(hipSuccess, "%p", (void *)stream); /* exit under way: leave it */
	stream_destroy(s);
	SH_RET(hipSuccess, "%#" PRIxPTR, id);
}

/* Whether `s` and, for the null stream, the device's blocking streams have nothing pending:
 * HIP makes the null stream wait for them before it looks at it. */
static int idle(struct sh_stream *s)
{
	struct sh_device *d = s->dev;
	struct sh_stream *t;
	int busy = 0;
	pthread_mutex_lock(&d->mu);
	for (t = d->streams; t && !busy; t = t->next)
		if (t == s || (s->kind == SH_STREAM_NULL && !(t->flags & hipStreamNonBlocking))) {
			struct sh_op *l = sh_stream_last(t);
			busy = l && !atomic_load(&l->done);
			sh_op_unref(l);
		}
	pthread_mutex_unlock(&d->mu);
	return !busy;
}

static hipError_t stream_sync(hipStream_t h)
{
	hipError_t e;
	struct sh_stream *s = sh_stream_resolve(h, &e);
	struct sh_op *last;
	if (!s)
		return e;
	if (s->kind == SH_STREAM_NULL) {
		/* A marker on the null stream waits for the blocking streams too. */
		struct sh_op *op = sh_op_new(SH_OP_NOP);
		if (!op)
			return hipErrorOutOfMemory;
		snprintf(op->label, sizeof(op->label), "synchronize");
		sh_enqueue_wait(s, op);
		return hipSuccess;
	}
	last = sh_stream_last(s);
	if (last) {
		sh_op_wait(last);
		sh_op_unref(last);
	}
	return hipSuccess;
}

SH_EXPORT hipError_t hipStreamSynchronize(hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = stream_sync(stream);
	SH_RET(e, "%p", (void *)stream);
}

SH_EXPORT hipError_t hipStreamSynchronize_spt(hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = stream_sync(stream ? stream : hipStreamPerThread);
	SH_RET(e, "%p", (void *)stream);
}

static hipError_t stream_query(hipStream_t h)
{
	hipError_t e;
	struct sh_stream *s = sh_stream_resolve(h, &e);
	if (!s)
		return e;
	return idle(s) ? hipSuccess : hipErrorNotReady;
}

SH_EXPORT hipError_t hipStreamQuery(hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = stream_query(stream);
	SH_RET(e, "%p", (void *)stream);
}

SH_EXPORT hipError_t hipStreamQuery_spt(hipStream_t stream)
{
	hipError_t e;
	sh_init();
	e = stream_query(stream ? stream : hipStreamPerThread);
	SH_RET(e, "%p", (void *)stream);
}

static hipError_t stream_wait_event(hipStream_t h, hipEvent_t event, unsigned int flags)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *rec, *op;
	if (!event)
		return hipErrorInvalidHandle;
	if (flags)
		return hipErrorInvalidValue;
	s = sh_stream_resolve(h, &e);
	if (!s)
		return e;
	rec = sh_event_op(event);
	if (!rec)
		return hipSuccess; /* never recorded: nothing to wait for */
	if (!atomic_load(&rec->done)) {
		op = sh_op_new(SH_OP_WAIT);
		if (!op) {
			sh_op_unref(rec);
			return hipErrorOutOfMemory;
		}
		snprintf(op->label, sizeof(op->label), "event %p", (void *)event);
		sh_op_add_dep(op, rec);
		sh_enqueue(s, op);
	}
	sh_op_unref(rec);
	return hipSuccess;
}

SH_EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags)
{
	hipError_t e;
	sh_init();
	e = stream_wait_event(stream, event, flags);
	SH_RET(e, "%p, %p, %u", (void *)stream, (void *)event, flags);
}

SH_EXPORT hipError_t hipStreamWaitEvent_spt(hipStream_t stream, hipEvent_t event,
					    unsigned int flags)
{
	hipError_t e;
	sh_init();
	e = stream_wait_event(stream ? stream : hipStreamPerThread, event, flags);
	SH_RET(e, "%p, %p, %u", (void *)stream, (void *)event, flags);
}

SH_EXPORT hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
					  void *userData, unsigned int flags)
{
	hipError_t e;
	struct sh_stream *s;
	struct sh_op *op;
	sh_init();
	if (!callback || flags)
		SH_RET(hipErrorInvalidValue, "%p, %u", (void *)stream, flags);
	s = sh_stream_resolve(stream, &e);
	if (!s)
		SH_RET(e, "%p", (void *)stream);
	op = sh_op_new(SH_OP_CALLBACK);
	if (!op)
		SH_RET(hipErrorOutOfMemory, "%p", (void *)stream);
	op->cb = callback;
	op->cb_data = userData;
	op->cb_handle = stream;
	snprintf(op->label, sizeof(op->label), "callback %p", userData);
	sh_enqueue(s, op);
	SH_RET(hipSuccess, "%p, %p", (void *)stream, userData);
}

static hipError_t stream_get_flags(hipStream_t h, unsigned int *flags)
{
	hipError_t e;
	struct sh_stream *s;
	if (!flags || !h)
		return hipErrorInvalidValue;
	s = sh_stream_resolve(h, &e);
	if (!s)
		return e;
	*flags = s->flags;
	return hipSuccess;
}

SH_EXPORT hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags)
{
	hipError_t e;
	sh_init();
	e = stream_get_flags(stream, flags);
	SH_RET(e, "%p", (void *)stream);
}

SH_EXPORT hipError_t hipStreamGetFlags_spt(hipStream_t stream, unsigned int *flags)
{
	hipError_t e;
	sh_init();
	e = stream_get_flags(stream ? stream : hipStreamPerThread, flags);
	SH_RET(e, "%p", (void *)stream);
}

static hipError_t stream_get_priority(hipStream_t h, int *priority)
{
	hipError_t e;
	struct sh_stream *s;
	if (!priority)
		return hipErrorInvalidValue;
	if (!h) {
		*priority = 0;
		return hipSuccess;
	}
	s = sh_stream_resolve(h, &e);
	if (!s)
		return e;
	*priority = s->priority;
	return hipSuccess;
}

SH_EXPORT hipError_t hipStreamGetPriority(hipStream_t stream, int *priority)
{
	hipError_t e;
	sh_init();
	e = stream_get_priority(stream, priority);
	SH_RET(e, "%p", (void *)stream);
}

SH_EXPORT hipError_t hipStreamGetPriority_spt(hipStream_t stream, int *priority)
{
	hipError_t e;
	sh_init();
	e = stream_get_priority(stream ? stream : hipStreamPerThread, priority);
	SH_RET(e, "%p", (void *)stream);
}

SH_EXPORT int hipGetStreamDeviceId(hipStream_t stream)
{
	hipError_t e;
	struct sh_stream *s;
	int dev;
	sh_init();
	if (!stream) {
		dev = sh_current_device();
	} else {
		s = sh_stream_resolve(stream, &e);
		dev = s ? s->dev->id : -1;
	}
	sh_trace(1, "hipGetStreamDeviceId(%p) = %d", (void *)stream, dev);
	return dev;
}

SH_EXPORT hipError_t hipDeviceSynchronize(void)
{
	int dev = sh_current_device();
	sh_init();
	if (!sh_valid_device(dev))
		SH_RET(hipErrorNoDevice, "%s", "");
	sh_device_sync(dev);
	SH_RET(hipSuccess, "%s", "");
}

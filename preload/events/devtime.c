/* devtime.c — device timing (see devtime.h).  Threads that launch work own a ring of pending
 * operations (claimed at begin, published in claim order once ended, so that an operation
 * left open across calls, like an NCCL group's, holds back only what its thread began after
 * it) and a cache of events per device; the completion thread drains the rings into
 * per-device queues in launch order, polls each queue's oldest events, converts device times
 * to host time through an anchor event recorded on a private idle stream (re-taken every
 * second so float milliseconds stay precise), and writes the operations of a device in the
 * order they were launched.  Nothing here runs on the hot path but a ring slot and two
 * event records. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "../spool/buffer.h"
#include "../core/clock.h"
#include "../core/core.h"
#include "devtime.h"

#define RING 4096u                  /* operations in flight per launching thread */
#define CACHE 32                    /* events a thread keeps per device */
#define ANCHOR_AGE_NS 1000000000ll  /* re-anchor after a second */
#define ANCHOR_TRIES 8              /* anchor tries at most, their brackets intersected */
#define ANCHOR_TIGHT_NS 20000       /* an intersection this narrow ends the tries */
#define ANCHOR_WIDE_NS 200000       /* wider: the host saw it late (see anchor()) */
#define IDLE_SLEEP_NS 2000000l      /* poll interval with nothing pending */
#define BUSY_SLEEP_NS 100000l       /* poll interval with work in flight */
#define STREAM_ENDS 32              /* streams per device whose latest end is kept */

struct evcache {
	void *ev[CACHE];
	int n;
};

struct devthread {
	struct tprof_devpend ring[RING];
	uint32_t claim;                 /* owner: next slot to hand out */
	uint32_t head;                  /* owner: next slot to publish (release); <= claim */
	uint32_t tail;                  /* completion thread: next slot to take (release) */
	struct evcache cache[TPROF_MAX_RUNTIMES][TPROF_MAX_DEVICES];
	struct devthread *next;
};

/* Where the latest operation timed on a stream ends, and how far rounding may have put it. */
struct stream_end {
	uint64_t stream;
	int64_t end, slack;
};

/* A device's operations in launch order, its clock anchor and its streams' latest ends
 * (completion thread). */
struct devq {
	struct tprof_devpend *v;
	size_t n, cap;
	int anchored;
	uint64_t priv_stream;
	void *anchor;                   /* the anchor event: one of ev[] */
	void *ev[ANCHOR_TRIES];         /* the events of the anchor's tries */
	int64_t anchor_ns;
	int64_t anchored_at;
	struct stream_end ends[STREAM_ENDS];
	unsigned nends, evict;
};

/* The locks (new rings and start; pools; queues: one resolver) and what a fork child reads
 * and resets: with the start's data (common/startup.h). */
static pthread_mutex_t reg_lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t pool_lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t queue_lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
/* grows at its head only: read without a lock */
static struct devthread *threads TPROF_START_DATA;
static struct {
	void **ev;
	size_t n, cap;
} pool[TPROF_MAX_RUNTIMES][TPROF_MAX_DEVICES];
static struct devq queues[TPROF_MAX_RUNTIMES][TPROF_MAX_DEVICES];
static const struct tprof_devrt *runtimes[TPROF_MAX_RUNTIMES];
static pthread_t completer;
static int running TPROF_START_DATA, stopping TPROF_START_DATA;
/* queues or pool written since the start (or the last fork) */
static int queues_used TPROF_START_DATA;
static int exit_registered, untimed_registered;   /* their atexit handlers */
static uint64_t dropped_ops TPROF_START_DATA;

static __thread struct devthread *my_dev __attribute__((tls_model("initial-exec")));

static int64_t mono(void)
{
	return (int64_t)tprof_mono_ns();
}

/* ---- events ------------------------------------------------------------------------------ */

/* Under pool_lock. */
static void pool_put_locked(const struct tprof_devrt *rt, int device, void *ev)
{
	__atomic_store_n(&queues_used, 1, __ATOMIC_RELAXED);
	if (pool[rt->id][device].n == pool[rt->id][device].cap) {
		size_t cap = pool[rt->id][device].cap ? pool[rt->id][device].cap * 2 : 64;
		void **nv = realloc(pool[rt->id][device].ev, cap * sizeof(void *));
		if (!nv)
			return;  /* the event is forgotten, not destroyed: the lock is held */
		pool[rt->id][device].ev = nv;
		pool[rt->id][device].cap = cap;
	}
	pool[rt->id][device].ev[pool[rt->id][device].n++] = ev;
}

/* Refills a thread's cache: from the pool, else new events. */
static __attribute__((noinline)) int refill(struct evcache *c, const struct tprof_devrt *rt,
					    int device)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&pool_lock);
	size_t have = pool[rt->id][device].n, take = (size_t)(CACHE - c->n);
	if (take > have)
		take = have;
	if (take) {
		memcpy(&c->ev[c->n], &pool[rt->id][device].ev[have - take], take * sizeof(void *));
		pool[rt->id][device].n = have - take;
		c->n += (int)take;
	}
	pthread_mutex_unlock(&pool_lock);
	while (c->n < CACHE / 2) {
		void *ev;
		if (rt->event_create(device, &ev) != 0)
			break;
		c->ev[c->n++] = ev;
	}
	return c->n;
}

/* ---- the hot path's side ------------------------------------------------------------------ */

static void completer_start(void);
static void untimed_register(void);

static struct devthread *devthread_new(void)
{
	struct devthread *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	pthread_mutex_lock(&reg_lock);
	d->next = threads;
	__atomic_store_n(&threads, d, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&reg_lock);
	completer_start();
	return d;
}

/* An operation left untimed: counted, and NULL to return. */
static struct tprof_devpend *untimed(void)
{
	tprof_dev_untimed();
	return NULL;
}

static int usable(const struct tprof_devrt *rt)
{
	return !rt->usable || rt->usable();
}

/* A thread's first operation: its ring, unless the runtime has no events (a minimal one),
 * which costs a thread no ring and no timing thread. */
static __attribute__((noinline)) struct devthread *first_op(const struct tprof_devrt *rt)
{
	TPROF_KEEP_ERRNO;
	return usable(rt) ? (my_dev = devthread_new()) : NULL;
}

struct tprof_devpend *tprof_dev_begin(struct tprof_thread *t, const struct tprof_devrt *rt,
				      int device, uint64_t stream)
{
	struct devthread *d = my_dev;
	if (TPROF_UNLIKELY(!d) && !(d = first_op(rt)))
		return untimed();
	/* The completion thread settles the queues of the runtimes it has been told of. */
	if (TPROF_UNLIKELY(__atomic_load_n(&runtimes[rt->id], __ATOMIC_RELAXED) != rt))
		__atomic_store_n(&runtimes[rt->id], rt, __ATOMIC_RELEASE);
	if (device < 0 || device >= TPROF_MAX_DEVICES)
		return untimed();
	uint32_t claim = d->claim;
	if (claim - __atomic_load_n(&d->tail, __ATOMIC_ACQUIRE) >= RING)
		return untimed();
	struct evcache *c = &d->cache[rt->id][device];
	if (c->n < 2 && (!usable(rt) || refill(c, rt, device) < 2))
		return untimed();
	int n = c->n;
	void *start = c->ev[n - 1], *end = c->ev[n - 2];
	if (rt->event_record(start, stream) != 0)
		return untimed();
	c->n = n - 2;
	struct tprof_devpend *p = &d->ring[claim % RING];
	p->rt = rt;
	p->ev_start = start;
	p->ev_end = end;
	p->corr = 0;
	p->name = 0;
	p->kind = 0;
	p->resolved = 0;
	p->state = TPROF_DEVP_OPEN;
	/* In two halves: one memset of the 96 bytes is a `rep stos`, whose start costs the
	 * launching thread more than the six stores of these two. */
	memset(&p->op, 0, sizeof(p->op) / 2);
	memset((char *)&p->op + sizeof(p->op) / 2, 0, sizeof(p->op) - sizeof(p->op) / 2);
	p->op.device = (uint32_t)device;
	p->op.stream = stream;
	p->op.launch_stream = t->stream;
	d->claim = claim + 1;
	return p;
}

void tprof_dev_end(struct tprof_thread *t, struct tprof_devpend *p, int ok)
{
	struct devthread *d = my_dev;
	(void)t;
	if (!p)
		return;
	if (!ok || p->rt->event_record(p->ev_end, p->op.stream) != 0) {
		struct evcache *c = &d->cache[p->rt->id][p->op.device];
		c->ev[c->n++] = p->ev_end;
		c->ev[c->n++] = p->ev_start;
		p->state = TPROF_DEVP_VOID;
	} else {
		p->state = TPROF_DEVP_READY;
	}
	/* Publish every ended slot up to the first one still open (usually just this one). */
	uint32_t head = d->head;
	while (head != d->claim && d->ring[head % RING].state != TPROF_DEVP_OPEN)
		head++;
	if (head != d->head)
		__atomic_store_n(&d->head, head, __ATOMIC_RELEASE);
}

void tprof_dev_untimed(void)
{
	__atomic_add_fetch(&dropped_ops, 1, __ATOMIC_RELAXED);
	if (TPROF_UNLIKELY(!__atomic_load_n(&untimed_registered, __ATOMIC_ACQUIRE)))
		untimed_register();
}

/* ---- the completion thread's side ------------------------------------------------------- */

static int push(struct devq *q, const struct tprof_devpend *p)
{
	__atomic_store_n(&queues_used, 1, __ATOMIC_RELAXED);
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 256;
		struct tprof_devpend *nv = realloc(q->v, cap * sizeof(*nv));
		if (!nv)
			return -1;
		q->v = nv;
		q->cap = cap;
	}
	/* Launch order across threads: most arrive in order, so search from the back. */
	size_t i = q->n;
	while (i > 0 && q->v[i - 1].op.launch_t0 > p->op.launch_t0)
		i--;
	memmove(&q->v[i + 1], &q->v[i], (q->n - i) * sizeof(*p));
	q->v[i] = *p;
	q->n++;
	return 0;
}

/* Moves what every thread published into the device queues. */
static int drain_rings(void)
{
	int moved = 0;
	for (struct devthread *d = __atomic_load_n(&threads, __ATOMIC_ACQUIRE); d; d = d->next) {
		uint32_t head = __atomic_load_n(&d->head, __ATOMIC_ACQUIRE);
		for (uint32_t i = d->tail; i != head; i++) {
			struct tprof_devpend *p = &d->ring[i % RING];
			if (p->state == TPROF_DEVP_VOID)
				continue;  /* its thread took its events back */
			if (push(&queues[p->rt->id][p->op.device], p) < 0) {
				pthread_mutex_lock(&pool_lock);
				pool_put_locked(p->rt, (int)p->op.device, p->ev_start);
				pool_put_locked(p->rt, (int)p->op.device, p->ev_end);
				pthread_mutex_unlock(&pool_lock);
				__atomic_add_fetch(&dropped_ops, 1, __ATOMIC_RELAXED);
			}
			moved++;
		}
		__atomic_store_n(&d->tail, head, __ATOMIC_RELEASE);
	}
	return moved;
}

/* Records `ev` on the device's idle private stream: its device time lies between just before
 * the record (*lo) and the first query that saw it done (*hi); *rec is when the record call
 * returned. */
static int anchor_try(const struct tprof_devrt *rt, struct devq *q, void *ev, int64_t *lo,
		      int64_t *rec, int64_t *hi)
{
	int64_t t0 = mono();
	if (rt->event_record(ev, q->priv_stream) != 0)
		return -1;
	*rec = mono();
	for (;;) {
		int r = rt->event_query(ev);
		int64_t now = mono();
		if (r == 1) {
			*lo = t0;
			*hi = now;
			return 0;
		}
		if (r < 0 || now - t0 > 1000000000ll)
			return -1;
	}
}

/* The host interval that holds the device time of the tries' latest event: each try's
 * [lo, hi] carried onto it by the device's own elapsed time between the two events, and
 * intersected.  *rec: the earliest record return, carried likewise. */
struct bracket {
	int64_t lo, rec, hi;
};

static int intersect(const struct tprof_devrt *rt, void *const *ev, const struct bracket *b,
		     const int *ok, int last, struct bracket *out)
{
	*out = b[last];
	for (int i = 0; i < last; i++) {
		float ms;
		if (!ok[i] || rt->elapsed_ms(ev[i], ev[last], &ms) != 0)
			continue;
		int64_t e = (int64_t)((double)ms * 1e6);
		if (b[i].lo + e > out->lo)
			out->lo = b[i].lo + e;
		if (b[i].hi + e < out->hi)
			out->hi = b[i].hi + e;
		if (b[i].rec + e < out->rec)
			out->rec = b[i].rec + e;
	}
	return out->lo <= out->hi ? 0 : -1;
}

/* Pins the device's clock to the host's.  A try records an event on the private idle stream;
 * the host brackets its device time (see anchor_try).  A thread descheduled at the wrong
 * moment (a loaded host) widens its try's bracket, so tries are made until the intersection
 * of all brackets, carried onto the latest event, is tight: one try seen promptly bounds it
 * from above, one recorded promptly from below.  The anchor is the middle of that interval.
 * When even the intersection is wide, the host was late to see the events rather than the
 * device late to reach them (a device reaches an event on an idle stream as soon as it is
 * submitted): the record calls bound it from above then.  If the brackets do not meet (the
 * clocks disagree), the latest try alone is used. */
static int anchor(const struct tprof_devrt *rt, int device, struct devq *q)
{
	if (!q->priv_stream && rt->stream_create(device, &q->priv_stream) != 0)
		return -1;
	struct bracket b[ANCHOR_TRIES], best;
	int ok[ANCHOR_TRIES] = { 0 }, last = -1;
	for (int i = 0; i < ANCHOR_TRIES; i++) {
		if (!q->ev[i] && rt->event_create(device, &q->ev[i]) != 0)
			break;
		if (anchor_try(rt, q, q->ev[i], &b[i].lo, &b[i].rec, &b[i].hi) != 0)
			continue;
		ok[i] = 1;
		last = i;
		if (intersect(rt, q->ev, b, ok, i, &best) != 0)
			best = b[i];
		if (best.hi - best.lo <= ANCHOR_TIGHT_NS)
			break;
	}
	if (last < 0)
		return -1;
	int64_t top = best.hi;
	if (best.hi - best.lo > ANCHOR_WIDE_NS && best.rec < best.hi)
		top = best.rec > best.lo ? best.rec : best.lo;
	q->anchor = q->ev[last];
	q->anchor_ns = best.lo + (top - best.lo) / 2;
	q->anchored_at = mono();
	q->anchored = 1;
	return 0;
}

/* Float milliseconds as nanoseconds, rounded to the nearest: monotone, as the runtime's float
 * milliseconds are in the device times they come from. */
static int64_t ms_ns(float ms)
{
	double x = (double)ms * 1e6;
	return x >= 0 ? (int64_t)(x + 0.5) : -(int64_t)(0.5 - x);
}

/* Nanoseconds from float milliseconds `ms` to the next float away from 0: the runtime's
 * rounding moved the value by at most half of that. */
static int64_t ulp_ns(float ms)
{
	uint32_t b;
	float up, mag = ms < 0 ? -ms : ms;
	memcpy(&b, &mag, sizeof(b));
	b++;
	memcpy(&up, &b, sizeof(up));
	return (int64_t)(((double)up - (double)mag) * 1e6) + 1;
}

/* The latest end on `stream` of the queue's device (a new entry, replacing the oldest one
 * when all are taken). */
static struct stream_end *stream_end(struct devq *q, uint64_t stream)
{
	for (unsigned i = 0; i < q->nends; i++)
		if (q->ends[i].stream == stream)
			return &q->ends[i];
	struct stream_end *e = q->nends < STREAM_ENDS ? &q->ends[q->nends++]
						      : &q->ends[q->evict++ % STREAM_ENDS];
	*e = (struct stream_end){ stream, INT64_MIN, 0 };
	return e;
}

/* Times one finished operation against the anchor: start = anchor + elapsed(anchor, start
 * event), end = start + elapsed(start event, end event).  The start is monotone in the
 * device time and the duration exact but for the rounding of small float milliseconds, yet
 * their sum may pass the next operation's start by the rounding of the large ones (61 ns a
 * second from the anchor).  A stream runs in order, so an operation that starts before the
 * end of the one timed before it on its stream by no more than that rounding starts at that
 * end instead: the position gives way, the duration stays.  A larger overlap is not
 * rounding and is left as measured (the analyzer moves and counts it). */
static int time_op(struct devq *q, struct tprof_devpend *p)
{
	float a, d;
	if (p->rt->elapsed_ms(q->anchor, p->ev_start, &a) != 0 ||
	    p->rt->elapsed_ms(p->ev_start, p->ev_end, &d) != 0)
		return -1;
	int64_t start = q->anchor_ns + ms_ns(a), dur = ms_ns(d);
	struct stream_end *e = stream_end(q, p->op.stream);
	if (start < e->end && e->end - start <= e->slack + ulp_ns(a) / 2 + 1)
		start = e->end;
	p->op.start_ns = start;
	p->op.end_ns = start + (dur > 0 ? dur : 0);
	e->end = p->op.end_ns;
	e->slack = (ulp_ns(a) + ulp_ns(d)) / 2 + 1;
	return 0;
}

/* Written by a thread whose guard is up (its runtime calls are not recorded). */
static void write_op(const struct tprof_devpend *p)
{
	struct tprof_thread *t = &tprof_tls;
	/* work launched inside the capture window is kept whole when it ends outside */
	if (!__atomic_load_n(&tprof_active, __ATOMIC_RELAXED))
		return;
	struct tprof_rec *r = tprof_reserve(t, 4);
	if (!r)
		return;
	memcpy(r + 1, &p->op, sizeof(p->op));
	r->t0 = tprof_now();
	r->t1 = 0;
	r->arg = p->corr;
	tprof_commit(t, r, TPROF_K_DEVICE, 3, p->kind, p->name);
}

/* The stream of a queue's operation with its latest end event still unknown. */
struct probe {
	uint64_t stream;
	size_t last;                    /* index of its last unresolved operation */
	int done;                       /* that one (and so every earlier one) has finished */
};

/* Polls (or, when `wait`, waits for) a device queue's operations and writes the finished
 * prefix.  Streams run in order, so one query per stream tells about all its operations: if
 * its last one in the queue finished, every earlier one did too (else its earlier ones are
 * asked, oldest first).  Returns how many are still pending. */
static size_t settle(const struct tprof_devrt *rt, int device, struct devq *q, int wait)
{
	struct probe probes[32];
	int nprobes = 0;
	if (!q->n)
		return 0;
	if (!q->anchored || mono() - q->anchored_at > ANCHOR_AGE_NS)
		if (anchor(rt, device, q) < 0)
			q->anchored = 0;
	for (size_t i = 0; i < q->n; i++) {
		if (q->v[i].resolved)
			continue;
		int k = 0;
		while (k < nprobes && probes[k].stream != q->v[i].op.stream)
			k++;
		if (k == nprobes) {
			if (nprobes == 32)
				continue;  /* more streams than probes: the rest wait for the next pass */
			probes[nprobes++] = (struct probe){ q->v[i].op.stream, i, 0 };
		}
		probes[k].last = i;
	}
	for (int k = 0; k < nprobes; k++) {
		void *ev = q->v[probes[k].last].ev_end;
		int r = wait ? (rt->event_sync(ev) == 0 ? 1 : -1) : rt->event_query(ev);
		probes[k].done = r;
	}
	for (size_t i = 0; i < q->n; i++) {
		struct tprof_devpend *p = &q->v[i];
		if (p->resolved)
			continue;
		int k = 0;
		while (k < nprobes && probes[k].stream != p->op.stream)
			k++;
		if (k == nprobes || probes[k].done == 0)
			continue;
		p->resolved = probes[k].done == 1 && q->anchored && time_op(q, p) == 0 ? 1 : 2;
	}
	/* A stream whose latest operation is still running may have finished earlier ones: they
	 * are asked one by one, oldest first, up to the first still running. */
	for (int k = 0; k < nprobes; k++) {
		if (probes[k].done != 0)
			continue;
		for (size_t i = 0; i < probes[k].last; i++) {
			struct tprof_devpend *p = &q->v[i];
			if (p->resolved || p->op.stream != probes[k].stream)
				continue;
			int r = rt->event_query(p->ev_end);
			if (r == 0)
				break;
			p->resolved = r == 1 && q->anchored && time_op(q, p) == 0 ? 1 : 2;
		}
	}
	size_t done = 0;
	while (done < q->n && q->v[done].resolved) {
		struct tprof_devpend *p = &q->v[done++];
		if (p->resolved == 1)
			write_op(p);
		else
			__atomic_add_fetch(&dropped_ops, 1, __ATOMIC_RELAXED);
	}
	/* Their events go back to the pool in one batch. */
	pthread_mutex_lock(&pool_lock);
	for (size_t i = 0; i < done; i++) {
		pool_put_locked(q->v[i].rt, (int)q->v[i].op.device, q->v[i].ev_start);
		pool_put_locked(q->v[i].rt, (int)q->v[i].op.device, q->v[i].ev_end);
	}
	pthread_mutex_unlock(&pool_lock);
	memmove(q->v, q->v + done, (q->n - done) * sizeof(*q->v));
	q->n -= done;
	return q->n;
}

static size_t settle_all(int wait)
{
	size_t pending = 0;
	pthread_mutex_lock(&queue_lock);
	drain_rings();
	for (int r = 0; r < TPROF_MAX_RUNTIMES; r++) {
		const struct tprof_devrt *rt = __atomic_load_n(&runtimes[r], __ATOMIC_ACQUIRE);
		for (int dev = 0; dev < TPROF_MAX_DEVICES && rt; dev++)
			pending += settle(rt, dev, &queues[r][dev], wait);
	}
	pthread_mutex_unlock(&queue_lock);
	return pending;
}

/* Set by the completion thread once it runs: see completer_start. */
static int completer_up;

static void *completer_main(void *arg)
{
	(void)arg;
	__atomic_store_n(&completer_up, 1, __ATOMIC_RELEASE);
	prctl(PR_SET_NAME, "tprof-gpu", 0, 0, 0);
	tprof_tls.guard = 1;  /* its own runtime calls are not the program's */
	while (!__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
		size_t pending = settle_all(0);
		struct timespec ts = { 0, pending ? BUSY_SLEEP_NS : IDLE_SLEEP_NS };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void write_dropped(void)
{
	uint64_t lost = tprof_dev_dropped();
	if (lost)
		tprof_proc_record(TPROF_K_DROP, TPROF_DROP_DEVICE, 0, tprof_now(), lost, 0);
}

/* At exit, before the runtime's own exit handlers (ours is registered later, so it runs
 * first): every operation still in flight is waited for and written. */
static void at_exit(void)
{
	TPROF_KEEP_ERRNO;
	if (running) {
		__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
		pthread_join(completer, NULL);
		__atomic_store_n(&running, 0, __ATOMIC_RELEASE);
		tprof_tls.guard++;
		settle_all(1);
		tprof_tls.guard--;
	}
	write_dropped();
}

/* Operations left untimed with no device work at all still get their DROP record; when
 * there was device work, at_exit writes it. */
static void at_exit_untimed(void)
{
	TPROF_KEEP_ERRNO;
	if (!__atomic_load_n(&exit_registered, __ATOMIC_ACQUIRE))
		write_dropped();
}

static void untimed_register(void)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&reg_lock);
	if (!untimed_registered && atexit(at_exit_untimed) == 0)
		__atomic_store_n(&untimed_registered, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&reg_lock);
}

static void completer_start(void)
{
	pthread_mutex_lock(&reg_lock);
	__atomic_store_n(&queues_used, 1, __ATOMIC_RELAXED);
	if (!running) {
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		stopping = 0;
		__atomic_store_n(&completer_up, 0, __ATOMIC_RELAXED);
		int ok = pthread_create(&completer, NULL, completer_main, NULL) == 0;
		__atomic_store_n(&running, ok, __ATOMIC_RELEASE);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		/* As the flusher (flusher.c): through its start before a fork may come. */
		for (int i = 0; ok && i < 20000 && !__atomic_load_n(&completer_up, __ATOMIC_ACQUIRE); i++) {
			struct timespec pause = { 0, 50000 };
			nanosleep(&pause, NULL);
		}
	}
	if (running && !exit_registered && atexit(at_exit) == 0)
		__atomic_store_n(&exit_registered, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&reg_lock);
}

void tprof_dev_drain(const struct tprof_devrt *rt, int device, int forget)
{
	TPROF_KEEP_ERRNO;
	tprof_tls.guard++;
	__atomic_store_n(&queues_used, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(&queue_lock);
	drain_rings();
	for (int dev = 0; dev < TPROF_MAX_DEVICES; dev++) {
		if (device >= 0 && dev != device)
			continue;
		struct devq *q = &queues[rt->id][dev];
		settle(rt, dev, q, 1);
		if (!forget)
			continue;
		/* After a device reset its events and streams are gone: start afresh. */
		q->anchor = NULL;
		memset(q->ev, 0, sizeof(q->ev));
		q->priv_stream = 0;
		q->anchored = 0;
		q->nends = 0;
		pthread_mutex_lock(&pool_lock);
		pool[rt->id][dev].n = 0;
		struct devthread *d = __atomic_load_n(&threads, __ATOMIC_ACQUIRE);
		for (; d; d = d->next)
			d->cache[rt->id][dev].n = 0;
		pthread_mutex_unlock(&pool_lock);
	}
	pthread_mutex_unlock(&queue_lock);
	tprof_tls.guard--;
}

void tprof_dev_flush(void)
{
	TPROF_KEEP_ERRNO;
	if (!__atomic_load_n(&running, __ATOMIC_ACQUIRE))
		return;
	tprof_tls.guard++;
	settle_all(0);
	tprof_tls.guard--;
}

uint64_t tprof_dev_dropped(void)
{
	return __atomic_load_n(&dropped_ops, __ATOMIC_RELAXED);
}

TPROF_START_CODE void tprof_dev_reset_child(void)
{
	tprof_mutex_reset(&reg_lock);
	tprof_mutex_reset(&pool_lock);
	tprof_mutex_reset(&queue_lock);
	my_dev = NULL;
	/* A process that timed nothing (a shell, say, forking for every command) has nothing to
	 * clear: its state, 58 KB of queues above all, is left unwritten, or each of its pages
	 * would be faulted in, zeroed, in every fork child. */
	if (!__atomic_load_n(&queues_used, __ATOMIC_RELAXED) && !threads && !running && !stopping &&
	    !dropped_ops)
		return;
	threads = NULL;
	__atomic_store_n(&running, 0, __ATOMIC_RELAXED);
	stopping = 0;
	dropped_ops = 0;   /* the parent's losses are its own */
	memset(queues, 0, sizeof(queues));
	memset(pool, 0, sizeof(pool));
	queues_used = 0;
}

/* api.h — recording calls into a runtime: each wrapped function has a hook entry (listed once
 * as data in its hook-*.c), and a wrapper brackets the real call with one CALL record.  The
 * hot path is a reserve, a timestamp and a store on entry, a timestamp on return. */
#ifndef TPROF_API_H
#define TPROF_API_H

#include "../spool/buffer.h"
#include "../core/clock.h"
#include "../core/core.h"

/* A hook table is made without pointers (the four below are set by its fill function, once,
 * before the first use of any: tprof_hooks_fill), so that the loader has no relocation to
 * apply to it, and no page of it to write, at every process start. */
struct tprof_hook {
	const char *name;        /* the exported symbol, C++-mangled ones included */
	const char *display;     /* the name recorded, when not `name` */
	void *wrapper;           /* our definition */
	void **real;             /* where the real definition is kept once found */
	uint8_t domain;          /* enum tprof_domain, or 0 for annotations */
	uint8_t record;          /* recorded as an API call (TPROF_*_API_FILTER) */
	uint32_t id;             /* the name's string id in image `gen` */
	uint32_t gen;
	uint8_t poll;            /* a polling call: unsuccessful calls are folded into runs
				  * (poll.h), unless TPROF_POLLS=each */
	uint8_t arm;             /* 1 + its slot in a run's `armed` when its wrapper has a fast
				  * side for untimed polls (poll.h), 0 when none */
};

static inline void tprof_hook_set(struct tprof_hook *h, const char *name, const char *display,
				  void *wrapper, void **real)
{
	h->name = name;
	h->display = display;
	h->wrapper = wrapper;
	h->real = real;
}

/* A runtime's hook table: its hooks, how many, the function that sets their pointers, and the
 * domain of its calls (common/domains.h; 0 for annotations; one outside the list has no
 * filter variables). */
struct tprof_hook_table {
	struct tprof_hook *hooks;
	size_t n;
	void (*fill)(void);
	int domain;
};

/* Lists a hook table, in the runtime's own hook file: the linker gathers every table so
 * listed into one section, so that adding a runtime edits no list of runtimes here. */
#define TPROF_HOOK_TABLE(name, hooks, n, fill, domain)                                       \
	static const struct tprof_hook_table tprof_hook_table_##name                         \
		__attribute__((used, section("tprof_hook_tables"),                           \
			       aligned(__alignof__(struct tprof_hook_table)))) =             \
			{ hooks, n, fill, domain }

/* Sets the pointers of every hook table, the first time it is called. */
void tprof_hooks_fill(void);

/* The wrapper entry for `name` in every hook table, or NULL (dlsym interception). */
struct tprof_hook *tprof_hook_find(const char *name);
/* Applies the filters and indexes the tables; once, at load time. */
void tprof_hooks_init(const struct tprof_env *env);
uint32_t tprof_hook_name_slow(struct tprof_hook *h);

static inline uint32_t tprof_hook_name(struct tprof_hook *h)
{
	return TPROF_LIKELY(__atomic_load_n(&h->gen, __ATOMIC_ACQUIRE) == tprof_g.generation)
		       ? h->id : tprof_hook_name_slow(h);
}

static inline uint64_t tprof_next_corr(struct tprof_thread *t)
{
	return (((uint64_t)t->stream << 32) | ++t->corr) & TPROF_CORR_MASK;
}

/* Reserves a CALL record with `ext` argument units, cleared, for the caller to fill; NULL when
 * not recorded (then pass NULL on, every helper accepts it). */
static inline struct tprof_rec *tprof_call_reserve(struct tprof_thread *t, struct tprof_hook *h,
						   unsigned ext)
{
	if (!h->record)
		return NULL;
	struct tprof_rec *r = tprof_reserve(t, 1 + ext);
	if (TPROF_LIKELY(r != NULL) && ext)
		__builtin_memset(r + 1, 0, ext * sizeof(*r));
	return r;
}

/* The same, not cleared: for a caller that writes every byte of the units. */
static inline struct tprof_rec *tprof_call_reserve_raw(struct tprof_thread *t,
						       struct tprof_hook *h, unsigned ext)
{
	return h->record ? tprof_reserve(t, 1 + ext) : NULL;
}

/* Publishes the call as begun at t0: the record is visible (and, should the process die in
 * the call, stays an unfinished call).  The caller's guard is already up: from here to
 * tprof_call_finish the record is unfinished, and a buffer switch meanwhile (a signal handler
 * or the runtime annotating inside the call) keeps its buffer from the flusher (thread.c). */
static inline void tprof_call_start_at(struct tprof_rec *r, struct tprof_hook *h, unsigned ext,
				       uint64_t corr, uint64_t t0)
{
	if (!r)
		return;
	r->t0 = t0;
	r->t1 = 0;
	r->arg = corr;
	tprof_commit(&tprof_tls, r, TPROF_K_CALL, (uint8_t)ext, h->domain, tprof_hook_name(h));
}

/* The same, begun now. */
static inline void tprof_call_start(struct tprof_rec *r, struct tprof_hook *h, unsigned ext,
				    uint64_t corr)
{
	if (r)
		tprof_call_start_at(r, h, ext, corr, tprof_now());
}

/* The call returned `ret`: its return code and end time, the end time last; the caller's
 * guard comes down after. */
static inline void tprof_call_finish(struct tprof_rec *r, int ret)
{
	if (!r)
		return;
	uint64_t arg = (r->arg & TPROF_CORR_MASK) | ((uint64_t)(uint16_t)ret << TPROF_CALL_RET_SHIFT);
	__atomic_store_n(&r->arg, arg, __ATOMIC_RELAXED);
	__atomic_store_n(&r->t1, tprof_now(), __ATOMIC_RELEASE);
}

static inline struct tprof_call_args *tprof_call_args(struct tprof_rec *r)
{
	return r ? (struct tprof_call_args *)(r + 1) : NULL;
}

/* ---- one recorded call: the protocol of every runtime's wrappers ------------------------ */

#define TPROF_CALL_UNITS 2      /* the most argument units a wrapper addresses */

/* A call being recorded.  tprof_call_begin reserves its CALL record with `ext` argument
 * units and gives the wrapper each unit it fills: in the record, or, beyond the
 * record's units or when the record is not written (the filter leaves the call out, no
 * buffer), cleared scratch space, so that what a wrapper keeps track of (communicators,
 * requests, models) does not depend on the filter.  tprof_call_enter publishes the call as
 * begun and raises the guard (runtime calls made inside are not recorded), the real call
 * runs, and tprof_call_leave writes its return code and end and lowers the guard.  Each
 * runtime's call (struct mpi_call, nccl_call, nrt_call, hip_call) is this with its units
 * typed. */
struct tprof_call {
	struct tprof_thread *t;
	struct tprof_hook *h;
	struct tprof_rec *r;            /* the CALL record, NULL when not written */
	uint64_t corr;                  /* its correlation id, 0 for none */
	unsigned ext;                   /* argument units in the record */
	struct tprof_rec scratch[TPROF_CALL_UNITS];
};

/* Whether a wrapper records this call: the runtime's function found (`real`), and the thread
 * recording now (neither inside a wrapped call nor busy in the recorder).  Every wrapper
 * begins the same way, in plain sight:
 *
 *	struct tprof_thread *t = &tprof_tls;
 *	hipSetDevice_fn real = get_hipSetDevice();
 *	if (!tprof_wrapper_records(t, real))
 *		return real ? real(device) : HIP_NO_RUNTIME;
 *
 * (the runtime's error when it has no such function, else the call passed through); MPI's
 * also asks tprof_mpi_ready(), NCCL's its nccl_begin(). */
static inline int tprof_wrapper_records(const struct tprof_thread *t, const void *real)
{
	return TPROF_LIKELY(real != NULL) && tprof_should_record(t);
}

/* Reserves the CALL of h with `ext` argument units (cleared) and points units[0 .. want) at
 * the units the wrapper fills (want <= TPROF_CALL_UNITS; 0 for a call with no arguments): the
 * record's first `ext`, the rest cleared scratch.  The caller sets the correlation id (corr). */
static inline void tprof_call_begin(struct tprof_call *c, struct tprof_thread *t,
				    struct tprof_hook *h, unsigned ext, unsigned want, void **units)
{
	_Static_assert(TPROF_CALL_UNITS == 2, "tprof_call_begin points at two units at most");
	c->t = t;
	c->h = h;
	c->ext = ext;
	struct tprof_rec *r = c->r = tprof_call_reserve(t, h, ext);
	if (TPROF_LIKELY(r != NULL)) {
		if (ext < want)
			__builtin_memset(&c->scratch[ext], 0, (want - ext) * sizeof(c->scratch[0]));
		units[0] = ext > 0 ? r + 1 : &c->scratch[0];
		if (want > 1)
			units[1] = ext > 1 ? r + 2 : &c->scratch[1];
	} else {
		__builtin_memset(c->scratch, 0, want * sizeof(c->scratch[0]));
		units[0] = &c->scratch[0];
		if (want > 1)
			units[1] = &c->scratch[1];
	}
}

/* The same for a wrapper that writes every byte of its `ext` units itself (HIP's work put on
 * a device): the record, its units neither cleared nor pointed at; NULL when not written. */
static inline struct tprof_rec *tprof_call_begin_raw(struct tprof_call *c, struct tprof_thread *t,
						     struct tprof_hook *h, unsigned ext)
{
	c->t = t;
	c->h = h;
	c->ext = ext;
	return c->r = tprof_call_reserve_raw(t, h, ext);
}

/* Publishes the call as begun (with what its units hold by now) and enters the runtime. */
static inline void tprof_call_enter(struct tprof_call *c)
{
	c->t->guard++;
	tprof_call_start(c->r, c->h, c->ext, c->corr);
}

/* The runtime returned rc; whatever was filled in since is in the record already. */
static inline int tprof_call_leave(struct tprof_call *c, int rc)
{
	tprof_call_finish(c->r, rc);
	c->t->guard--;
	return rc;
}

#endif

/* nrt-objects.c — the tables of NRT models, tensors and tensor sets (see nrt-objects.h).
 * Claiming and looking up work alike for the three: handle tables (core/handles.h) keyed by
 * the runtime's handles, at most MAX_PROBE slots along a path; a full stretch costs only the
 * names of the objects it could not hold.  A set's list of names is changed under one lock
 * (slow path only: nrt_add_tensor_to_tensor_set and the set's end); its totals are read
 * without it. */
#include <stdlib.h>
#include <string.h>

#include "../core/handles.h"
#include "../spool/spool.h"
#include "nrt-objects.h"

#define MAX_PROBE 256u

struct tprof_nrt_set_entry {
	char *name;
	const void *tensor;
	uint64_t bytes;
};

static struct tprof_nrt_model models[TPROF_NRT_MODEL_SLOTS];
static struct tprof_nrt_tensor tensors[TPROF_NRT_TENSOR_SLOTS];
static struct tprof_nrt_set sets[TPROF_NRT_SET_SLOTS];
TPROF_HANDLES_CHECK(models, key);
TPROF_HANDLES_CHECK(tensors, key);
TPROF_HANDLES_CHECK(sets, key);
static int models_full, tensors_full, sets_full;

static pthread_mutex_t set_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void fork_prepare(void)
{
	pthread_mutex_lock(&set_lock);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&set_lock);
}

static void fork_child(void)
{
	pthread_mutex_init(&set_lock, NULL);
}

static void register_atfork(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* The slot for `key`: the one it already has, else the first free one on its path; NULL
 * when there is none (said once per table: too many `what`). */
static inline void *claim(char *base, size_t size, size_t slots, unsigned probe, const void *key,
			  int *warned, const char *what)
{
	if (!tprof_handle_is_key(key))
		return NULL;
	void *e = tprof_handle_claim(base, size, slots, probe, key);
	if (!e)
		tprof_handles_full(warned, "too many NRT %s at once: some calls go without their names",
				   what);
	return e;
}

static inline void *find(char *base, size_t size, size_t slots, unsigned probe, const void *key)
{
	return tprof_handle_is_key(key) ? tprof_handle_find(base, size, slots, probe, key) : NULL;
}

#define TABLE(t) TPROF_HANDLES(t, MAX_PROBE)

uint32_t tprof_nrt_name_slow(struct tprof_nrt_name *n, const char *s)
{
	uint32_t gen = tprof_g.generation;
	uint32_t id = s && *s ? tprof_intern(s, strlen(s)) : 0;
	__atomic_store_n(&n->id, id, __ATOMIC_RELAXED);
	__atomic_store_n(&n->gen, gen, __ATOMIC_RELEASE);
	return id;
}

/* A copy of s into dst[0..len), always terminated. */
static void copy_name(char *dst, size_t len, const char *s)
{
	size_t n = s ? strnlen(s, len - 1) : 0;
	if (n)
		memcpy(dst, s, n);
	dst[n] = '\0';
}

/* ---- models ------------------------------------------------------------------------------ */

struct tprof_nrt_model *tprof_nrt_model_find(const void *model)
{
	return find(TABLE(models), model);
}

struct tprof_nrt_model *tprof_nrt_model_add(const void *model, const char *name, int32_t nc,
					    uint32_t nc_count)
{
	TPROF_KEEP_ERRNO;
	struct tprof_nrt_model *m = claim(TABLE(models), model, &models_full, "models");
	if (!m)
		return NULL;
	__atomic_store_n(&m->id.gen, 0, __ATOMIC_RELAXED);
	m->nc = nc;
	m->nc_count = nc_count;
	copy_name(m->name, sizeof(m->name), name);
	return m;
}

void tprof_nrt_model_remove(struct tprof_nrt_model *m)
{
	if (m)
		tprof_handle_remove(m);
}

/* ---- tensors ----------------------------------------------------------------------------- */

struct tprof_nrt_tensor *tprof_nrt_tensor_find(const void *tensor)
{
	return find(TABLE(tensors), tensor);
}

struct tprof_nrt_tensor *tprof_nrt_tensor_add(const void *tensor, const char *name, uint64_t size,
					      int32_t nc, uint8_t placement)
{
	TPROF_KEEP_ERRNO;
	struct tprof_nrt_tensor *t = claim(TABLE(tensors), tensor, &tensors_full, "tensors");
	if (!t)
		return NULL;
	__atomic_store_n(&t->id.gen, 0, __ATOMIC_RELAXED);
	t->size = size;
	t->nc = nc;
	t->placement = placement;
	copy_name(t->name, sizeof(t->name), name);
	return t;
}

void tprof_nrt_tensor_remove(struct tprof_nrt_tensor *t)
{
	if (t)
		tprof_handle_remove(t);
}

/* ---- tensor sets ------------------------------------------------------------------------- */

struct tprof_nrt_set *tprof_nrt_set_find(const void *set)
{
	return find(TABLE(sets), set);
}

/* Under set_lock. */
static void forget_entries(struct tprof_nrt_set *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		free(s->e[i].name);
	free(s->e);
	s->e = NULL;
	s->n = s->cap = 0;
	__atomic_store_n(&s->bytes, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
}

struct tprof_nrt_set *tprof_nrt_set_add(const void *set)
{
	TPROF_KEEP_ERRNO;
	pthread_once(&atfork_once, register_atfork);
	struct tprof_nrt_set *s = claim(TABLE(sets), set, &sets_full, "tensor sets");
	if (!s)
		return NULL;
	pthread_mutex_lock(&set_lock);
	forget_entries(s);
	pthread_mutex_unlock(&set_lock);
	return s;
}

void tprof_nrt_set_remove(struct tprof_nrt_set *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&set_lock);
	forget_entries(s);
	tprof_handle_remove(s);
	pthread_mutex_unlock(&set_lock);
}

void tprof_nrt_set_put(struct tprof_nrt_set *s, const char *name, const void *tensor, uint64_t bytes)
{
	TPROF_KEEP_ERRNO;
	if (!s || !name)
		return;
	pthread_mutex_lock(&set_lock);
	uint32_t i = 0;
	while (i < s->n && strcmp(s->e[i].name, name))
		i++;
	if (i == s->n) {
		char *copy = strdup(name);
		if (s->n == s->cap) {
			uint32_t ncap = s->cap ? s->cap * 2 : 8;
			struct tprof_nrt_set_entry *ne = realloc(s->e, ncap * sizeof(*ne));
			if (ne) {
				s->e = ne;
				s->cap = ncap;
			}
		}
		if (!copy || s->n == s->cap) {
			free(copy);
			pthread_mutex_unlock(&set_lock);
			return;
		}
		s->e[i].name = copy;
		s->e[i].bytes = 0;
		s->n++;
		__atomic_add_fetch(&s->count, 1, __ATOMIC_RELAXED);
	}
	uint64_t total = __atomic_load_n(&s->bytes, __ATOMIC_RELAXED) - s->e[i].bytes + bytes;
	s->e[i].tensor = tensor;
	s->e[i].bytes = bytes;
	__atomic_store_n(&s->bytes, total, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&set_lock);
}

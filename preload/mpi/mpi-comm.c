/* mpi-comm.c — communicator identity without communication.  Every member computes the
 * same id from what all members know alike:
 *   WORLD, SELF                       fixed ids
 *   made collectively over parent P   hash(P's id, how many creating calls over P came
 *                                     before, the lowest world rank of the new members)
 *   MPI_Comm_create_group             hash(P's id, tag, the members, how many times this
 *                                     process saw that same key before)
 *   MPI_Intercomm_create              hash(both groups' world ranks sorted, tag, ...count)
 *   first seen in some call           hash(the members, ...count)
 * and writes a COMM record (its members as world ranks) for each one it belongs to.  Lookups
 * are in mpi-comm.h; changes are rare and take comm_lock. */
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"

#include "../core/clock.h"
#include "mpi-abi-mpich.h"
#include "mpi-comm.h"

struct tprof_mpi_comm tprof_mpi_world, tprof_mpi_self;
struct tprof_mpi_comm tprof_mpi_comms[TPROF_MPI_COMM_SLOTS];

static pthread_mutex_t comm_lock = PTHREAD_MUTEX_INITIALIZER;
static int table_full_warned;

/* ---- ids ------------------------------------------------------------------------------- */

#define MIX(h, v) ((h) = tprof_hash_more((h), &(v), sizeof(v)))

/* How many times this process asked for `key` before: ids of communicators with the same
 * description (the same group created twice) stay apart, and agree across members as long
 * as they make them in the same order, as MPI requires of collective calls. */
static struct {
	uint64_t *keys;
	uint32_t *counts;
	size_t cap, used;
} seen;

static uint32_t key_count(uint64_t key)
{
	if ((seen.used + 1) * 2 > seen.cap) {
		size_t ncap = seen.cap ? seen.cap * 2 : 64;
		uint64_t *nk = calloc(ncap, sizeof(*nk));
		uint32_t *nc = calloc(ncap, sizeof(*nc));
		if (!nk || !nc) {
			free(nk);
			free(nc);
			return 0;
		}
		for (size_t i = 0; i < seen.cap; i++) {
			if (!seen.keys[i])
				continue;
			size_t j = seen.keys[i] & (ncap - 1);
			while (nk[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = seen.keys[i];
			nc[j] = seen.counts[i];
		}
		free(seen.keys);
		free(seen.counts);
		seen.keys = nk;
		seen.counts = nc;
		seen.cap = ncap;
	}
	key |= 1;   /* never 0, the empty slot */
	size_t j = key & (seen.cap - 1);
	while (seen.keys[j] && seen.keys[j] != key)
		j = (j + 1) & (seen.cap - 1);
	if (!seen.keys[j]) {
		seen.keys[j] = key;
		seen.used++;
	}
	return seen.counts[j]++;
}

/* ---- describing a communicator ---------------------------------------------------------- */

/* World ranks of group g's members, into out[0..n). */
static int translate(tmpi_Group g, int n, int32_t *out)
{
	int *idx = malloc((size_t)(n ? n : 1) * sizeof(int));
	int *res = malloc((size_t)(n ? n : 1) * sizeof(int));
	int rc = idx && res ? 0 : -1;
	for (int i = 0; !rc && i < n; i++)
		idx[i] = i;
	if (!rc && n)
		rc = tprof_pmpi.Group_translate_ranks(g, n, idx, tprof_mpi_h.world_group, res);
	for (int i = 0; !rc && i < n; i++)
		out[i] = res[i] == TMPI_UNDEFINED || res[i] < 0 ? -1 : res[i];
	free(idx);
	free(res);
	return rc;
}

uint32_t tprof_mpi_group_text(tmpi_Group g)
{
	int n = 0;
	if (!g || !tprof_mpi_h.world_group || tprof_pmpi.Group_size(g, &n) != TMPI_SUCCESS ||
	    n <= 0 || n > TPROF_MPI_GROUP_TEXT / 2)
		return 0;
	int32_t *r = malloc((size_t)n * sizeof(int32_t));
	char *text = malloc(TPROF_MPI_GROUP_TEXT);
	uint32_t id = 0;
	if (r && text && translate(g, n, r) == 0) {
		size_t len = 0;
		int i = 0;
		while (i < n && len < TPROF_MPI_GROUP_TEXT) {
			int j = i;
			while (j + 1 < n && r[j] >= 0 && r[j + 1] == r[j] + 1)
				j++;
			int w = j > i ? snprintf(text + len, TPROF_MPI_GROUP_TEXT - len, "%s%d-%d",
						 len ? "," : "", (int)r[i], (int)r[j])
				      : snprintf(text + len, TPROF_MPI_GROUP_TEXT - len, "%s%d",
						 len ? "," : "", (int)r[i]);
			len += (size_t)(w > 0 ? w : 0);
			i = j + 1;
		}
		if (len < TPROF_MPI_GROUP_TEXT)
			id = tprof_intern(text, len);
	}
	free(r);
	free(text);
	return id;
}

/* Size and world ranks of c's local (or remote) group, appended to *members. */
static int group_of(tmpi_Comm c, int remote, int32_t **members, int32_t *n, int32_t have)
{
	tmpi_Group g = NULL;
	int size = 0;
	int rc = remote ? tprof_pmpi.Comm_remote_group(c, &g) : tprof_pmpi.Comm_group(c, &g);
	if (rc != TMPI_SUCCESS)
		return -1;
	rc = tprof_pmpi.Group_size(g, &size);
	int32_t *m = rc == TMPI_SUCCESS && size >= 0
			     ? realloc(*members, (size_t)(have + size + 1) * sizeof(int32_t)) : NULL;
	if (m) {
		*members = m;
		rc = translate(g, size, m + have);
	}
	tprof_pmpi.Group_free(&g);
	if (!m || rc)
		return -1;
	*n = size;
	return 0;
}

/* Fills e (all but id and parent) from the communicator itself. */
static int describe(tmpi_Comm c, struct tprof_mpi_comm *e)
{
	int inter = 0, rank = -1;
	memset(e, 0, sizeof(*e));
	if (tprof_pmpi.Comm_test_inter(c, &inter) != TMPI_SUCCESS ||
	    tprof_pmpi.Comm_rank(c, &rank) != TMPI_SUCCESS)
		return -1;
	e->kind = inter ? TPROF_COMMK_INTER : TPROF_COMMK_INTRA;
	e->my_rank = rank;
	if (group_of(c, 0, &e->members, &e->size, 0) < 0 ||
	    (inter && group_of(c, 1, &e->members, &e->remote_size, e->size) < 0)) {
		free(e->members);
		e->members = NULL;
		return -1;
	}
	return 0;
}

static int32_t lowest(const struct tprof_mpi_comm *e)
{
	int32_t low = INT32_MAX;
	for (int32_t i = 0; i < e->size + e->remote_size; i++)
		if (e->members[i] >= 0 && e->members[i] < low)
			low = e->members[i];
	return low;
}

static int by_rank(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The members as a set (sorted), mixed into h: the same on both sides of an
 * inter-communicator, whose local and remote groups trade places. */
static uint64_t mix_member_set(uint64_t h, const struct tprof_mpi_comm *e)
{
	size_t n = (size_t)e->size + (size_t)e->remote_size;
	int32_t *s = malloc((n ? n : 1) * sizeof(*s));
	if (!s)
		return tprof_hash_more(h, e->members, n * sizeof(int32_t));
	memcpy(s, e->members, n * sizeof(*s));
	qsort(s, n, sizeof(*s), by_rank);
	h = tprof_hash_more(h, s, n * sizeof(*s));
	free(s);
	return h;
}

/* ---- COMM records ----------------------------------------------------------------------- */

#define PER_RECORD ((TPROF_MAX_EXT - 1) * (TPROF_UNIT / sizeof(int32_t)))

static void record(const struct tprof_mpi_comm *e)
{
	uint8_t buf[TPROF_MAX_EXT * TPROF_UNIT];
	uint32_t total = (uint32_t)(e->size + e->remote_size);
	uint32_t first = 0;
	do {
		uint32_t n = total - first < PER_RECORD ? total - first : (uint32_t)PER_RECORD;
		unsigned units = 1 + (unsigned)((n + 7) / 8);
		struct tprof_comm_def d = {
			.id = e->id, .parent = e->parent, .size = (uint32_t)e->size,
			.remote_size = (uint32_t)e->remote_size, .first = first, .my_rank = e->my_rank,
		};
		memset(buf, 0, (size_t)units * TPROF_UNIT);
		memcpy(buf, &d, sizeof(d));
		if (n)
			memcpy(buf + TPROF_UNIT, e->members + first, n * sizeof(int32_t));
		tprof_proc_record_ext(TPROF_K_COMM, e->kind, e->name, tprof_now(), 0, e->id, buf, units);
		first += n;
	} while (first < total);
}

/* ---- the table -------------------------------------------------------------------------- */

/* Under comm_lock: the entry for handle, inserted from *e (published last). */
static struct tprof_mpi_comm *insert_locked(tmpi_Comm handle, const struct tprof_mpi_comm *e)
{
	struct tprof_mpi_comm *slot = tprof_handle_reserve(TPROF_MPI_COMMS, handle);
	if (!slot) {
		tprof_handles_full(&table_full_warned, "more than %u MPI communicators at once: the "
				   "others are recorded without a communicator id", TPROF_MPI_COMM_SLOTS);
		free(e->members);
		return NULL;
	}
	free(slot->members);
	struct tprof_mpi_comm copy = *e;
	copy.handle = TPROF_HANDLE_GONE;
	*slot = copy;
	tprof_handle_publish(slot, handle);
	return slot;
}

static struct tprof_mpi_comm *find_locked(tmpi_Comm c)
{
	if (c == tprof_mpi_h.world)
		return &tprof_mpi_world;
	if (c == tprof_mpi_h.self)
		return &tprof_mpi_self;
	return tprof_handle_find(TPROF_MPI_COMMS, c);
}

static int usable(tmpi_Comm c)
{
	int s = __atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE);
	return c && c != tprof_mpi_h.comm_null &&
	       (s == TPROF_MPI_READY || s == TPROF_MPI_READY_MPICH);
}

/* Describes, names and records a new communicator; its id from key (a hash of how it was
 * made), or, when `counted`, from key and how often this process saw key before. */
static uint64_t add(tmpi_Comm c, struct tprof_mpi_comm *e, uint64_t parent, uint64_t key,
		    int counted)
{
	uint32_t n = counted ? key_count(key) : 0;
	if (counted)
		MIX(key, n);
	e->id = tprof_hash_id(key);
	e->parent = parent;
	struct tprof_mpi_comm *in = insert_locked(c, e);
	if (in)
		record(in);
	return in ? in->id : TPROF_COMM_NONE;
}

struct tprof_mpi_comm *tprof_mpi_comm_miss(tmpi_Comm c)
{
	TPROF_KEEP_ERRNO;
	struct tprof_mpi_comm e, *found;
	if (!usable(c))
		return NULL;
	tprof_tls.guard++;
	pthread_mutex_lock(&comm_lock);
	found = find_locked(c);
	if (!found && describe(c, &e) == 0) {
		uint64_t key = TPROF_HASH_SEED;
		int inter = e.kind == TPROF_COMMK_INTER;
		MIX(key, inter);
		key = inter ? mix_member_set(key, &e)
			    : tprof_hash_more(key, e.members, (size_t)e.size * sizeof(int32_t));
		add(c, &e, 0, key, 1);
		found = find_locked(c);
	}
	pthread_mutex_unlock(&comm_lock);
	tprof_tls.guard--;
	return found;
}

uint64_t tprof_mpi_comm_made(uint64_t parent, uint32_t count, tmpi_Comm made)
{
	TPROF_KEEP_ERRNO;
	struct tprof_mpi_comm e;
	uint64_t id = TPROF_COMM_NONE;
	if (!usable(made))
		return id;
	pthread_mutex_lock(&comm_lock);
	if (describe(made, &e) == 0) {
		uint64_t key = TPROF_HASH_SEED;
		int32_t low = lowest(&e);
		MIX(key, parent);
		MIX(key, count);
		MIX(key, low);
		id = add(made, &e, parent, key, 0);
	}
	pthread_mutex_unlock(&comm_lock);
	return id;
}

uint64_t tprof_mpi_comm_made_group(uint64_t parent, int tag, tmpi_Comm made)
{
	TPROF_KEEP_ERRNO;
	struct tprof_mpi_comm e;
	uint64_t id = TPROF_COMM_NONE;
	if (!usable(made))
		return id;
	pthread_mutex_lock(&comm_lock);
	if (describe(made, &e) == 0) {
		uint64_t key = tprof_hash_more(TPROF_HASH_SEED, "create_group", 12);
		MIX(key, parent);
		MIX(key, tag);
		key = tprof_hash_more(key, e.members, (size_t)e.size * sizeof(int32_t));
		id = add(made, &e, parent, key, 1);
	}
	pthread_mutex_unlock(&comm_lock);
	return id;
}

uint64_t tprof_mpi_comm_made_inter(int tag, tmpi_Comm made)
{
	TPROF_KEEP_ERRNO;
	struct tprof_mpi_comm e;
	uint64_t id = TPROF_COMM_NONE;
	if (!usable(made))
		return id;
	pthread_mutex_lock(&comm_lock);
	if (describe(made, &e) == 0) {
		uint64_t key = tprof_hash_more(TPROF_HASH_SEED, "intercomm", 9);
		MIX(key, tag);
		key = mix_member_set(key, &e);
		/* Each side sees another parent: none is recorded. */
		id = add(made, &e, 0, key, 1);
	}
	pthread_mutex_unlock(&comm_lock);
	return id;
}

void tprof_mpi_comm_forget(tmpi_Comm c)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&comm_lock);
	struct tprof_mpi_comm *e = find_locked(c);
	if (e && e != &tprof_mpi_world && e != &tprof_mpi_self) {
		tprof_handle_remove(e);
		free(e->members);
		e->members = NULL;
	}
	pthread_mutex_unlock(&comm_lock);
}

void tprof_mpi_comm_named(tmpi_Comm c, const char *name)
{
	TPROF_KEEP_ERRNO;
	struct tprof_mpi_comm *e = tprof_mpi_comm(c);
	if (!e || !name)
		return;
	uint32_t id = tprof_intern(name, strnlen(name, 256));
	pthread_mutex_lock(&comm_lock);
	if (e->members) {
		e->name = id;
		record(e);
	}
	pthread_mutex_unlock(&comm_lock);
}

/* ---- WORLD and SELF --------------------------------------------------------------------- */

void tprof_mpi_comms_start(void)
{
	TPROF_KEEP_ERRNO;
	int n = tprof_mpi_h.world_size, rank = tprof_mpi_h.world_rank;
	pthread_mutex_lock(&comm_lock);
	if (tprof_pmpi.Comm_group(tprof_mpi_h.world, &tprof_mpi_h.world_group) != TMPI_SUCCESS)
		tprof_mpi_h.world_group = NULL;
	struct tprof_mpi_comm *w = &tprof_mpi_world, *s = &tprof_mpi_self;
	free(w->members);
	free(s->members);
	memset(w, 0, sizeof(*w));
	memset(s, 0, sizeof(*s));
	w->handle = tprof_mpi_h.world;
	w->id = TPROF_COMM_WORLD;
	w->kind = TPROF_COMMK_WORLD;
	w->size = n > 0 ? n : 0;
	w->my_rank = rank;
	w->members = malloc((size_t)(w->size ? w->size : 1) * sizeof(int32_t));
	for (int i = 0; w->members && i < w->size; i++)
		w->members[i] = i;
	s->handle = tprof_mpi_h.self;
	s->id = TPROF_COMM_SELF;
	s->kind = TPROF_COMMK_SELF;
	s->size = 1;
	s->my_rank = 0;
	s->members = malloc(sizeof(int32_t));
	if (s->members)
		s->members[0] = rank;
	if (w->members)
		record(w);
	if (s->members)
		record(s);
	pthread_mutex_unlock(&comm_lock);
}

void tprof_mpi_comms_stop(void)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&comm_lock);
	if (tprof_mpi_h.world_group)
		tprof_pmpi.Group_free(&tprof_mpi_h.world_group);
	tprof_mpi_h.world_group = NULL;
	pthread_mutex_unlock(&comm_lock);
}

void tprof_mpi_comm_degrees(struct tprof_mpi_comm *e, int *in, int *out)
{
	*in = *out = 0;
	if (!e)
		return;
	if (!__atomic_load_n(&e->degrees, __ATOMIC_ACQUIRE)) {
		/* A topology is fixed once made: any thread may find it, all find the same. */
		tmpi_Comm c = e == &tprof_mpi_world ? tprof_mpi_h.world
			      : e == &tprof_mpi_self ? tprof_mpi_h.self : e->handle;
		int mpich = tprof_mpi_abi == TPROF_MPI_ABI_MPICH;
		int topo = -1, n = 0, i = 0, o = 0, weighted = 0;
		tprof_tls.guard++;
		if (tprof_pmpi.Topo_test(c, &topo) != TMPI_SUCCESS)
			topo = -1;
		if (topo == (mpich ? TMPICH_CART : TMPI_CART)) {
			if (tprof_pmpi.Cartdim_get(c, &n) == TMPI_SUCCESS)
				i = o = 2 * n;
		} else if (topo == (mpich ? TMPICH_GRAPH : TMPI_GRAPH)) {
			if (tprof_pmpi.Graph_neighbors_count(c, e->my_rank, &n) == TMPI_SUCCESS)
				i = o = n;
		} else if (topo == TMPI_DIST_GRAPH) {
			if (tprof_pmpi.Dist_graph_neighbors_count(c, &i, &o, &weighted) != TMPI_SUCCESS)
				i = o = 0;
		}
		tprof_tls.guard--;
		e->indegree = i;
		e->outdegree = o;
		__atomic_store_n(&e->degrees, 1, __ATOMIC_RELEASE);
	}
	*in = e->indegree;
	*out = e->outdegree;
}

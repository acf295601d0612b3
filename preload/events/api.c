/* api.c — the hook tables of all runtimes: looking a wrapper up by name (for dlsym),
 * applying TPROF_<DOMAIN>_API_FILTER/_FILTER_OUT (common/domains.h) once at load time, and
 * interning API names per process image. */
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"
#include "api.h"

/* Each hook-*.c defines its table; these are all of them. */
extern struct tprof_hook tprof_hip_hooks[], tprof_roctx_hooks[], tprof_mpi_hooks[];
extern const size_t tprof_hip_nhooks, tprof_roctx_nhooks, tprof_mpi_nhooks;
extern struct tprof_hook tprof_nrt_hooks[];
extern const size_t tprof_nrt_nhooks;
extern struct tprof_hook tprof_nccl_hooks[];
extern const size_t tprof_nccl_nhooks;

/* The one list of the runtimes' hook tables. */
static struct {
	struct tprof_hook *table;
	const size_t *n;
	void (*fill)(void);          /* sets the table's pointers (api.h) */
	int domain;                  /* enum tprof_domain of its calls, 0 for annotations */
} tables[] = {
	{ tprof_hip_hooks, &tprof_hip_nhooks, tprof_hip_hooks_fill, TPROF_DOM_HIP },
	{ tprof_roctx_hooks, &tprof_roctx_nhooks, tprof_roctx_hooks_fill, 0 },
	{ tprof_mpi_hooks, &tprof_mpi_nhooks, tprof_mpi_hooks_fill, TPROF_DOM_MPI },
	{ tprof_nrt_hooks, &tprof_nrt_nhooks, tprof_nrt_hooks_fill, TPROF_DOM_NRT },
	{ tprof_nccl_hooks, &tprof_nccl_nhooks, tprof_nccl_hooks_fill, TPROF_DOM_NCCL },
};

/* Each domain's filter variables, NULL for a domain without (common/domains.h). */
#define FILTER_VARS(name, value, key, title, json, desc, paradigm, filtered)              \
	[TPROF_DOM_##name] = { (filtered) ? "TPROF_" #name "_API_FILTER" : NULL,             \
			       (filtered) ? "TPROF_" #name "_API_FILTER_OUT" : NULL },
static const struct {
	const char *in, *out;
} filter_vars[TPROF_NDOMAINS] = { TPROF_DOMAINS(FILTER_VARS) };
#undef FILTER_VARS

#define NTABLES (sizeof(tables) / sizeof(tables[0]))
#define INDEX_SIZE 2048u

static struct tprof_hook *index_[INDEX_SIZE];

/* Does `name` contain one of the comma-separated substrings of `list`? */
static int matches(const char *list, const char *name)
{
	while (*list) {
		size_t n = strcspn(list, ",");
		if (n) {
			char sub[128];
			if (n >= sizeof(sub))
				n = sizeof(sub) - 1;
			memcpy(sub, list, n);
			sub[n] = 0;
			if (strstr(name, sub))
				return 1;
		}
		list += n;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* Whether a hook records: its name kept by the table's filter, if set, and not dropped by its
 * _OUT filter. */
static void apply_filter(struct tprof_hook *h, const char *in, const char *out)
{
	h->record = 1;
	if (in && *in && !matches(in, h->name))
		h->record = 0;
	if (out && *out && matches(out, h->name))
		h->record = 0;
}

static pthread_once_t fill_once = PTHREAD_ONCE_INIT;

static void fill_all(void)
{
	for (size_t t = 0; t < NTABLES; t++)
		tables[t].fill();
}

void tprof_hooks_fill(void)
{
	pthread_once(&fill_once, fill_all);
}

/* The filters are read once per table, not per hook: every process start runs this.  The
 * tables start with every hook recorded and polls folded: a table without a filter, in a
 * process that folds polls, is left as it is (the common case, no hook visited). */
TPROF_START_CODE void tprof_hooks_init(const struct tprof_env *env)
{
	for (size_t t = 0; t < NTABLES; t++) {
		const char *in = NULL, *out = NULL;
		if (filter_vars[tables[t].domain].in) {
			in = tprof_env_get(env, filter_vars[tables[t].domain].in);
			out = tprof_env_get(env, filter_vars[tables[t].domain].out);
		}
		if ((!in || !*in) && (!out || !*out) && !tprof_g.cfg.poll_each)
			continue;
		tprof_hooks_fill();   /* the filters need the names */
		for (size_t i = 0; i < *tables[t].n; i++) {
			struct tprof_hook *h = &tables[t].table[i];
			apply_filter(h, in, out);
			if (tprof_g.cfg.poll_each)
				h->poll = 0;
		}
	}
}

/* The index by name, made at the first lookup (a dlsym of a wrapped name): most processes
 * never make one, and its pages are then never touched. */
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static void index_hooks(void)
{
	tprof_hooks_fill();
	for (size_t t = 0; t < NTABLES; t++)
		for (size_t i = 0; i < *tables[t].n; i++) {
			struct tprof_hook *h = &tables[t].table[i];
			size_t j = tprof_hash_bytes(h->name, strlen(h->name)) & (INDEX_SIZE - 1);
			while (index_[j])
				j = (j + 1) & (INDEX_SIZE - 1);
			index_[j] = h;
		}
}

struct tprof_hook *tprof_hook_find(const char *name)
{
	pthread_once(&index_once, index_hooks);
	size_t j = tprof_hash_bytes(name, strlen(name)) & (INDEX_SIZE - 1);
	for (; index_[j]; j = (j + 1) & (INDEX_SIZE - 1))
		if (!strcmp(index_[j]->name, name))
			return index_[j];
	return NULL;
}

uint32_t tprof_hook_name_slow(struct tprof_hook *h)
{
	TPROF_KEEP_ERRNO;
	tprof_hooks_fill();
	const char *s = h->display ? h->display : h->name;
	uint32_t id = tprof_intern(s, strlen(s));
	h->id = id;
	__atomic_store_n(&h->gen, tprof_g.generation, __ATOMIC_RELEASE);
	return id;
}

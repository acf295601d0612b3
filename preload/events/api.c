/* api.c — the hook tables of all runtimes (each listed by TPROF_HOOK_TABLE in its own hook
 * file, gathered by the linker): looking a wrapper up by name (for dlsym), applying
 * TPROF_<DOMAIN>_API_FILTER/_FILTER_OUT (common/domains.h) once at load time, and interning
 * API names per process image. */
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"
#include "api.h"

/* Every table listed by TPROF_HOOK_TABLE, from the linker (hidden: never another module's). */
extern const struct tprof_hook_table __start_tprof_hook_tables[] TPROF_HIDDEN;
extern const struct tprof_hook_table __stop_tprof_hook_tables[] TPROF_HIDDEN;
#define EACH_TABLE(tb)                                                                       \
	for (const struct tprof_hook_table *tb = __start_tprof_hook_tables;                  \
	     tb < __stop_tprof_hook_tables; tb++)

/* Each domain's filter variables, NULL for a domain without (common/domains.h). */
#define FILTER_VARS(name, value, key, title, json, desc, paradigm, filtered, ...)          \
	[TPROF_DOM_##name] = { (filtered) ? "TPROF_" #name "_API_FILTER" : NULL,             \
			       (filtered) ? "TPROF_" #name "_API_FILTER_OUT" : NULL },
static const struct {
	const char *in, *out;
} filter_vars[TPROF_NDOMAINS] = { TPROF_DOMAINS(FILTER_VARS) };
#undef FILTER_VARS

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
	EACH_TABLE(tb)
		tb->fill();
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
	EACH_TABLE(tb) {
		const char *in = NULL, *out = NULL;
		if (tb->domain < TPROF_NDOMAINS && filter_vars[tb->domain].in) {
			in = tprof_env_get(env, filter_vars[tb->domain].in);
			out = tprof_env_get(env, filter_vars[tb->domain].out);
		}
		if ((!in || !*in) && (!out || !*out) && !tprof_g.cfg.poll_each)
			continue;
		tprof_hooks_fill();   /* the filters need the names */
		for (size_t i = 0; i < tb->n; i++) {
			struct tprof_hook *h = &tb->hooks[i];
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
	EACH_TABLE(tb)
		for (size_t i = 0; i < tb->n; i++) {
			struct tprof_hook *h = &tb->hooks[i];
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

/* args.h — the typed arguments of the scene's items (slices, flows): a list of keys and
 * values, nested objects and arrays, built with the sa_* helpers and read by every renderer
 * (Chrome JSON, Perfetto debug annotations, SQLite's JSON column). */
#ifndef TPROF_ANALYZE_ARGS_H
#define TPROF_ANALYZE_ARGS_H

#include <stddef.h>
#include <stdint.h>

enum scene_arg_type {
	SA_U64 = 1,      /* v.u */
	SA_I64,          /* v.i */
	SA_HEX,          /* v.u, shown as "0x..." (handles, streams, communicators) */
	SA_DOUBLE,       /* v.d */
	SA_STR,          /* v.s: valid until the item's call returns */
	SA_NAME,         /* v.name: a trace-wide string id (strings.h) */
	SA_US,           /* v.i: a duration or time in ns, shown in microseconds */
	SA_BOOL,         /* v.u: 0 or 1 */
	SA_OBJ,          /* opens a nested object: the args up to its SA_END are its members */
	SA_ARR,          /* opens an array: the args up to its SA_END (keys ignored) */
	SA_END,          /* closes the innermost SA_OBJ or SA_ARR */
};

/* One argument: its key is `key`, or when that is NULL the string `key_name` (an id). */
struct scene_arg {
	const char *key;
	uint32_t key_name;
	uint8_t type;                    /* enum scene_arg_type */
	union {
		uint64_t u;
		int64_t i;
		double d;
		const char *s;
		uint32_t name;
	} v;
};

#define SCENE_MAX_ARGS 160

/* The arguments of one item, in order: builders append, dropping what does not fit (the last
 * slot is kept for an SA_END; a builder whose input may nest deeper than what fits keeps its
 * own count so that every SA_OBJ and SA_ARR it adds gets its SA_END). */
struct scene_args {
	unsigned n;
	struct scene_arg a[SCENE_MAX_ARGS];
};

static inline struct scene_arg *sa_add(struct scene_args *s, const char *key, uint8_t type)
{
	static struct scene_arg spare;   /* takes what does not fit */
	if (s->n >= SCENE_MAX_ARGS || (s->n >= SCENE_MAX_ARGS - 1 && type != SA_END))
		return &spare;
	struct scene_arg *a = &s->a[s->n++];
	a->key = key;
	a->key_name = 0;
	a->type = type;
	return a;
}

static inline void sa_u64(struct scene_args *s, const char *key, uint64_t v) { sa_add(s, key, SA_U64)->v.u = v; }
static inline void sa_i64(struct scene_args *s, const char *key, int64_t v) { sa_add(s, key, SA_I64)->v.i = v; }
static inline void sa_hex(struct scene_args *s, const char *key, uint64_t v) { sa_add(s, key, SA_HEX)->v.u = v; }
static inline void sa_double(struct scene_args *s, const char *key, double v) { sa_add(s, key, SA_DOUBLE)->v.d = v; }
static inline void sa_str(struct scene_args *s, const char *key, const char *v) { sa_add(s, key, SA_STR)->v.s = v; }
static inline void sa_name(struct scene_args *s, const char *key, uint32_t v) { sa_add(s, key, SA_NAME)->v.name = v; }
static inline void sa_us(struct scene_args *s, const char *key, int64_t ns) { sa_add(s, key, SA_US)->v.i = ns; }
static inline void sa_bool(struct scene_args *s, const char *key, int v) { sa_add(s, key, SA_BOOL)->v.u = !!v; }
static inline void sa_obj(struct scene_args *s, const char *key) { sa_add(s, key, SA_OBJ); }
static inline void sa_arr(struct scene_args *s, const char *key) { sa_add(s, key, SA_ARR); }
static inline void sa_end(struct scene_args *s) { sa_add(s, NULL, SA_END); }
/* An object member whose key is a string id (a function's name, say). */
static inline void sa_obj_named(struct scene_args *s, uint32_t key_name)
{
	struct scene_arg *a = sa_add(s, NULL, SA_OBJ);
	a->key_name = key_name;
}

/* A slice's "unfinished"/"clipped" arguments from its event flags (EVF_*). */
void scene_args_flags(struct scene_args *a, unsigned flags);

#endif

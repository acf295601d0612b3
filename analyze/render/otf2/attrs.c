/* render/otf2/attrs.c — the scene's typed arguments (model/args.h) as OTF2 attributes: one
 * attribute per argument name and type, defined the first time it is used.  The generic
 * arguments of the model keep the names the archive has always had ("correlation" is the
 * attribute "correlation id", "shmem" "shared memory"...) and a fixed type; every other one,
 * whichever runtime drew it, is named by its key and typed by its value: unsigned and
 * handles UINT64, signed INT64, doubles DOUBLE, times in microseconds DOUBLE, strings and
 * names STRING, booleans UINT8.  An array of plain values is one string, "[1,1,1]"; nested
 * objects are left out.  An attribute list holds each attribute once: a second value of one
 * name in one list (a key given twice, two keys of one name, an argument and a flag of the same
 * name) goes to "<name> (2)", and so on.  Names are found by their text (an imported trace's
 * keys are made at run time, so that one address holds many keys in turn), through a small
 * cache keyed by the key's address whose answer is checked, so an argument costs a probe and
 * a short compare. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../util/u64map.h"
#include "state.h"

enum conv {
	CV_UINT = 1,     /* u or i as an unsigned number */
	CV_INT,          /* u or i as a signed one */
	CV_DOUBLE,       /* d */
	CV_US,           /* i (ns) as microseconds */
	CV_STR,          /* s */
	CV_NAME,         /* a string id */
	CV_ARRAY,        /* an array of plain values as one string */
};

/* The model's generic arguments (model/scene-args.c, model/args.c): their names and types in
 * the archive. */
static const struct {
	const char *key, *name, *desc;
	OTF2_Type type;
} known[] = {
	{ "correlation", "correlation id", "joins a launching call and the device work it started",
	  OTF2_TYPE_UINT64 },
	{ "returned", "return code", "the call's return code, when not 0", OTF2_TYPE_INT64 },
	{ "device", "device", "the device addressed", OTF2_TYPE_UINT32 },
	{ "stream", "stream", "the stream handle (0: the null stream)", OTF2_TYPE_UINT64 },
	{ "bytes", "bytes", "bytes copied, set, allocated or moved", OTF2_TYPE_UINT64 },
	{ "kind", "copy kind", "direction of a copy", OTF2_TYPE_STRING },
	{ "kernel", "kernel", "the kernel launched", OTF2_TYPE_STRING },
	{ "grid", "grid", "grid dimensions of a launch", OTF2_TYPE_STRING },
	{ "block", "block", "block dimensions of a launch", OTF2_TYPE_STRING },
	{ "shmem", "shared memory", "dynamic shared memory of a launch, bytes", OTF2_TYPE_UINT64 },
	{ "caller", "caller", "the function that launched it", OTF2_TYPE_STRING },
	{ "unfinished", "unfinished", "never closed: ends where its process's data ends",
	  OTF2_TYPE_UINT8 },
	{ "clipped", "clipped", "cut to the time window", OTF2_TYPE_UINT8 },
	{ "polls", "polls",
	  "unsuccessful polls folded into this region (MPI_Test finding nothing...)",
	  OTF2_TYPE_UINT64 },
	{ "time in calls (us)", "time in polls",
	  "ns spent inside those polls; the region also holds what ran between them",
	  OTF2_TYPE_UINT64 },
};

struct entry {
	uint32_t key_name;               /* the key's text, a string id */
	uint8_t satype;                  /* enum scene_arg_type */
	uint8_t conv;                    /* enum conv */
	OTF2_Type type;
	OTF2_AttributeRef ref;
};

#define RECENT 256

struct otf2_attrs {
	struct entry *v;                 /* in the order they were made */
	size_t n, cap;
	struct u64map at;                /* (key_name, satype) -> index in v */
	struct {
		const char *key;         /* an address a key was at */
		uint32_t name;           /* the string id of its text then */
	} recent[RECENT];
};

struct otf2_attrs *otf2_attrs_new(void)
{
	struct otf2_attrs *a = xcalloc(1, sizeof(*a));
	return a;
}

void otf2_attrs_free(struct otf2_attrs *a)
{
	if (!a)
		return;
	free(a->v);
	u64map_free(&a->at);
	free(a);
}

static uint64_t entry_key(uint32_t key_name, uint8_t satype)
{
	return (uint64_t)key_name << 8 | satype;
}

static struct entry *find(struct otf2_attrs *a, uint32_t key_name, uint8_t satype)
{
	uint32_t *i = u64map_get(&a->at, entry_key(key_name, satype));
	return i ? &a->v[*i] : NULL;
}

static struct entry *insert(struct otf2_attrs *a, const struct entry *e)
{
	a->v = util_grow(a->v, &a->cap, a->n, sizeof(*a->v), 64);
	a->v[a->n] = *e;
	u64map_put(&a->at, entry_key(e->key_name, e->satype), (uint32_t)a->n);
	return &a->v[a->n++];
}

static enum conv natural(uint8_t satype, OTF2_Type *type)
{
	switch (satype) {
	case SA_U64:
	case SA_HEX:
		*type = OTF2_TYPE_UINT64;
		return CV_UINT;
	case SA_I64:
		*type = OTF2_TYPE_INT64;
		return CV_INT;
	case SA_DOUBLE:
		*type = OTF2_TYPE_DOUBLE;
		return CV_DOUBLE;
	case SA_US:
		*type = OTF2_TYPE_DOUBLE;
		return CV_US;
	case SA_STR:
		*type = OTF2_TYPE_STRING;
		return CV_STR;
	case SA_NAME:
		*type = OTF2_TYPE_STRING;
		return CV_NAME;
	case SA_BOOL:
		*type = OTF2_TYPE_UINT8;
		return CV_UINT;
	case SA_ARR:
		*type = OTF2_TYPE_STRING;
		return CV_ARRAY;
	default:
		return 0;
	}
}

static int is_number(uint8_t satype)
{
	return satype == SA_U64 || satype == SA_HEX || satype == SA_I64 || satype == SA_BOOL ||
	       satype == SA_US;
}

/* The string id of an argument's key: its text's, through the cache of recent addresses. */
static uint32_t key_name(struct otf2_attrs *a, const struct scene_arg *x)
{
	if (!x->key)
		return x->key_name;
	size_t h = (size_t)(((uintptr_t)x->key * 0x9e3779b97f4a7c15ull) >> 56) & (RECENT - 1);
	if (a->recent[h].key == x->key && !strcmp(strings_get(a->recent[h].name), x->key))
		return a->recent[h].name;
	a->recent[h].key = x->key;
	return a->recent[h].name = strings_add(x->key, strlen(x->key));
}

/* What an argument of this name and type becomes: made the first time. */
static const struct entry *lookup(struct otf2 *o, const struct scene_arg *x)
{
	uint32_t name_id = key_name(o->args, x);
	struct entry *e = find(o->args, name_id, x->type);
	if (e)
		return e;
	struct entry n = { .key_name = name_id, .satype = x->type };
	const char *text = strings_get(name_id);
	const char *name = text, *desc = "";
	n.conv = natural(x->type, &n.type);
	if (!n.conv)
		return NULL;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(known[i].key, text))
			continue;
		int number = known[i].type != OTF2_TYPE_STRING;
		if (number != is_number(x->type))
			break;           /* another type than the model's: a name of its own */
		name = known[i].name;
		desc = known[i].desc;
		n.type = known[i].type;
		if (number)
			n.conv = known[i].type == OTF2_TYPE_INT64 ? CV_INT : CV_UINT;
		break;
	}
	n.ref = otf2_attr(o->defs, name, desc, n.type);
	return insert(o->args, &n);
}

static OTF2_AttributeValue number(const struct scene_arg *x, enum conv conv, OTF2_Type type)
{
	OTF2_AttributeValue v;
	uint64_t u = x->type == SA_I64 || x->type == SA_US ? (uint64_t)x->v.i : x->v.u;
	switch (type) {
	case OTF2_TYPE_UINT8:
		v.uint8 = (uint8_t)u;
		break;
	case OTF2_TYPE_UINT32:
		v.uint32 = (uint32_t)u;
		break;
	case OTF2_TYPE_INT64:
		v.int64 = (int64_t)u;
		break;
	default:
		v.uint64 = u;
		break;
	}
	(void)conv;
	return v;
}

/* Text into buf at *at (of len), kept NUL-terminated; 0 when it does not fit. */
static int add_text(char *buf, size_t len, size_t *at, const char *s, size_t n)
{
	if (*at + n + 1 > len)
		return 0;
	memcpy(buf + *at, s, n);
	*at += n;
	buf[*at] = 0;
	return 1;
}

/* Digits of v (base 10, or 16 with "0x"), without printf: two arrays per launch. */
static int add_number(char *buf, size_t len, size_t *at, uint64_t v, int hex, int neg)
{
	char d[24];
	size_t n = sizeof(d);
	do {
		d[--n] = "0123456789abcdef"[hex ? v % 16 : v % 10];
		v = hex ? v / 16 : v / 10;
	} while (v);
	if (hex) {
		d[--n] = 'x';
		d[--n] = '0';
	}
	if (neg)
		d[--n] = '-';
	return add_text(buf, len, at, d + n, sizeof(d) - n);
}

/* The plain values of the array opened at index i, "[a,b,c]"; the index of its SA_END in
 * *end; 0 when it holds anything but plain values, or more than fits. */
static int array_text(const struct scene_args *a, unsigned i, char *buf, size_t len, unsigned *end)
{
	size_t at = 0;
	int ok = add_text(buf, len, &at, "[", 1), first = 1;
	unsigned depth = 0;
	for (i++; i < a->n; i++) {
		const struct scene_arg *x = &a->a[i];
		if (x->type == SA_END && !depth)
			break;
		if (x->type == SA_OBJ || x->type == SA_ARR)
			depth++, ok = 0;
		else if (x->type == SA_END)
			depth--;
		if (!ok)
			continue;
		if (!first)
			ok = add_text(buf, len, &at, ",", 1);
		first = 0;
		const char *s = NULL;
		char num[32];
		switch (x->type) {
		case SA_U64:
		case SA_BOOL:
			ok = ok && add_number(buf, len, &at, x->v.u, 0, 0);
			break;
		case SA_HEX:
			ok = ok && add_number(buf, len, &at, x->v.u, 1, 0);
			break;
		case SA_I64:
		case SA_US:
			ok = ok && add_number(buf, len, &at, x->v.i < 0 ? 0 - (uint64_t)x->v.i :
						 (uint64_t)x->v.i, 0, x->v.i < 0);
			break;
		case SA_DOUBLE:
			snprintf(num, sizeof(num), "%g", x->v.d);
			s = num;
			break;
		case SA_STR:
			s = x->v.s ? x->v.s : "";
			break;
		case SA_NAME:
			s = strings_get(x->v.name);
			break;
		default:
			break;
		}
		if (s && ok)
			ok = add_text(buf, len, &at, s, strlen(s));
	}
	*end = i;
	return ok && add_text(buf, len, &at, "]", 1);
}

/* Whether the list being made (save's, else the one of the next record) holds ref. */
static int holds(struct otf2 *o, const struct saved *save, OTF2_AttributeRef ref)
{
	if (!save)
		return OTF2_AttributeList_TestAttributeByID(o->attrs, ref);
	for (uint32_t i = 0; i < save->n; i++)
		if (save->v[i].ref == ref)
			return 1;
	return 0;
}

/* ref, or the first "<its name> (k)" the list does not hold yet. */
static OTF2_AttributeRef unique(struct otf2 *o, const struct saved *save, OTF2_AttributeRef ref)
{
	OTF2_AttributeRef r = ref;
	for (unsigned k = 2; holds(o, save, r); k++)
		r = otf2_attr_again(o->defs, ref, k);
	return r;
}

static void put(struct otf2 *o, struct saved *save, OTF2_AttributeRef ref, OTF2_Type type,
		OTF2_AttributeValue v)
{
	ref = unique(o, save, ref);
	if (!save) {
		OTF2_AttributeList_AddAttribute(o->attrs, ref, type, v);
		return;
	}
	if (save->n == save->cap) {
		save->cap = save->cap ? save->cap * 2 : 16;
		save->v = xreallocarray(save->v, save->cap, sizeof(*save->v));
	}
	save->v[save->n++] = (struct attrv){ ref, type, v };
}

/* Skips the nested object or array opened at i: the index of its SA_END. */
static unsigned skip_nested(const struct scene_args *a, unsigned i)
{
	unsigned depth = 0;
	for (; i < a->n; i++) {
		if (a->a[i].type == SA_OBJ || a->a[i].type == SA_ARR)
			depth++;
		else if (a->a[i].type == SA_END && !--depth)
			break;
	}
	return i;
}

void otf2_args_add(struct otf2 *o, const struct scene_args *args, struct saved *save,
		   const char *skip)
{
	for (unsigned i = 0; i < args->n; i++) {
		const struct scene_arg *x = &args->a[i];
		if (x->type == SA_OBJ) {
			i = skip_nested(args, i);
			continue;
		}
		if (x->type == SA_END || (skip && x->key && !strcmp(x->key, skip)))
			continue;
		const struct entry *e = lookup(o, x);
		if (!e) {
			if (x->type == SA_ARR)
				i = skip_nested(args, i);
			continue;
		}
		OTF2_AttributeValue v;
		char buf[512];
		unsigned end;
		switch (e->conv) {
		case CV_UINT:
		case CV_INT:
			v = number(x, e->conv, e->type);
			break;
		case CV_DOUBLE:
			v.float64 = x->v.d;
			break;
		case CV_US:
			v.float64 = (double)x->v.i / 1000.0;
			break;
		case CV_STR:
			v.stringRef = otf2_str(o->defs, x->v.s ? x->v.s : "");
			break;
		case CV_NAME:
			if (!x->v.name)
				continue;        /* none */
			v.stringRef = otf2_tstr(o->defs, x->v.name);
			break;
		case CV_ARRAY: {
			int plain = array_text(args, i, buf, sizeof(buf), &end);
			i = end;
			if (!plain)
				continue;
			v.stringRef = otf2_str(o->defs, buf);
			break;
		}
		default:
			continue;
		}
		put(o, save, e->ref, e->type, v);
	}
}

void otf2_saved_add(struct otf2 *o, struct saved *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		OTF2_AttributeList_AddAttribute(o->attrs, unique(o, NULL, s->v[i].ref), s->v[i].type,
						s->v[i].v);
	otf2_saved_release(s);
}

void otf2_saved_release(struct saved *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

void otf2_attr_clipped(struct otf2 *o)
{
	static const struct scene_arg clipped = { .key = "clipped", .type = SA_BOOL, .v.u = 1 };
	const struct entry *e = lookup(o, &clipped);
	OTF2_AttributeValue v = { .uint8 = 1 };
	OTF2_AttributeList_AddAttribute(o->attrs, unique(o, NULL, e->ref), e->type, v);
}

uint64_t otf2_arg_u64(const struct scene_args *args, const char *key)
{
	for (unsigned i = 0; args && i < args->n; i++)
		if (args->a[i].key && !strcmp(args->a[i].key, key) &&
		    (args->a[i].type == SA_U64 || args->a[i].type == SA_HEX))
			return args->a[i].v.u;
	return 0;
}

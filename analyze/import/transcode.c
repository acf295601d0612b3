/* transcode.c — a Chrome trace into imported images (transcode.h).  Events arrive in the file's
 * order; each becomes an item (a fixed header, then its imported head and args) that items.c
 * puts in order by image, stream (thread) and time.  Going through each thread's items in time
 * order, slices are written as IBEGIN and IEND with proper nesting: a slice that outlives the
 * one it began in is cut at its end, an E closes the innermost B.  Images are written one at a
 * time, in the items' order, one after another into one scratch file (a file each would make
 * an import of many processes the file system's work), each stream's buffer given back when
 * its items are done: memory follows the events, not the number of processes and threads the
 * file names.  Whatever is changed or left out on the way is counted by cause (fixes.h). */
#include "transcode.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../common/events.h"
#include "../../common/hash.h"
#include "../../common/imgwrite.h"
#include "../../common/import-records.h"
#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "../util/grow.h"
#include "../util/satarith.h"
#include "../util/strings.h"
#include "../util/u64map.h"
#include "argblob.h"
#include "chrome-read.h"
#include "fixes.h"
#include "items.h"

#define DEFAULT_STEPS "^ProfilerStep#([0-9]+)$"
#define DEFAULT_RUN_BYTES (128u << 20)
#define MAX_PAYLOAD ((TPROF_MAX_EXT - 1) * TPROF_UNIT)   /* args after the head */
#define STR_TID_BASE 1000000000ll   /* made-up tids of threads named by a string */
#define MAX_NAME (TPROF_MAX_EXT * TPROF_UNIT)   /* a string record's bytes (imgwrite.c) */
/* The times an image holds: within 2^61 ns (73 years) of the file's zero, so that ticks
 * (ns + TPROF_IMP_TICK_BIAS) lie in (2^61, 3 * 2^61) and a file's whole span fits on the
 * analyzer's axis of +-(2^62 - 1) ns (util/satarith.h), wherever it is placed. */
#define MAX_TS (((int64_t)1 << 61) - 1)
#define MIN_TS (-MAX_TS)

struct ref_key {
	int is_str;
	int64_t num;
	uint32_t str;                   /* trace-wide string id */
};

struct thr {
	struct ref_key key;
	int64_t tid;
	uint32_t name;                  /* its thread_name, 0: none */
	int64_t first;
	uint32_t gs;                    /* its dense number over the file (items_stream) */
	int is_gpu;                     /* a GPU stream: Kineto's kernels and copies */
	int64_t gpu_device, gpu_stream;
};

struct img {
	struct ref_key key;
	uint32_t name;                  /* process_name, 0: none */
	int64_t sort_index;
	int has_sort;
	struct thr *thr;
	size_t nthr, capthr;
	size_t last_thr;
	struct u64map thr_num, thr_str; /* its threads by numeric tid, by string tid's id */
	struct imp_step *steps;
	size_t nsteps, capsteps;
	uint64_t events;
	struct tprof_imgw *w;           /* while written */
	size_t out;                     /* its entry in imp_file.images, once opened */
};

struct ctx {
	const struct imp_opts *o;
	struct imp_file *f;
	int pack;                       /* imp_file.pack, open for appending */
	uint32_t source;                /* the file's name, a string id (where fixes were met) */
	regex_t steps;
	int64_t *step_of;               /* by name string id: -1 unknown, -2 no, else N */
	size_t nstep_of;
	struct img *img;
	size_t nimg, capimg, last_img;
	struct u64map img_num, img_str; /* the images by numeric pid, by string pid's id */
	struct items *items;
	uint32_t ngs;
	_Alignas(16) uint8_t scratch[MAX_PAYLOAD + TPROF_UNIT];   /* args; written: head, args */
	uint8_t phead;                  /* the head's flags of the payload in scratch | ITEM_HEAD */
	const uint8_t *pdata;           /* the payload: scratch, or the reader's args bytes */
	/* names and categories given an id lately, by a hash of their length and ends (str_id),
	 * with the table's own copy of the text to compare with */
	struct { uint32_t len, id; const char *s; } names[256];
	int failed;
	/* the image being written: trace-wide string id -> its own (0: not yet), and the ids set
	 * there, cleared when the next image starts */
	uint32_t *smap;
	size_t nsmap;
	uint32_t *smap_set;
	size_t nsmap_set, capsmap_set;
};

static void fix(struct ctx *c, enum imp_fix cause, uint64_t offset)
{
	imp_fix(&c->f->fixes, cause, c->source, offset);
}

/* ---- processes and threads of the file --------------------------------------------------- */

static struct ref_key key_of(const struct chrome_ref *r)
{
	struct ref_key k = { 0, 0, 0 };
	if (r->present && r->is_str) {
		k.is_str = 1;
		k.str = strings_add(r->str, strlen(r->str));
	} else if (r->present)
		k.num = r->num;
	return k;
}

static int same_key(const struct ref_key *a, const struct ref_key *b)
{
	return a->is_str == b->is_str && (a->is_str ? a->str == b->str : a->num == b->num);
}

/* The map of a key's kind, and its key there. */
static struct u64map *key_map(struct u64map *num, struct u64map *str, const struct ref_key *k,
			      uint64_t *key)
{
	*key = k->is_str ? k->str : (uint64_t)k->num;
	return k->is_str ? str : num;
}

static uint32_t image_of(struct ctx *c, const struct chrome_ref *pid)
{
	struct ref_key k = key_of(pid);
	uint64_t key;
	if (c->last_img < c->nimg && same_key(&c->img[c->last_img].key, &k))
		return (uint32_t)c->last_img;
	struct u64map *m = key_map(&c->img_num, &c->img_str, &k, &key);
	uint32_t *v = u64map_get(m, key);
	if (v)
		return (uint32_t)(c->last_img = *v);
	c->img = util_grow(c->img, &c->capimg, c->nimg, sizeof(*c->img), 16);
	struct img *im = &c->img[c->nimg];
	memset(im, 0, sizeof(*im));
	im->key = k;
	u64map_put(m, key, (uint32_t)c->nimg);
	return (uint32_t)(c->last_img = c->nimg++);
}

static uint32_t stream_of(struct ctx *c, struct img *im, const struct chrome_ref *tid)
{
	struct ref_key k = key_of(tid);
	uint64_t key;
	if (im->last_thr < im->nthr && same_key(&im->thr[im->last_thr].key, &k))
		return (uint32_t)im->last_thr + 1;
	struct u64map *m = key_map(&im->thr_num, &im->thr_str, &k, &key);
	uint32_t *v = u64map_get(m, key);
	if (v)
		return (uint32_t)(im->last_thr = *v) + 1;
	u64map_put(m, key, (uint32_t)im->nthr);
	im->thr = util_grow(im->thr, &im->capthr, im->nthr, sizeof(*im->thr), 1);
	struct thr *t = &im->thr[im->nthr];
	memset(t, 0, sizeof(*t));
	t->key = k;
	t->tid = k.is_str ? STR_TID_BASE + (int64_t)im->nthr : k.num;
	t->name = k.is_str ? k.str : 0;
	t->first = INT64_MAX;
	t->gs = c->ngs++;
	items_stream(c->items, t->gs, (uint32_t)(im - c->img), (uint32_t)im->nthr + 1);
	return (uint32_t)(im->last_thr = im->nthr++) + 1;
}

/* ---- steps -------------------------------------------------------------------------------- */

static int64_t step_number(struct ctx *c, uint32_t name)
{
	c->step_of = util_grow_index(c->step_of, &c->nstep_of, name, sizeof(*c->step_of), 256,
				     0xff);
	if (c->step_of[name] == -1) {
		regmatch_t m[2];
		const char *s = strings_get(name);
		c->step_of[name] = -2;
		if (s && regexec(&c->steps, s, 2, m, 0) == 0 && m[1].rm_so >= 0) {
			char *end;
			unsigned long long n = strtoull(s + m[1].rm_so, &end, 10);
			if (end == s + m[1].rm_eo)
				c->step_of[name] = (int64_t)n;
		}
	}
	return c->step_of[name];
}

/* ---- events into items -------------------------------------------------------------------- */

/* A name's trace-wide id (0 for none); one longer than a string record holds is counted: it
 * will be cut. */
static uint32_t str_id(struct ctx *c, const char *s, uint64_t offset)
{
	if (!s)
		return 0;
	size_t n = strlen(s);
	if (n > MAX_NAME)
		fix(c, IMP_FIX_NAME_CUT, offset);
	if (!n)
		return 0;
	/* most events repeat a few names and categories: one met lately is not hashed whole */
	unsigned k = ((unsigned)n * 31u + (unsigned char)s[0] * 7u + (unsigned char)s[n - 1]) &
		     (sizeof(c->names) / sizeof(c->names[0]) - 1);
	if (c->names[k].len == n && c->names[k].id && !memcmp(c->names[k].s, s, n))
		return c->names[k].id;
	uint32_t id = strings_add(s, n);
	c->names[k].len = (uint32_t)n;
	c->names[k].id = id;
	c->names[k].s = strings_get(id);
	return id;
}

/* An event's id, scope and category as one hash, which pairs the ends of async ranges and
 * flows.  Ids are unique by nature: interned, a file of many would hold them all in memory, so
 * the text is not kept. */
static uint64_t id_hash(const struct chrome_event *ev)
{
	uint64_t h = tprof_hash_bytes(ev->id ? ev->id : "", ev->id ? strlen(ev->id) : 0);
	if (ev->cat)
		h ^= tprof_hash_bytes(ev->cat, strlen(ev->cat)) * 31;
	if (ev->id_scope)
		h ^= tprof_hash_bytes(ev->id_scope, strlen(ev->id_scope)) * 131;
	if (ev->id_kind == CHROME_ID_LOCAL)
		h ^= 0x9e3779b97f4a7c15ull;
	return h;
}

/* The args (encoded, argblob.h) of an event at c->pdata (the reader's bytes, or c->scratch),
 * and the flags of its head into c->phead; returns their length. */
static size_t payload(struct ctx *c, const struct chrome_event *ev, int with_args)
{
	size_t len = 0;
	struct argblob_stats st;
	c->phead = ITEM_HEAD;
	c->pdata = c->scratch;
	if (!with_args || (!ev->args && !ev->args_blob))
		return 0;
	if (ev->args_blob) {
		/* encoded by the reader as it parsed them */
		st = (struct argblob_stats){ ev->args_items, ev->args_deep, ev->args_cut };
		if (!ev->args_full) {
			c->pdata = ev->args_blob;
			len = ev->args_len;
		}
	}
	if (ev->args_blob ? ev->args_full
			  : argblob_encode(ev->args, c->scratch, &len, MAX_PAYLOAD, &st) < 0) {
		c->phead |= TPROF_IMP_ARGS_CUT;
		fix(c, IMP_FIX_ARGS_CUT, ev->offset);
		return len;
	}
	if (st.deep)
		fix(c, IMP_FIX_ARGS_DEEP, ev->offset);
	if (st.cut)
		fix(c, IMP_FIX_NAME_CUT, ev->offset);
	if (st.items > IMP_ARGS_SHOWN)
		fix(c, IMP_FIX_ARGS_MANY, ev->offset);
	return len;
}

static int add(struct ctx *c, const struct chrome_event *ev, uint32_t image, uint32_t stream,
	       uint16_t kind, uint8_t flags, uint8_t cls, uint32_t name, uint64_t arg,
	       int64_t dur, size_t plen)
{
	struct item it = {
		.t = ev->ts_ns, .dur = dur,
		.arg = arg, .image = image, .stream = stream, .name = name, .len = (uint32_t)plen,
		.kind = kind, .flags = flags, .cls = cls,
		.gs = c->img[image].thr[stream - 1].gs,
		.offset = ev->offset,
	};
	if (kind != TPROF_K_IEND) {
		it.cat = str_id(c, ev->cat, ev->offset);
		it.head = c->phead;
	}
	/* an E has no payload: c->pdata may point at an event gone by */
	return items_add(c->items, &it, plen ? c->pdata : c->scratch);
}

/* A process's or thread's name set to id: counted when it replaces another. */
static void rename_to(struct ctx *c, uint32_t *name, uint32_t id, uint64_t offset)
{
	if (*name && *name != id)
		fix(c, IMP_FIX_RENAMED, offset);
	*name = id;
}

/* The metadata used (process_name, thread_name, process_sort_index); any other, or one whose
 * value is not of its type, is counted as not used. */
static void metadata(struct ctx *c, const struct chrome_event *ev, struct img *im,
		     const struct chrome_ref *tid)
{
	const cJSON *a = ev->args;
	const cJSON *name = a ? cJSON_GetObjectItemCaseSensitive(a, "name") : NULL;
	const cJSON *idx = a ? cJSON_GetObjectItemCaseSensitive(a, "sort_index") : NULL;
	if (!ev->name) {
		fix(c, IMP_FIX_METADATA, ev->offset);
	} else if (!strcmp(ev->name, "process_name") && cJSON_IsString(name)) {
		rename_to(c, &im->name, str_id(c, name->valuestring, ev->offset), ev->offset);
	} else if (!strcmp(ev->name, "thread_name") && cJSON_IsString(name)) {
		uint32_t s = stream_of(c, im, tid);   /* may move im->thr */
		uint32_t id = str_id(c, name->valuestring, ev->offset);
		rename_to(c, &im->thr[s - 1].name, id, ev->offset);
	} else if (!strcmp(ev->name, "process_sort_index") && cJSON_IsNumber(idx)) {
		im->sort_index = sat_from_double(idx->valuedouble);
		im->has_sort = 1;
	} else {
		fix(c, IMP_FIX_METADATA, ev->offset);
	}
}

/* The series of a counter event, one item each. */
/* A counter series' value: a number, or a string that holds one. */
static int series_value(const cJSON *s, double *v)
{
	char *end;
	if (cJSON_IsNumber(s)) {
		*v = s->valuedouble;
		return 1;
	}
	return cJSON_IsString(s) && s->valuestring[0] && (*v = strtod(s->valuestring, &end), !*end);
}

static int counter(struct ctx *c, const struct chrome_event *ev, uint32_t image, uint32_t stream)
{
	const cJSON *a = ev->args;
	size_t n = 0, skipped = 0;
	double v;
	for (const cJSON *s = a ? a->child : NULL; s; s = s->next)
		n += cJSON_IsNumber(s) || (cJSON_IsString(s) && s->valuestring[0]);
	for (const cJSON *s = a ? a->child : NULL; s; s = s->next) {
		if (!series_value(s, &v)) {
			skipped++;
			continue;
		}
		const char *base = ev->name ? ev->name : "counter";
		char buf[512];
		int len;
		if (n == 1 || !s->string)
			len = snprintf(buf, sizeof(buf), "%s", base);
		else
			len = snprintf(buf, sizeof(buf), "%s %s", base, s->string);
		if (len >= (int)sizeof(buf))
			fix(c, IMP_FIX_NAME_CUT, ev->offset);
		uint64_t bits;
		memcpy(&bits, &v, sizeof(bits));
		if (add(c, ev, image, stream, TPROF_K_ICOUNTER, 0, 2, str_id(c, buf, ev->offset),
			bits, 0, payload(c, ev, 0)) < 0)
			return -1;
	}
	/* a value that is no number, or an event with none at all */
	imp_fix_n(&c->f->fixes, IMP_FIX_COUNTER, skipped ? skipped : !n, c->source, ev->offset);
	return 0;
}

/* The args' first member named key, when it is a number: 1 with its value. */
static int tree_number(const cJSON *args, const char *key, double *v)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(args, key);
	if (!cJSON_IsNumber(n))
		return 0;
	*v = n->valuedouble;
	return 1;
}

/* The same from the reader's bytes (whole: args too large for them come with their tree). */
static int blob_number(const struct chrome_event *ev, const char *key, double *v)
{
	struct argblob_reader r;
	struct argblob_item it;
	size_t n = strlen(key);
	argblob_reader_init(&r, ev->args_blob, ev->args_len);
	for (;;) {
		int top = r.depth == 0;
		if (argblob_next(&r, &it) <= 0)
			return 0;
		if (!top || it.type == TPROF_IMP_A_END || it.key_len != n || memcmp(it.key, key, n))
			continue;
		if (it.type == TPROF_IMP_A_INT)
			*v = (double)it.i;
		else if (it.type == TPROF_IMP_A_DOUBLE)
			*v = it.d;
		else
			return 0;
		return 1;
	}
}

/* Kineto's GPU work: a kernel, copy or set with "device" and "stream" in its args makes its
 * thread a GPU stream, which the analyzer puts beside the recorded device streams. */
static void gpu_work(struct thr *th, const struct chrome_event *ev)
{
	static const char *const kinds[] = { "kernel", "gpu_memcpy", "gpu_memset", "memcpy",
					     "memset" };
	size_t k = 0;
	if (th->is_gpu || !ev->cat || (!ev->args && !ev->args_blob))
		return;
	/* most are not: told by the first letter */
	char c0 = (char)(ev->cat[0] | 0x20);
	if (c0 != 'k' && c0 != 'g' && c0 != 'm')
		return;
	while (k < sizeof(kinds) / sizeof(kinds[0]) && strcasecmp(ev->cat, kinds[k]))
		k++;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return;
	double d, s;
	if (!ev->args ? blob_number(ev, "device", &d) && blob_number(ev, "stream", &s)
		      : tree_number(ev->args, "device", &d) && tree_number(ev->args, "stream", &s)) {
		if (d >= 0 && d <= UINT32_MAX && s >= 0) {
			th->is_gpu = 1;
			th->gpu_device = sat_from_double(d);
			th->gpu_stream = sat_from_double(s);
		}
	}
}

/* The phases imported (a switch: the compiler's bit test, where strchr was a call an event). */
static int imported_phase(char ph)
{
	switch (ph) {
	case 'X': case 'B': case 'E': case 'i': case 'I': case 'R': case 'O': case 'N':
	case 'D': case 'P': case 'C': case 'b': case 'e': case 'n': case 'S': case 'T':
	case 'F': case 'p': case 's': case 't': case 'f':
		return 1;
	default:
		return 0;
	}
}

static int on_chrome_event(void *arg, const struct chrome_event *ev)
{
	struct ctx *c = arg;
	struct imp_file *f = c->f;
	if (c->failed)
		return 1;
	uint32_t image = image_of(c, &ev->pid);
	struct img *im = &c->img[image];
	if (ev->ph == 'M') {
		metadata(c, ev, im, &ev->tid);
		return 0;
	}
	if (!ev->has_ts) {
		fix(c, IMP_FIX_NO_TS, ev->offset);
		return 0;
	}
	if (!imported_phase(ev->ph)) {
		fix(c, IMP_FIX_PHASE, ev->offset);
		return 0;
	}
	if (!ev->pid.present || !ev->tid.present)
		fix(c, IMP_FIX_NO_PID, ev->offset);
	struct chrome_event held_ev;
	int held = ev->ts_ns < MIN_TS || ev->ts_ns > MAX_TS;
	if (held) {             /* beyond what ticks hold: at the nearest time they do */
		held_ev = *ev;
		held_ev.ts_ns = ev->ts_ns < MIN_TS ? MIN_TS : MAX_TS;
		ev = &held_ev;
	}
	uint32_t stream = stream_of(c, im, &ev->tid);
	struct thr *th = &im->thr[stream - 1];
	int64_t dur = 0;
	if (ev->ph == 'X' && !ev->has_dur)
		fix(c, IMP_FIX_NO_DUR, ev->offset);
	else if (ev->ph == 'X' && ev->dur_ns < 0)
		fix(c, IMP_FIX_NEG_DUR, ev->offset);
	else if (ev->ph == 'X')
		dur = ev->dur_ns;
	int64_t end = sat_add(ev->ts_ns, dur);
	if (end > MAX_TS) {     /* the slice ends at the end of the range */
		end = MAX_TS;
		dur = end - ev->ts_ns;
		held = 1;
	}
	if (held)
		fix(c, IMP_FIX_TIME_RANGE, ev->offset);
	if (ev->ts_ns < th->first)
		th->first = ev->ts_ns;
	if (ev->ts_ns < f->first_ns)
		f->first_ns = ev->ts_ns;
	if (end > f->last_ns)
		f->last_ns = end;
	uint32_t name = str_id(c, ev->name, ev->offset);
	int rc = 0;
	switch (ev->ph) {
	case 'X':
	case 'B': {
		gpu_work(th, ev);
		size_t plen = payload(c, ev, 1);
		int64_t step = ev->ph == 'X' && name ? step_number(c, name) : -1;
		if (step >= 0) {
			im->steps = util_grow(im->steps, &im->capsteps, im->nsteps,
					 sizeof(*im->steps), 16);
			im->steps[im->nsteps++] = (struct imp_step){ (uint64_t)step, ev->ts_ns, end };
			c->phead |= TPROF_IMP_STEP;
		}
		rc = add(c, ev, image, stream, TPROF_K_IBEGIN, (uint8_t)ev->ph, 1, name,
			 step >= 0 ? (uint64_t)step : 0, dur, plen);
		break;
	}
	case 'E':
		rc = add(c, ev, image, stream, TPROF_K_IEND, 0, 0, 0, 0, 0, 0);
		break;
	case 'i': case 'I': case 'R': case 'O': case 'N': case 'D': case 'P':
		rc = add(c, ev, image, stream, TPROF_K_IMARK,
			 (uint8_t)(ev->ph == 'I' ? 'i' : ev->ph), 2, name,
			 ev->id ? id_hash(ev) : 0, 0, payload(c, ev, 1));
		break;
	case 'C':
		rc = counter(c, ev, image, stream);
		break;
	case 'b': case 'e': case 'n': case 'S': case 'T': case 'F': case 'p':
		rc = add(c, ev, image, stream, TPROF_K_IASYNC, (uint8_t)ev->ph, 2, name,
			 id_hash(ev), 0, payload(c, ev, 1));
		break;
	default:                /* s t f */
		rc = add(c, ev, image, stream, TPROF_K_IFLOW,
			 (uint8_t)(ev->ph | (ev->bp == 'e' ? TPROF_IMP_BIND_ENCLOSING : 0)), 2,
			 name, id_hash(ev), 0, payload(c, ev, 0));
		break;
	}
	if (rc < 0) {
		c->failed = 1;
		return 1;
	}
	im->events++;
	f->events++;
	return 0;
}

/* ---- writing the images ------------------------------------------------------------------- */

/* A trace-wide string id as the image's own. */
static uint32_t img_str(struct ctx *c, struct img *im, uint32_t id, uint64_t t)
{
	if (!id)
		return 0;
	c->smap = util_grow_index(c->smap, &c->nsmap, id, sizeof(*c->smap), 1024, 0);
	if (!c->smap[id]) {
		c->smap[id] = tprof_imgw_string_n(im->w, strings_get(id), strings_len(id), t);
		c->smap_set = util_grow(c->smap_set, &c->capsmap_set, c->nsmap_set,
					sizeof(*c->smap_set), 64);
		c->smap_set[c->nsmap_set++] = id;
	}
	return c->smap[id];
}

static uint64_t ticks(int64_t ns)
{
	return (uint64_t)ns + TPROF_IMP_TICK_BIAS;
}

/* One thread's slices in nesting order: what is open, innermost last. */
struct open_slice {
	int64_t end;                    /* INT64_MAX for a B */
	uint64_t offset;                /* its event's, in the file */
	int clipped;
	int is_b;                       /* a B, open until its E */
};

struct writer {
	struct ctx *c;
	struct img *im;
	uint32_t image, stream;
	size_t next;                    /* the first image not yet written */
	struct open_slice *open;
	size_t nopen, capopen;
	size_t nb;                      /* B slices among them */
	int64_t last;
};

static void write_end(struct writer *w, int64_t t, int clipped)
{
	struct tprof_rec r = { .kind = TPROF_K_IEND, .t0 = ticks(t),
			       .flags = clipped ? TPROF_IMP_CLIPPED : 0 };
	tprof_imgw_write(w->im->w, w->stream, &r, NULL, 0);
	w->nb -= w->open[w->nopen - 1].is_b;
	w->nopen--;
	if (t > w->last)
		w->last = t;
}

/* Closes the slices that ended by t, up to the innermost B open. */
static void close_until(struct writer *w, int64_t t)
{
	while (w->nopen && !w->open[w->nopen - 1].is_b && w->open[w->nopen - 1].end <= t)
		write_end(w, w->open[w->nopen - 1].end, w->open[w->nopen - 1].clipped);
}

/* The end of a thread's items: what is still open ends, and its buffer goes. */
static void flush_thread(struct writer *w)
{
	if (!w->im || !w->im->w) {
		w->nopen = w->nb = 0;
		return;
	}
	while (w->nopen) {
		const struct open_slice *o = &w->open[w->nopen - 1];
		if (!o->is_b) {
			write_end(w, o->end, o->clipped);
			continue;
		}
		fix(w->c, IMP_FIX_B_ALONE, o->offset);   /* never ended: at the last time */
		write_end(w, w->last, 1);
	}
	tprof_imgw_release(w->im->w, w->stream);
}

/* The head of an item, with the image's string ids, then its args, into c->scratch; returns
 * their length. */
static size_t with_head(struct img *im, struct ctx *c, const struct item *it,
			const uint8_t *args, uint64_t t)
{
	/* field by field: a head built aside and copied whole stalled on its own stores */
	struct tprof_imp_head *h = (struct tprof_imp_head *)c->scratch;
	h->cat = img_str(c, im, it->cat, t);
	h->args_len = it->len;
	h->id = 0;
	h->flags = it->head & ~ITEM_HEAD;
	h->offset = it->offset;
	h->reserved = 0;
	memcpy(c->scratch + sizeof(*h), args, it->len);
	return sizeof(*h) + it->len;
}

static void image_props(struct ctx *c, struct img *im, uint64_t t)
{
	struct imp_file *f = c->f;
	static const char *times[] = { "relative", "epoch", "base" };
	tprof_imgw_prop_str(im->w, "role", "import", t);
	tprof_imgw_prop_str(im->w, "source", f->source, t);
	tprof_imgw_prop_int(im->w, "pid", im->key.is_str ? -1 : im->key.num, t);
	if (im->key.is_str)
		tprof_imgw_prop_str(im->w, "pid_name", strings_get(im->key.str), t);
	if (im->name)
		tprof_imgw_prop_str(im->w, "process_name", strings_get(im->name), t);
	if (im->has_sort)
		tprof_imgw_prop_int(im->w, "sort_index", im->sort_index, t);
	if (f->host)
		tprof_imgw_prop_str(im->w, "host", f->host, t);
	if (f->rank >= 0)
		tprof_imgw_prop_int(im->w, "import_rank", f->rank, t);
	tprof_imgw_prop_str(im->w, "time", times[f->time], t);
	if (f->time == IMP_TIME_BASE)
		tprof_imgw_prop_int(im->w, "base_ns", f->base_ns, t);
	for (size_t i = 0; i < im->nthr; i++) {
		struct thr *th = &im->thr[i];
		uint64_t at = th->first == INT64_MAX ? t : ticks(th->first);
		struct tprof_rec r = { .kind = TPROF_K_THREAD, .arg = i + 1, .t0 = at,
				       .t1 = (uint64_t)th->tid,
				       .name = th->name ? img_str(c, im, th->name, at) : 0 };
		tprof_imgw_write(im->w, 0, &r, NULL, 0);
		if (th->is_gpu) {
			char v[64];
			snprintf(v, sizeof(v), "%zu %lld %lld", i + 1, (long long)th->gpu_device,
				 (long long)th->gpu_stream);
			tprof_imgw_prop_str(im->w, "gpu_stream", v, at);
		}
	}
}

/* Image i's file, with its properties: 0, or -1 when it cannot be made (said). */
static int open_image(struct ctx *c, size_t i)
{
	struct imp_file *f = c->f;
	struct img *im = &c->img[i];
	char why[512];
	struct tprof_imgw_opts o = {
		.dir = c->o->scratch, .host = f->host ? f->host : "import",
		.pid = (uint32_t)(im->key.is_str ? i : (uint64_t)im->key.num),
		/* the same each time the file is imported (by one analysis process or another) */
		.instance = tprof_hash_more(tprof_hash_bytes(f->source, strlen(f->source)), &i,
					    sizeof(i)) | 1,
		.real_ns = 0, .prog = "tprof-analyze", .what = "the import",
		.raw = 1,      /* read once, right away: compressing it would be waste */
		.thread = 1,   /* chunks made beside the merge, once there are many */
		.into = &c->pack,
	};
	off_t at = lseek(c->pack, 0, SEEK_END);   /* the image before is all written */
	if (at < 0 || !(im->w = tprof_imgw_open(&o, why, sizeof(why)))) {
		diag_error("%s: %s: %s", f->source, f->pack, at < 0 ? strerror(errno) : why);
		return -1;
	}
	uint64_t t = ticks(f->first_ns == INT64_MAX ? 0 : f->first_ns);
	image_props(c, im, t);
	im->out = f->nimages;
	struct imp_image *out = &f->images[f->nimages++];
	out->offset = (uint64_t)at;
	out->pid = im->key.is_str ? -1 : im->key.num;
	out->pid_str = im->key.is_str ? xstrdup(strings_get(im->key.str)) : NULL;
	out->events = im->events;
	out->steps = im->steps;
	out->nsteps = im->nsteps;
	im->steps = NULL;
	return 0;
}

/* Its END, and the image closed, its size known: 0, or -1 after a write error (said). */
static int close_image(struct ctx *c, struct img *im)
{
	if (!im->w)
		return 0;
	uint64_t t = ticks(c->f->last_ns == INT64_MIN ? 0 : c->f->last_ns);
	tprof_imgw_write(im->w, 0, &(struct tprof_rec){ .kind = TPROF_K_END,
			 .flags = TPROF_END_EXIT, .t0 = t }, NULL, 0);
	int rc = tprof_imgw_ok(im->w) ? 0 : -1;
	tprof_imgw_close(im->w);
	im->w = NULL;
	struct imp_image *out = &c->f->images[im->out];
	off_t end = lseek(c->pack, 0, SEEK_END);
	out->size = end > (off_t)out->offset ? (uint64_t)end - out->offset : 0;
	for (size_t k = 0; k < c->nsmap_set; k++)
		c->smap[c->smap_set[k]] = 0;
	c->nsmap_set = 0;
	return rc;
}

/* The images before `upto` not written yet, one at a time: those with no item (a process only
 * named) are written whole; image upto (when < nimg) is opened for its items. */
static void images_until(struct writer *w, size_t upto)
{
	struct ctx *c = w->c;
	if (w->im && close_image(c, w->im) < 0)
		c->failed = 1;
	w->im = NULL;
	for (; w->next < c->nimg && w->next <= upto; w->next++) {
		struct img *im = &c->img[w->next];
		if (!im->events && !im->name)
			continue;   /* metadata of a process with no event */
		if (open_image(c, w->next) < 0) {
			c->failed = 1;
			continue;
		}
		if (w->next == upto) {
			w->im = im;
			continue;
		}
		if (close_image(c, im) < 0)
			c->failed = 1;
	}
}

static void write_item(void *arg, const struct item *it, uint8_t *payload)
{
	struct writer *w = arg;
	struct ctx *c = w->c;
	if (it->image != w->image || it->stream != w->stream) {
		flush_thread(w);
		if (it->image != w->image)
			images_until(w, it->image);
		w->image = it->image;
		w->stream = it->stream;
		w->last = INT64_MIN;
	}
	if (!w->im || !w->im->w)
		return;
	close_until(w, it->t);
	if (it->t > w->last)
		w->last = it->t;
	if (it->kind == TPROF_K_IEND) {
		if (!w->nb) {   /* no B to end: the X slices open stay as they are */
			fix(c, IMP_FIX_E_ALONE, it->offset);
			return;
		}
		/* X slices still open inside its B end here */
		while (!w->open[w->nopen - 1].is_b) {
			fix(c, IMP_FIX_CLIPPED, w->open[w->nopen - 1].offset);
			write_end(w, it->t, 1);
		}
		write_end(w, it->t, 0);
		return;
	}
	uint64_t t0 = ticks(it->t);
	struct tprof_rec r = { .kind = it->kind, .flags = it->flags, .t0 = t0, .arg = it->arg,
			       .name = img_str(c, w->im, it->name, t0) };
	size_t len = it->len;
	if (it->head) {
		len = with_head(w->im, c, it, payload, t0);
		payload = c->scratch;
	}
	if (it->kind == TPROF_K_IBEGIN) {
		int is_b = it->flags != 'X';
		int64_t end = is_b ? INT64_MAX : it->t + it->dur;   /* within MAX_TS (callback) */
		int clipped = 0;
		if (w->nopen && end > w->open[w->nopen - 1].end) {
			end = w->open[w->nopen - 1].end;   /* a B in an X ends with it */
			clipped = 1;
			is_b = 0;
			fix(c, IMP_FIX_CLIPPED, it->offset);
		}
		w->open = util_grow(w->open, &w->capopen, w->nopen, sizeof(*w->open), 16);
		w->open[w->nopen++] = (struct open_slice){ end, it->offset, clipped, is_b };
		w->nb += is_b;
	}
	tprof_imgw_write(w->im->w, w->stream, &r, payload, len);
}

/* ---- the whole file ----------------------------------------------------------------------- */

/* The reader's warnings and errors as the analyzer's own (named file and offset). */
static void report(void *ctx, int is_error, const char *path, uint64_t offset, const char *text)
{
	(void)ctx;
	if (!is_error)
		diag_warn(path, offset == CHROME_NO_OFFSET ? 0 : offset, "%s", text);
	else if (offset == CHROME_NO_OFFSET)
		diag_error("%s: %s", path, text);
	else
		diag_error("%s: offset %llu: %s", path, (unsigned long long)offset, text);
}

/* What the file says of itself into f; 1 when its baseTimeNanoseconds was left out. */
static int file_meta(struct imp_file *f, const struct chrome_meta *m)
{
	f->rank = m->has_dist ? m->rank : -1;
	if (m->tprof) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(m->tprof, "host");
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(m->tprof, "pid");
		if (cJSON_IsString(h))
			f->host = xstrdup(h->valuestring);
		if (cJSON_IsNumber(p))
			f->tprof_pid = sat_from_double(p->valuedouble);
	}
	int64_t first = f->first_ns == INT64_MAX ? 0 : f->first_ns;
	int64_t last = f->last_ns == INT64_MIN ? first : f->last_ns;
	int held = 0;
	const cJSON *b = m->tprof ? cJSON_GetObjectItemCaseSensitive(m->tprof, "base_us") : NULL;
	if (cJSON_IsNumber(b) && b->valuedouble > 0 && b->valuedouble < 4e15) {
		/* after 1970 and before 2096; a base that puts the times out of range is none */
		int out = 0;
		f->hint_ns = sat_from_double(b->valuedouble * 1e3);
		sat_add_held(f->hint_ns, first, &out);
		sat_add_held(f->hint_ns, last, &out);
		f->has_hint = !out;
	}
	if (m->has_base_time) {
		/* a base that puts the file's times past the range of ns is none */
		sat_add_held(m->base_time_ns, first, &held);
		sat_add_held(m->base_time_ns, last, &held);
	}
	if (m->has_base_time && !held) {
		f->time = IMP_TIME_BASE;
		f->base_ns = m->base_time_ns;
	} else if (f->first_ns != INT64_MAX && f->first_ns >= 100000000000000000ll) {
		f->time = IMP_TIME_EPOCH;   /* after 1973 as ns since the epoch */
	}
	if (held)
		diag_warn(f->source, 0, "baseTimeNanoseconds %lld puts the file's times out of "
			  "range: ignored", (long long)m->base_time_ns);
	return held;
}

static void free_ctx(struct ctx *c)
{
	for (size_t i = 0; i < c->nimg; i++) {
		free(c->img[i].thr);
		free(c->img[i].steps);
		u64map_free(&c->img[i].thr_num);
		u64map_free(&c->img[i].thr_str);
	}
	free(c->img);
	u64map_free(&c->img_num);
	u64map_free(&c->img_str);
	items_free(c->items);
	free(c->step_of);
	free(c->smap);
	free(c->smap_set);
	regfree(&c->steps);
}

/* The reader's causes as the import's. */
static void reader_fixes(struct ctx *c, const struct chrome_meta *m)
{
	static const enum imp_fix as[CHROME_FIX_N] = {
		[CHROME_FIX_AGAIN] = IMP_FIX_AGAIN, [CHROME_FIX_WRONG_TYPE] = IMP_FIX_WRONG_TYPE,
		[CHROME_FIX_FRACTION] = IMP_FIX_FRACTION, [CHROME_FIX_DAMAGED] = IMP_FIX_DAMAGED,
		[CHROME_FIX_TOO_BIG] = IMP_FIX_TOO_BIG,
		[CHROME_FIX_EVENTS_AGAIN] = IMP_FIX_EVENTS_AGAIN,
		[CHROME_FIX_MEMBER_AGAIN] = IMP_FIX_MEMBER_AGAIN,
		[CHROME_FIX_MEMBER_BAD] = IMP_FIX_MEMBER_BAD,
		[CHROME_FIX_TRAILING] = IMP_FIX_TRAILING, [CHROME_FIX_CUT] = IMP_FIX_CUT,
		[CHROME_FIX_STOPPED] = IMP_FIX_STOPPED,
	};
	for (int i = 0; i < CHROME_FIX_N; i++)
		imp_fix_n(&c->f->fixes, as[i], m->fix_n[i], c->source, m->fix_at[i]);
}

int imp_transcode(const char *path, const struct imp_opts *o, struct imp_file *f)
{
	struct ctx c = { 0 };
	struct chrome_meta meta;
	memset(f, 0, sizeof(*f));
	f->source = xstrdup(path);
	f->rank = f->tprof_pid = -1;
	f->first_ns = INT64_MAX;
	f->last_ns = INT64_MIN;
	c.o = o;
	c.f = f;
	c.source = strings_add(path, strlen(path));
	const char *pat = o->step_pattern ? o->step_pattern : DEFAULT_STEPS;
	if (regcomp(&c.steps, pat, REG_EXTENDED) != 0) {
		diag_error("the step pattern '%s' is not a valid extended regular expression", pat);
		free(f->source);
		f->source = NULL;
		return -1;
	}
	c.items = items_new(o->scratch, o->run_bytes ? o->run_bytes : DEFAULT_RUN_BYTES);
	struct chrome_read_opts ro = { .report = report, .thread = 1, .args_blob = MAX_PAYLOAD };
	int rd = chrome_read(path, &ro, on_chrome_event, &c, &meta);
	if (rd != 0 && !f->events) {
		chrome_meta_free(&meta);
		free_ctx(&c);
		return -1;
	}
	f->failed = rd != 0 || c.failed;
	if (file_meta(f, &meta))
		fix(&c, IMP_FIX_MEMBER_BAD, 0);
	reader_fixes(&c, &meta);
	chrome_meta_free(&meta);
	f->images = xcalloc(c.nimg ? c.nimg : 1, sizeof(*f->images));
	f->pack = xasprintf("%s/images-XXXXXX", o->scratch);
	if ((c.pack = mkostemp(f->pack, O_APPEND | O_CLOEXEC)) < 0) {
		diag_error("%s: cannot make its images' file in %s: %s", f->source, o->scratch,
			   strerror(errno));
		free_ctx(&c);
		return -1;
	}
	c.failed = 0;
	struct writer w = { .c = &c, .image = UINT32_MAX };
	int rc = items_each(c.items, write_item, &w);
	flush_thread(&w);
	images_until(&w, SIZE_MAX);
	free(w.open);
	close(c.pack);
	if (c.failed)
		rc = -1;
	free_ctx(&c);
	return rc;
}

void imp_file_free(struct imp_file *f)
{
	for (size_t i = 0; i < f->nimages; i++) {
		free(f->images[i].pid_str);
		free(f->images[i].steps);
	}
	free(f->images);
	free(f->pack);
	free(f->source);
	free(f->host);
	memset(f, 0, sizeof(*f));
}

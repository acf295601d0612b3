/* transcode.c — a Chrome trace into imported images (transcode.h).  Events arrive in the file's
 * order; each becomes an item (a fixed header, then its imported head and args) that items.c
 * puts in order by image, stream (thread) and time.  Going through each thread's items in time
 * order, slices are written as IBEGIN and IEND with proper nesting: a slice that outlives the
 * one it began in is cut at its end (and counted), an E closes the innermost B. */
#include "transcode.h"

#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../common/events.h"
#include "../../common/hash.h"
#include "../../common/imgwrite.h"
#include "../../common/import.h"
#include "../read/trace.h"
#include "../util/strings.h"
#include "../util/grow.h"
#include "argblob.h"
#include "chrome-read.h"
#include "items.h"

#define DEFAULT_STEPS "^ProfilerStep#([0-9]+)$"
#define DEFAULT_RUN_BYTES (128u << 20)
#define MAX_PAYLOAD ((TPROF_MAX_EXT - 1) * TPROF_UNIT)   /* args after the head */
#define STR_TID_BASE 1000000000ll   /* made-up tids of threads named by a string */

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
	struct imp_step *steps;
	size_t nsteps, capsteps;
	uint64_t events;
	/* while written */
	struct tprof_imgw *w;
	uint32_t *smap;                 /* trace-wide string id -> the image's, 0: not yet */
	size_t nsmap;
};

struct ctx {
	const struct imp_opts *o;
	struct imp_file *f;
	regex_t steps;
	int64_t *step_of;               /* by name string id: -1 unknown, -2 no, else N */
	size_t nstep_of;
	struct img *img;
	size_t nimg, capimg, last_img;
	struct items *items;
	uint32_t ngs;
	_Alignas(16) uint8_t scratch[MAX_PAYLOAD + TPROF_UNIT];   /* args; written: head, args */
	uint8_t phead;                  /* the head's flags of the payload in scratch | ITEM_HEAD */
	int failed;
};

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

static uint32_t image_of(struct ctx *c, const struct chrome_ref *pid)
{
	struct ref_key k = key_of(pid);
	if (c->last_img < c->nimg && same_key(&c->img[c->last_img].key, &k))
		return (uint32_t)c->last_img;
	for (size_t i = 0; i < c->nimg; i++)
		if (same_key(&c->img[i].key, &k))
			return (uint32_t)(c->last_img = i);
	c->img = util_grow(c->img, &c->capimg, c->nimg, sizeof(*c->img), 16);
	struct img *im = &c->img[c->nimg];
	memset(im, 0, sizeof(*im));
	im->key = k;
	return (uint32_t)(c->last_img = c->nimg++);
}

static uint32_t stream_of(struct ctx *c, struct img *im, const struct chrome_ref *tid)
{
	struct ref_key k = key_of(tid);
	if (im->last_thr < im->nthr && same_key(&im->thr[im->last_thr].key, &k))
		return (uint32_t)im->last_thr + 1;
	for (size_t i = 0; i < im->nthr; i++)
		if (same_key(&im->thr[i].key, &k))
			return (uint32_t)(im->last_thr = i) + 1;
	im->thr = util_grow(im->thr, &im->capthr, im->nthr, sizeof(*im->thr), 16);
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

static uint32_t str_id(const char *s)
{
	return s ? strings_add(s, strlen(s)) : 0;
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

/* The args (encoded, argblob.h) of an event into c->scratch, and the flags of its head into
 * c->phead; returns their length. */
static size_t payload(struct ctx *c, const struct chrome_event *ev, int with_args)
{
	size_t len = 0;
	c->phead = ITEM_HEAD;
	if (with_args && ev->args && argblob_encode(ev->args, c->scratch, &len, MAX_PAYLOAD) < 0)
		c->phead |= TPROF_IMP_ARGS_CUT;
	return len;
}

static int add(struct ctx *c, const struct chrome_event *ev, uint32_t image, uint32_t stream,
	       uint16_t kind, uint8_t flags, uint8_t cls, uint32_t name, uint64_t arg,
	       size_t plen)
{
	struct item it = {
		.t = ev->ts_ns,
		.dur = kind == TPROF_K_IBEGIN && ev->ph == 'X' && ev->has_dur ? ev->dur_ns : 0,
		.arg = arg, .image = image, .stream = stream, .name = name, .len = (uint32_t)plen,
		.kind = kind, .flags = flags, .cls = cls,
		.gs = c->img[image].thr[stream - 1].gs,
		.offset = ev->offset,
	};
	if (kind != TPROF_K_IEND) {
		it.cat = str_id(ev->cat);
		it.head = c->phead;
	}
	return items_add(c->items, &it, c->scratch);
}

static void metadata(struct ctx *c, const struct chrome_event *ev, struct img *im,
		     const struct chrome_ref *tid)
{
	const cJSON *a = ev->args;
	const cJSON *name = a ? cJSON_GetObjectItemCaseSensitive(a, "name") : NULL;
	const cJSON *idx = a ? cJSON_GetObjectItemCaseSensitive(a, "sort_index") : NULL;
	if (!ev->name)
		return;
	if (!strcmp(ev->name, "process_name") && cJSON_IsString(name))
		im->name = str_id(name->valuestring);
	else if (!strcmp(ev->name, "thread_name") && cJSON_IsString(name)) {
		uint32_t s = stream_of(c, im, tid);   /* may move im->thr */
		im->thr[s - 1].name = str_id(name->valuestring);
	}
	else if (!strcmp(ev->name, "process_sort_index") && cJSON_IsNumber(idx)) {
		im->sort_index = (int64_t)idx->valuedouble;
		im->has_sort = 1;
	}
}

/* The series of a counter event, one item each. */
static int counter(struct ctx *c, const struct chrome_event *ev, uint32_t image, uint32_t stream)
{
	const cJSON *a = ev->args;
	size_t n = 0;
	for (const cJSON *s = a ? a->child : NULL; s; s = s->next)
		n += cJSON_IsNumber(s) || (cJSON_IsString(s) && s->valuestring[0]);
	for (const cJSON *s = a ? a->child : NULL; s; s = s->next) {
		double v;
		char *end;
		if (cJSON_IsNumber(s))
			v = s->valuedouble;
		else if (cJSON_IsString(s) && s->valuestring[0] &&
			 (v = strtod(s->valuestring, &end), !*end))
			;
		else
			continue;
		char buf[512];
		if (n == 1 || !s->string)
			snprintf(buf, sizeof(buf), "%s", ev->name ? ev->name : "counter");
		else
			snprintf(buf, sizeof(buf), "%s %s", ev->name ? ev->name : "counter",
				 s->string);
		uint64_t bits;
		memcpy(&bits, &v, sizeof(bits));
		if (add(c, ev, image, stream, TPROF_K_ICOUNTER, 0, 2, str_id(buf), bits,
			payload(c, ev, 0)) < 0)
			return -1;
	}
	return 0;
}

/* Kineto's GPU work: a kernel, copy or set with "device" and "stream" in its args makes its
 * thread a GPU stream, which the analyzer puts beside the recorded device streams. */
static void gpu_work(struct thr *th, const struct chrome_event *ev)
{
	static const char *const kinds[] = { "kernel", "gpu_memcpy", "gpu_memset", "memcpy",
					     "memset" };
	size_t k = 0;
	if (th->is_gpu || !ev->cat || !ev->args)
		return;
	/* most are not: told by the first letter */
	char c0 = (char)(ev->cat[0] | 0x20);
	if (c0 != 'k' && c0 != 'g' && c0 != 'm')
		return;
	while (k < sizeof(kinds) / sizeof(kinds[0]) && strcasecmp(ev->cat, kinds[k]))
		k++;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return;
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(ev->args, "device");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(ev->args, "stream");
	if (cJSON_IsNumber(d) && cJSON_IsNumber(s) && d->valuedouble >= 0 &&
	    d->valuedouble <= UINT32_MAX && s->valuedouble >= 0) {
		th->is_gpu = 1;
		th->gpu_device = (int64_t)d->valuedouble;
		th->gpu_stream = (int64_t)s->valuedouble;
	}
}

static int each(void *arg, const struct chrome_event *ev)
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
		f->skipped++;
		return 0;
	}
	uint32_t stream = stream_of(c, im, &ev->tid);
	struct thr *th = &im->thr[stream - 1];
	if (ev->ts_ns < th->first)
		th->first = ev->ts_ns;
	if (ev->ts_ns < f->first_ns)
		f->first_ns = ev->ts_ns;
	int64_t end = ev->ts_ns + (ev->ph == 'X' && ev->has_dur ? ev->dur_ns : 0);
	if (end > f->last_ns)
		f->last_ns = end;
	uint32_t name = str_id(ev->name);
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
			 step >= 0 ? (uint64_t)step : 0, plen);
		break;
	}
	case 'E':
		rc = add(c, ev, image, stream, TPROF_K_IEND, 0, 0, 0, 0, 0);
		break;
	case 'i': case 'I': case 'R': case 'O': case 'N': case 'D': case 'P':
		rc = add(c, ev, image, stream, TPROF_K_IMARK,
			 (uint8_t)(ev->ph == 'I' ? 'i' : ev->ph), 2, name,
			 ev->id ? id_hash(ev) : 0, payload(c, ev, 1));
		break;
	case 'C':
		rc = counter(c, ev, image, stream);
		break;
	case 'b': case 'e': case 'n': case 'S': case 'T': case 'F': case 'p':
		rc = add(c, ev, image, stream, TPROF_K_IASYNC, (uint8_t)ev->ph, 2, name,
			 id_hash(ev), payload(c, ev, 1));
		break;
	case 's': case 't': case 'f':
		rc = add(c, ev, image, stream, TPROF_K_IFLOW,
			 (uint8_t)(ev->ph | (ev->bp == 'e' ? TPROF_IMP_BIND_ENCLOSING : 0)), 2,
			 name, id_hash(ev), payload(c, ev, 0));
		break;
	default:
		f->skipped++;
		return 0;
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
static uint32_t img_str(struct img *im, uint32_t id, uint64_t t)
{
	if (!id)
		return 0;
	im->smap = util_grow_index(im->smap, &im->nsmap, id, sizeof(*im->smap), 1024, 0);
	if (!im->smap[id])
		im->smap[id] = tprof_imgw_string_n(im->w, strings_get(id), strings_len(id), t);
	return im->smap[id];
}

static uint64_t ticks(int64_t ns)
{
	return (uint64_t)ns + TPROF_IMP_TICK_BIAS;
}

/* One thread's slices in nesting order: what is open, innermost last. */
struct open_slice {
	int64_t end;                    /* INT64_MAX: a B, open until its E */
	int clipped;
};

struct writer {
	struct ctx *c;
	struct img *im;
	uint32_t image, stream;
	struct open_slice *open;
	size_t nopen, capopen;
	int64_t last;
};

static void write_end(struct writer *w, int64_t t, int clipped)
{
	struct tprof_rec r = { .kind = TPROF_K_IEND, .t0 = ticks(t),
			       .flags = clipped ? TPROF_IMP_CLIPPED : 0 };
	tprof_imgw_write(w->im->w, w->stream, &r, NULL, 0);
	w->nopen--;
	if (t > w->last)
		w->last = t;
}

/* Closes the slices that ended by t. */
static void close_until(struct writer *w, int64_t t)
{
	while (w->nopen && w->open[w->nopen - 1].end <= t)
		write_end(w, w->open[w->nopen - 1].end, w->open[w->nopen - 1].clipped);
}

static void flush_thread(struct writer *w)
{
	close_until(w, INT64_MAX - 1);
	while (w->nopen) {   /* a B never ended: at the thread's last time */
		w->c->f->unmatched_ends++;
		write_end(w, w->last, 1);
	}
}

/* The head of an item, with the image's string ids, then its args, into c->scratch; returns
 * their length. */
static size_t with_head(struct img *im, struct ctx *c, const struct item *it,
			const uint8_t *args, uint64_t t)
{
	/* field by field: a head built aside and copied whole stalled on its own stores */
	struct tprof_imp_head *h = (struct tprof_imp_head *)c->scratch;
	h->cat = img_str(im, it->cat, t);
	h->args_len = it->len;
	h->id = 0;
	h->flags = it->head & ~ITEM_HEAD;
	h->offset = it->offset;
	h->reserved = 0;
	memcpy(c->scratch + sizeof(*h), args, it->len);
	return sizeof(*h) + it->len;
}

static void write_item(void *arg, const struct item *it, uint8_t *payload)
{
	struct writer *w = arg;
	struct ctx *c = w->c;
	if (it->image != w->image || it->stream != w->stream) {
		flush_thread(w);
		w->image = it->image;
		w->stream = it->stream;
		w->im = &c->img[it->image];
		w->last = INT64_MIN;
	}
	if (!w->im->w)
		return;
	close_until(w, it->t);
	if (it->t > w->last)
		w->last = it->t;
	if (it->kind == TPROF_K_IEND) {
		/* an E: X slices still open inside its B end here */
		while (w->nopen && w->open[w->nopen - 1].end != INT64_MAX)
			write_end(w, it->t, 1);
		if (w->nopen)
			write_end(w, it->t, 0);
		else
			c->f->unmatched_ends++;
		return;
	}
	uint64_t t0 = ticks(it->t);
	struct tprof_rec r = { .kind = it->kind, .flags = it->flags, .t0 = t0, .arg = it->arg,
			       .name = img_str(w->im, it->name, t0) };
	size_t len = it->len;
	if (it->head) {
		len = with_head(w->im, c, it, payload, t0);
		payload = c->scratch;
	}
	if (it->kind == TPROF_K_IBEGIN) {
		int64_t end = it->flags == 'X' ? it->t + it->dur : INT64_MAX;
		int clipped = 0;
		if (w->nopen && end > w->open[w->nopen - 1].end) {
			end = w->open[w->nopen - 1].end;
			clipped = 1;
			c->f->clipped++;
		}
		w->open = util_grow(w->open, &w->capopen, w->nopen, sizeof(*w->open), 16);
		w->open[w->nopen++] = (struct open_slice){ end, clipped };
	}
	tprof_imgw_write(w->im->w, w->stream, &r, payload, len);
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
				       .name = th->name ? img_str(im, th->name, at) : 0 };
		tprof_imgw_write(im->w, 0, &r, NULL, 0);
		if (th->is_gpu) {
			char v[64];
			snprintf(v, sizeof(v), "%zu %lld %lld", i + 1, (long long)th->gpu_device,
				 (long long)th->gpu_stream);
			tprof_imgw_prop_str(im->w, "gpu_stream", v, at);
		}
	}
}

static int open_images(struct ctx *c)
{
	struct imp_file *f = c->f;
	f->images = calloc(c->nimg ? c->nimg : 1, sizeof(*f->images));
	if (!f->images)
		abort();
	for (size_t i = 0; i < c->nimg; i++) {
		struct img *im = &c->img[i];
		char why[512];
		if (!im->events && !im->name)
			continue;   /* metadata of a process with no event */
		struct tprof_imgw_opts o = {
			.dir = c->o->scratch, .host = f->host ? f->host : "import",
			.pid = (uint32_t)(im->key.is_str ? i : (uint64_t)im->key.num),
			.real_ns = 0, .prog = "tprof-analyze", .what = "the import",
			.raw = 1,      /* read once, right away: compressing it would be waste */
			.thread = 1,   /* chunks made beside the merge */
		};
		if (!(im->w = tprof_imgw_open(&o, why, sizeof(why)))) {
			diag_error("%s: %s", f->source, why);
			return -1;
		}
		uint64_t t = ticks(f->first_ns == INT64_MAX ? 0 : f->first_ns);
		image_props(c, im, t);
		struct imp_image *out = &f->images[f->nimages++];
		out->pid = im->key.is_str ? -1 : im->key.num;
		out->pid_str = im->key.is_str ? strdup(strings_get(im->key.str)) : NULL;
		out->events = im->events;
		out->steps = im->steps;
		out->nsteps = im->nsteps;
		im->steps = NULL;
		if (asprintf(&out->path, "%s%s", tprof_imgw_base(im->w), TPROF_TRACE_SUFFIX) < 0)
			abort();
	}
	return 0;
}

static int close_images(struct ctx *c)
{
	int rc = 0;
	for (size_t i = 0; i < c->nimg; i++) {
		struct img *im = &c->img[i];
		if (!im->w)
			continue;
		uint64_t t = ticks(c->f->last_ns == INT64_MIN ? 0 : c->f->last_ns);
		tprof_imgw_write(im->w, 0, &(struct tprof_rec){ .kind = TPROF_K_END,
				 .flags = TPROF_END_EXIT, .t0 = t }, NULL, 0);
		if (!tprof_imgw_ok(im->w))
			rc = -1;
		tprof_imgw_close(im->w);
		im->w = NULL;
	}
	return rc;
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

static void file_meta(struct imp_file *f, const struct chrome_meta *m)
{
	f->rank = m->has_dist ? m->rank : -1;
	if (m->tprof) {
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(m->tprof, "host");
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(m->tprof, "pid");
		if (cJSON_IsString(h))
			f->host = strdup(h->valuestring);
		if (cJSON_IsNumber(p))
			f->tprof_pid = (int64_t)p->valuedouble;
	}
	if (m->has_base_time) {
		f->time = IMP_TIME_BASE;
		f->base_ns = m->base_time_ns;
	} else if (f->first_ns != INT64_MAX && f->first_ns >= 100000000000000000ll)
		f->time = IMP_TIME_EPOCH;   /* after 1973 as ns since the epoch */
}

static void free_ctx(struct ctx *c)
{
	for (size_t i = 0; i < c->nimg; i++) {
		free(c->img[i].thr);
		free(c->img[i].steps);
		free(c->img[i].smap);
	}
	free(c->img);
	items_free(c->items);
	free(c->step_of);
	regfree(&c->steps);
}

int imp_transcode(const char *path, const struct imp_opts *o, struct imp_file *f)
{
	struct ctx c = { 0 };
	struct chrome_meta meta;
	memset(f, 0, sizeof(*f));
	f->source = strdup(path);
	f->rank = f->tprof_pid = -1;
	f->first_ns = INT64_MAX;
	f->last_ns = INT64_MIN;
	c.o = o;
	c.f = f;
	const char *pat = o->step_pattern ? o->step_pattern : DEFAULT_STEPS;
	if (regcomp(&c.steps, pat, REG_EXTENDED) != 0) {
		diag_error("the step pattern '%s' is not a valid extended regular expression", pat);
		free(f->source);
		f->source = NULL;
		return -1;
	}
	c.items = items_new(o->scratch, o->run_bytes ? o->run_bytes : DEFAULT_RUN_BYTES);
	struct chrome_read_opts ro = { .report = report, .thread = 1 };
	int rd = chrome_read(path, &ro, each, &c, &meta);
	if (rd != 0 && !f->events) {
		chrome_meta_free(&meta);
		free_ctx(&c);
		return -1;
	}
	f->failed = rd != 0 || c.failed;
	file_meta(f, &meta);
	chrome_meta_free(&meta);
	struct writer w = { .c = &c, .image = UINT32_MAX };
	int rc = open_images(&c);
	if (rc == 0)
		rc = items_each(c.items, write_item, &w);
	if (w.im && w.im->w)
		flush_thread(&w);
	free(w.open);
	if (close_images(&c) < 0)
		rc = -1;
	free_ctx(&c);
	return rc;
}

void imp_file_free(struct imp_file *f)
{
	for (size_t i = 0; i < f->nimages; i++) {
		free(f->images[i].path);
		free(f->images[i].pid_str);
		free(f->images[i].steps);
	}
	free(f->images);
	free(f->source);
	free(f->host);
	memset(f, 0, sizeof(*f));
}

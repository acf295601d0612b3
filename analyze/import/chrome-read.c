/* chrome-read.c — chrome_read: the scanner's items (chrome-scan.h) parsed into events (with
 * opts.thread on a thread of their own, handed over in batches, chrome-batch.h) for the
 * callback (chrome-event.h) and the meta on the caller's thread, and every warning and error
 * said once, with the file and the offset. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome-batch.h"
#include "chrome-parser.h"
#include "chrome-read.h"
#include "chrome-text.h"
#include "../util/satarith.h"

/* The top-level members kept (the others are skipped unread). */
static const char *const kept_keys[] = {
	"baseTimeNanoseconds", "distributedInfo", "deviceProperties", "displayTimeUnit",
	"traceName", "schemaVersion", "tprof",
};

struct reader {
	const char *path;
	struct chrome_read_opts o;
	struct chrome_meta *meta;
	uint64_t named;         /* skipped events named in a warning so far */
};

static int keep(const char *key)
{
	for (size_t i = 0; i < sizeof(kept_keys) / sizeof(kept_keys[0]); i++)
		if (!strcmp(key, kept_keys[i]))
			return 1;
	return 0;
}

static void say(struct reader *r, int is_error, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(struct reader *r, int is_error, uint64_t offset, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (r->o.report) {
		r->o.report(r->o.report_ctx, is_error, r->path, offset, text);
		return;
	}
	const char *prefix = r->o.prefix ? r->o.prefix : "", *kind = is_error ? "" : "warning: ";
	if (offset == CHROME_NO_OFFSET)
		fprintf(stderr, "%s%s%s: %s\n", prefix, kind, r->path, text);
	else
		fprintf(stderr, "%s%s%s: offset %" PRIu64 ": %s\n", prefix, kind, r->path, offset,
			text);
}

/* One more of a cause (enum chrome_fix) at offset. */
static void fixed(struct chrome_meta *m, int fix, uint64_t offset)
{
	if (fix < 0 || fix >= CHROME_FIX_N)
		return;
	if (!m->fix_n[fix]++)
		m->fix_at[fix] = offset;
}

/* An event skipped: named in a warning while there are few. */
static void skip(struct reader *r, uint64_t offset, const char *what)
{
	r->meta->skipped++;
	if (r->named < r->o.max_warnings) {
		r->named++;
		say(r, 0, offset, "event skipped: %s", what);
	}
}

static int64_t number_or(const cJSON *obj, const char *key, int64_t none)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? sat_from_double(v->valuedouble) : none;
}

/* Sets the meta's fields from the member v; 0, or -1 when v is not of the type its key wants
 * (what it wants in *want), and nothing was changed. */
static int set_meta(struct chrome_meta *m, const char *key, const cJSON *v,
		    const struct chrome_span *sp, const char **want)
{
	if (!strcmp(key, "baseTimeNanoseconds")) {
		*want = "an integer number of nanoseconds";
		const char *p = cJSON_IsString(v) ? v->valuestring : sp->text;
		size_t n = cJSON_IsString(v) ? strlen(p) : sp->len;
		if (!(cJSON_IsString(v) || cJSON_IsNumber(v)) ||
		    chrome_text_decimal(p, n, 0, &m->base_time_ns))
			return -1;
		m->has_base_time = 1;
	} else if (!strcmp(key, "distributedInfo")) {
		*want = "an object";
		if (!cJSON_IsObject(v))
			return -1;
		m->has_dist = 1;
		m->distributed_info = v;
		m->rank = number_or(v, "rank", -1);
		m->world_size = number_or(v, "world_size", -1);
		m->backend = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "backend"));
	} else if (!strcmp(key, "deviceProperties")) {
		*want = "an array";
		if (!cJSON_IsArray(v))
			return -1;
		m->device_properties = v;
		m->device_count = cJSON_GetArraySize(v);
	} else if (!strcmp(key, "tprof")) {
		*want = "an object";
		if (!cJSON_IsObject(v))
			return -1;
		m->tprof = v;
	} else if (!strcmp(key, "schemaVersion")) {
		*want = "a number or a string";
		if (cJSON_IsString(v)) {
			m->schema_version = v->valuestring;
		} else if (cJSON_IsNumber(v)) {
			size_t n = sp->len < sizeof(m->schema_text) ? sp->len
								     : sizeof(m->schema_text) - 1;
			memcpy(m->schema_text, sp->text, n);
			m->schema_text[n] = '\0';
			m->schema_version = m->schema_text;
		} else {
			return -1;
		}
	} else {
		*want = "a string";
		if (!cJSON_IsString(v))
			return -1;
		if (!strcmp(key, "displayTimeUnit"))
			m->display_time_unit = v->valuestring;
		else
			m->trace_name = v->valuestring;
	}
	return 0;
}

static void keep_member(struct reader *r, const struct chrome_span *sp)
{
	struct chrome_meta *m = r->meta;
	const char *want = "";
	cJSON *v = cJSON_ParseWithLengthOpts(sp->text, sp->len, NULL, 0);

	if (!v) {
		say(r, 0, sp->offset, "the top-level \"%s\" is not valid JSON: ignored", sp->key);
		fixed(m, CHROME_FIX_MEMBER_BAD, sp->offset);
		return;
	}
	if (set_meta(m, sp->key, v, sp, &want)) {
		say(r, 0, sp->offset, "the top-level \"%s\" is not %s: ignored", sp->key, want);
		fixed(m, CHROME_FIX_MEMBER_BAD, sp->offset);
		cJSON_Delete(v);
		return;
	}
	/* A key given twice: the last one counts (and that is said). */
	if (cJSON_GetObjectItemCaseSensitive(m->kept, sp->key)) {
		say(r, 0, sp->offset, "the top-level \"%s\" again: this one is kept", sp->key);
		fixed(m, CHROME_FIX_MEMBER_AGAIN, sp->offset);
	}
	cJSON_DeleteItemFromObjectCaseSensitive(m->kept, sp->key);
	cJSON_AddItemToObject(m->kept, sp->key, v);
}

/* ---- the parsing thread: the scanner's items into entries (chrome-batch.h) ---------------- */

#define BATCH_ENTRIES 1024
#define BATCH_BYTES (4u << 20)

struct feed {
	struct chrome_scan *s;
	struct chrome_parser *ps;
	size_t max_event;
};

static const char *copy(struct chrome_arena *a, const char *text, size_t len)
{
	char *p = chrome_arena_alloc(a, len + 1);
	memcpy(p, text, len);
	p[len] = '\0';
	return p;
}

static struct chrome_entry *entry(struct chrome_batch *b, enum chrome_entry_kind kind,
				  uint64_t offset, const char *text)
{
	struct chrome_entry *e = chrome_batch_add(b);
	e->kind = kind;
	e->offset = offset;
	e->fix = -1;
	if (text)
		e->text = copy(b->arena, text, strlen(text));
	return e;
}

/* One item of the scanner as entries of b (whose arena the parser parses into); 1 when the
 * read is over. */
static int feed_item(struct feed *f, struct chrome_batch *b)
{
	struct chrome_arena *a = b->arena;
	struct chrome_span sp;
	struct chrome_entry *e;
	char why[256];
	uint64_t at;
	const char *msg;
	enum chrome_item it = chrome_scan_next(f->s, &sp);
	int form = (int)chrome_scan_form(f->s);
	uint64_t bytes = chrome_scan_bytes(f->s);

	switch (it) {
	case CHROME_ITEM_EVENT:
	case CHROME_ITEM_DAMAGED:
		e = chrome_batch_add(b);
		e->kind = CHROME_E_EVENT;
		e->offset = sp.offset;
		if (chrome_parser_event(f->ps, sp.offset, &e->ev, why, sizeof(why))) {
			e->kind = CHROME_E_SKIP;
			e->fix = CHROME_FIX_DAMAGED;
			e->text = copy(a, why, strlen(why));
		}
		break;
	case CHROME_ITEM_MEMBER:
		e = entry(b, CHROME_E_MEMBER, sp.offset, NULL);
		e->key = copy(a, sp.key, strlen(sp.key));
		e->text = copy(a, sp.text, sp.len);
		e->len = sp.len;
		break;
	case CHROME_ITEM_TOO_BIG:
		if (sp.key) {
			snprintf(why, sizeof(why),
				 "the top-level \"%s\" is larger than %zu bytes: ignored", sp.key,
				 f->max_event);
			e = entry(b, CHROME_E_SAY, sp.offset, why);
			e->fix = CHROME_FIX_MEMBER_BAD;
		} else {
			snprintf(why, sizeof(why), "%zu bytes, more than the %zu an event may have",
				 sp.len, f->max_event);
			e = entry(b, CHROME_E_SKIP, sp.offset, why);
			e->fix = CHROME_FIX_TOO_BIG;
		}
		break;
	case CHROME_ITEM_EVENTS_AGAIN:
		e = entry(b, CHROME_E_SAY, sp.offset, "traceEvents again: its events are read as well");
		e->fix = CHROME_FIX_EVENTS_AGAIN;
		break;
	case CHROME_ITEM_END:
		if ((msg = chrome_scan_note(f->s, &at)))
			entry(b, CHROME_E_SAY, at, msg)->fix =
				chrome_scan_cut(f->s) ? CHROME_FIX_CUT : CHROME_FIX_TRAILING;
		e = entry(b, CHROME_E_END, 0, NULL);
		break;
	default:
		msg = chrome_scan_error(f->s, &at);
		e = entry(b, CHROME_E_SAY, at, msg);
		e->is_error = 1;
		e->fix = CHROME_FIX_STOPPED;
		e = entry(b, CHROME_E_END, 0, NULL);
		e->rc = -1;
		break;
	}
	e->form = form;
	e->bytes = bytes;
	return e->kind == CHROME_E_END;
}

static void feed(void *ctx, struct chrome_queue *q)
{
	struct feed *f = ctx;
	struct chrome_batch *b;
	while ((b = chrome_queue_filling(q))) {
		chrome_parser_use_arena(f->ps, b->arena);
		int over = feed_item(f, b);
		if (over || b->n >= BATCH_ENTRIES || b->arena->total > BATCH_BYTES)
			chrome_queue_send(q);
		if (over)
			break;
	}
	chrome_parser_use_arena(f->ps, NULL);
}

/* ---- the caller's thread: entries to the callback and the meta ---------------------------- */

/* One entry; 1 when the read is over (*rc says how). */
static int take(struct reader *r, const struct chrome_entry *e,
		int (*each)(void *, const struct chrome_event *), void *ctx, int *rc)
{
	struct chrome_span sp = { e->text, e->len, e->offset, e->key };

	r->meta->form = (enum chrome_form)e->form;
	switch (e->kind) {
	case CHROME_E_EVENT:
		r->meta->events++;
		r->meta->bytes = e->bytes;
		for (unsigned f = e->ev.fixes; f; f &= f - 1)
			fixed(r->meta, __builtin_ctz(f), e->offset);
		*rc = each(ctx, &e->ev);
		return *rc != 0;
	case CHROME_E_MEMBER:
		keep_member(r, &sp);
		return 0;
	case CHROME_E_SKIP:
		fixed(r->meta, e->fix, e->offset);
		skip(r, e->offset, e->text);
		return 0;
	case CHROME_E_SAY:
		fixed(r->meta, e->fix, e->offset);
		say(r, e->is_error, e->offset, "%s", e->text);
		return 0;
	default:
		r->meta->bytes = e->bytes;
		*rc = e->rc;
		return 1;
	}
}

int chrome_read(const char *path, const struct chrome_read_opts *o,
		int (*each)(void *ctx, const struct chrome_event *ev), void *ctx,
		struct chrome_meta *meta)
{
	struct chrome_meta local;
	struct reader r = { .path = path };
	char err[256];
	int rc = 0;

	if (o)
		r.o = *o;
	if (!r.o.max_warnings)
		r.o.max_warnings = 10;
	if (!r.o.max_event)
		r.o.max_event = 64 << 20;
	if (!r.o.block)
		r.o.block = 1 << 20;
	r.meta = meta ? meta : &local;
	memset(r.meta, 0, sizeof(*r.meta));
	r.meta->rank = r.meta->world_size = -1;
	r.meta->kept = cJSON_CreateObject();

	struct chrome_parser *ps = chrome_parser_new();
	chrome_parser_args_blob(ps, r.o.args_blob);
	struct chrome_scan_opts so = { r.o.block, r.o.max_event, keep, chrome_parser_json, ps };
	struct feed f = { chrome_scan_open(path, &so, err, sizeof(err)), ps, r.o.max_event };
	struct chrome_queue *q = NULL;
	if (!f.s) {
		say(&r, 1, CHROME_NO_OFFSET, "%s", err);
		rc = -1;
	} else if (!r.o.thread) {
		/* one event at a time, in the parser's own arena (emptied at each parse) */
		struct chrome_batch b = { .arena = chrome_parser_arena(ps) };
		for (int over = 0; !over;) {
			b.n = 0;
			int end = feed_item(&f, &b);
			for (size_t i = 0; i < b.n && !over; i++)
				over = take(&r, &b.e[i], each, ctx, &rc);
			over |= end;
		}
		free(b.e);
	} else if (!(q = chrome_queue_start(feed, &f))) {
		say(&r, 1, CHROME_NO_OFFSET, "cannot start the thread that parses it");
		rc = -1;
	} else {
		for (int over = 0; !over;) {
			struct chrome_batch *b = chrome_queue_take(q);
			for (size_t i = 0; i < b->n && !over; i++)
				over = take(&r, &b->e[i], each, ctx, &rc);
			chrome_queue_give(q, b);
		}
		chrome_queue_finish(q);
	}
	if (f.s)
		chrome_scan_close(f.s);
	chrome_parser_free(ps);
	if (r.meta->skipped > r.named)
		say(&r, 0, CHROME_NO_OFFSET, "%" PRIu64 " more events skipped (not named)",
		    r.meta->skipped - r.named);
	if (!meta)
		chrome_meta_free(&local);
	return rc;
}

void chrome_meta_free(struct chrome_meta *meta)
{
	cJSON_Delete(meta->kept);
	meta->kept = NULL;
	meta->distributed_info = meta->device_properties = meta->tprof = NULL;
	meta->backend = meta->display_time_unit = meta->trace_name = meta->schema_version = NULL;
}

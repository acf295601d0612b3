/* chrome-read.c — chrome_read: the scanner's items (chrome-scan.h) parsed into events for the
 * callback (chrome-event.h) and into the meta, and every warning and error said once, with the
 * file and the offset. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "chrome-parser.h"
#include "chrome-read.h"
#include "chrome-text.h"

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
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : none;
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
		return;
	}
	if (set_meta(m, sp->key, v, sp, &want)) {
		say(r, 0, sp->offset, "the top-level \"%s\" is not %s: ignored", sp->key, want);
		cJSON_Delete(v);
		return;
	}
	/* A key given twice: the last one counts. */
	cJSON_DeleteItemFromObjectCaseSensitive(m->kept, sp->key);
	cJSON_AddItemToObject(m->kept, sp->key, v);
}

/* One item of the scanner; 1 when the read is over (*rc says how). */
static int item(struct reader *r, struct chrome_scan *s, struct chrome_parser *ps,
		int (*each)(void *, const struct chrome_event *), void *ctx, int *rc)
{
	struct chrome_span sp;
	struct chrome_event ev;
	char why[256];
	uint64_t at;
	const char *msg;

	switch (chrome_scan_next(s, &sp)) {
	case CHROME_ITEM_EVENT:
	case CHROME_ITEM_DAMAGED:
		r->meta->form = chrome_scan_form(s);
		if (chrome_parser_event(ps, sp.offset, &ev, why, sizeof(why))) {
			skip(r, sp.offset, why);
			return 0;
		}
		r->meta->events++;
		r->meta->bytes = chrome_scan_bytes(s);
		*rc = each(ctx, &ev);
		return *rc != 0;
	case CHROME_ITEM_MEMBER:
		keep_member(r, &sp);
		return 0;
	case CHROME_ITEM_TOO_BIG:
		if (sp.key) {
			say(r, 0, sp.offset,
			    "the top-level \"%s\" is larger than %zu bytes: ignored", sp.key,
			    r->o.max_event);
			return 0;
		}
		snprintf(why, sizeof(why), "%zu bytes, more than the %zu an event may have", sp.len,
			 r->o.max_event);
		skip(r, sp.offset, why);
		return 0;
	case CHROME_ITEM_END:
		if ((msg = chrome_scan_note(s, &at)))
			say(r, 0, at, "%s", msg);
		*rc = 0;
		return 1;
	default:
		msg = chrome_scan_error(s, &at);
		say(r, 1, at, "%s", msg);
		*rc = -1;
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
	struct chrome_scan_opts so = { r.o.block, r.o.max_event, keep, chrome_parser_json, ps };
	struct chrome_scan *s = chrome_scan_open(path, &so, err, sizeof(err));
	if (!s) {
		say(&r, 1, CHROME_NO_OFFSET, "%s", err);
		rc = -1;
	} else {
		while (!item(&r, s, ps, each, ctx, &rc))
			;
		r.meta->form = chrome_scan_form(s);
		r.meta->bytes = chrome_scan_bytes(s);
		chrome_scan_close(s);
	}
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

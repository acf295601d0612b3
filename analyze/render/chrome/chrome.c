/* render/chrome/chrome.c — Chrome trace-event JSON (Perfetto, chrome://tracing) from the
 * scene: slices as complete events, instants, counters, cross-thread ranges as async
 * events, CPU samples as instants with their stacks, flow arrows as "s"/"f" pairs (the "f"
 * bound to the slice it ends in), every argument as the scene typed it, and at the end the
 * names and order of processes and tracks (model/tracks.c).  Knows no runtime. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "../../../common/xalloc.h"
#include "config.h"
#include "../../util/grow.h"
#include "../../util/outname.h"
#include "chrome.h"
#include "write.h"

/* How every Chrome trace tprof writes begins. */
#define HEAD "{\"displayTimeUnit\":\"ns\",\"traceEvents\":["

/* A file that begins as ours do, gzipped or not, is an earlier trace of ours. */
static const char *foreign(const char *path)
{
	char b[sizeof(HEAD) - 1];
	gzFile gz = gzopen(path, "rb");
	int n = gz ? gzread(gz, b, sizeof(b)) : -1;
	if (gz)
		gzclose(gz);
	if (n == (int)sizeof(b) && !memcmp(b, HEAD, sizeof(b)))
		return NULL;
	return "exists and is not a Chrome trace tprof wrote";
}

const struct out_format chrome_format = { "a Chrome trace", 0, 1, foreign };

static int begin(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct chrome *c = priv;
	(void)tr;
	(void)tracks;
	if (jw_open(&c->w, c->path, &chrome_format) < 0) {
		diag_error("%s", outname_error());
		c->failed = 1;
		return -1;
	}
	jw_lit(&c->w, HEAD "\n");
	c->first = 1;
	return 0;
}

static void name(struct json_writer *w, const struct scene_item *it)
{
	if (it->name_str)
		chrome_str(w, it->name_str);
	else
		chrome_name(w, it->name);
}

static void async_id(struct json_writer *w, const struct scene_item *it)
{
	char id[48];
	snprintf(id, sizeof(id), ",\"id\":\"%d:%" PRIu64 "\"", it->proc->index, it->id);
	jw_raw(w, id, strlen(id));
}

/* A CPU sample: an instant on its thread named after its innermost function, its stack an
 * array of function names, innermost first (Perfetto and chrome://tracing list an array's
 * items one per line), the first kernel_frames of them kernel functions. */
static void sample(struct chrome *c, const struct scene_item *it)
{
	struct json_writer *w = &c->w;
	const struct scene_stack *st = it->stack;
	chrome_head(c, it->track, "i", it->cat ? it->cat : "sample", it->t0);
	jw_lit(w, ",\"s\":\"t\",\"name\":");
	name(w, it);
	jw_lit(w, ",\"args\":{\"cpu\":");
	jw_u64(w, st ? st->cpu : 0);
	jw_lit(w, ",\"kernel_frames\":");
	jw_u64(w, st ? st->nkernel : 0);
	jw_lit(w, ",\"stack\":[");
	for (uint32_t i = 0; st && i < st->n; i++) {
		if (i)
			jw_lit(w, ",");
		chrome_name(w, st->frames[i]);
	}
	jw_lit(w, "]}}");
}

#define DRAWN_MAX (1 << 24)

/* Chrome pid `pid` has something drawn in it (DRAWN_ANY), a step among it (DRAWN_STEP). */
enum { DRAWN_ANY = 1, DRAWN_STEP = 2 };
static void drawn(struct chrome *c, int64_t pid, uint8_t what)
{
	if (pid < 0 || pid >= DRAWN_MAX)
		return;
	c->drawn = util_grow_index(c->drawn, &c->ndrawn, (size_t)pid, 1, 64, 0);
	c->drawn[pid] |= what;
}

static void drawn_track(void *ctx, const struct track_info *ti)
{
	drawn(ctx, ti->track.pid, DRAWN_ANY);
}

static void item(void *priv, const struct scene_item *it)
{
	struct chrome *c = priv;
	struct json_writer *w = &c->w;
	if (c->failed)
		return;
	drawn(c, it->track.pid, it->ev && it->ev->kind == EV_STEP ? DRAWN_ANY | DRAWN_STEP
								   : DRAWN_ANY);
	switch (it->kind) {
	case SI_SLICE:
		chrome_head(c, it->track, "X", it->cat, it->t0);
		jw_lit(w, ",\"dur\":");
		jw_us(w, it->t1 - it->t0);
		if (it->color) {
			jw_lit(w, ",\"cname\":");
			chrome_str(w, it->color);
		}
		jw_lit(w, ",\"name\":");
		name(w, it);
		chrome_args(w, it->args);
		break;
	case SI_INSTANT:
		chrome_head(c, it->track, "i", it->cat, it->t0);
		jw_lit(w, ",\"s\":\"t\",\"name\":");
		name(w, it);
		chrome_args(w, it->args);
		break;
	case SI_COUNTER:
		chrome_head(c, it->track, "C", it->cat, it->t0);
		jw_lit(w, ",\"name\":");
		name(w, it);
		jw_lit(w, ",\"args\":{\"value\":");
		jw_double(w, it->value);
		jw_lit(w, "}}");
		break;
	case SI_ASYNC:
		chrome_head(c, it->track, "b", it->cat, it->t0);
		jw_lit(w, ",\"name\":");
		name(w, it);
		async_id(w, it);
		chrome_args(w, it->args);
		chrome_head(c, it->track, "e", it->cat, it->t1);
		jw_lit(w, ",\"name\":");
		name(w, it);
		async_id(w, it);
		jw_lit(w, "}");
		break;
	case SI_SAMPLE:
		sample(c, it);
		break;
	default:
		break;
	}
}

static void flow_id(struct json_writer *w, const struct scene_flow *f)
{
	jw_lit(w, ",\"id\":");
	if (f->key)
		chrome_str(w, f->key);
	else
		jw_u64(w, f->id);
}

/* "s" at the start with the arrow's arguments, "f" bound to the slice it ends in (one of them
 * for a half, scene.h). */
static void flow(void *priv, const struct scene_flow *f)
{
	struct chrome *c = priv;
	struct json_writer *w = &c->w;
	if (c->failed)
		return;
	if (f->half != SF_TO) {
		chrome_head(c, f->from, "s", f->cat, f->from_ts);
		jw_lit(w, ",\"name\":");
		chrome_str(w, f->name);
		flow_id(w, f);
		chrome_args(w, f->args);
	}
	if (f->half != SF_FROM) {
		chrome_head(c, f->to, "f", f->cat, f->to_ts);
		jw_lit(w, ",\"bp\":\"e\",\"name\":");
		chrome_str(w, f->name);
		flow_id(w, f);
		jw_lit(w, "}");
	}
}

static void meta(void *ctx, const char *what, int64_t pid, int64_t tid, const char *key,
		 const char *s, int64_t num)
{
	struct chrome *c = ctx;
	struct json_writer *w = &c->w;
	chrome_sep(c);
	jw_lit(w, "{\"ph\":\"M\",\"name\":\"");
	jw_raw(w, what, strlen(what));
	jw_lit(w, "\",\"pid\":");
	jw_i64(w, pid);
	if (tid >= 0) {
		jw_lit(w, ",\"tid\":");
		jw_i64(w, tid);
	}
	jw_lit(w, ",\"args\":{\"");
	jw_raw(w, key, strlen(key));
	jw_lit(w, "\":");
	if (s)
		chrome_str(w, s);
	else
		jw_i64(w, num);
	jw_lit(w, "}}");
}

static void proc_meta(struct chrome *c, struct tracks *tracks, const struct proc *p)
{
	char label[512];
	proc_label(p, label, sizeof(label));
	meta(c, "process_name", p->index, -1, "name", label, 0);
	meta(c, "process_sort_index", p->index, -1, "sort_index", NULL, p->index);
	char *cmd = proc_command(p, 400);
	if (cmd && *cmd)
		meta(c, "process_labels", p->index, -1, "labels", cmd, 0);
	free(cmd);
	struct track s = p->had_steps ? tracks_steps(tracks, p) : (struct track){ -1, -1 };
	/* named where a step was drawn on it (a window or a part may hold none) */
	if (s.pid >= 0 && (size_t)s.pid < c->ndrawn && (c->drawn[s.pid] & DRAWN_STEP)) {
		meta(c, "thread_name", s.pid, s.tid, "name", "steps", 0);
		meta(c, "thread_sort_index", s.pid, s.tid, "sort_index", NULL, -1);
	}
}

static void destroy(struct chrome *c)
{
	free(c->drawn);
	free(c->path);
	free(c);
}

static int end(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct chrome *c = priv;
	if (c->failed) {
		destroy(c);
		return -1;
	}
	/* an imported process is named when it has a track or something drawn: not when its
	 * events all went to the recorded process they belong to */
	tracks_each(tracks, drawn_track, c);
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		if (p->events && (!p->imp || p->had_steps ||
				  ((size_t)p->index < c->ndrawn && c->drawn[p->index])))
			proc_meta(c, tracks, p);
	}
	tracks_metadata(tracks, tr, meta, c);
	jw_lit(&c->w, "\n],\"otherData\":{\"producer\":\"tprof " PACKAGE_VERSION "\",\"trace_start_realtime_ns\":");
	jw_i64(&c->w, tr->start_ns);
	jw_lit(&c->w, "}}\n");
	int rc = jw_close(&c->w);
	if (rc < 0)
		diag_error("%s", outname_error());
	destroy(c);
	return rc;
}

static uint64_t size(void *priv)
{
	struct chrome *c = priv;
	return jw_bytes(&c->w);
}

static void suspend(void *priv)
{
	struct chrome *c = priv;
	if (!c->failed)
		jw_suspend(&c->w);
}

static void resume(void *priv)
{
	struct chrome *c = priv;
	if (!c->failed)
		jw_resume(&c->w);
}

static const struct scene_ops chrome_ops = { .name = "chrome", .begin = begin, .item = item,
					     .flow = flow, .end = end, .size = size,
					     .suspend = suspend, .resume = resume };

struct scene_renderer render_chrome(const char *path)
{
	struct chrome *c = xcalloc(1, sizeof(*c));
	c->path = xstrdup(path);
	return (struct scene_renderer){ &chrome_ops, c };
}

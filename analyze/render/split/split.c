/* render/split/split.c — the splitter, a scene renderer over a series of renderers, one per
 * part.  An item goes to the part whose range holds its key: the end of a slice or a range
 * (items reach a renderer when they end: a range when it closes, a step when the next one
 * starts), the time of an instant or a counter sample.  An arrow goes where the slice it ends
 * in went.  A part stays open until the latest start of any item (the front) is `lag` past
 * its range, for what arrives late (device spans, NCCL spans held until their collective is
 * known); what comes after its part closed goes to the next one open and is counted there.
 * At most max_open parts are open at once: memory is theirs and a few slices', never the
 * trace's.  steps:N knows every part's range before the pass; size:MB ends the newest part's
 * range at the front when it has grown to the size.  Under --parallel each analysis process
 * writes the parts of its share of the processes, of the same groups of steps (numbered so
 * that a group's parts follow each other), parts of the size (each its share's, cut where
 * its own size says: numbered at the end, each analysis process's after those of the ones
 * before it), or one part (SPLIT_PROCESS), and the first the index.  There a part the front leaves is put aside (scene_ops.suspend), not ended: what
 * comes only at the end (messages matched across analysis processes, the halves of arrows
 * the others draw, NCCL spans of instances matched elsewhere) still goes to its own part,
 * taken up again; nothing is late. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "state.h"
#include "../../parallel/par.h"
#include "../../util/outname.h"

/* Items at the same time as a boundary: a slice ending there goes to the part before it, an
 * instant (or a slice of no length) to the part after it. */
static int64_t item_key(const struct scene_item *it)
{
	if ((it->kind == SI_SLICE || it->kind == SI_ASYNC) && it->t1 > it->t0)
		return it->t1;
	return it->t0 + 1;
}

static int64_t flow_key(const struct scene_flow *f)
{
	return f->to_t1 > f->to_t0 ? f->to_t1 : f->to_t0 + 1;
}

/* The part whose range (lo, hi] holds key: ranges follow each other, the last unbounded.
 * Most items go where the one before went. */
static size_t part_of(struct split *s, int64_t key)
{
	size_t h = s->hint;
	if (h < s->nparts && s->parts[h].hi >= key && (!h || s->parts[h - 1].hi < key))
		return h;
	size_t a = 0, b = s->nparts - 1;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (s->parts[m].hi >= key)
			b = m;
		else
			a = m + 1;
	}
	s->hint = a;
	return a;
}

static struct part *add_part(struct split *s, int64_t lo, int64_t hi)
{
	s->parts = util_grow(s->parts, &s->cap, s->nparts, sizeof(*s->parts), 16);
	struct part *p = &s->parts[s->nparts];
	*p = (struct part){ .number = s->nparts * s->readers + s->me + 1, .reader = s->me,
			    .lo = lo, .hi = hi, .hold = INT64_MIN, .t_min = INT64_MAX,
			    .t_max = INT64_MIN };
	s->nparts++;
	return p;
}

/* --parallel: part i put aside, to be taken up again (scene_ops.suspend). */
static void suspend_part(struct split *s, size_t i)
{
	struct part *p = &s->parts[i];
	p->r.ops->suspend(p->r.priv);
	p->state = PART_AWAY;
	s->nopen--;
}

static void resume_part(struct split *s, size_t i)
{
	struct part *p = &s->parts[i];
	p->r.ops->resume(p->r.priv);
	p->state = PART_OPEN;
	s->nopen++;
}

static void open_part(struct split *s, size_t i)
{
	struct part *p = &s->parts[i];
	char *path = split_part_path(s, p->number);
	p->r = s->make(path, s->ctx);
	free(path);
	p->state = PART_OPEN;
	s->nopen++;
	if (p->r.ops->begin(p->r.priv, s->tr, s->tracks) < 0)
		p->failed = s->failed = 1;
}

/* Finishes part i (an empty file when nothing went there). */
static void close_part(struct split *s, size_t i)
{
	struct part *p = &s->parts[i];
	if (p->state == PART_NEW && s->failed) {
		p->state = PART_DONE;
		return;
	}
	if (p->state == PART_NEW)
		open_part(s, i);
	if (p->state == PART_AWAY)
		resume_part(s, i);
	uint64_t content = p->r.ops->size && !p->failed ? p->r.ops->size(p->r.priv) : 0;
	if (p->r.ops->end(p->r.priv, s->tr, s->tracks) < 0)
		p->failed = s->failed = 1;
	s->nopen--;
	p->state = PART_DONE;
	char *path = split_part_path(s, p->number);
	split_file_bytes(path, content, &p->file_bytes, &p->json_bytes);
	free(path);
	held_prune(s);
	uint64_t grew = p->json_bytes > p->cut_bytes ? p->json_bytes - p->cut_bytes : 0;
	if (p->cut_bytes && grew > s->reserve)
		s->reserve = grew;
}

/* The front has left part i behind: it is done, or under --parallel put aside. */
static void leave_part(struct split *s, size_t i)
{
	if (s->readers > 1 && s->parts[i].r.ops->suspend && !s->parts[i].failed &&
	    s->parts[i].state == PART_OPEN)
		suspend_part(s, i);
	else
		close_part(s, i);
}

/* Leaves, in order, the parts the front has left `lag` behind (never the last). */
static void close_behind(struct split *s)
{
	if (s->front < INT64_MIN + s->o.lag)
		return;
	int64_t edge = s->front - s->o.lag;
	while (s->first_open + 1 < s->nparts) {
		const struct part *p = &s->parts[s->first_open];
		int64_t until = p->hold > p->hi ? p->hold : p->hi;
		if (until >= edge)
			return;
		leave_part(s, s->first_open++);
	}
}

/* Part i about to open: when max_open are, the oldest others are left (put aside first
 * those taken up again, --parallel). */
static void make_room(struct split *s, size_t i)
{
	for (size_t j = 0; s->nopen >= s->o.max_open && j < s->first_open; j++)
		if (j != i && s->parts[j].state == PART_OPEN)
			suspend_part(s, j);
	while (s->nopen >= s->o.max_open && s->first_open < i)
		leave_part(s, s->first_open++);
}

/* The part an item of that key goes to: its own (taken up again when put aside), or the
 * next one open when that is done. */
static struct part *target(struct split *s, size_t i, int *late)
{
	*late = i < s->first_open && s->parts[i].state == PART_DONE;
	if (*late)
		i = s->first_open;
	if (s->parts[i].state == PART_NEW || s->parts[i].state == PART_AWAY) {
		make_room(s, i);
		if (s->parts[i].state == PART_NEW)
			open_part(s, i);
		else
			resume_part(s, i);
	}
	return &s->parts[i];
}

static void count(struct part *p, const struct scene_item *it, int late)
{
	switch (it->kind) {
	case SI_SLICE:
		p->slices++;
		p->before += !late && it->t0 < p->lo;
		break;
	case SI_INSTANT:
		p->instants++;
		break;
	case SI_COUNTER:
		p->counters++;
		break;
	case SI_SAMPLE:
		p->samples++;
		break;
	default:
		p->asyncs++;
		break;
	}
	if (it->t0 < p->t_min)
		p->t_min = it->t0;
	if (it->t1 > p->t_max)
		p->t_max = it->t1;
	if (it->t0 > p->t_max)
		p->t_max = it->t0;
}

/* What steps a part holds, with size:MB: the step slices drawn in it. */
static void saw_step(struct part *p, const struct scene_item *it)
{
	uint64_t n = it->ev->step;
	if (!p->has_steps || n < p->first_step)
		p->first_step = n;
	if (!p->has_steps || n > p->last_step)
		p->last_step = n;
	p->has_steps = 1;
}

/* What parts grew by after their cut (what came late for their range, their metadata): the
 * most any closed part did, or the part before the newest has so far. */
static uint64_t reserve(const struct split *s)
{
	uint64_t r = s->reserve;
	const struct part *q = s->nparts > 1 ? &s->parts[s->nparts - 2] : NULL;
	if (q && q->state == PART_OPEN && !q->failed) {
		uint64_t now = q->r.ops->size(q->r.priv);
		if (now > q->cut_bytes && now - q->cut_bytes > r)
			r = now - q->cut_bytes;
	}
	return r;
}

/* size:MB: the newest part has grown to the size, less the reserve (at most half of it): its
 * range ends at the front (every item it holds but those still ahead ends by then) and the
 * next part's begins. */
static void maybe_cut(struct split *s)
{
	struct part *p = &s->parts[s->nparts - 1];
	uint64_t want = s->o.spec.bytes;
	if (p->state != PART_OPEN || p->failed)
		return;
	uint64_t size = p->r.ops->size(p->r.priv);
	if (size < want / 2)
		return;
	uint64_t r = reserve(s);
	if (size < want - (r < want / 2 ? r : want / 2))
		return;
	int64_t at = s->front + 1;
	if (at <= p->lo)
		return;
	p->hi = at;
	p->cut_bytes = size;
	p->beyond += ahead_cut(s, at, s->nparts - 1, &p->hold);
	add_part(s, at, INT64_MAX);
}

static void item(void *priv, const struct scene_item *it)
{
	struct split *s = priv;
	if (s->failed)                  /* a part could not be written: none will be kept */
		return;
	if (it->t0 > s->front) {
		s->front = it->t0;
		close_behind(s);
	}
	int64_t key = item_key(it);
	if (sat_sub(s->front, key) > s->delay_max)
		s->delay_max = sat_sub(s->front, key);
	size_t i = part_of(s, key);
	int late;
	struct part *p = target(s, i, &late);
	if (late) {
		p->late++;
		s->late++;
		if (it->kind == SI_SLICE)
			held_add(s, it->track, it->t0, it->t1, (size_t)(p - s->parts));
	}
	count(p, it, late);
	if (!p->failed)
		p->r.ops->item(p->r.priv, it);
	if (s->o.spec.mode == SPLIT_STEPS)
		return;
	if (it->kind == SI_SLICE && it->ev && it->ev->kind == EV_STEP)
		saw_step(p, it);
	if (s->o.spec.mode == SPLIT_PROCESS)
		return;
	if ((size_t)(p - s->parts) + 1 == s->nparts && key > s->front &&
	    (it->kind == SI_SLICE || it->kind == SI_ASYNC))
		ahead_add(s, it, key);
	maybe_cut(s);
}

/* An arrow goes with the slice it ends in; so does each half of one (--parallel), the
 * start's too, by that slice's times: the parts of one group hold the arrow whole. */
static void flow(void *priv, const struct scene_flow *f)
{
	struct split *s = priv;
	if (s->failed)
		return;
	long held = f->half != SF_FROM ? held_find(s, f->to, f->to_t0, f->to_t1) : -1;
	size_t i = held >= 0 ? (size_t)held : part_of(s, flow_key(f));
	int late;
	struct part *p = target(s, i, &late);
	if (late) {
		p->late_flows++;
		s->late_flows++;
	}
	if (f->half)
		p->flow_halves++;
	else
		p->flows++;
	if (f->half != SF_TO)
		p->flows_back += f->from_ts < (p - s->parts ? p->lo : s->o.start);
	if (!p->failed)
		p->r.ops->flow(p->r.priv, f);
}

static int begin(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct split *s = priv;
	s->tr = tr;
	s->tracks = tracks;
	/* the parts and the index are put in place together, the index last, at the end */
	outname_hold();
	if (s->o.spec.mode == SPLIT_STEPS) {
		for (size_t i = 0; i < s->o.ngroups; i++) {
			struct part *p = add_part(s, i ? s->groups[i].start : INT64_MIN,
						  i + 1 < s->o.ngroups ? s->groups[i + 1].start
								       : INT64_MAX);
			p->first_step = s->groups[i].first;
			p->last_step = s->groups[i].last;
			p->has_steps = 1;
		}
	} else {
		add_part(s, INT64_MIN, INT64_MAX);
	}
	/* The first part now: a path that cannot be written fails before the pass. */
	open_part(s, 0);
	if (!s->failed && s->o.spec.mode == SPLIT_SIZE && !s->parts[0].r.ops->size) {
		diag_error("--split size: the %s renderer cannot tell its size", s->o.format);
		s->failed = 1;
	}
	return s->failed ? -1 : 0;
}

static void destroy(struct split *s)
{
	held_free(s);
	split_parts_free(s);
	free(s->parts);
	free(s->groups);
	free(s->stem);
	free(s->ext);
	free(s);
}

/* The paths of the first and last parts, for the line that says where the trace went. */
static void report(const struct split *s)
{
	char *a = split_part_path(s, s->parts[0].number);
	char *b = split_part_path(s, s->parts[s->nparts - 1].number);
	const char *name = s->o.label ? s->o.label : s->o.format;
	if (s->o.spec.mode == SPLIT_PROCESS)
		fprintf(stderr, "tprof-analyze: %s trace written in %zu parts, one per analysis "
			"process, %s to %s, listed in %s.index.json\n", name, s->nparts, a, b, s->stem);
	else if (s->readers > 1 && s->o.spec.mode == SPLIT_SIZE)
		fprintf(stderr, "tprof-analyze: %s trace written in %zu parts by %zu analysis "
			"processes, %s to %s, listed in %s.index.json\n", name, s->nparts, s->readers,
			a, b, s->stem);
	else if (s->readers > 1)
		fprintf(stderr, "tprof-analyze: %s trace written in %zu parts, %zu each of %zu "
			"analysis processes, %s to %s, listed in %s.index.json\n", name, s->nparts,
			s->nparts / s->readers, s->readers, a, b, s->stem);
	else if (s->nparts > 1)
		fprintf(stderr, "tprof-analyze: %s trace written in %zu parts, %s to %s, listed in "
			"%s.index.json\n", name, s->nparts, a, b, s->stem);
	else
		fprintf(stderr, "tprof-analyze: %s trace written in 1 part, %s, listed in "
			"%s.index.json\n", name, a, s->stem);
	diag_note("--split: %llu items and %llu arrows came after their part was closed and went "
		  "to the next one (items ended up to %.3f ms before the latest start seen)",
		  (unsigned long long)s->late, (unsigned long long)s->late_flows,
		  (double)s->delay_max / 1e6);
	free(a);
	free(b);
}

static int end(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct split *s = priv;
	(void)tr;
	(void)tracks;
	/* size:MB: a part cut just before the end that nothing came to is not kept. */
	if (s->nparts > 1 && s->parts[s->nparts - 1].state == PART_NEW &&
	    s->o.spec.mode == SPLIT_SIZE) {
		s->nparts--;
		s->parts[s->nparts - 1].hi = INT64_MAX;
		s->parts[s->nparts - 1].beyond = 0;
	}
	for (size_t i = 0; i < s->first_open; i++)     /* those put aside (--parallel) */
		if (s->parts[i].state != PART_DONE)
			close_part(s, i);
	while (s->first_open < s->nparts)
		close_part(s, s->first_open++);
	if (s->readers > 1) {
		if (s->o.spec.mode == SPLIT_SIZE && split_renumber(s) < 0)
			s->failed = 1;
		int64_t failed = s->failed;
		par_max_i64(&failed, 1);     /* none, or no index */
		s->failed = (int)failed;
		if (!s->failed)
			split_gather_parts(s);
	}
	int rc = s->failed ? -1 : s->me ? 0 : split_write_index(s);
	if (outname_release(rc == 0) < 0 && rc == 0) {
		diag_error("%s", outname_error());
		rc = -1;
	}
	if (!rc && !s->me)
		report(s);
	destroy(s);
	return rc;
}

static const struct scene_ops split_ops = { .name = "split", .begin = begin, .item = item,
					    .flow = flow, .end = end };

struct scene_renderer render_split(const char *path, const struct split_opts *o,
				   split_make_fn make, void *ctx)
{
	struct split *s = xcalloc(1, sizeof(*s));
	s->o = *o;
	if (!s->o.lag)
		s->o.lag = SPLIT_LAG_NS;
	if (!s->o.max_open)
		s->o.max_open = SPLIT_MAX_OPEN;
	if (o->ngroups) {
		s->groups = xmallocarray(o->ngroups, sizeof(*s->groups));
		memcpy(s->groups, o->groups, o->ngroups * sizeof(*s->groups));
	}
	s->o.groups = NULL;
	s->make = make;
	s->ctx = ctx;
	s->readers = (size_t)par_size();
	s->me = (size_t)par_rank();
	s->front = INT64_MIN;
	if (split_names(s, path) < 0) {
		s->stem = xstrdup(path);
		s->ext = xstrdup("");
	}
	return (struct scene_renderer){ &split_ops, s };
}

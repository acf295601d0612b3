/* scene.c — the pipeline's events drawn as scene items (scene.h) for one renderer: ranges,
 * marks, counters, steps and cross-thread ranges; API calls with their arguments (the
 * generic ones here and in scene-args.c, the runtime's own from the registry); device work
 * on its stream's track with the arrow from its launch.  Events only a runtime can draw
 * (MPI messages, NCCL instances, NeuronCore spans) go to that runtime first.  The tracks
 * live here, so that every renderer of a scene sees the same layout.  A renderer that writes
 * each track in time order also hears what is still to come (announcements): the start of a
 * range, a device span a runtime holds to draw later, a request done inside a call. */
#include <stdio.h>
#include <stdlib.h>

#include "../../common/domains.h"
#include "../../common/xalloc.h"
#include "../parallel/par.h"
#include "scene-args.h"
#include "scene-halves.h"
#include "runtime.h"

struct scene {
	struct scene_renderer r;
	struct tracks *tracks;
	uint64_t next_flow;
	uint64_t items;                  /* drawn so far */
	const struct thread *last_th;    /* thread_track's last answer */
	int last_api;
	struct track last_track;
	int announce;                    /* the renderer hears the announcements */
	const struct runtime *const *rts;
	unsigned nrts;
	/* per event kind, the runtimes that see it first (EV_CALL: by domain) */
	unsigned char want[EV_LAST + 1][RT_MAX];
	unsigned nwant[EV_LAST + 1];
	const struct runtime *by_domain[256];
	unsigned by_domain_idx[256];
	const struct runtime *msgpass[RT_MAX];   /* those that say what passed messages */
	unsigned nmsgpass;
	void *state[RT_MAX];
	const struct trace *tr;
	struct halves *halves;           /* --parallel: arrow ends other analysis processes draw */
};

static inline struct track thread_track(struct scene *s, const struct thread *th, int api)
{
	if (th != s->last_th || api != s->last_api) {
		s->last_th = th;
		s->last_api = api;
		s->last_track = tracks_thread(s->tracks, th, api);
	}
	return s->last_track;
}

struct tracks *scene_tracks(struct scene *s)
{
	return s->tracks;
}

void **scene_runtime_state(struct scene *s, unsigned runtime_index)
{
	return &s->state[runtime_index];
}

void scene_item(struct scene *s, const struct scene_item *it)
{
	s->items++;
	s->r.ops->item(s->r.priv, it);
}

/* Unique within the job: the analysis processes number their arrows apart. */
static uint64_t flow_id(struct scene *s)
{
	return ++s->next_flow * (uint64_t)par_size() + (uint64_t)par_rank();
}

void scene_flow(struct scene *s, const char *key, const char *cat, const char *name,
		struct track from, int64_t from_ts, struct track to, int64_t to_ts, int64_t to_t0,
		int64_t to_t1, const struct scene_args *args)
{
	if (!s->r.ops->flow)
		return;
	struct scene_flow f = { .id = flow_id(s), .key = key, .cat = cat, .name = name, .from = from,
				.to = to, .from_ts = from_ts, .to_ts = to_ts, .to_t0 = to_t0,
				.to_t1 = to_t1, .args = args };
	s->r.ops->flow(s->r.priv, &f);
}

static struct track end_track(struct scene *s, const struct flow_end *e)
{
	return e->thread ? tracks_thread(s->tracks, e->thread, 1)
			 : tracks_device(s->tracks, e->proc, e->device, e->stream, 0);
}

/* One end of an arrow: drawn here, or sent to the analysis process that reads its process. */
static void half(struct scene *s, struct scene_flow *f, const struct flow_end *e, int end)
{
	if (e->proc->remote) {
		halves_add(&s->halves, trace_reader_of(s->tr, e->proc->index), end, e, f);
		return;
	}
	f->half = end;
	if (end == SF_FROM)
		f->from = end_track(s, e);
	else
		f->to = end_track(s, e);
	s->r.ops->flow(s->r.priv, f);
}

void scene_flow_between(struct scene *s, const char *key, const char *cat, const char *name,
			struct flow_end from, int64_t from_ts, struct flow_end to, int64_t to_ts,
			int64_t to_t0, int64_t to_t1, const struct scene_args *args)
{
	if (!from.proc->remote && !to.proc->remote) {
		scene_flow(s, key, cat, name, end_track(s, &from), from_ts, end_track(s, &to), to_ts,
			   to_t0, to_t1, args);
		return;
	}
	if (!s->r.ops->flow)
		return;
	struct scene_flow f = { .id = flow_id(s), .key = key, .cat = cat, .name = name,
				.from_ts = from_ts, .to_ts = to_ts, .to_t0 = to_t0, .to_t1 = to_t1,
				.args = args };
	half(s, &f, &from, SF_FROM);
	half(s, &f, &to, SF_TO);
}

int64_t scene_flow_ts(int64_t t, int64_t t0, int64_t t1)
{
	if (t1 - t0 >= 2) {
		if (t <= t0)
			return t0 + 1;
		if (t >= t1)
			return t1 - 1;
		return t;
	}
	return t < t0 ? t0 : t > t1 ? t1 : t;
}

void scene_launch_flow(struct scene *s, const struct proc *p, uint64_t corr, unsigned k,
		       struct track from, struct track to, int64_t launch, int64_t t0, int64_t t1)
{
	int64_t end = t0 + (t1 - t0 > 2 ? 1 : 0);
	int64_t start = launch + 1 < end ? launch + 1 : end;
	char key[64];
	if (k)
		snprintf(key, sizeof(key), "%d:%llu.%u", p->index, (unsigned long long)corr, k);
	else
		snprintf(key, sizeof(key), "%d:%llu", p->index, (unsigned long long)corr);
	scene_flow(s, key, "launch", "launch", from, start, to, end, t0, t1, NULL);
}

/* ---- drawing ------------------------------------------------------------------------------ */

/* Calls' categories by domain (common/domains.h); "call" for calls of none. */
#define CATEGORY(name, value, key, ...) [TPROF_DOM_##name] = key,
static const char *const domain_cat[TPROF_NDOMAINS] = { "call", TPROF_DOMAINS(CATEGORY) };
#undef CATEGORY

void scene_draw_call(struct scene *s, const struct event *ev)
{
	const struct call_info *ci = ev->call;
	struct scene_args a;
	a.n = 0;
	scene_call_args(&a, ev);
	const struct runtime *rt = s->by_domain[ci->domain];
	if (rt && rt->call_args)
		rt->call_args(&a, ev);
	scene_call_tail_args(&a, ev);
	const char *cat = rt && rt->category ? rt->category
					     : domain_cat[ci->domain < TPROF_NDOMAINS ? ci->domain : 0];
	struct msgpass mp;
	struct scene_item it = { .kind = SI_SLICE, .cat = cat,
				 .name = ev->name, .track = thread_track(s, ev->thread, 1),
				 .proc = ev->proc, .t0 = ev->t0, .t1 = ev->t1,
				 .args = &a, .ev = ev,
				 .ranges_open = (uint32_t)ev->thread->depth };
	if (rt && rt->msgpass && rt->msgpass(ev, &mp))
		it.msgpass = &mp;
	scene_item(s, &it);
}

static const char *const devop_cat[] = { "device", "kernel", "copy", "memset", "graph", "collective" };

static void draw_device(struct scene *s, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	int copy = di->kind == TPROF_DEVOP_COPY || di->kind == TPROF_DEVOP_MEMSET;
	struct track tr = tracks_device(s->tracks, ev->proc, di->op.device, di->op.stream, copy);
	struct scene_args a;
	a.n = 0;
	scene_device_args(&a, ev);
	struct scene_item it = { .kind = SI_SLICE, .cat = devop_cat[di->kind < 6 ? di->kind : 0],
				 .name = ev->name, .track = tr, .proc = ev->proc, .t0 = ev->t0,
				 .t1 = ev->t1, .args = &a, .ev = ev };
	scene_item(s, &it);
	if (di->corr && di->launcher && di->launch_kept)
		scene_launch_flow(s, ev->proc, di->corr, 0, tracks_thread(s->tracks, di->launcher, 1),
				  tr, di->launch_ns, ev->t0, ev->t1);
}

/* An item of ev with its fields set one by one: ranges, marks and counters are most of a
 * trace's items, and zeroing the whole item first costs more than the rest of drawing one. */
static void item_of(struct scene_item *it, const struct event *ev)
{
	it->cat = NULL;
	it->name = ev->name;
	it->name_str = NULL;
	it->color = NULL;
	it->proc = ev->proc;
	it->t0 = ev->t0;
	it->t1 = ev->t1;
	it->depth = ev->depth;
	it->ranges_open = ev->depth;
	it->value = 0;
	it->id = 0;
	it->msgpass = NULL;
	it->args = NULL;
	it->stack = NULL;
	it->ev = ev;
}

static void draw_simple(struct scene *s, const struct event *ev)
{
	struct scene_args a;
	a.n = 0;
	struct scene_item it;
	item_of(&it, ev);
	it.args = &a;
	char step[40];
	switch (ev->kind) {
	case EV_RANGE:
		it.kind = SI_SLICE;
		it.cat = ev->source == TPROF_SRC_ROCTX ? "roctx" : "range";
		it.track = thread_track(s, ev->thread, 0);
		break;
	case EV_MARK:
		it.kind = SI_INSTANT;
		it.cat = ev->source == TPROF_SRC_ROCTX ? "roctx" : "mark";
		it.track = thread_track(s, ev->thread, 0);
		it.ranges_open = (uint32_t)ev->thread->depth;
		it.args = NULL;
		break;
	case EV_COUNTER:
		it.kind = SI_COUNTER;
		it.cat = "counter";
		it.track = (struct track){ ev->proc->index, 0 };
		it.value = ev->value;
		it.args = NULL;
		break;
	case EV_STEP:
		it.kind = SI_SLICE;
		it.cat = "step";
		it.track = tracks_steps(s->tracks, ev->proc);
		snprintf(step, sizeof(step), "step %llu", (unsigned long long)ev->step);
		it.name = 0;
		it.name_str = step;
		sa_u64(&a, "step", ev->step);
		break;
	case EV_ASYNC:
		it.kind = SI_ASYNC;
		it.cat = "roctx";
		it.track = thread_track(s, ev->thread, 0);
		it.id = ev->step;
		break;
	default:
		return;
	}
	if (it.args)
		scene_args_flags(&a, ev->flags);
	scene_item(s, &it);
}

void scene_draw_event(struct scene *s, const struct event *ev)
{
	switch (ev->kind) {
	case EV_CALL:
		scene_draw_call(s, ev);
		return;
	case EV_DEVICE:
		draw_device(s, ev);
		return;
	default:
		draw_simple(s, ev);
		return;
	}
}

/* ---- announcements ------------------------------------------------------------------------ */

/* A range's start (EV_BEGIN) and a request done or started inside a call (EV_MPIREQ). */
static void announce(struct scene *s, const struct event *ev)
{
	struct scene_item it;
	struct msgpass mp;
	item_of(&it, ev);
	if (ev->kind == EV_BEGIN) {
		it.kind = SI_BEGIN;
		it.cat = ev->source == TPROF_SRC_ROCTX ? "roctx" : "range";
		it.track = thread_track(s, ev->thread, 0);
	} else {
		unsigned i = 0;
		while (i < s->nmsgpass && !s->msgpass[i]->msgpass(ev, &mp))
			i++;
		if (i == s->nmsgpass)
			return;
		it.kind = SI_MSGPASS;
		it.cat = "msgpass";
		it.track = thread_track(s, ev->thread, 1);
		it.ranges_open = (uint32_t)ev->thread->depth;
		it.msgpass = &mp;
	}
	it.t1 = ev->t0;
	s->r.ops->item(s->r.priv, &it);
}

/* A device span a runtime took to draw later: it will come on its stream's track, made now,
 * so that a process's streams are numbered and ordered as their work came whenever a runtime
 * draws it (under --parallel an NCCL span read here may be drawn only at the end, with a
 * copy of its instance); announced to a renderer that asks. */
static void held(struct scene *s, const struct event *ev)
{
	const struct device_info *di = ev->dev;
	int copy = di->kind == TPROF_DEVOP_COPY || di->kind == TPROF_DEVOP_MEMSET;
	struct track tr = tracks_device(s->tracks, ev->proc, di->op.device, di->op.stream, copy);
	if (!s->announce)
		return;
	struct scene_item it = { .kind = SI_HELD, .cat = "held", .name = ev->name, .track = tr,
				 .proc = ev->proc, .t0 = ev->t0, .t1 = ev->t1, .ev = ev };
	s->r.ops->item(s->r.priv, &it);
}

/* ---- the pipeline output ------------------------------------------------------------------ */

static int begin(void *priv, const struct trace *tr)
{
	struct scene *s = priv;
	s->tr = tr;
	tracks_begin(s->tracks, tr);
	return s->r.ops->begin(s->r.priv, tr, s->tracks);
}

static void on_event(void *priv, const struct event *ev)
{
	struct scene *s = priv;
	if (ev->kind > EV_LAST)
		return;
	if (ev->kind == EV_BEGIN || ev->kind == EV_MPIREQ) {
		if (!s->announce)
			return;
		/* a runtime that draws its ranges itself announces them the same way */
		for (unsigned i = 0; ev->kind == EV_BEGIN && i < s->nwant[EV_BEGIN]; i++) {
			unsigned k = s->want[EV_BEGIN][i];
			if (s->rts[k]->scene_event(s, ev, k))
				return;
		}
		announce(s, ev);
		return;
	}
	if (ev->kind == EV_CALL) {
		unsigned d = ev->call->domain;
		const struct runtime *rt = s->by_domain[d];
		if (rt && (rt->events & RT_KIND(EV_CALL)) &&
		    rt->scene_event(s, ev, s->by_domain_idx[d]))
			return;
	} else {
		for (unsigned i = 0; i < s->nwant[ev->kind]; i++) {
			unsigned k = s->want[ev->kind][i];
			uint64_t before = s->items;
			if (s->rts[k]->scene_event(s, ev, k)) {
				if (ev->kind == EV_DEVICE && s->items == before)
					held(s, ev);
				return;
			}
		}
	}
	scene_draw_event(s, ev);
}

static int end(void *priv, const struct trace *tr)
{
	struct scene *s = priv;
	for (unsigned i = 0; i < s->nrts; i++)
		if (s->rts[i]->scene_end)
			s->rts[i]->scene_end(s, i);
	if (par_size() > 1 && s->r.ops->flow)
		halves_exchange(s->halves, tr, s->tracks, s->r);
	int rc = s->r.ops->end(s->r.priv, tr, s->tracks);
	tracks_free(s->tracks);
	free(s);
	return rc;
}

static const struct output_ops scene_ops = { "scene", begin, on_event, end };

struct output output_scene(struct scene_renderer r, int group_by, const struct runtime_set *rts)
{
	struct scene *s = xcalloc(1, sizeof(*s));
	s->r = r;
	s->tracks = tracks_new(group_by);
	s->rts = rts->all;
	s->nrts = rts->n;
	for (unsigned i = 0; i < s->nrts; i++) {
		const struct runtime *rt = s->rts[i];
		if (rt->domain >= 0 && rt->domain < 256) {
			s->by_domain[rt->domain] = rt;
			s->by_domain_idx[rt->domain] = i;
		}
		for (unsigned k = 0; k <= EV_LAST; k++)
			if (k != EV_CALL && (rt->events & RT_KIND(k)) && rt->scene_event)
				s->want[k][s->nwant[k]++] = (unsigned char)i;
		if (rt->msgpass)
			s->msgpass[s->nmsgpass++] = rt;
	}
	return (struct output){ &scene_ops, s };
}

struct output output_scene_announced(struct scene_renderer r, int group_by,
				     const struct runtime_set *rts)
{
	struct output o = output_scene(r, group_by, rts);
	((struct scene *)o.priv)->announce = 1;
	return o;
}

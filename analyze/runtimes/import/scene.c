/* runtimes/import/scene.c — imported events drawn: slices, instants and async ranges on their
 * thread's track with the file's category and arguments (read back from their bytes into the
 * scene's typed arguments, with "file offset" saying where the event is in its file), and
 * flows as arrows between the points they join. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/import-records.h"
#include "../../../common/xalloc.h"
#include "../../import/argblob.h"
#include "../../import/fixes.h"
#include "../../read/import-image.h"
#include "../../util/grow.h"
#include "../../util/strings.h"
#include "../../util/u64map.h"
#include "import.h"

#define TEXT_ROOM 65536

/* The texts of one item's arguments, NUL-terminated copies that live until it is drawn. */
struct texts {
	char buf[TEXT_ROOM];
	size_t used;
};

static const char *text(struct texts *tx, const char *s, size_t n)
{
	size_t room = sizeof(tx->buf) - tx->used;
	if (!room)
		return "";
	if (n + 1 > room)
		n = room - 1;
	char *p = tx->buf + tx->used;
	memcpy(p, s, n);
	p[n] = '\0';
	tx->used += n + 1;
	return p;
}

/* The scene's arguments the rest of the object or array just opened in rd makes: its members
 * and its end (rd itself does not move). */
static unsigned rest_items(const struct argblob_reader *rd)
{
	struct argblob_reader r = *rd;
	struct argblob_item it;
	unsigned n = 0;
	for (int depth = 1; depth > 0 && argblob_next(&r, &it) > 0; n++) {
		depth += it.type == TPROF_IMP_A_OBJ || it.type == TPROF_IMP_A_ARR;
		depth -= it.type == TPROF_IMP_A_END;
	}
	return n;
}

/* The args read back, IMP_ARGS_SHOWN of them at most (an object or array counting its start and
 * its end, room kept for the ends of those open): a value that does not fit whole is left out
 * whole, and the item says so; every object and array given is closed. */
static void args_of(struct scene_args *a, struct texts *tx, const struct imp_info *in)
{
	struct argblob_reader rd;
	struct argblob_item it;
	int rc, open = 0, skipping = 0, cut = 0;
	unsigned limit = a->n + IMP_ARGS_SHOWN;
	argblob_reader_init(&rd, in->args, in->args_len);
	while ((rc = argblob_next(&rd, &it)) > 0) {
		int nests = it.type == TPROF_IMP_A_OBJ || it.type == TPROF_IMP_A_ARR;
		if (skipping) {         /* inside what was left out */
			skipping += nests ? 1 : it.type == TPROF_IMP_A_END ? -1 : 0;
			continue;
		}
		if (it.type == TPROF_IMP_A_END) {
			if (open) {
				open--;
				sa_end(a);
			}
			continue;
		}
		if (nests && a->n + 1u + rest_items(&rd) + (unsigned)open > limit) {
			cut = 1;        /* the whole object or array, left out */
			skipping = 1;
			continue;
		}
		if (!nests && a->n + 1u + (unsigned)open > limit) {
			cut = 1;
			continue;
		}
		open += nests;
		const char *key = it.key ? text(tx, it.key, it.key_len) : NULL;
		switch (it.type) {
		case TPROF_IMP_A_NULL:
			sa_str(a, key, "null");
			break;
		case TPROF_IMP_A_FALSE:
		case TPROF_IMP_A_TRUE:
			sa_bool(a, key, it.type == TPROF_IMP_A_TRUE);
			break;
		case TPROF_IMP_A_INT:
			sa_i64(a, key, it.i);
			break;
		case TPROF_IMP_A_DOUBLE:
			sa_double(a, key, it.d);
			break;
		case TPROF_IMP_A_STR:
			sa_str(a, key, text(tx, it.s, it.s_len));
			break;
		case TPROF_IMP_A_OBJ:
			sa_obj(a, key);
			break;
		case TPROF_IMP_A_ARR:
			sa_arr(a, key);
			break;
		default:
			break;
		}
	}
	while (open-- > 0)   /* damaged bytes: what was opened is closed */
		sa_end(a);
	if (in->args_cut)
		sa_str(a, "args", "left out: longer than a record holds");
	if (cut)
		sa_str(a, "args cut", "more values than an item shows: the rest left out");
	if (in->clipped)
		sa_bool(a, "clipped to nest", 1);
}

static const char *cat_of(const struct imp_info *in, const char *none)
{
	return in->cat ? strings_get(in->cat) : none;
}

/* Where an imported thread's events go: in the recorded process its file's process is (its
 * "home"), a framework track right under the thread of the same tid; otherwise the imported
 * process's own thread track; a GPU stream (Kineto's kernels and copies) of a file whose
 * process was recorded: that process's track of the device stream, where the recorder puts
 * the device work of that device and stream.  Kept per thread: the look is done once. */
struct placed {
	const struct thread *th;
	const struct proc *proc;
	struct track track;
	int has_track;
};

struct scene_state {
	struct placed *v;
	size_t n, cap, last;
	struct u64map of_thread;         /* thread address -> index in v */
	struct u64map homes;             /* recorded processes whose threads are in by_tid */
	struct u64map by_tid;            /* (process index, tid) -> its stream */
};

static uint64_t tid_key(const struct proc *p, int32_t tid)
{
	return (uint64_t)(uint32_t)p->index << 32 | (uint32_t)tid;
}

/* The thread of tid in the recorded process p (each process's threads put in the map once). */
static const struct thread *thread_of_tid(struct scene_state *st, const struct proc *p,
					  int32_t tid)
{
	if (!u64map_get(&st->homes, (uint64_t)(uint32_t)p->index)) {
		u64map_put(&st->homes, (uint64_t)(uint32_t)p->index, 1);
		for (size_t i = p->nstreams; i-- > 1;)   /* the first of a tid wins */
			if (p->threads[i])
				u64map_put(&st->by_tid, tid_key(p, p->threads[i]->tid), (uint32_t)i);
	}
	uint32_t *v = u64map_get(&st->by_tid, tid_key(p, tid));
	return v ? p->threads[*v] : NULL;
}

static struct placed *placed_of(struct scene *s, unsigned self, const struct thread *th)
{
	struct scene_state **sp = (struct scene_state **)scene_runtime_state(s, self);
	if (!*sp)
		*sp = xcalloc(1, sizeof(**sp));
	struct scene_state *st = *sp;
	if (st->last < st->n && st->v[st->last].th == th)
		return &st->v[st->last];
	uint32_t *v = u64map_get(&st->of_thread, (uint64_t)(uintptr_t)th);
	if (v)
		return &st->v[st->last = *v];
	u64map_put(&st->of_thread, (uint64_t)(uintptr_t)th, (uint32_t)st->n);
	st->v = util_grow(st->v, &st->cap, st->n, sizeof(*st->v), 16);
	struct placed *pl = &st->v[st->last = st->n++];
	memset(pl, 0, sizeof(*pl));
	pl->th = th;
	return pl;
}

static const struct placed *place(struct scene *s, unsigned self, const struct thread *th)
{
	struct placed *pl = placed_of(s, self, th);
	if (pl->has_track)
		return pl;
	const struct import_image *im = th->proc->imp;
	const struct proc *home = im ? im->home : NULL;
	const struct imp_gpu *g = im && im->file_home ? impimage_gpu(im, thread_stream_id(th)) : NULL;
	pl->proc = home ? home : th->proc;
	pl->has_track = 1;
	if (g) {
		pl->proc = im->file_home;
		pl->track = tracks_device(scene_tracks(s), im->file_home, g->device, g->dstream, 0);
	} else if (home) {
		const struct thread *h = thread_of_tid(*(struct scene_state **)scene_runtime_state(s, self),
						       home, th->tid);
		pl->track = tracks_thread_framework(scene_tracks(s), home, th->tid, h ? h : th,
						    h && h->name ? h->name : th->name);
	} else {
		pl->track = tracks_thread(scene_tracks(s), th, 0);
	}
	return pl;
}

void imp_scene_end(struct scene *s, unsigned self)
{
	struct scene_state **sp = (struct scene_state **)scene_runtime_state(s, self);
	if (*sp) {
		free((*sp)->v);
		u64map_free(&(*sp)->of_thread);
		u64map_free(&(*sp)->homes);
		u64map_free(&(*sp)->by_tid);
		free(*sp);
		*sp = NULL;
	}
}

int imp_scene_event(struct scene *s, const struct event *ev, unsigned self)
{
	const struct imp_info *in = ev->imp;
	static struct texts tx;
	struct scene_args a;
	if (!in)
		return 0;
	tx.used = 0;
	a.n = 0;
	if (ev->kind == EV_FLOW) {
		struct track from = place(s, self, in->from)->track;
		struct track to = place(s, self, ev->thread)->track;
		char key[32];
		snprintf(key, sizeof(key), "i%llu", (unsigned long long)in->flow_id);
		scene_flow(s, key, cat_of(in, "flow"), strings_get(ev->name), from, ev->t0, to,
			   ev->t1, ev->t1, ev->t1, NULL);
		return 1;
	}
	const struct placed *pl = place(s, self, ev->thread);
	struct scene_item it = {
		.name = ev->name, .proc = pl->proc, .t0 = ev->t0, .t1 = ev->t1, .depth = ev->depth,
		.ranges_open = ev->depth, .args = &a, .ev = ev, .track = pl->track,
	};
	switch (ev->kind) {
	case EV_BEGIN:     /* its slice's announcement: the same category, name and track */
		it.kind = SI_BEGIN;
		it.cat = cat_of(in, "import");
		it.t1 = it.t0;
		it.args = NULL;
		scene_item(s, &it);
		return 1;
	case EV_RANGE:
		it.kind = SI_SLICE;
		it.cat = cat_of(in, "import");
		break;
	case EV_MARK:
		it.kind = SI_INSTANT;
		it.cat = cat_of(in, "import");
		it.t1 = it.t0;
		break;
	case EV_ASYNC:
		it.kind = SI_ASYNC;
		it.cat = cat_of(in, "import");
		it.id = ev->step;
		break;
	case EV_COUNTER:   /* on the process's counter track, without arguments */
		it.kind = SI_COUNTER;
		it.cat = "counter";
		it.track = (struct track){ pl->proc->index, 0 };
		it.value = ev->value;
		it.depth = it.ranges_open = 0;
		it.args = NULL;
		scene_item(s, &it);
		return 1;
	default:
		return 0;
	}
	args_of(&a, &tx, in);
	scene_args_flags(&a, ev->flags);
	scene_item(s, &it);
	return 1;
}

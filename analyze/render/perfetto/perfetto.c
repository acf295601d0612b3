/* render/perfetto/perfetto.c — Perfetto's native trace (a stream of TracePacket) from the
 * scene: slices as TYPE_SLICE_BEGIN/END pairs and cross-thread ranges likewise on lanes of
 * their process, instants, counters on counter tracks, arguments as debug annotations, CPU
 * samples with their callstacks (samples.c), and flow arrows.  A flow comes after the slices
 * it joins were written, so each end is a small instant inside its slice (at the times the
 * scene chose to bind the arrow there) that carries the flow id: flow_ids at the start,
 * terminating_flow_ids at the end.  Knows no runtime. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "perfetto.h"
#include "../../util/outname.h"
#include "annot.h"
#include "hold.h"
#include "layout.h"
#include "samples.h"
#include "seq.h"
#include "proto.h"

const struct out_format perfetto_format = { "a Perfetto trace", 0, 1, pf_head_foreign };

static int begin(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct perfetto_writer *w = priv;
	(void)tracks;
	if (!(w->out = pf_out_open(w->path, &perfetto_format))) {
		diag_error("%s", outname_error());
		w->failed = 1;
		return -1;
	}
	struct proto_buf head = { 0 };
	pf_head(w, tr, &head);
	pf_out_plain(w->out, &head);
	return 0;
}

/* A TrackEvent of `type` with the item's category, name and arguments (its fields in s->b). */
static inline void track_event(struct perfetto_writer *w, struct pf_seq *s, unsigned type,
			       const struct scene_item *it)
{
	struct proto_buf *b = &s->b;
	size_t te = pb_open(b, PACKET_TRACK_EVENT);
	pb_uint(b, TE_TYPE, type);
	if (it->cat)
		pb_uint(b, TE_CATEGORY_IIDS, pf_iid_cat(w, s, it->cat));
	if (it->name_str)
		pb_bytes(b, TE_NAME, it->name_str, strlen(it->name_str));
	else if (it->name)
		pb_uint(b, TE_NAME_IID, pf_iid_name(w, s, it->name));
	pf_annotations(w, s, it->args);
	pb_close(b, te);
}

/* The event as a packet at ts. */
static void write_track_event(struct perfetto_writer *w, struct pf_seq *s, unsigned type,
			      const struct scene_item *it,
		  int64_t ts)
{
	size_t p = pf_packet(w, s, 4 * PB_MAX_FIELD);
	track_event(w, s, type, it);
	pf_packet_end(w, s, p, ts);
}

/* A slice (its end with it) or an instant on a thread's track while ranges are open there
 * (hold.h): held back, and written with what it encloses once no range is open around it. */
static void held(struct perfetto_writer *w, struct pf_seq *s, const struct scene_item *it,
		 int slice)
{
	size_t off = pf_hold_begin(w, s, 4 * PB_MAX_FIELD);
	track_event(w, s, slice ? TYPE_SLICE_BEGIN : TYPE_INSTANT, it);
	pf_hold_end(w, s, off, it->t0, slice ? it->t1 : it->t0, slice);
	if (!it->ranges_open)
		pf_hold_release(w, s);
}

static void counter(struct perfetto_writer *w, const struct scene_item *it)
{
	struct pf_seq *s = pf_counter_track(w, it->track.pid, it)->seq;
	struct proto_buf *b = &s->b;
	size_t p = pf_packet(w, s, 4 * PB_MAX_FIELD);
	size_t te = pb_open(b, PACKET_TRACK_EVENT);
	pb_uint(b, TE_TYPE, TYPE_COUNTER);
	double v = it->value;
	/* whole numbers (counts, bytes) as integers: shorter than a double */
	if (isfinite(v) && fabs(v) < 9e15 && v == (double)(int64_t)v)   /* the cast last: in range */
		pb_uint(b, TE_COUNTER_VALUE, (uint64_t)(int64_t)v);
	else
		pb_double(b, TE_DOUBLE_COUNTER_VALUE, v);
	pb_close(b, te);
	pf_packet_end(w, s, p, it->t0);
}

static void item(void *priv, const struct scene_item *it)
{
	struct perfetto_writer *w = priv;
	struct pf_seq *s;
	if (w->failed)
		return;
	switch (it->kind) {
	case SI_SLICE:
		s = pf_track_of(w, it->track)->seq;
		if (pf_holding(s, it->ranges_open)) {
			held(w, s, it, 1);
			break;
		}
		write_track_event(w, s, TYPE_SLICE_BEGIN, it, it->t0);
		pf_slice_end(w, s, it->t1);
		break;
	case SI_INSTANT:
		s = pf_track_of(w, it->track)->seq;
		if (pf_holding(s, it->ranges_open))
			held(w, s, it, 0);
		else
			write_track_event(w, s, TYPE_INSTANT, it, it->t0);
		break;
	case SI_COUNTER:
		counter(w, it);
		break;
	case SI_ASYNC:
		s = pf_lane(w, it->track.pid, it)->seq;
		write_track_event(w, s, TYPE_SLICE_BEGIN, it, it->t0);
		pf_slice_end(w, s, it->t1);
		break;
	case SI_SAMPLE:
		pf_sample(w, it);
		break;
	default:
		break;
	}
}

/* One end of an arrow: an instant named after it, carrying its id. */
static void anchor(struct perfetto_writer *w, const struct scene_flow *f, struct track tr,
		   int64_t ts,
		   unsigned ids_field, const struct scene_args *args)
{
	struct pf_seq *s = pf_track_of(w, tr)->seq;
	/* held after what its thread holds: written in its place when it nests there */
	int hold = s->nnodes != 0;
	size_t p = hold ? pf_hold_begin(w, s, 4 * PB_MAX_FIELD) : pf_packet(w, s, 4 * PB_MAX_FIELD);
	struct proto_buf *b = &s->b;
	size_t te = pb_open(b, PACKET_TRACK_EVENT);
	pb_uint(b, TE_TYPE, TYPE_INSTANT);
	pb_uint(b, TE_CATEGORY_IIDS, pf_iid_cat(w, s, f->cat));
	pb_uint(b, TE_NAME_IID, pf_iid_flowname(w, s, f->name));
	pb_fixed64(b, ids_field, f->id);
	pf_annotations(w, s, args);
	pb_close(b, te);
	if (hold)
		pf_hold_end(w, s, p, ts, ts, 0);
	else
		pf_packet_end(w, s, p, ts);
}

static void flow(void *priv, const struct scene_flow *f)
{
	struct perfetto_writer *w = priv;
	if (w->failed)
		return;
	if (f->half != SF_TO)
		anchor(w, f, f->from, f->from_ts, TE_FLOW_IDS, f->args);
	if (f->half != SF_FROM)
		anchor(w, f, f->to, f->to_ts, TE_TERMINATING_FLOW_IDS, NULL);
}

static void destroy(struct perfetto_writer *w)
{
	pf_hold_free_all(w);
	pf_seqs_free(w);
	pf_tracks_free(w);
	pb_free(&w->meta);
	strset_free(&w->cats);
	strset_free(&w->keys);
	strset_free(&w->names);
	strset_free(&w->counters);
	callsites_free(&w->callsites);
	free(w->chain);
	free(w->walk);
	free(w->puts);
	free(w->path);
	free(w);
}

static int end(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct perfetto_writer *w = priv;
	if (w->failed) {
		destroy(w);
		return -1;
	}
	pf_hold_release_all(w);
	pf_describe(w, tr, tracks);
	pf_flush_all(w);
	int rc = pf_out_close(w->out, 1);
	if (rc < 0)
		diag_error("%s", outname_error());
	destroy(w);
	return rc;
}

/* Put aside: what is held back written as its part's end would write it, and the buffers
 * let go of; what defines the sequences (their interned names, clocks, tracks) is kept, so
 * that what comes later goes on them. */
static void suspend(void *priv)
{
	struct perfetto_writer *w = priv;
	if (w->failed)
		return;
	pf_hold_release_all(w);
	pf_flush_all(w);
	for (size_t i = 0; i < w->nseqs; i++) {
		struct pf_seq *s = w->seqs[i];
		pb_free(&s->b);
		pb_free(&s->hold);
		free(s->nodes);
		free(s->tops);
		s->nodes = NULL;
		s->tops = NULL;
		s->capnodes = s->captops = 0;
		s->busy = 0;
	}
	free(w->walk);
	free(w->puts);
	w->walk = NULL;
	w->puts = NULL;
	w->capwalk = 0;
	pf_out_suspend(w->out);
}

static void resume(void *priv)
{
	struct perfetto_writer *w = priv;
	if (!w->failed)
		pf_out_resume(w->out);
}

/* No size: --split size:MB, which asks for it, is for Chrome JSON (steps:N needs none). */
static const struct scene_ops perfetto_ops = {
	.name = "perfetto", .begin = begin, .item = item, .flow = flow, .end = end,
	.suspend = suspend, .resume = resume,
};

struct scene_renderer render_perfetto(const char *path)
{
	struct perfetto_writer *w = xcalloc(1, sizeof(*w));
	w->path = xstrdup(path);
	return (struct scene_renderer){ &perfetto_ops, w };
}

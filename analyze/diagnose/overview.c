/* diagnose/overview.c — the overview of the HTML report (overview.h): as the diagnosis splits
 * a process's step (diagnosis.c's diagnose_span), the time since the last step it binned is
 * split bin by bin too (timeline_split of each bin's part), summed in the bin being filled
 * and turned into its byte once the bin is passed; the gaps between steps go with the step
 * after them, the time after the last step at the end (overview_finish).  Device operations
 * add their time to their stream's bins as they come.  Every bin is bin_ns long from the
 * trace's start; bin_ns is the same for every process, on every analysis process. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "../util/strings.h"
#include "overview.h"
#include "state.h"

#define BINS_MAX 4096
#define BINS_MIN 4
#define TRACKS_A_PROCESS 3   /* a process and about two streams, for the budget */
#define STEPMAP_CELLS 32768  /* the step map's cells over the processes, about */
#define COLS_MAX 256
#define COLS_MIN 2
#define THREAD_BINS 512      /* the thread states' bins, at most */

void diagnosis_keep_overview(struct diagnosis *dx, uint64_t budget)
{
	dx->ov_budget = budget ? budget : 1;
}

void overview_begin(struct diagnosis *dx)
{
	const struct trace *tr = dx->tr;
	if (!dx->ov_budget || !tr)
		return;
	uint64_t tracks = (uint64_t)(tr->nprocs ? tr->nprocs : 1) * TRACKS_A_PROCESS;
	uint64_t bins = dx->ov_budget / tracks;
	bins = bins > BINS_MAX ? BINS_MAX : bins < BINS_MIN ? BINS_MIN : bins;
	int64_t span = tr->end_ns > tr->start_ns ? tr->end_ns - tr->start_ns : 1;
	dx->ov_bins = (uint32_t)bins;
	uint64_t cols = STEPMAP_CELLS / (tr->nprocs ? tr->nprocs : 1);
	dx->sm_cols = (uint32_t)(cols > COLS_MAX ? COLS_MAX : cols < COLS_MIN ? COLS_MIN : cols);
	dx->ov_bin_ns = (span + (int64_t)bins - 1) / (int64_t)bins;
	if (dx->ov_bin_ns < 1)
		dx->ov_bin_ns = 1;
	dx->th_bins = dx->ov_bins < THREAD_BINS ? dx->ov_bins : THREAD_BINS;
	dx->th_bin_ns = (span + (int64_t)dx->th_bins - 1) / (int64_t)dx->th_bins;
	if (dx->th_bin_ns < 1)
		dx->th_bin_ns = 1;
}

static uint32_t bin_of(const struct diagnosis *dx, int64_t t)
{
	if (t <= 0)
		return 0;
	int64_t k = t / dx->ov_bin_ns;
	return k >= dx->ov_bins ? dx->ov_bins - 1 : (uint32_t)k;
}

uint8_t overview_byte(unsigned kind, double ns, int64_t bin_ns)
{
	if (ns <= 0)
		return 0;
	double q = ns / (double)bin_ns * OVERVIEW_LEVELS + 0.5;
	unsigned v = q < 1 ? 1 : q > OVERVIEW_LEVELS ? OVERVIEW_LEVELS : (unsigned)q;
	return (uint8_t)(kind << 5 | v);
}

/* The byte of a bin whose most time went to category cat, `share` of it to be shown (its
 * time, or the time busy). */
static uint8_t bin_byte(const struct diagnosis *dx, unsigned cat, double share)
{
	return overview_byte(cat, share, dx->ov_bin_ns);
}

static void settle_bin(const struct diagnosis *dx, struct ov_proc *o)
{
	unsigned top = 0;
	for (unsigned c = 1; c < CATS; c++)
		if (o->acc[c] > o->acc[top])
			top = c;
	o->bins[o->open] = bin_byte(dx, top, (double)o->acc[top]);
	memset(o->acc, 0, sizeof(o->acc));
}

void overview_upto(struct diagnosis *dx, struct dproc *dp, int64_t t1)
{
	struct ov_proc *o = &dp->ov;
	if (!dx->ov_bins || !dp->any || o->finished)
		return;
	if (!o->started) {
		o->bins = xcalloc(dx->ov_bins, 1);
		o->started = 1;
		o->upto = dp->lo;
		o->open = bin_of(dx, dp->lo);
	}
	int64_t a = o->upto;
	while (a < t1) {
		uint32_t k = bin_of(dx, a);
		int64_t end = k + 1 >= dx->ov_bins ? t1 : (int64_t)(k + 1) * dx->ov_bin_ns;
		int64_t b = t1 < end ? t1 : end;
		if (k != o->open) {
			settle_bin(dx, o);
			o->open = k;
		}
		int64_t ns[CATS];
		timeline_split(&dp->tl, a, b, ns, NULL);
		for (unsigned c = 0; c < CATS; c++)
			o->acc[c] += ns[c];
		a = b;
	}
	if (t1 > o->upto)
		o->upto = t1;
}

static struct ov_stream *stream_of(const struct diagnosis *dx, struct ov_proc *o, uint64_t id)
{
	for (size_t i = 0; i < o->nstreams; i++)
		if (o->streams[i].stream == id)
			return &o->streams[i];
	if (o->nstreams == OVERVIEW_STREAMS) {
		id = OVERVIEW_OTHER_STREAMS;     /* the rest, summed */
		for (size_t i = 0; i < o->nstreams; i++)
			if (o->streams[i].stream == id)
				return &o->streams[i];
	}
	o->streams = util_grow(o->streams, &o->capstreams, o->nstreams, sizeof(*o->streams), 2);
	struct ov_stream *s = &o->streams[o->nstreams++];
	s->stream = id;
	s->busy = xcalloc((size_t)dx->ov_bins * OV_KINDS, sizeof(*s->busy));
	s->bins = NULL;
	return s;
}

void overview_device(struct diagnosis *dx, struct dproc *dp, uint64_t stream, unsigned cat,
		     int64_t t0, int64_t t1)
{
	if (!dx->ov_bins || t1 <= t0 || dp->ov.finished)
		return;
	unsigned kind = cat == CAT_COMPUTE ? 0 : cat == CAT_COPY ? 1 : 2;
	struct ov_stream *s = stream_of(dx, &dp->ov, stream);
	overview_spread(s->busy, OV_KINDS, kind, t0, t1, dx->ov_bin_ns, dx->ov_bins);
}

void overview_spread(float *acc, unsigned kinds, unsigned kind, int64_t t0, int64_t t1,
		     int64_t bin_ns, uint32_t bins)
{
	for (int64_t a = t0; a < t1;) {
		int64_t q = a <= 0 ? 0 : a / bin_ns;
		uint32_t k = q >= bins ? bins - 1 : (uint32_t)q;
		int64_t end = k + 1 >= bins ? t1 : (int64_t)(k + 1) * bin_ns;
		int64_t b = t1 < end ? t1 : end;
		acc[(size_t)k * kinds + kind] += (float)(b - a);
		a = b;
	}
}

unsigned overview_top(const float *v, unsigned n)
{
	unsigned top = 0;
	for (unsigned j = 1; j < n; j++)
		if (v[j] > v[top])
			top = j;
	return top;
}

void overview_finish(struct diagnosis *dx, struct dproc *dp)
{
	struct ov_proc *o = &dp->ov;
	if (!dx->ov_bins || o->finished)
		return;
	if (dp->any) {
		overview_upto(dx, dp, dp->hi);
		settle_bin(dx, o);
	}
	static const unsigned cat_of[OV_KINDS] = { CAT_COMPUTE, CAT_COPY, CAT_COLLECTIVE };
	for (size_t i = 0; i < o->nstreams; i++) {
		struct ov_stream *s = &o->streams[i];
		s->bins = xcalloc(dx->ov_bins, 1);
		for (uint32_t k = 0; k < dx->ov_bins; k++) {
			const float *v = &s->busy[(size_t)k * OV_KINDS];
			s->bins[k] = bin_byte(dx, cat_of[overview_top(v, OV_KINDS)],
					      (double)v[0] + v[1] + v[2]);
		}
		free(s->busy);
		s->busy = NULL;
	}
	o->finished = 1;
}

void overview_free(struct ov_proc *o)
{
	for (size_t i = 0; i < o->nstreams; i++) {
		free(o->streams[i].busy);
		free(o->streams[i].bins);
	}
	free(o->streams);
	free(o->bins);
	memset(o, 0, sizeof(*o));
}

/* ---- several analysis processes: a process's bytes, for the first (join.c) ---- */

void overview_pack(struct pack *b, const struct diagnosis *dx, const struct dproc *dp)
{
	const struct ov_proc *o = &dp->ov;
	if (!dx->ov_bins || !o->finished) {
		pack_u64(b, 0);
		return;
	}
	pack_u64(b, 1 + (o->bins != NULL));
	if (o->bins)
		pack_bytes(b, o->bins, dx->ov_bins);
	pack_u64(b, o->nstreams);
	for (size_t i = 0; i < o->nstreams; i++) {
		pack_u64(b, o->streams[i].stream);
		pack_bytes(b, o->streams[i].bins, dx->ov_bins);
	}
}

void overview_unpack(struct unpack *u, const struct diagnosis *dx, struct dproc *dp)
{
	struct ov_proc *o = &dp->ov;
	uint64_t has = unpack_u64(u);
	if (!has)
		return;
	o->finished = 1;
	if (has == 2) {
		o->bins = xcalloc(dx->ov_bins ? dx->ov_bins : 1, 1);
		unpack_bytes(u, o->bins, dx->ov_bins);
	}
	for (size_t i = 0, n = unpack_count(u, sizeof(uint64_t) + dx->ov_bins); i < n; i++) {
		o->streams = util_grow(o->streams, &o->capstreams, o->nstreams,
				       sizeof(*o->streams), 2);
		struct ov_stream *s = &o->streams[o->nstreams++];
		s->stream = unpack_u64(u);
		s->busy = NULL;
		s->bins = xcalloc(dx->ov_bins ? dx->ov_bins : 1, 1);
		unpack_bytes(u, s->bins, dx->ov_bins);
	}
}

/* ---- the tracks, for the report ---- */

uint32_t diagnosis_overview(const struct diagnosis *dx, int64_t *bin_ns, void *ctx,
			    void (*on_process)(void *ctx, const struct overview_process *p))
{
	*bin_ns = dx->ov_bin_ns;
	if (!dx->ov_bins || !on_process)
		return dx->ov_bins;
	struct dproc **order = dprocs_in_order(dx);
	struct overview_stream streams[OVERVIEW_STREAMS + 1];
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct dproc *dp = order[i];
		const struct ov_proc *o = &dp->ov;
		if (!o->finished || (!o->bins && !o->nstreams))
			continue;
		char buf[256];
		struct overview_process p = {
			.process = dp->p->index, .rank = dp->p->rank,
			.label = dp->label ? strings_get(dp->label)
					   : proc_label(dp->p, buf, sizeof(buf)),
			.bins = o->bins, .nstreams = o->nstreams, .streams = streams,
		};
		for (size_t k = 0; k < o->nstreams && k <= OVERVIEW_STREAMS; k++)
			streams[k] = (struct overview_stream){ o->streams[k].stream,
								o->streams[k].bins };
		on_process(ctx, &p);
	}
	free(order);
	return dx->ov_bins;
}

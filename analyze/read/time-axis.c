/* time-axis.c — puts every process image on one time axis.  Processes of a host share its
 * monotonic clock, so one offset (realtime - monotonic, from that host's earliest sample)
 * serves the whole host; hosts then line up through their realtime clocks (refined for MPI
 * ranks by clocksync.c before the spans are found). */
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "share.h"
#include "trace.h"

/* Per host (a map from its string id): the timebase of its first process with its own
 * calibration, to borrow a tick rate from, and its earliest sample, whose offset the host
 * takes.  In the parallel analyzer, over every analysis process's processes (share.h). */
struct hosts {
	struct u64map of;                 /* host -> index */
	uint32_t *id;                     /* index -> host */
	const struct timebase **calibrated;
	struct clock_point *earliest;
	int *has_earliest;
	size_t n, cap;
};

static size_t host_of(struct hosts *h, uint32_t host)
{
	uint32_t *at = u64map_get(&h->of, host);
	if (at)
		return *at;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->id = xreallocarray(h->id, h->cap, sizeof(*h->id));
		h->calibrated = xreallocarray(h->calibrated, h->cap, sizeof(*h->calibrated));
		h->earliest = xreallocarray(h->earliest, h->cap, sizeof(*h->earliest));
		h->has_earliest = xreallocarray(h->has_earliest, h->cap, sizeof(*h->has_earliest));
	}
	u64map_put(&h->of, host, (uint32_t)h->n);
	h->id[h->n] = host;
	h->calibrated[h->n] = NULL;
	h->has_earliest[h->n] = 0;
	return h->n++;
}

static void calibrate(struct proc *p, const struct timebase *calibrated)
{
	const struct timebase *fb = p->tb.n < 2 ? calibrated : NULL;
	int rc = timebase_finish(&p->tb, p->clock_source, fb);
	const char *path = p->trace_path ? p->trace_path : p->spool_path;
	if (rc < 0)
		diag_warn(path, 0, "no clock calibration for this process; its times are approximate");
	else if (rc > 0)
		diag_note("%s: clock rate borrowed from another process of the same host", path);
}

void timebase_align(struct trace *tr)
{
	struct hosts h = { 0 };
	/* Imported images have no clock of their own: the import puts them on the axis. */
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *q = tr->procs[i];
		size_t k = host_of(&h, q->host);
		if (!q->imp && !h.calibrated[k] && q->clock_source != TPROF_CLOCKSRC_MONOTONIC &&
		    q->tb.n >= 2)
			h.calibrated[k] = &q->tb;
	}
	share_host_rates(h.id, h.calibrated, h.n);
	for (size_t i = 0; i < tr->nprocs; i++)
		if (!tr->procs[i]->imp)
			calibrate(tr->procs[i], h.calibrated[host_of(&h, tr->procs[i]->host)]);
	share_rates_free();
	/* One offset per host: that of its earliest sample (the points are sorted now). */
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *q = tr->procs[i];
		size_t k = host_of(&h, q->host);
		const struct clock_point *c = q->tb.n ? &q->tb.pts[0] : NULL;
		if (!c || q->imp)
			continue;
		if (!h.has_earliest[k] || c->mono < h.earliest[k].mono ||
		    (c->mono == h.earliest[k].mono && c->real < h.earliest[k].real))
			h.earliest[k] = *c;
		h.has_earliest[k] = 1;
	}
	share_host_earliest(h.id, h.earliest, h.has_earliest, h.n);
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		if (p->imp)
			continue;
		size_t k = host_of(&h, p->host);
		const struct clock_point *ref = h.has_earliest[k] ? &h.earliest[k] : NULL;
		p->tb.offset = ref ? sat_sub(ref->real, ref->mono) : 0;
	}
	u64map_free(&h.of);
	free(h.id);
	free(h.calibrated);
	free(h.earliest);
	free(h.has_earliest);
}

/* Where every process starts and ends on the global axis, and the trace with them. */
void trace_span(struct trace *tr)
{
	tr->start_ns = INT64_MAX;
	tr->end_ns = INT64_MIN;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		size_t c = 0;
		if (p->tb.n) {
			p->start_ns = timebase_global(&p->tb, p->tb.pts[0].ticks, &c);
			p->end_ns = timebase_global(&p->tb, p->tb.pts[p->tb.n - 1].ticks, &c);
		} else {
			p->start_ns = INT64_MAX;
			p->end_ns = INT64_MIN;
		}
		/* Events before the first sample (or without any) widen the span. */
		for (size_t s = 1; s < p->nstreams; s++) {
			const struct stream *st = p->streams[s];
			for (size_t k = 0; st && k < st->npieces; k++) {
				c = 0;
				int64_t t = timebase_global(&p->tb, st->pieces[k].t_first, &c);
				if (t < p->start_ns)
					p->start_ns = t;
				if (t > p->end_ns)
					p->end_ns = t;
			}
		}
		if (p->start_ns < tr->start_ns)
			tr->start_ns = p->start_ns;
		if (p->end_ns > tr->end_ns)
			tr->end_ns = p->end_ns;
	}
	share_span(&tr->start_ns, &tr->end_ns);   /* the parallel analyzer's, over all */
	/* Nothing with a time (no clock sample, no record): an instant, at 0; a process without
	 * one is at the trace's start.  Never the empty span's bounds, whose difference
	 * overflows. */
	if (tr->start_ns > tr->end_ns)
		tr->start_ns = tr->end_ns = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		if (p->start_ns > p->end_ns)
			p->start_ns = p->end_ns = tr->start_ns;
	}
}

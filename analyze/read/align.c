/* align.c — puts every process image on one time axis.  Processes of a host share its
 * monotonic clock, so one offset (realtime - monotonic, from that host's earliest sample)
 * serves the whole host; hosts then line up through their realtime clocks (refined for MPI
 * ranks by clocksync.c before the spans are found). */
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* Another process of the same host with its own calibration, to borrow a tick rate from. */
static const struct timebase *same_host_calibrated(struct trace *tr, const struct proc *p)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *q = tr->procs[i];
		if (q != p && q->host == p->host && q->clock_source != TPROF_CLOCKSRC_MONOTONIC &&
		    q->tb.n >= 2)
			return &q->tb;
	}
	return NULL;
}

static void calibrate(struct trace *tr, struct proc *p)
{
	const struct timebase *fb = p->tb.n < 2 ? same_host_calibrated(tr, p) : NULL;
	int rc = timebase_finish(&p->tb, p->clock_source, fb);
	const char *path = p->trace_path ? p->trace_path : p->spool_path;
	if (rc < 0)
		diag_warn(path, 0, "no clock calibration for this process; its times are approximate");
	else if (rc > 0)
		diag_note("%s: clock rate borrowed from another process of the same host", path);
}

void timebase_align(struct trace *tr)
{
	/* Imported images have no clock of their own: the import puts them on the axis. */
	for (size_t i = 0; i < tr->nprocs; i++)
		if (!tr->procs[i]->imp)
			calibrate(tr, tr->procs[i]);
	/* One offset per host: that of its earliest sample. */
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		const struct clock_point *ref = NULL;
		if (p->imp)
			continue;
		for (size_t j = 0; j < tr->nprocs; j++) {
			const struct proc *q = tr->procs[j];
			if (q->host != p->host || !q->tb.n || q->imp)
				continue;
			if (!ref || q->tb.pts[0].mono < ref->mono)
				ref = &q->tb.pts[0];
		}
		if (!ref && p->tb.n)
			ref = &p->tb.pts[0];
		p->tb.offset = ref ? ref->real - ref->mono : 0;
	}
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

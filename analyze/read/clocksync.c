/* clocksync.c — refines the time axis of MPI ranks with the clock offsets the recorder
 * measured against rank 0 (CSYNC records, at MPI_Init and MPI_Finalize, by ping-pong).
 *
 * A measurement says: when this process's ticks read t0 (the middle of the shortest round
 * trip), the reference's ticks read t1, give or take half the round trip.  Put both on the
 * global axis with each process's own timebase (so any mix of hosts and clock sources works):
 * delta = global(t0) - global_ref(t1) is how far this process's times lie ahead of the
 * reference's, give or take half the round trip.  When the measurements agree within those
 * margins (their intervals share a point) there is no drift worth the name: the process is
 * shifted by one offset, the best-measured one (moved into the common part if need be) —
 * a measurement made on a loaded machine, with a long round trip, then costs nothing.  When
 * they disagree, the clocks drifted apart: the correction is interpolated linearly in time
 * between the first and the last measurement and held constant outside them.
 *
 * A process on its reference's host whose every |delta| is within half its round trip
 * shares the reference's clock already: correcting it would only add the measurement's
 * noise, so it is left alone.  Every other process with measurements is corrected. */
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "trace.h"

void clocksync_add(struct trace *tr, struct proc *p, const struct tprof_rec *r)
{
	(void)tr;
	if (r->ext < 1)
		return;
	struct tprof_csync x;
	memcpy(&x, r + 1, sizeof(x));
	p->csync = util_grow(p->csync, &p->capcsync, p->ncsync, sizeof(*p->csync), 4);
	p->csync[p->ncsync++] = (struct csync){
		.t0 = r->t0, .t1 = r->t1, .rtt = r->arg, .ref_host = proc_string(p, r->name),
		.ref_pid = x.ref_pid, .ref_rank = x.ref_rank, .rounds = x.rounds, .when = r->flags,
	};
	if (p->rank < 0 && x.rank >= 0)
		p->rank = x.rank;
}

/* The process the measurement was made against: its host and pid, and when one pid was
 * several process images (exec), the one with the reference's rank; failing the host name
 * (spelt differently), the process with that pid and rank. */
static const struct proc *reference(const struct trace *tr, const struct proc *p,
				    const struct csync *m)
{
	const struct proc *best = NULL;
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *q = tr->procs[i];
		if (q == p || q->pid != m->ref_pid || q->host != m->ref_host)
			continue;
		if (!best || (q->rank == m->ref_rank && best->rank != m->ref_rank))
			best = q;
	}
	for (size_t i = 0; i < tr->nprocs && !best; i++) {
		const struct proc *q = tr->procs[i];
		if (q != p && q->pid == m->ref_pid && q->rank == m->ref_rank)
			best = q;
	}
	/* the parallel analyzer: another analysis process reads it (read/share.c) */
	for (size_t i = 0; i < tr->nrefs && !best; i++) {
		const struct proc *q = tr->refs[i];
		if (q->pid == m->ref_pid && q->host == m->ref_host)
			best = q;
	}
	return best;
}

static int by_at(const void *a, const void *b)
{
	const struct csync *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

static const char *const when_name[] = { "MPI_Init", "MPI_Finalize" };

static void note(const struct proc *p)
{
	char label[512];
	proc_label(p, label, sizeof(label));
	static const char *const verdict[] = {
		[CSYNC_APPLIED] = "applied",
		[CSYNC_SHARED_CLOCK] = "not applied: same host as rank 0, within the round trip",
		[CSYNC_NO_REFERENCE] = "not applied: the reference process is not in the trace",
	};
	for (size_t i = 0; i < p->ncsync; i++) {
		const struct csync *m = &p->csync[i];
		if (p->csync_verdict == CSYNC_NO_REFERENCE) {
			diag_note("%s: clock offset measured at %s against pid %lld of %s, which is not "
				  "in the trace", label, m->when < 2 ? when_name[m->when] : "?",
				  (long long)m->ref_pid, m->ref_host ? strings_get(m->ref_host) : "?");
			continue;
		}
		diag_note("%s: clock offset %+lld ns against rank %d at %s (round trip %lld ns, "
			  "best of %u); %s", label, (long long)m->delta, m->ref_rank,
			  m->when < 2 ? when_name[m->when] : "?", (long long)m->rtt_ns, m->rounds,
			  verdict[p->csync_verdict]);
	}
}

/* Do the measurements' intervals (delta give or take half the round trip) share a point?
 * Then *off is the offset of the one with the shortest round trip, kept inside them all. */
static int one_offset(const struct proc *p, int64_t *off)
{
	int64_t lo = INT64_MIN, hi = INT64_MAX;
	const struct csync *best = NULL;
	for (size_t k = 0; k < p->ncsync; k++) {
		const struct csync *m = &p->csync[k];
		int64_t u = m->rtt_ns / 2;
		if (sat_sub(m->delta, u) > lo)
			lo = sat_sub(m->delta, u);
		if (sat_add(m->delta, u) < hi)
			hi = sat_add(m->delta, u);
		if (!best || m->rtt_ns < best->rtt_ns)
			best = m;
	}
	if (!best || lo > hi)
		return 0;
	*off = best->delta < lo ? lo : best->delta > hi ? hi : best->delta;
	return 1;
}

void clocksync_apply(struct trace *tr)
{
	/* Measure everything first, with no correction in place, then correct. */
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		if (!p->ncsync)
			continue;
		const struct proc *ref = reference(tr, p, &p->csync[0]);
		p->csync_ref = ref;
		if (!ref) {
			p->csync_verdict = CSYNC_NO_REFERENCE;
			continue;
		}
		int shared = p->host == ref->host;
		for (size_t k = 0; k < p->ncsync; k++) {
			struct csync *m = &p->csync[k];
			size_t c = 0, rc = 0;
			m->at = timebase_global(&p->tb, m->t0, &c);
			m->delta = m->at - timebase_global(&ref->tb, m->t1, &rc);
			m->rtt_ns = sat_sub(timebase_mono(&p->tb, m->t0 + m->rtt, &c),
					     timebase_mono(&p->tb, m->t0, &c));
			if (m->rtt_ns < 0)
				m->rtt_ns = 0;
			int64_t ad = m->delta < 0 ? sat_sub(0, m->delta) : m->delta;
			if (ad > m->rtt_ns / 2)
				shared = 0;
		}
		if (p->ncsync > 1)
			qsort(p->csync, p->ncsync, sizeof(*p->csync), by_at);
		p->csync_verdict = shared ? CSYNC_SHARED_CLOCK : CSYNC_APPLIED;
	}
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		if (p->csync_verdict == CSYNC_APPLIED) {
			const struct csync *a = &p->csync[0], *b = &p->csync[p->ncsync - 1];
			int64_t off;
			if (one_offset(p, &off))
				p->tb.corr = (struct clock_corr){ a->at, b->at, off, off, 0 };
			else {
				p->tb.corr = (struct clock_corr){ a->at, b->at, a->delta, b->delta, 0 };
				if (b->at > a->at)
					p->tb.corr.slope = (double)sat_sub(b->delta, a->delta) /
							   (double)sat_sub(b->at, a->at);
			}
			p->tb.corrected = 1;
		}
		if (p->ncsync && diag_verbose)
			note(p);
	}
}

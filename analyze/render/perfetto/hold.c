/* render/perfetto/hold.c — packets held back while ranges are open on their thread (hold.h).
 * The held nodes are kept in the order they came, which is the post-order of the ranges'
 * nesting (what a range encloses comes before it); each node knows the size of its subtree,
 * so that the trees can be walked back in pre-order when they are written: begin, the
 * enclosed, end.  What came after the packet it lies in (an arrow's end or a CPU sample inside
 * a call, which the scene draws at its start) is then moved to its place by time: the walk
 * sorted by time, ties in the walk's order, as trace processor would sort it anyway.  Written
 * so, each packet's time is a delta from the one before. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "hold.h"
#include "seq.h"
#include "proto.h"

/* A sequence holds at most about this much before it writes what it holds (a range open for
 * the whole run would otherwise keep its thread's packets to the end), and all of them
 * together about HOLD_ALL: a sequence that adds to that much writes what it holds. */
#define HOLD_BYTES (256u << 10)
#define HOLD_NODES (8u << 10)
#define HOLD_ALL (8u << 20)
#define END_MARK 0x80000000u

size_t pf_hold_begin(struct perfetto_writer *w, struct pf_seq *s, size_t room)
{
	struct proto_buf t = s->b;
	s->b = s->hold;
	s->hold = t;
	w->npending = 0;
	pb_need(&s->b, room + 4 * PB_MAX_FIELD);
	return s->b.len;
}

/* Room for one more node and one more top. */
static void make_room(struct pf_seq *s)
{
	if (s->nnodes == s->capnodes) {
		s->capnodes = s->capnodes ? s->capnodes * 2 : 256;
		s->nodes = xreallocarray(s->nodes, s->capnodes, sizeof(*s->nodes));
	}
	if (s->ntops == s->captops) {
		s->captops = s->captops ? s->captops * 2 : 256;
		s->tops = xreallocarray(s->tops, s->captops, sizeof(*s->tops));
	}
}

void pf_hold_end(struct perfetto_writer *w, struct pf_seq *s, size_t off, int64_t t0, int64_t t1,
		 int slice)
{
	struct proto_buf t = s->b;
	s->b = s->hold;
	s->hold = t;
	make_room(s);
	uint32_t size = 1;
	if (slice)
		while (s->ntops) {
			const struct pf_node *c = &s->nodes[s->tops[s->ntops - 1]];
			if (c->t0 < t0 || c->t1 > t1)
				break;
			size += c->size;
			s->ntops--;
		}
	s->tops[s->ntops++] = s->nnodes;
	s->nodes[s->nnodes++] = (struct pf_node){ t0, t1, (uint32_t)off,
						   (uint32_t)(s->hold.len - off), size,
						   (uint32_t)slice };
	if (w->npending) {
		/* its names, defined before any packet that uses them, whatever the order */
		unsigned np = w->npending;
		size_t p = pf_packet(w, s, 0);
		w->npending = np;
		pf_interned_data(w, &s->b);
		pf_packet_end_untimed(w, s, p);
	}
	w->heldback += s->hold.len - off + sizeof(struct pf_node);
	if (s->hold.len > HOLD_BYTES || s->nnodes >= HOLD_NODES || w->heldback > HOLD_ALL)
		pf_hold_release(w, s);
}

static void put(struct perfetto_writer *w, struct pf_seq *s, const uint8_t *fields, size_t n,
		int64_t ts)
{
	size_t p = pf_packet(w, s, n);
	memcpy(s->b.p + s->b.len, fields, n);
	s->b.len += n;
	pf_packet_end(w, s, p, ts);
}

/* Pushes the roots of the held forest [lo, hi) on the walk, the last first. */
static size_t roots(struct perfetto_writer *w, const struct pf_seq *s, size_t n, uint32_t lo,
		    uint32_t hi)
{
	for (uint32_t j = hi; j > lo; j -= s->nodes[j - 1].size)
		w->walk[n++] = j - 1;
	return n;
}

static int by_time(const void *a, const void *b)
{
	const struct pf_put *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

void pf_hold_release(struct perfetto_writer *w, struct pf_seq *s)
{
	if (!s->nnodes)
		return;
	size_t cap = 2 * (size_t)s->nnodes + 1;
	if (w->capwalk < cap) {
		w->capwalk = cap;
		w->walk = xreallocarray(w->walk, cap, sizeof(*w->walk));
		w->puts = xreallocarray(w->puts, cap, sizeof(*w->puts));
	}
	/* Pre-order: begin, the enclosed, end.  Each node once, each slice's end once: the walk
	 * never holds more than 2n. */
	size_t n = roots(w, s, 0, 0, s->nnodes), k = 0;
	int sorted = 1;
	while (n) {
		uint32_t e = w->walk[--n];
		const struct pf_node *d = &s->nodes[e & ~END_MARK];
		int64_t ts = e & END_MARK ? d->t1 : d->t0;
		sorted &= !k || ts >= w->puts[k - 1].ts;
		w->puts[k] = (struct pf_put){ ts, e, (uint32_t)k };
		k++;
		if (!(e & END_MARK) && d->slice) {
			w->walk[n++] = e | END_MARK;
			n = roots(w, s, n, e + 1 - d->size, e);
		}
	}
	/* What came after the held packet it lies in (a sample inside a call drawn at its start)
	 * goes to its place in time; equal times keep the walk's order, which is how trace
	 * processor orders them anyway (by time, then by their order in the file). */
	if (!sorted)
		qsort(w->puts, k, sizeof(*w->puts), by_time);
	for (size_t i = 0; i < k; i++) {
		uint32_t e = w->puts[i].e;
		const struct pf_node *d = &s->nodes[e & ~END_MARK];
		if (e & END_MARK)
			pf_slice_end(w, s, d->t1);
		else
			put(w, s, s->hold.p + d->off, d->len, d->t0);
	}
	w->heldback -= s->hold.len + s->nnodes * sizeof(struct pf_node);
	s->nnodes = s->ntops = 0;
	s->hold.len = 0;
}

void pf_hold_release_all(struct perfetto_writer *w)
{
	for (size_t i = 0; i < w->nseqs; i++)
		pf_hold_release(w, w->seqs[i]);
}

void pf_hold_free_all(struct perfetto_writer *w)
{
	for (size_t i = 0; i < w->nseqs; i++) {
		struct pf_seq *s = w->seqs[i];
		pb_free(&s->hold);
		free(s->nodes);
		free(s->tops);
		s->nodes = NULL;
		s->tops = NULL;
	}
}

/* render/perfetto/seq.c — packet sequences: each starts with its defaults (its track, its
 * incremental clock) and a clock snapshot that ties that clock to the trace clock; packets
 * carry the sequence id, a delta timestamp (or a full one when earlier than the packet
 * before) and the interned data their names need.  A sequence's packets wait in its buffer
 * until a bundle's worth is there (or all buffers together hold too much), then go to the
 * output as one compressed bundle: a track's events, together, compress far better than
 * the trace's interleaving of all tracks. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../parallel/par.h"
#include "seq.h"
#include "proto.h"

static void clock(struct proto_buf *b, uint32_t id, uint64_t ts, int incremental)
{
	size_t c = pb_open(b, SNAPSHOT_CLOCK);
	pb_uint(b, CLOCK_ID, id);
	pb_uint(b, CLOCK_TIMESTAMP, ts);
	if (incremental)
		pb_uint(b, CLOCK_INCREMENTAL, 1);
	pb_close(b, c);
}

struct pf_seq *pf_seq_new(struct perfetto_writer *w, uint64_t uuid)
{
	struct pf_seq *s = xcalloc(1, sizeof(*s));
	w->seqs = xreallocarray(w->seqs, w->nseqs + 1, sizeof(*w->seqs));
	w->seqs[w->nseqs++] = s;
	/* apart from every other analysis process's (--parallel): the parts concatenated are
	 * one trace */
	s->id = PF_SEQ_GLOBAL + (uint32_t)(w->nseqs * (size_t)par_size() + (size_t)par_rank());
	struct proto_buf *b = &s->b;
	pb_need(b, 128);
	size_t p = pb_open(b, TRACE_PACKET);
	pb_uint(b, PACKET_SEQUENCE_ID, s->id);
	pb_uint(b, PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	size_t d = pb_open(b, PACKET_DEFAULTS);
	pb_uint(b, DEFAULTS_CLOCK_ID, CLOCK_SEQ_DELTA);
	size_t e = pb_open(b, DEFAULTS_TRACK_EVENT);
	pb_uint(b, TE_DEFAULTS_TRACK_UUID, uuid);
	pb_close(b, e);
	pb_close(b, d);
	/* the sequence's clock starts at 0 when the trace clock is 0: its deltas add up to
	 * ns from the trace start */
	size_t c = pb_open(b, PACKET_CLOCK_SNAPSHOT);
	clock(b, CLOCK_SEQ_DELTA, 0, 1);
	clock(b, BUILTIN_BOOTTIME, 0, 0);
	pb_close(b, c);
	pb_close(b, p);
	w->held += b->len;
	return s;
}

static void interned_name(struct proto_buf *b, unsigned field, uint64_t iid, const char *s,
			  size_t n)
{
	pb_need(b, n + 4 * PB_MAX_FIELD);
	size_t e = pb_open(b, field);
	pb_uint(b, INTERNED_IID, iid);
	pb_bytes(b, INTERNED_NAME, s, n);
	pb_close(b, e);
}

void pf_interned_data(struct perfetto_writer *w, struct proto_buf *b)
{
	pb_need(b, PB_MAX_FIELD);
	size_t d = pb_open(b, PACKET_INTERNED_DATA);
	for (unsigned i = 0; i < w->npending; i++) {
		const struct pf_pending *p = &w->pending[i];
		const char *s;
		size_t n;
		unsigned field;
		switch (p->kind) {
		case IK_NAME:
		case IK_STRVAL:
			s = strings_get((uint32_t)p->iid);
			n = s ? strings_len((uint32_t)p->iid) : 0;
			field = p->kind == IK_NAME ? INTERNED_EVENT_NAMES : INTERNED_STRING_VALUES;
			interned_name(b, field, p->iid, s ? s : "", n);
			break;
		case IK_FLOWNAME:
			s = strset_str(&w->names, (uint32_t)p->iid, &n);
			interned_name(b, INTERNED_EVENT_NAMES, p->iid, s, n);
			break;
		case IK_CAT:
			s = strset_str(&w->cats, (uint32_t)p->iid, &n);
			interned_name(b, INTERNED_CATEGORIES, p->iid, s, n);
			break;
		case IK_KEY:
			s = strset_str(&w->keys, (uint32_t)p->iid, &n);
			interned_name(b, INTERNED_ANNOTATION_NAMES, p->iid, s, n);
			break;
		}
	}
	pb_close(b, d);
}

static void flush_seq(struct perfetto_writer *w, struct pf_seq *s)
{
	if (w->meta.len)
		pf_out_bundle(w->out, &w->meta);
	w->held -= s->b.len;
	pf_out_bundle(w->out, &s->b);
	/* a sequence that fills bundles gets a buffer that holds one: no growing, no copying */
	if (s->busy)
		s->b = pf_out_spare(w->out, PF_BUNDLE + (PF_BUNDLE >> 2));
}

void pf_flush_all(struct perfetto_writer *w)
{
	if (w->meta.len)
		pf_out_bundle(w->out, &w->meta);
	for (size_t i = 0; i < w->nseqs; i++)
		if (w->seqs[i]->b.len)
			flush_seq(w, w->seqs[i]);
}

/* The packet just ended filled a bundle, or all sequences hold too much. */
void pf_packet_flush(struct perfetto_writer *w, struct pf_seq *s)
{
	if (s->b.len >= PF_BUNDLE) {
		s->busy = 1;
		flush_seq(w, s);
	} else {
		pf_flush_all(w);
	}
}

/* ---- interning ---------------------------------------------------------------------------- */

static uint64_t define(struct perfetto_writer *w, struct pf_seq *s, enum pf_ikind kind,
		       uint64_t iid)
{
	if (pf_idset_add(&s->interned, (uint64_t)kind << 56 | iid))
		w->pending[w->npending++] = (struct pf_pending){ (uint8_t)kind, iid };
	return iid;
}

void pf_define_name(struct perfetto_writer *w, struct pf_seq *s, uint32_t id)
{
	define(w, s, IK_NAME, id);
	s->recent[id % 64] = id;
}

uint32_t pf_const_number(struct perfetto_writer *w, struct strset *m, const char *str)
{
	struct pf_const *c = &w->consts[((uintptr_t)str >> 3) % PF_CONSTS];
	*c = (struct pf_const){ str, m, strset_id(m, str, strlen(str), NULL) };
	return c->id;
}

/* Flow names are not in the trace's string table: numbered apart, above its ids. */
uint64_t pf_iid_flowname(struct perfetto_writer *w, struct pf_seq *s, const char *name)
{
	return define(w, s, IK_FLOWNAME, 1ull << 32 | pf_const_id(w, &w->names, name));
}

uint64_t pf_define_cat(struct perfetto_writer *w, struct pf_seq *s, uint32_t id)
{
	if (id < 64) {
		s->cats |= 1ull << id;
		w->pending[w->npending++] = (struct pf_pending){ IK_CAT, id };
		return id;
	}
	return define(w, s, IK_CAT, id);
}

uint64_t pf_iid_key(struct perfetto_writer *w, struct pf_seq *s, const char *key, uint32_t key_name)
{
	const char *k = key ? key : strings_get(key_name);
	if (!k)
		k = "";
	return define(w, s, IK_KEY, strset_id(&w->keys, k, strlen(k), NULL));
}

uint64_t pf_iid_strval(struct perfetto_writer *w, struct pf_seq *s, uint32_t id)
{
	return define(w, s, IK_STRVAL, id);
}

void pf_seqs_free(struct perfetto_writer *w)
{
	for (size_t i = 0; i < w->nseqs; i++) {
		pb_free(&w->seqs[i]->b);
		pf_idset_free(&w->seqs[i]->interned);
		free(w->seqs[i]);
	}
	free(w->seqs);
	w->seqs = NULL;
	w->nseqs = 0;
}

void pf_slice_end(struct perfetto_writer *w, struct pf_seq *s, int64_t ts)
{
	struct proto_buf *b = &s->b;
	size_t p = pf_packet(w, s, 2 * PB_MAX_FIELD);
	size_t te = pb_open(b, PACKET_TRACK_EVENT);
	pb_uint(b, TE_TYPE, TYPE_SLICE_END);
	pb_close(b, te);
	pf_packet_end(w, s, p, ts);
}

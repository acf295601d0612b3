/* render/perfetto/seq.h — sequences and packets (seq.c): a packet started and ended on a
 * sequence, with the interned names it needs; the fast paths inline. */
#ifndef TPROF_ANALYZE_PERFETTO_SEQ_H
#define TPROF_ANALYZE_PERFETTO_SEQ_H

#include "writer.h"

#define PF_SEQ_GLOBAL 1                  /* the sequence of the clock snapshot */

/* A new sequence whose events go to track `uuid` by default. */
struct pf_seq *pf_seq_new(struct perfetto_writer *w, uint64_t uuid);
/* Sequences' buffers, all together, hold at most about this much before all are written. */
#define PF_HELD_MAX (32u << 20)

void pf_interned_data(struct perfetto_writer *w, struct proto_buf *b);
void pf_packet_flush(struct perfetto_writer *w, struct pf_seq *s);

/* Starts a packet on s with room for `room` bytes of content; returns where it starts.
 * Packets that use the sequence's defaults and interned names carry no
 * SEQ_NEEDS_INCREMENTAL_STATE: trace processor reads that flag only to skip packets of a
 * sequence that lost some (its state then unknown), which never happens to a file written
 * in one pass; it would be 2 of the 13 bytes of an average packet, 16% of deflate's time. */
static inline size_t pf_packet(struct perfetto_writer *w, struct pf_seq *s, size_t room)
{
	w->npending = 0;
	w->packet_from = s->b.len;
	pb_need(&s->b, room + 4 * PB_MAX_FIELD);
	size_t start = pb_open(&s->b, TRACE_PACKET);
	pb_uint(&s->b, PACKET_SEQUENCE_ID, s->id);
	return start;
}

/* Ends it at ts (ns from the trace start) with the interned data it needs: the time as a
 * delta on the sequence's clock, or in full on the trace clock when earlier than that. */
static inline __attribute__((always_inline)) void pf_packet_end(struct perfetto_writer *w,
								struct pf_seq *s,
								  size_t start, int64_t ts)
{
	struct proto_buf *b = &s->b;
	pb_need(b, 3 * PB_MAX_FIELD);
	if (ts >= s->last) {
		pb_uint(b, PACKET_TIMESTAMP, (uint64_t)(ts - s->last));
		s->last = ts;
	} else {
		pb_uint(b, PACKET_CLOCK_ID, BUILTIN_BOOTTIME);
		pb_uint(b, PACKET_TIMESTAMP, (uint64_t)ts);
	}
	if (w->npending)
		pf_interned_data(w, b);
	pb_close(b, start);
	w->held += b->len - w->packet_from;
	if (b->len >= PF_BUNDLE || w->held > PF_HELD_MAX)
		pf_packet_flush(w, s);
}
/* A packet that ends the slice open on s's track, at ts. */
void pf_slice_end(struct perfetto_writer *w, struct pf_seq *s, int64_t ts);
/* Ends a packet without a timestamp (only interned data: it leaves the clock as it is). */
static inline void pf_packet_end_untimed(struct perfetto_writer *w, struct pf_seq *s, size_t start)
{
	struct proto_buf *b = &s->b;
	pb_close(b, start);
	w->held += b->len - w->packet_from;
	if (b->len >= PF_BUNDLE || w->held > PF_HELD_MAX)
		pf_packet_flush(w, s);
}

/* iids for the packet being written on s, defined in it when new on s. */
uint64_t pf_iid_flowname(struct perfetto_writer *w, struct pf_seq *s, const char *name);
uint64_t pf_iid_key(struct perfetto_writer *w, struct pf_seq *s, const char *key,
		    uint32_t key_name);
uint64_t pf_iid_strval(struct perfetto_writer *w, struct pf_seq *s, uint32_t id);
void pf_define_name(struct perfetto_writer *w, struct pf_seq *s, uint32_t id);
uint64_t pf_define_cat(struct perfetto_writer *w, struct pf_seq *s, uint32_t id);
uint32_t pf_const_number(struct perfetto_writer *w, struct strset *m, const char *str);

/* An event name (a trace string id): its iid is the id. */
static inline uint64_t pf_iid_name(struct perfetto_writer *w, struct pf_seq *s, uint32_t id)
{
	if (__builtin_expect(s->recent[id % 64] != id, 0))
		pf_define_name(w, s, id);
	return id;
}

/* Categories and flow names are string constants (scene.h), few, given again and again:
 * known by their address once their text has been numbered. */
static inline uint32_t pf_const_id(struct perfetto_writer *w, struct strset *m, const char *str)
{
	const struct pf_const *c = &w->consts[((uintptr_t)str >> 3) % PF_CONSTS];
	if (__builtin_expect(c->s == str && c->map == m, 1))
		return c->id;
	return pf_const_number(w, m, str);
}

static inline uint64_t pf_iid_cat(struct perfetto_writer *w, struct pf_seq *s, const char *cat)
{
	uint32_t id = pf_const_id(w, &w->cats, cat);
	if (__builtin_expect(id < 64 && (s->cats & 1ull << id), 1))
		return id;
	return pf_define_cat(w, s, id);
}
/* Hands every sequence's packets (and the descriptors before them) to the output. */
void pf_flush_all(struct perfetto_writer *w);
void pf_seqs_free(struct perfetto_writer *w);

#endif

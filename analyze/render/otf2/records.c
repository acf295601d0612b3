/* render/otf2/records.c — the event records of each location, written by the location's
 * event writer or kept back until the location is worth one.  libotf2 gives each open event
 * writer a chunk of its own (256 KiB at the least) and, when the writer closes, clears what
 * the chunk has left before writing it: a location of a few records costs a whole chunk of
 * fresh pages, and a trace of tens of thousands of such threads took minutes and hundreds of
 * megabytes.  So a location's records are kept here, compactly, until it has KEEP_MAX bytes
 * of them, or until every location's kept records together pass KEPT_CAP (then the
 * locations holding the most get their writers); the others are written at the end one
 * location at a time, each through the chunk the one before gave back, its pages already
 * there.  Below the location and item writers. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "state.h"
#include "../../util/grow.h"

/* A location holding this many bytes of records gets its writer. */
#define KEEP_MAX (4u << 10)
/* The records of all locations together, at most (then the largest are written).  Tests
 * make it small to take that path: TPROF_TEST_OTF2_KEPT_KB (0: every location gets its
 * writer at its first record, as if nothing were kept). */
#define KEPT_CAP (16u << 20)

static size_t kept_cap(void)
{
	static size_t cap;
	if (!cap) {
		const char *kb = getenv("TPROF_TEST_OTF2_KEPT_KB");
		cap = kb && *kb ? strtoul(kb, NULL, 10) * 1024 : KEPT_CAP;
		cap = cap ? cap : 1;
	}
	return cap;
}

/* Bytes of a record's fields by kind (the rest of the union is not kept). */
static size_t payload(uint32_t kind)
{
	static const struct rec r;
	switch (kind) {
	case REC_ENTER:
	case REC_LEAVE:
		return sizeof(r.u.region);
	case REC_SAMPLE:
		return sizeof(r.u.sample);
	case REC_PARAM:
		return sizeof(r.u.param);
	case REC_METRIC:
		return sizeof(r.u.metric);
	default:
		return sizeof(r.u.mpi);
	}
}

/* Enter, Leave and CallingContextSample carry the attribute list (the item's arguments). */
static int takes_attrs(uint32_t kind)
{
	return kind == REC_ENTER || kind == REC_LEAVE || kind == REC_SAMPLE;
}

static OTF2_ErrorCode put(OTF2_EvtWriter *w, OTF2_AttributeList *a, const struct rec *r)
{
	OTF2_TimeStamp ts = r->ts;
	const struct mrec *m = &r->u.mpi;
	switch (r->kind) {
	case REC_ENTER:
		return OTF2_EvtWriter_Enter(w, a, ts, r->u.region);
	case REC_LEAVE:
		return OTF2_EvtWriter_Leave(w, a, ts, r->u.region);
	case REC_SAMPLE:
		return OTF2_EvtWriter_CallingContextSample(w, a, ts, r->u.sample.context,
							   r->u.sample.distance, 0);
	case REC_PARAM:
		return OTF2_EvtWriter_ParameterUnsignedInt(w, NULL, ts, r->u.param.ref,
							   r->u.param.value);
	case REC_METRIC: {
		OTF2_Type type = OTF2_TYPE_DOUBLE;
		OTF2_MetricValue v = { .floating_point = r->u.metric.value };
		return OTF2_EvtWriter_Metric(w, NULL, ts, r->u.metric.ref, 1, &type, &v);
	}
	}
	switch (m->kind) {
	case MR_SEND:
		return OTF2_EvtWriter_MpiSend(w, NULL, ts, m->peer, m->comm, m->tag, m->bytes);
	case MR_RECV:
		return OTF2_EvtWriter_MpiRecv(w, NULL, ts, m->peer, m->comm, m->tag, m->bytes);
	case MR_ISEND:
		return OTF2_EvtWriter_MpiIsend(w, NULL, ts, m->peer, m->comm, m->tag, m->bytes,
					       m->req);
	case MR_ISEND_DONE:
		return OTF2_EvtWriter_MpiIsendComplete(w, NULL, ts, m->req);
	case MR_IRECV_REQ:
		return OTF2_EvtWriter_MpiIrecvRequest(w, NULL, ts, m->req);
	case MR_IRECV:
		return OTF2_EvtWriter_MpiIrecv(w, NULL, ts, m->peer, m->comm, m->tag, m->bytes,
					       m->req);
	case MR_CANCELLED:
		return OTF2_EvtWriter_MpiRequestCancelled(w, NULL, ts, m->req);
	case MR_COLL_BEGIN:
		return OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, ts);
	case MR_COLL_END:
		return OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, ts, m->op, m->comm, m->peer,
						       m->bytes, m->bytes2);
	case MR_NBC_REQ:
		return OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, ts, m->req);
	case MR_NBC_DONE:
		return OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, ts, m->op, m->comm,
								    m->peer, m->bytes, m->bytes2,
								    m->req);
	default:
		return m->kind >= MR_RMA_CREATE ? otf2_rma_put(w, ts, m) : otf2_io_put(w, ts, m);
	}
}

static void append(struct otf2 *o, struct loc *l, const void *p, size_t n)
{
	while (l->nkept + n > l->capkept)
		l->kept = util_grow(l->kept, &l->capkept, l->capkept, 1, 256);
	memcpy(l->kept + l->nkept, p, n);
	l->nkept += n;
	o->kept_bytes += n;
}

/* The location's writer, and the records kept for it written. */
static void writer_open(struct otf2 *o, struct loc *l)
{
	l->w = OTF2_Archive_GetEvtWriter(o->ar, l->ref);
	if (!l->w) {
		if (!o->failed)
			diag_error("writing the OTF2 archive in %s: no event writer for location %llu",
				   o->dir, (unsigned long long)l->ref);
		o->failed = 1;
	}
	for (size_t at = 0; at < l->nkept && !o->failed;) {
		struct rec r;
		memcpy(&r, l->kept + at, offsetof(struct rec, u));
		size_t n = payload(r.kind);
		memcpy(&r.u, l->kept + at + offsetof(struct rec, u), n);
		at += offsetof(struct rec, u) + n;
		for (uint32_t i = 0; i < r.nattrs; i++, at += sizeof(struct attrv)) {
			struct attrv a;
			memcpy(&a, l->kept + at, sizeof(a));
			OTF2_AttributeList_AddAttribute(o->attrs, a.ref, a.type, a.v);
		}
		otf2_check(o, put(l->w, takes_attrs(r.kind) ? o->attrs : NULL, &r));
	}
	o->kept_bytes -= l->nkept;
	free(l->kept);
	l->kept = NULL;
	l->nkept = l->capkept = 0;
}

static int by_kept(const void *a, const void *b)
{
	size_t x = (*(struct loc *const *)a)->nkept, y = (*(struct loc *const *)b)->nkept;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Past the cap: the locations keeping the most get their writers, until half is left. */
static void write_largest(struct otf2 *o)
{
	struct loc **v = xmallocarray(o->nlocs, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < o->nlocs; i++)
		if (o->locs[i]->nkept)
			v[n++] = o->locs[i];
	qsort(v, n, sizeof(*v), by_kept);
	for (size_t i = 0; i < n && o->kept_bytes > kept_cap() / 2; i++)
		writer_open(o, v[i]);
	free(v);
}

void otf2_record(struct otf2 *o, struct loc *l, struct rec *r)
{
	if (o->failed)
		return;
	l->events++;
	int attrs = takes_attrs(r->kind);
	if (l->w) {
		otf2_check(o, put(l->w, attrs ? o->attrs : NULL, r));
		return;
	}
	r->nattrs = attrs ? OTF2_AttributeList_GetNumberOfElements(o->attrs) : 0;
	append(o, l, r, offsetof(struct rec, u) + payload(r->kind));
	for (uint32_t i = 0; i < r->nattrs; i++) {
		struct attrv a;
		otf2_check(o, OTF2_AttributeList_PopAttribute(o->attrs, &a.ref, &a.type, &a.v));
		append(o, l, &a, sizeof(a));
	}
	if (l->nkept >= KEEP_MAX)
		writer_open(o, l);
	else if (o->kept_bytes > kept_cap())
		write_largest(o);
}

/* Writers still open close the newest first (libotf2 looks for the one to close from the
 * newest on); then each other location gets its writer, its records and closes in turn. */
void otf2_records_close(struct otf2 *o)
{
	for (size_t i = o->nlocs; i-- > 0;) {
		struct loc *l = o->locs[i];
		if (!l->w)
			continue;
		otf2_check(o, OTF2_Archive_CloseEvtWriter(o->ar, l->w));
		l->w = NULL;
		l->closed = 1;
	}
	for (size_t i = 0; i < o->nlocs && !o->failed; i++) {
		struct loc *l = o->locs[i];
		if (l->closed)
			continue;
		writer_open(o, l);
		if (l->w)
			otf2_check(o, OTF2_Archive_CloseEvtWriter(o->ar, l->w));
		l->w = NULL;
		l->closed = 1;
	}
}

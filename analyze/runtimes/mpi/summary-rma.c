/* runtimes/mpi/summary-rma.c — the summary's one-sided communication table: per window (its
 * communicator and its number over it, the same on every member), over all processes, the
 * epochs opened (fences, locks, PSCW access epochs), the puts, gets and atomic operations
 * (accumulates, fetch-and-op, compare-and-swap) with their bytes, and the time in the calls
 * that move data and in those that synchronize; windows with the most time first; and how
 * many transfers were linked to where they were complete at their target (rma.c).  The
 * parallel analyzer adds each analysis process's rows, which count its processes' calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../util/grow.h"
#include "../../util/hindex.h"
#include "../../util/pack.h"
#include "mpi.h"
#include "summary.h"
#include "../../summary/table.h"

struct rmawin {
	uint64_t comm;
	int32_t number;
	uint32_t comm_name;              /* its communicator's name, 0 when it has none known */
	uint64_t fences, locks, starts;
	uint64_t puts, gets, atomics;
	uint64_t put_bytes, get_bytes, atomic_bytes;
	int64_t move_time, sync_time;
};

struct mpirma {
	struct rmawin *w;
	size_t n, cap;
	struct hindex by_key;
	struct rma_kinds kinds;          /* rma.c */
};

struct mpirma *mpirma_new(void)
{
	return xcalloc(1, sizeof(struct mpirma));
}

static uint64_t win_hash(uint64_t comm, int32_t number)
{
	uint64_t h = (comm ^ (uint64_t)(uint32_t)number * 0x9e3779b97f4a7c15ull) *
		     0xbf58476d1ce4e5b9ull;
	return h ^ h >> 31;
}

static struct rmawin *win_of(struct mpirma *m, uint64_t comm, int32_t number)
{
	uint64_t h = win_hash(comm, number);
	size_t at;
	for (uint32_t id = hindex_first(&m->by_key, h, &at); id;
	     id = hindex_next(&m->by_key, h, &at))
		if (m->w[id - 1].comm == comm && m->w[id - 1].number == number)
			return &m->w[id - 1];
	m->w = util_grow(m->w, &m->cap, m->n, sizeof(*m->w), 8);
	struct rmawin *w = &m->w[m->n++];
	memset(w, 0, sizeof(*w));
	w->comm = comm;
	w->number = number;
	hindex_add(&m->by_key, h, (uint32_t)m->n);
	return w;
}

void mpirma_call(struct mpirma *m, const struct mpi_info *mi, uint32_t name, int64_t dur)
{
	struct rmawin *w = win_of(m, mi->a.comm, mi->a.tag);
	if (!w->comm_name && mi->comm)
		w->comm_name = mi->comm->name;
	uint64_t bytes = mi->a.bytes + (mi->has_b ? mi->b.bytes : 0);
	switch (rma_kind(&m->kinds, name)) {
	case RK_PUT:
		w->puts++;
		w->put_bytes += bytes;
		w->move_time = sat_add(w->move_time, dur);
		break;
	case RK_GET:
		w->gets++;
		w->get_bytes += bytes;
		w->move_time = sat_add(w->move_time, dur);
		break;
	case RK_ATOMIC:
		w->atomics++;
		w->atomic_bytes += bytes;
		w->move_time = sat_add(w->move_time, dur);
		break;
	case RK_FENCE:
		w->fences++;
		w->sync_time = sat_add(w->sync_time, dur);
		break;
	case RK_LOCK:
		w->locks++;
		w->sync_time = sat_add(w->sync_time, dur);
		break;
	case RK_START:
		w->starts++;
		w->sync_time = sat_add(w->sync_time, dur);
		break;
	case RK_SYNC:
	case RK_END:
		w->sync_time = sat_add(w->sync_time, dur);
		break;
	default:
		break;
	}
}

static int by_time(const void *x, const void *y)
{
	const struct rmawin *a = x, *b = y;
	int64_t ta = sat_add(a->move_time, a->sync_time), tb = sat_add(b->move_time, b->sync_time);
	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (a->comm != b->comm)
		return a->comm < b->comm ? -1 : 1;
	return a->number < b->number ? -1 : a->number > b->number;
}

static void label(const struct rmawin *w, char *buf, size_t size)
{
	if (w->comm == TPROF_COMM_WORLD)
		snprintf(buf, size, "window %d of MPI_COMM_WORLD", (int)w->number);
	else if (w->comm == TPROF_COMM_SELF)
		snprintf(buf, size, "window %d of MPI_COMM_SELF", (int)w->number);
	else if (w->comm_name)
		snprintf(buf, size, "window %d of %s", (int)w->number, strings_get(w->comm_name));
	else
		snprintf(buf, size, "window %d of MPI_Comm %#llx", (int)w->number,
			 (unsigned long long)w->comm);
}

void mpirma_pack(const struct mpirma *m, struct pack *b)
{
	pack_u64(b, m->n);
	for (size_t i = 0; i < m->n; i++) {
		const struct rmawin *r = &m->w[i];
		pack_u64(b, r->comm);
		pack_i64(b, r->number);
		pack_name(b, r->comm_name);
		const uint64_t v[] = { r->fences, r->locks, r->starts, r->puts, r->gets, r->atomics,
				       r->put_bytes, r->get_bytes, r->atomic_bytes,
				       (uint64_t)r->move_time, (uint64_t)r->sync_time };
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			pack_u64(b, v[k]);
	}
}

void mpirma_merge(struct mpirma *m, struct unpack *u)
{
	for (size_t i = 0, n = unpack_count(u, 14 * sizeof(uint64_t)); i < n; i++) {
		uint64_t comm = unpack_u64(u);
		int32_t number = (int32_t)unpack_i64(u);
		uint32_t name = unpack_name(u);
		uint64_t v[11];
		for (size_t k = 0; k < 11; k++)
			v[k] = unpack_u64(u);
		if (u->short_read)
			return;
		struct rmawin *r = win_of(m, comm, number);
		if (!r->comm_name)
			r->comm_name = name;
		r->fences += v[0];
		r->locks += v[1];
		r->starts += v[2];
		r->puts += v[3];
		r->gets += v[4];
		r->atomics += v[5];
		r->put_bytes += v[6];
		r->get_bytes += v[7];
		r->atomic_bytes += v[8];
		r->move_time = sat_add(r->move_time, (int64_t)v[9]);
		r->sync_time = sat_add(r->sync_time, (int64_t)v[10]);
	}
}

void mpirma_end(struct mpirma *m, struct sumw *w, const struct mpi_totals *t, int top)
{
	if (m->n > 1)
		qsort(m->w, m->n, sizeof(*m->w), by_time);
	sw_obj(w, "rma");
	sw_if(w, m->n > 0);
	sw_text(w, "\nMPI one-sided communication by window: epochs, data moved (atomics: sent and "
		   "fetched), time moving data and synchronizing\n"
		   "%7s %6s %6s %7s %10s %7s %10s %7s %10s %12s %12s  %s\n", "Fences", "Locks",
		"PSCW", "Puts", "Put bytes", "Gets", "Get bytes", "Atomics", "Atom bytes", "Move time",
		"Sync time", "Window");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < m->n ? (size_t)top : m->n;
	for (size_t i = 0; i < shown; i++) {
		const struct rmawin *r = &m->w[i];
		char name[160];
		label(r, name, sizeof(name));
		sw_obj(w, NULL);
		sw_count(w, "%7s ", "fences", r->fences);
		sw_count(w, "%6s ", "locks", r->locks);
		sw_count(w, "%6s ", "access_epochs", r->starts);
		sw_count(w, "%7s ", "puts", r->puts);
		sw_bytes(w, "%10s ", "put_bytes", (double)r->put_bytes);
		sw_count(w, "%7s ", "gets", r->gets);
		sw_bytes(w, "%10s ", "get_bytes", (double)r->get_bytes);
		sw_count(w, "%7s ", "atomics", r->atomics);
		sw_bytes(w, "%10s ", "atomic_bytes", (double)r->atomic_bytes);
		sw_dur(w, "%12s ", "move_ns", r->move_time);
		sw_dur(w, "%12s  ", "sync_ns", r->sync_time);
		sw_name(w, "window", name);
		sw_close(w);
	}
	sw_close(w);
	table_more(w, m->n - shown);
	sw_if(w, m->n > 0);
	sw_count(w, "  transfers: %s linked to their completion at the target, ", "linked",
		 t->rma_linked);
	sw_count(w, "%s whose epoch's end is not in the trace\n", "unlinked", t->rma_unlinked);
	sw_endif(w);
	sw_close(w);
	free(m->w);
	free(m->kinds.kind_of);
	hindex_free(&m->by_key);
	free(m);
}

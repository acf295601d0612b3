/* diagnose/stepmap.c — the step map of the HTML report (overview.h): each process's steps,
 * as the diagnosis splits them (diagnosis.c's diagnose_span), summed into dx->sm_cols bins
 * by step number.  A bin holds `per` step numbers, aligned to multiples of per; when a step
 * falls outside the process's bins, they move (when the steps they hold leave room) or per
 * doubles and neighbours merge, so memory stays sm_cols bins a process however many steps
 * there are.  At the end every process is seen in the same columns: the largest per that
 * puts the job's step numbers in sm_cols columns, each process's bins merged into them. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "../util/pack.h"
#include "../util/strings.h"
#include "overview.h"
#include "state.h"

static void merge(struct sm_bin *to, const struct sm_bin *b)
{
	to->n += b->n;
	to->time += b->time;
	to->wait += b->wait;
	if (b->longest > to->longest)
		to->longest = b->longest;
}

/* Bins of per*2 step numbers: each pair merged. */
static void coarser(struct sm_proc *m, uint32_t cols)
{
	struct sm_bin *v = xcalloc(cols, sizeof(*v));
	uint64_t first = m->first / 2;
	for (uint32_t j = 0; j < m->used; j++)
		merge(&v[(m->first + j) / 2 - first], &m->bins[j]);
	m->used = m->used ? (uint32_t)((m->first + m->used - 1) / 2 - first + 1) : 0;
	m->first = first;
	m->per *= 2;
	memcpy(m->bins, v, cols * sizeof(*v));
	free(v);
}

void stepmap_add(struct diagnosis *dx, struct dproc *dp, uint64_t step, int64_t time,
		 int64_t wait)
{
	uint32_t cols = dx->sm_cols;
	struct sm_proc *m = &dp->sm;
	if (!cols)
		return;
	if (!m->bins) {
		m->bins = xcalloc(cols, sizeof(*m->bins));
		m->per = 1;
		m->first = step;
		m->used = 0;
	}
	for (;;) {
		uint64_t k = step / m->per;
		if (!m->used)
			m->first = k;
		if (k >= m->first && k - m->first < cols)
			break;
		if (k < m->first && m->first + m->used - k <= cols) {
			/* before the first: the bins move up, there is room */
			uint64_t by = m->first - k;
			memmove(m->bins + by, m->bins, m->used * sizeof(*m->bins));
			memset(m->bins, 0, by * sizeof(*m->bins));
			m->first = k;
			m->used += (uint32_t)by;
			break;
		}
		coarser(m, cols);
	}
	uint64_t j = step / m->per - m->first;
	struct sm_bin one = { 1, time, wait, time };
	merge(&m->bins[j], &one);
	if (j + 1 > m->used)
		m->used = (uint32_t)(j + 1);
}

/* ---- several analysis processes: a process's bins, for the first (join.c) ---- */

void stepmap_pack(struct pack *b, const struct diagnosis *dx, const struct dproc *dp)
{
	const struct sm_proc *m = &dp->sm;
	if (!dx->sm_cols || !m->bins) {
		pack_u64(b, 0);
		return;
	}
	pack_u64(b, m->used);
	pack_u64(b, m->per);
	pack_u64(b, m->first);
	for (uint32_t j = 0; j < m->used; j++) {
		pack_u64(b, m->bins[j].n);
		pack_i64(b, m->bins[j].time);
		pack_i64(b, m->bins[j].wait);
		pack_i64(b, m->bins[j].longest);
	}
}

void stepmap_unpack(struct unpack *u, const struct diagnosis *dx, struct dproc *dp)
{
	struct sm_proc *m = &dp->sm;
	uint64_t used = unpack_u64(u);
	if (!used)
		return;
	m->per = unpack_u64(u);
	m->first = unpack_u64(u);
	if (used > dx->sm_cols || !m->per || (m->per & (m->per - 1))) {
		/* not what any analysis process writes */
		m->per = 0;
		return;
	}
	m->bins = xcalloc(dx->sm_cols, sizeof(*m->bins));
	m->used = (uint32_t)used;
	for (uint32_t j = 0; j < m->used; j++) {
		m->bins[j].n = unpack_u64(u);
		m->bins[j].time = unpack_i64(u);
		m->bins[j].wait = unpack_i64(u);
		m->bins[j].longest = unpack_i64(u);
	}
}

/* ---- the map, for the report ---- */

uint32_t diagnosis_stepmap(const struct diagnosis *dx, uint64_t *first, uint64_t *per,
			   void *ctx,
			   void (*on_process)(void *ctx, const struct stepmap_process *p))
{
	uint32_t cols = dx->sm_cols;
	/* the job's step numbers, and the finest bins every process's fit in */
	uint64_t lo = UINT64_MAX, hi = 0, w = 1;
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct sm_proc *m = &dx->procs[i]->sm;
		if (!m->bins || !m->used)
			continue;
		if (m->first * m->per < lo)
			lo = m->first * m->per;
		if ((m->first + m->used) * m->per - 1 > hi)
			hi = (m->first + m->used) * m->per - 1;
		if (m->per > w)
			w = m->per;
	}
	*first = *per = 0;
	if (!cols || lo > hi)
		return 0;
	while (hi / w - lo / w + 1 > cols)
		w *= 2;
	uint64_t col0 = lo / w;
	uint32_t n = (uint32_t)(hi / w - col0 + 1);
	*first = col0 * w;
	*per = w;
	if (!on_process)
		return n;
	struct dproc **order = dprocs_in_order(dx);
	struct stepmap_cell *cells = xcalloc(n, sizeof(*cells));
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct dproc *dp = order[i];
		const struct sm_proc *m = &dp->sm;
		if (!m->bins || !m->used)
			continue;
		memset(cells, 0, n * sizeof(*cells));
		for (uint32_t j = 0; j < m->used; j++) {
			/* a bin of m->per numbers lies in one column of w (w: a multiple of it) */
			const struct sm_bin *b = &m->bins[j];
			struct stepmap_cell *c = &cells[(m->first + j) * m->per / w - col0];
			c->n += b->n;
			c->time += b->time;
			c->wait += b->wait;
			if (b->longest > c->longest)
				c->longest = b->longest;
		}
		char buf[256];
		struct stepmap_process p = {
			.process = dp->p->index, .rank = dp->p->rank,
			.label = dp->label ? strings_get(dp->label)
					   : proc_label(dp->p, buf, sizeof(buf)),
			.cells = cells,
		};
		on_process(ctx, &p);
	}
	free(cells);
	free(order);
	return n;
}

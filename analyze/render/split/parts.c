/* render/split/parts.c — the parts of a trace the analysis processes of the parallel analyzer
 * write, one each (SPLIT_PROCESS): what each holds (its counts, its processes and their
 * ranks), gathered by the first for the index. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../parallel/par.h"
#include "../../util/pack.h"
#include "state.h"

static void pack_part(struct pack *b, const struct part *p, const struct trace *tr)
{
	const uint64_t v[] = { p->slices, p->instants, p->counters, p->asyncs, p->flows,
			       p->samples, p->flow_halves, p->before, p->beyond, p->late,
			       p->late_flows, p->flows_back, p->json_bytes, p->file_bytes,
			       p->first_step, p->last_step, (uint64_t)p->has_steps };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		pack_u64(b, v[i]);
	pack_i64(b, p->t_min);
	pack_i64(b, p->t_max);
	pack_u64(b, tr->nprocs);
	for (size_t i = 0; i < tr->nprocs; i++) {
		pack_i64(b, tr->procs[i]->index);
		pack_i64(b, tr->procs[i]->rank);
	}
}

static void unpack_part(struct unpack *u, struct part *p)
{
	uint64_t *const v[] = { &p->slices, &p->instants, &p->counters, &p->asyncs, &p->flows,
				&p->samples, &p->flow_halves, &p->before, &p->beyond, &p->late,
				&p->late_flows, &p->flows_back, &p->json_bytes, &p->file_bytes,
				&p->first_step, &p->last_step };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		*v[i] = unpack_u64(u);
	p->has_steps = unpack_u64(u) != 0;
	p->t_min = unpack_i64(u);
	p->t_max = unpack_i64(u);
	p->nprocs = unpack_count(u, 2 * sizeof(int64_t));
	p->procs = xmallocarray(p->nprocs + 1, sizeof(*p->procs));
	p->ranks = xmallocarray(p->nprocs + 1, sizeof(*p->ranks));
	for (size_t i = 0; i < p->nprocs; i++) {
		p->procs[i] = unpack_i64(u);
		p->ranks[i] = unpack_i64(u);
	}
	p->state = PART_DONE;
	p->lo = INT64_MIN;
	p->hi = INT64_MAX;
}

void split_gather_parts(struct split *s)
{
	struct pack b = { 0 };
	pack_part(&b, &s->parts[0], s->tr);
	size_t *len_of = NULL;
	char *all = par_gather(b.v, b.n, 0, &len_of);
	pack_free(&b);
	if (par_rank() == 0) {
		int k = par_size();
		struct part *v = xcalloc((size_t)k, sizeof(*v));
		size_t at = 0;
		for (int r = 0; r < k; r++) {
			struct unpack u = unpack_of(all + at, len_of[r]);
			unpack_part(&u, &v[r]);
			at += len_of[r];
		}
		free(s->parts);
		s->parts = v;
		s->nparts = s->cap = (size_t)k;
	}
	free(all);
	free(len_of);
}

void split_parts_free(struct split *s)
{
	for (size_t i = 0; i < s->nparts; i++) {
		free(s->parts[i].procs);
		free(s->parts[i].ranks);
	}
}

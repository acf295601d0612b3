/* render/split/parts.c — the parts of a trace the analysis processes of the parallel analyzer
 * write (one each, SPLIT_PROCESS, one per group of steps each, or as many as their share's
 * size makes): what each holds (its counts, its range, the processes of its analysis process
 * and their ranks), gathered by the first for the index; with size:MB, the parts numbered
 * once all are written, each analysis process's after the one's before it. */
#include <stdlib.h>

#include "../../../common/xalloc.h"
#include "../../parallel/par.h"
#include "../../util/grow.h"
#include "../../util/outname.h"
#include "../../util/pack.h"
#include "state.h"

static void pack_part(struct pack *b, const struct part *p, const struct trace *tr)
{
	const uint64_t v[] = { p->number, p->reader, (uint64_t)p->first_of_reader,
			       (uint64_t)p->last_of_reader, p->slices, p->instants, p->counters, p->asyncs,
			       p->flows, p->samples, p->flow_halves, p->before, p->beyond, p->late,
			       p->late_flows, p->flows_back, p->json_bytes, p->file_bytes,
			       p->first_step, p->last_step, (uint64_t)p->has_steps };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		pack_u64(b, v[i]);
	pack_i64(b, p->lo);
	pack_i64(b, p->hi);
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
	p->number = (size_t)unpack_u64(u);
	p->reader = (size_t)unpack_u64(u);
	p->first_of_reader = unpack_u64(u) != 0;
	p->last_of_reader = unpack_u64(u) != 0;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		*v[i] = unpack_u64(u);
	p->has_steps = unpack_u64(u) != 0;
	p->lo = unpack_i64(u);
	p->hi = unpack_i64(u);
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
}

static int by_number(const void *x, const void *y)
{
	const struct part *a = x, *b = y;
	return a->number < b->number ? -1 : a->number > b->number;
}

void split_gather_parts(struct split *s)
{
	struct pack b = { 0 };
	pack_u64(&b, s->nparts);
	for (size_t i = 0; i < s->nparts; i++)
		pack_part(&b, &s->parts[i], s->tr);
	size_t *len_of = NULL;
	char *all = par_gather(b.v, b.n, 0, &len_of);
	pack_free(&b);
	if (par_rank() == 0) {
		struct part *v = NULL;
		size_t n = 0, cap = 0, at = 0;
		for (int r = 0; r < par_size(); r++) {
			struct unpack u = unpack_of(all + at, len_of[r]);
			size_t k = unpack_count(&u, 8 * sizeof(uint64_t));
			for (size_t i = 0; i < k && !u.short_read; i++) {
				v = util_grow(v, &cap, n, sizeof(*v), 16);
				v[n] = (struct part){ 0 };
				unpack_part(&u, &v[n++]);
			}
			at += len_of[r];
		}
		qsort(v, n, sizeof(*v), by_number);
		s->late = s->late_flows = 0;
		for (size_t i = 0; i < n; i++) {
			s->late += v[i].late;
			s->late_flows += v[i].late_flows;
		}
		split_parts_free(s);
		free(s->parts);
		s->parts = v;
		s->nparts = n;
		s->cap = cap;
	}
	free(all);
	free(len_of);
}

int split_renumber(struct split *s)
{
	int64_t *count = xcalloc(s->readers, sizeof(*count));
	count[s->me] = (int64_t)s->nparts;
	par_max_i64(count, s->readers);
	size_t before = 0;
	for (size_t r = 0; r < s->me; r++)
		before += (size_t)count[r];
	free(count);
	char **from = xcalloc(s->nparts + 1, sizeof(*from));
	char **to = xcalloc(s->nparts + 1, sizeof(*to));
	for (size_t i = 0; i < s->nparts; i++) {
		struct part *p = &s->parts[i];
		from[i] = split_part_path(s, p->number);
		p->number = before + i + 1;
		to[i] = split_part_path(s, p->number);
		p->first_of_reader = i == 0;
		p->last_of_reader = i + 1 == s->nparts;
	}
	int rc = 0;
	if (!s->failed && outname_retarget(from, to, s->nparts) < 0) {
		diag_error("%s", outname_error());
		rc = -1;
	}
	for (size_t i = 0; i < s->nparts; i++) {
		free(from[i]);
		free(to[i]);
	}
	free(from);
	free(to);
	return rc;
}

void split_parts_free(struct split *s)
{
	for (size_t i = 0; i < s->nparts; i++) {
		free(s->parts[i].procs);
		free(s->parts[i].ranks);
	}
}

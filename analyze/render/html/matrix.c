/* render/html/matrix.c — the report's communication matrix (matrix.h): every point-to-point
 * transfer the runtimes say of their events (model/transfers.h: an MPI message, an NCCL send
 * matched with its receive) summed by sender and receiver: transfers, bytes and time.  Under
 * --parallel each analysis process sums the transfers it was handed and the first adds up
 * everyone's.  Written as the nonzero pairs; past MATRIX_PAIRS of them, pairs
 * of blocks of neighbouring ranks (as many ranks a block as it takes), so that the page stays
 * small for any job. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/output.h"
#include "../../model/runtime.h"
#include "../../model/transfers.h"
#include "../../parallel/par.h"
#include "../../util/grow.h"
#include "../../util/pack.h"
#include "../../util/u64map.h"
#include "matrix.h"

#define MATRIX_PAIRS 16384

struct pair {
	int64_t src, dst;
	uint64_t count, bytes;
	int64_t ns;
};

struct matrix {
	struct pair *v;
	size_t n, cap;
	struct u64map at;               /* src << 32 | dst -> index + 1 */
	int64_t ranks;                  /* the highest rank met, + 1 */
	const struct runtime_set *rts;
};

struct matrix *matrix_new(const struct runtime_set *rts)
{
	struct matrix *m = xcalloc(1, sizeof(struct matrix));
	m->rts = rts;
	return m;
}

static void add(struct matrix *m, int64_t src, int64_t dst, uint64_t count, uint64_t bytes,
		int64_t ns)
{
	uint64_t key = (uint64_t)src << 32 | (uint32_t)dst;
	uint32_t *i = u64map_get(&m->at, key);
	struct pair *p;
	if (i) {
		p = &m->v[*i - 1];
	} else {
		m->v = util_grow(m->v, &m->cap, m->n, sizeof(*m->v), 64);
		p = &m->v[m->n++];
		*p = (struct pair){ .src = src, .dst = dst };
		u64map_put(&m->at, key, (uint32_t)m->n);
	}
	p->count += count;
	p->bytes += bytes;
	p->ns += ns;
	if (src + 1 > m->ranks)
		m->ranks = src + 1;
	if (dst + 1 > m->ranks)
		m->ranks = dst + 1;
}

static void on_transfer(void *ctx, const struct transfer *t)
{
	if (t->src >= 0 && t->dst >= 0 && t->src <= INT32_MAX && t->dst <= INT32_MAX)
		add(ctx, t->src, t->dst, 1, t->bytes, t->ns > 0 ? t->ns : 0);
}

void matrix_event(struct matrix *m, const struct event *ev)
{
	if (ev->kind > EV_LAST)
		return;
	const struct transfer_sink sink = { m, on_transfer };
	for (unsigned k = 0; k < m->rts->n; k++) {
		const struct runtime *rt = m->rts->all[k];
		if (rt->transfers && (rt->transfer_events & RT_KIND(ev->kind)))
			rt->transfers(ev, &sink);
	}
}

void matrix_gather(struct matrix *m)
{
	if (par_size() < 2)
		return;
	struct pack b = { 0 };
	pack_u64(&b, m->n);
	for (size_t i = 0; i < m->n; i++) {
		const struct pair *p = &m->v[i];
		pack_i64(&b, p->src);
		pack_i64(&b, p->dst);
		pack_u64(&b, p->count);
		pack_u64(&b, p->bytes);
		pack_i64(&b, p->ns);
	}
	size_t *len_of;
	char *all = par_gather(b.v, b.n, 0, &len_of);
	pack_free(&b);
	if (par_rank() == 0) {
		/* everyone's, the first's own among them: from nothing */
		free(m->v);
		u64map_free(&m->at);
		const struct runtime_set *rts = m->rts;
		memset(m, 0, sizeof(*m));
		m->rts = rts;
		const char *at = all;
		for (int r = 0; r < par_size(); r++) {
			struct unpack u = unpack_of(at, len_of[r]);
			for (size_t i = 0, n = unpack_count(&u, 5); i < n; i++) {
				int64_t src = unpack_i64(&u), dst = unpack_i64(&u);
				uint64_t count = unpack_u64(&u), bytes = unpack_u64(&u);
				int64_t ns = unpack_i64(&u);
				if (src >= 0 && dst >= 0 && src <= INT32_MAX && dst <= INT32_MAX)
					add(m, src, dst, count, bytes, ns);
			}
			at += len_of[r];
		}
	}
	free(all);
	free(len_of);
}

static int by_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->src != y->src)
		return (x->src > y->src) - (x->src < y->src);
	return (x->dst > y->dst) - (x->dst < y->dst);
}

void matrix_write(FILE *f, struct matrix *m)
{
	if (!m || !m->n) {
		fputs("null", f);
		return;
	}
	/* blocks of ranks until the pairs fit */
	int64_t block = 1;
	while (m->n > MATRIX_PAIRS) {
		block *= 2;
		struct matrix c = { .rts = m->rts };
		for (size_t i = 0; i < m->n; i++) {
			const struct pair *p = &m->v[i];
			add(&c, p->src / 2, p->dst / 2, p->count, p->bytes, p->ns);
		}
		free(m->v);
		u64map_free(&m->at);
		*m = c;
	}
	qsort(m->v, m->n, sizeof(*m->v), by_pair);
	fprintf(f, "{\"ranks_a_block\":%" PRId64 ",\"blocks\":%" PRId64 ",\"pairs\":[", block,
		m->ranks);
	for (size_t i = 0; i < m->n; i++) {
		const struct pair *p = &m->v[i];
		fprintf(f, "%s[%" PRId64 ",%" PRId64 ",%" PRIu64 ",%" PRIu64 ",%" PRId64 "]",
			i ? "," : "", p->src, p->dst, p->count, p->bytes, p->ns);
	}
	fputs("]}", f);
}

void matrix_free(struct matrix *m)
{
	if (!m)
		return;
	free(m->v);
	u64map_free(&m->at);
	free(m);
}

/* test-hang-ends.c — the other end of a point-to-point operation, found by hash (analyze/hang/
 * ends.h), against the rule said the slow way (every send tried against every receive): for
 * random sends and receives over a few ranks, tags and communicators, with receives from any
 * rank or of any tag and sends of no known tag, every operation is paired exactly when the
 * rule finds its other end; and the cases one by one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/hang/ends.h"
#include "../../analyze/read/trace.h"
#include "tap.h"

#define RANKS 4
#define diag(...) (printf("#   "), printf(__VA_ARGS__), printf("\n"))

static struct proc procs[RANKS];

static int rule(const struct hang_p2p *s, const struct hang_p2p *r)
{
	return s->comm == r->comm && (r->peer < 0 || r->peer == s->proc->rank) &&
	       s->peer == r->proc->rank && (r->tag < 0 || s->tag < 0 || r->tag == s->tag);
}

static int slow(const struct hang_p2p *v, size_t n, const struct hang_p2p *x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].kind != x->kind && (x->kind == HANG_RECV ? rule(&v[i], x) : rule(x, &v[i])))
			return 1;
	return 0;
}

static struct hang_p2p op(int kind, int me, int peer, int tag, uint64_t comm)
{
	return (struct hang_p2p){ .kind = (uint8_t)kind, .proc = &procs[me], .peer = peer,
				  .tag = tag, .comm = comm };
}

/* Whether ops v[0..n) are each paired as the rule says. */
static int agree(const struct hang_p2p *v, size_t n)
{
	struct hang_ends *e = hang_ends_new(v, n);
	int good = 1;
	for (size_t i = 0; i < n && good; i++)
		if (hang_ends_paired(e, &v[i]) != slow(v, n, &v[i])) {
			diag("op %zu (kind %d, rank %lld, peer %d, tag %d, comm %llu): fast %d, slow %d",
			     i, v[i].kind, (long long)v[i].proc->rank, v[i].peer, v[i].tag,
			     (unsigned long long)v[i].comm, hang_ends_paired(e, &v[i]),
			     slow(v, n, &v[i]));
			good = 0;
		}
	hang_ends_free(e);
	return good;
}

int main(void)
{
	for (int r = 0; r < RANKS; r++)
		procs[r].rank = r;

	struct hang_p2p one[] = {
		op(HANG_SEND, 0, 1, 5, 1), op(HANG_RECV, 1, 0, 5, 1),   /* a pair */
		op(HANG_SEND, 0, 2, 5, 1), op(HANG_RECV, 2, 0, 6, 1),   /* tags differ */
		op(HANG_SEND, 1, 3, 7, 1), op(HANG_RECV, 3, -1, 7, 1),  /* any sender */
		op(HANG_SEND, 2, 3, 9, 1), op(HANG_RECV, 3, 2, -1, 2),  /* another communicator */
		op(HANG_SEND, 3, 0, -1, 1), op(HANG_RECV, 0, 3, 4, 1),  /* a send of no known tag */
		op(HANG_RECV, 2, 1, -1, 1), op(HANG_SEND, 1, 2, 8, 1),  /* a receive of any tag */
	};
	struct hang_ends *e = hang_ends_new(one, sizeof one / sizeof *one);
	int want[] = { 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1 };
	int good = 1;
	for (size_t i = 0; i < sizeof one / sizeof *one; i++)
		if (hang_ends_paired(e, &one[i]) != want[i]) {
			diag("case %zu: %d, want %d", i, hang_ends_paired(e, &one[i]), want[i]);
			good = 0;
		}
	hang_ends_free(e);
	ok(good, "each case: a pair, tags that differ, any sender, another communicator, "
		 "no known tag, any tag");
	ok(agree(one, sizeof one / sizeof *one), "the cases agree with the rule said the slow way");

	srand(7);
	int all = 1;
	for (int round = 0; round < 300 && all; round++) {
		size_t n = (size_t)(rand() % 60);
		struct hang_p2p *v = calloc(n ? n : 1, sizeof(*v));
		for (size_t i = 0; i < n; i++) {
			int kind = rand() % 2 ? HANG_SEND : HANG_RECV;
			int me = rand() % RANKS, peer = rand() % RANKS, tag = rand() % 3;
			if (kind == HANG_RECV && rand() % 4 == 0)
				peer = -1;
			if (rand() % 5 == 0)
				tag = -1;
			v[i] = op(kind, me, peer, tag, (uint64_t)(rand() % 2));
		}
		all = agree(v, n);
		free(v);
	}
	ok(all, "300 random sets of sends and receives agree with the rule");

	struct hang_ends *none = hang_ends_new(NULL, 0);
	struct hang_p2p lone = op(HANG_RECV, 0, 1, 1, 1);
	ok(!hang_ends_paired(none, &lone), "nothing to pair with: not paired");
	hang_ends_free(none);
	return tap_done();
}

/* mpicap.h — an output back end for tests that keeps copies of the MPI events the pipeline
 * hands it (messages, collectives with their members, one-sided transfers) and counts the
 * rest, and a helper that loads a directory and runs the merge into it. */
#ifndef TPROF_TEST_MPICAP_H
#define TPROF_TEST_MPICAP_H

#include <stdlib.h>
#include <string.h>

#include "../../analyze/model/output.h"
#include "../../analyze/runtimes/mpi/mpi.h"
#include "rts.h"

#define CAP_MAX 1024

struct cap_coll {
	struct coll_info ci;
	unsigned flags;
	uint64_t calls_before;          /* EV_CALLs handed out before it */
	struct coll_member m[16];
};

struct mpicap {
	struct message_info msg[CAP_MAX];
	int nmsg;
	struct cap_coll coll[CAP_MAX];
	int ncoll;
	struct rma_info rma[CAP_MAX];
	int nrma;
	uint64_t calls, reqs;
};

static int cap_begin(void *priv, const struct trace *tr)
{
	(void)priv;
	(void)tr;
	return 0;
}

static void cap_event(void *priv, const struct event *ev)
{
	struct mpicap *c = priv;
	switch (ev->kind) {
	case EV_MESSAGE:
		if (c->nmsg < CAP_MAX)
			c->msg[c->nmsg++] = *ev->msg;
		break;
	case EV_COLLECTIVE:
		if (c->ncoll < CAP_MAX) {
			struct cap_coll *x = &c->coll[c->ncoll++];
			x->ci = *ev->coll;
			x->flags = ev->flags;
			x->calls_before = c->calls;
			memcpy(x->m, ev->coll->m, (ev->coll->nm < 16 ? ev->coll->nm : 16) * sizeof(x->m[0]));
			x->ci.m = x->m;
		}
		break;
	case EV_RMA:
		if (c->nrma < CAP_MAX)
			c->rma[c->nrma++] = *(const struct rma_info *)ev->info;
		break;
	case EV_CALL:
		c->calls++;
		break;
	case EV_MPIREQ:
		c->reqs++;
		break;
	default:
		break;
	}
}

static int cap_end(void *priv, const struct trace *tr)
{
	(void)priv;
	(void)tr;
	return 0;
}

static const struct output_ops mpicap_ops = { "capture", cap_begin, cap_event, cap_end };

/* Loads dir into tr and runs the whole pipeline into c (tr stays loaded for inspection). */
static inline int mpicap_run(struct trace *tr, const char *dir, struct mpicap *c, const struct window *w)
{
	memset(c, 0, sizeof(*c));
	if (trace_load(tr, dir) < 0)
		return -1;
	struct output out = { &mpicap_ops, c };
	struct pipeline pl = { .rts = test_runtimes(), .tr = tr, .outs = &out, .nouts = 1 };
	if (w)
		pl.win = *w;
	merge_run(tr, &pl);
	return 0;
}

static inline void rm_rf(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

static inline int make_tmpdir(char *dir, size_t len, const char *what)
{
	snprintf(dir, len, "%s/tprof-%s.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", what);
	return mkdtemp(dir) ? 0 : -1;
}

#endif

/* hang/output.c — the hang analysis as an output of the pipeline (model/output.h): it gathers
 * while the events flow (gather.c) and finds the causes at the end (findings.c); what it
 * found stays for hang_write (report.c). */
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "state.h"

static int out_begin(void *priv, const struct trace *tr)
{
	hang_gather_begin(priv, tr);
	return 0;
}

static void out_event(void *priv, const struct event *ev)
{
	hang_gather_event(priv, ev);
}

static int out_end(void *priv, const struct trace *tr)
{
	(void)tr;
	hang_settle(priv);
	return 0;
}

static const struct output_ops hang_ops = { "hang", out_begin, out_event, out_end };

struct output output_hang(struct hang *h)
{
	return (struct output){ &hang_ops, h };
}

struct hang *hang_new(const struct runtime_set *rts, int64_t now, int live)
{
	struct hang *h = xcalloc(1, sizeof(*h));
	h->rts = rts;
	h->now = now;
	h->live = live;
	hang_gather_init(h);
	return h;
}

const struct hang_sink *hang_sink(struct hang *h)
{
	return &h->sink;
}

void hang_free(struct hang *h)
{
	if (!h)
		return;
	hang_gather_free(h);
	free(h->findings);
	free(h);
}

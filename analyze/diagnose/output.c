/* diagnose/output.c — the diagnosis as an output of the pipeline (model/output.h), which hands
 * it every event and settles it at the end (under --parallel, first joining what every
 * analysis process found: parallel.c), and as a part of the summary, which writes it. */
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "../summary/summary.h"
#include "diagnosis.h"
#include "state.h"

struct dx_output {
	struct diagnosis *dx;
};

static int out_begin(void *priv, const struct trace *tr)
{
	diagnosis_begin(((struct dx_output *)priv)->dx, tr);
	return 0;
}

static void out_event(void *priv, const struct event *ev)
{
	diagnosis_event(((struct dx_output *)priv)->dx, ev);
}

static int out_end(void *priv, const struct trace *tr)
{
	(void)tr;
	struct dx_output *o = priv;
	if (o->dx->hold)
		dpar_hold_end(o->dx);   /* collective: every analysis process ends here */
	diagnosis_settle(o->dx);
	free(o);
	return 0;
}

static const struct output_ops diagnosis_ops = { "diagnosis", out_begin, out_event, out_end };

struct output output_diagnosis(struct diagnosis *dx)
{
	struct dx_output *o = xcalloc(1, sizeof(*o));
	o->dx = dx;
	return (struct output){ &diagnosis_ops, o };
}

static void part_end(void *priv, struct sumw *w, const char *dir, int top)
{
	diagnosis_write(priv, w, dir, top);
}

const struct summary_part diagnosis_summary_part = { part_end };

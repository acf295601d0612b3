/* diff/data.c — --diff-data: what --diff compares, for one profile: per item (a kernel, a copy,
 * an API call, an MPI collective, a part of the step time as the diagnosis splits it, the step
 * length) its count, its time in all processes, and its time in each step number.  An event
 * belongs to the step of its process it began in: held until that step's end is read (an
 * event that comes after, a device span, goes to the one of its process's latest steps it
 * began in); events between steps are not counted.  Without steps, the whole run is one.
 * Written as JSON (docs/summary-json.md, "--diff"). */
#include <stdlib.h>
#include <string.h>

#include "../../common/events.h"
#include "../../common/xalloc.h"
#include "../diagnose/diagnosis.h"
#include "../util/grow.h"
#include "../util/u64map.h"
#include "diff.h"

enum item_kind { IK_KERNEL, IK_COPY, IK_DEVCOLL, IK_CALL, IK_COLLECTIVE, IK_KINDS };
static const char *const kind_key[IK_KINDS] = { "kernel", "copy", "device_collective", "call",
						"collective" };

struct item {
	uint8_t kind;
	uint32_t name;
	uint64_t count;
	int64_t total;
	int64_t *per_step;               /* nbins */
};

/* An event of a process, kept until the step it began in is known. */
struct held {
	uint32_t item;
	int64_t t0, ns;
};

#define STEPS_KEPT 4     /* a process's latest steps, for events that come after them */

/* A process's events since its latest step, and its latest steps. */
struct hproc {
	struct held *v;
	size_t n, cap;
	struct { long bin; int64_t t0, t1; } done[STEPS_KEPT];
	unsigned ndone;
};

struct data {
	FILE *f;
	char *dir;
	struct step_start *starts;
	size_t n, nbins;                 /* nbins: n, or 1 without steps */
	struct item *items;
	size_t nitems, capitems;
	struct u64map item_of;
	struct hproc *procs;             /* by process index - 1 */
	size_t nprocs;
	struct diagnosis *dx;            /* for the parts of the step time */
};

static uint32_t item_of(struct data *d, unsigned kind, uint32_t name)
{
	uint64_t key = (uint64_t)kind << 32 | name;
	uint32_t *at = u64map_get(&d->item_of, key);
	if (at)
		return *at;
	d->items = util_grow(d->items, &d->capitems, d->nitems, sizeof(*d->items), 64);
	struct item *it = &d->items[d->nitems];
	it->kind = (uint8_t)kind;
	it->name = name;
	it->count = 0;
	it->total = 0;
	it->per_step = xcalloc(d->nbins, sizeof(*it->per_step));
	u64map_put(&d->item_of, key, (uint32_t)d->nitems);
	return (uint32_t)d->nitems++;
}

/* The bin of step number `step` (starts are in order of step number), or -1. */
static long bin_of(const struct data *d, uint64_t step)
{
	size_t l = 0, h = d->n;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (d->starts[m].step < step)
			l = m + 1;
		else
			h = m;
	}
	return l < d->n && d->starts[l].step == step ? (long)l : -1;
}

static void count_in(struct data *d, uint32_t i, long bin, int64_t ns)
{
	struct item *it = &d->items[i];
	it->count++;
	it->total += ns;
	it->per_step[bin] += ns;
}

static struct hproc *hproc_of(struct data *d, const struct proc *p)
{
	size_t k = p->index > 0 ? (size_t)p->index - 1 : 0;
	if (k >= d->nprocs) {
		size_t n = d->nprocs ? d->nprocs : 16;
		while (n <= k)
			n *= 2;
		d->procs = xreallocarray(d->procs, n, sizeof(*d->procs));
		memset(d->procs + d->nprocs, 0, (n - d->nprocs) * sizeof(*d->procs));
		d->nprocs = n;
	}
	return &d->procs[k];
}

/* An event: into the step of its process it began in, once that is known. */
static void hold_event(struct data *d, const struct proc *p, unsigned kind, uint32_t name, int64_t t0,
		int64_t ns)
{
	if (ns < 0)
		return;
	uint32_t i = item_of(d, kind, name);
	if (!d->n) {
		count_in(d, i, 0, ns);
		return;
	}
	struct hproc *h = hproc_of(d, p);
	for (unsigned k = 0; k < STEPS_KEPT && k < h->ndone; k++) {   /* came late */
		const unsigned at = (h->ndone - 1 - k) % STEPS_KEPT;
		if (t0 >= h->done[at].t0 && t0 < h->done[at].t1) {
			if (h->done[at].bin >= 0)
				count_in(d, i, h->done[at].bin, ns);
			return;
		}
	}
	h->v = util_grow(h->v, &h->cap, h->n, sizeof(*h->v), 64);
	h->v[h->n++] = (struct held){ i, t0, ns };
}

/* A step of a process ended: its events counted, those before it dropped (between steps). */
static void step_ended(struct data *d, const struct event *ev)
{
	struct hproc *h = hproc_of(d, ev->proc);
	long bin = bin_of(d, ev->step);
	size_t k = 0;
	for (size_t j = 0; j < h->n; j++) {
		const struct held *e = &h->v[j];
		if (e->t0 >= ev->t1)
			h->v[k++] = *e;
		else if (e->t0 >= ev->t0 && bin >= 0)
			count_in(d, e->item, bin, e->ns);
	}
	h->n = k;
	unsigned at = h->ndone++ % STEPS_KEPT;
	h->done[at].bin = bin;
	h->done[at].t0 = ev->t0;
	h->done[at].t1 = ev->t1;
}

static int begin(void *priv, const struct trace *tr)
{
	diagnosis_begin(((struct data *)priv)->dx, tr);
	return 0;
}

static void on_event(void *priv, const struct event *ev)
{
	struct data *d = priv;
	diagnosis_event(d->dx, ev);
	if (!ev->proc || ev->proc->sys)
		return;
	switch (ev->kind) {
	case EV_DEVICE: {
		unsigned k = ev->dev->kind;
		hold_event(d, ev->proc, k == TPROF_DEVOP_COPY || k == TPROF_DEVOP_MEMSET ? IK_COPY
				 : k == TPROF_DEVOP_COLLECTIVE ? IK_DEVCOLL : IK_KERNEL,
		    ev->name, ev->t0, ev->t1 - ev->t0);
		break;
	}
	case EV_CALL:
		hold_event(d, ev->proc, IK_CALL, ev->name, ev->t0, ev->t1 - ev->t0);
		break;
	case EV_COLLECTIVE:
		/* the last member's process: where the collective ended waiting */
		hold_event(d, ev->proc, IK_COLLECTIVE, ev->name, ev->t0, ev->t1 - ev->t0);
		break;
	case EV_STEP:
		if (d->n)
			step_ended(d, ev);
		break;
	default:
		break;
	}
}

static void series(struct sumw *w, const int64_t *v, size_t n)
{
	sw_arr(w, "per_step_ns");
	for (size_t i = 0; i < n; i++)
		sw_elem(w, v[i]);
	sw_close(w);
}

static int end(void *priv, const struct trace *tr)
{
	struct data *d = priv;
	(void)tr;
	struct sumw w;
	sw_init(&w, d->f, SUMMARY_JSON);
	sw_obj(&w, NULL);
	sw_str(&w, NULL, "format", DIFF_DATA_FORMAT);
	sw_i64(&w, NULL, "version", 1);
	sw_str(&w, NULL, "dir", d->dir);
	sw_arr(&w, "steps");
	for (size_t i = 0; i < d->n; i++)
		sw_elem(&w, (int64_t)d->starts[i].step);
	sw_close(&w);
	sw_arr(&w, "items");
	for (size_t i = 0; i < d->nitems; i++) {
		const struct item *it = &d->items[i];
		if (!it->count)
			continue;
		sw_obj(&w, NULL);
		sw_str(&w, NULL, "kind", kind_key[it->kind]);
		sw_str(&w, NULL, "name", strings_get(it->name));
		sw_u64(&w, NULL, "count", it->count);
		sw_i64(&w, NULL, "total_ns", it->total);
		series(&w, it->per_step, d->nbins);
		sw_close(&w);
	}
	/* the parts of the step time and the step length, per step number (the diagnosis's) */
	int64_t *v = xcalloc(d->nbins * (DIAG_PARTS + 1), sizeof(*v));
	size_t ns = diagnosis_settle(d->dx);
	for (size_t i = 0; i < ns; i++) {
		struct diagnosis_step st;
		diagnosis_step(d->dx, i, &st);
		long b = d->n ? -1 : 0;
		for (size_t k = 0; k < d->n && b < 0; k++)
			if (d->starts[k].step == st.step)
				b = (long)k;
		if (b < 0)
			continue;
		for (unsigned c = 0; c < DIAG_PARTS; c++)
			v[c * d->nbins + (size_t)b] += st.ns[c];
		v[DIAG_PARTS * d->nbins + (size_t)b] = st.longest;
	}
	if (!d->n) {     /* no steps: the runs' parts */
		int64_t t[DIAG_PARTS];
		diagnosis_total(d->dx, t);
		for (unsigned c = 0; c < DIAG_PARTS; c++)
			v[c] = t[c];
	}
	for (unsigned c = 0; c <= DIAG_PARTS; c++) {
		if (c == DIAG_PARTS && !d->n)
			break;  /* no step length */
		int64_t total = 0;
		for (size_t b = 0; b < d->nbins; b++)
			total += v[c * d->nbins + b];
		sw_obj(&w, NULL);
		sw_str(&w, NULL, "kind", c < DIAG_PARTS ? "phase" : "step");
		sw_str(&w, NULL, "name", c < DIAG_PARTS ? diagnosis_part_words(c) : "step length");
		sw_u64(&w, NULL, "count", c < DIAG_PARTS ? d->nbins : ns);
		sw_i64(&w, NULL, "total_ns", total);
		series(&w, v + c * d->nbins, d->nbins);
		sw_close(&w);
	}
	free(v);
	sw_close(&w);
	sw_close(&w);
	sw_finish(&w);
	fflush(d->f);
	int rc = ferror(d->f) ? -1 : 0;
	diagnosis_free(d->dx);
	for (size_t i = 0; i < d->nitems; i++)
		free(d->items[i].per_step);
	free(d->items);
	for (size_t i = 0; i < d->nprocs; i++)
		free(d->procs[i].v);
	free(d->procs);
	free(d->starts);
	free(d->dir);
	u64map_free(&d->item_of);
	free(d);
	return rc;
}

static const struct output_ops data_ops = { "diff-data", begin, on_event, end };

struct output output_diff_data(FILE *f, const char *dir, struct step_start *starts, size_t n,
			       const struct runtime_set *rts)
{
	struct data *d = xcalloc(1, sizeof(*d));
	d->f = f;
	d->dir = xstrdup(dir);
	d->starts = starts;
	d->n = n;
	d->nbins = n ? n : 1;
	d->dx = diagnosis_new(rts);
	return (struct output){ &data_ops, d };
}

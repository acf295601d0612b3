/* runtimes/nrt/summary.c — the summary's Neuron runtime tables.
 *   NRT models: one row per model name, over every NeuronCore and process that ran it (the
 *     cores it ran on listed): executions, their total, average, minimum and maximum time
 *     (an execution is the blocking nrt_execute call's span), failed ones, input and output
 *     tensor bytes and (input + output bytes) / total time in GB/s.
 *   NRT tensor traffic: tensor reads, writes, copies and memsets by placement: calls, bytes,
 *     time and bytes / time.
 *   NeuronCores: per (process, core) the busy share of the covered time (the union of its
 *     executions' spans, as the device table does for GPUs) and its executions.
 *   NRT calls that failed: count by call and status.
 * Executions arrive in entry order, so each core's busy union is swept as they come; memory
 * follows the number of models, cores and distinct failures, not the trace. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "nrt.h"
#include "summary.h"
#include "../../summary/busy.h"
#include "../../summary/table.h"
#include "../../util/pack.h"
#include "../../util/u64map.h"

#define CORE_BITS 256

struct model {
	uint32_t name;
	struct agg t;
	uint64_t failed, in_bytes, out_bytes;
	uint64_t cores[CORE_BITS / 64];  /* NeuronCores it ran on */
	int more_cores;                  /* and some at CORE_BITS or above */
};

struct core {
	int proc;
	int32_t nc;
	uint64_t execs;
	int64_t busy, cur0, cur1;
	int open;
};

struct traffic {
	uint64_t calls, bytes;
	int64_t time;
};

struct failure {
	uint32_t name;
	int status;
	uint64_t count;
};

struct nrtsum {
	struct model *models;
	size_t nmodels;
	struct u64map model_of;          /* name -> index in models */
	struct core *cores;
	size_t ncores;
	struct u64map core_of;           /* (proc, core) -> index in cores */
	struct traffic traffic[4][4];    /* read, write, copy, memset x device, host, virtual, ? */
	struct failure *fails;
	size_t nfails;
	uint64_t calls;
};

struct nrtsum *nrtsum_new(void)
{
	struct nrtsum *s = xcalloc(1, sizeof(*s));
	return s;
}

static struct model *model_of(struct nrtsum *s, uint32_t name)
{
	uint32_t *i = u64map_get(&s->model_of, name);
	if (i)
		return &s->models[*i];
	u64map_put(&s->model_of, name, (uint32_t)s->nmodels);
	s->models = xreallocarray(s->models, s->nmodels + 1, sizeof(*s->models));
	struct model *m = &s->models[s->nmodels++];
	memset(m, 0, sizeof(*m));
	m->name = name;
	return m;
}

static struct core *core_of(struct nrtsum *s, int proc, int32_t nc)
{
	uint64_t key = (uint64_t)(uint32_t)proc << 32 | (uint32_t)nc;
	uint32_t *i = u64map_get(&s->core_of, key);
	if (i)
		return &s->cores[*i];
	u64map_put(&s->core_of, key, (uint32_t)s->ncores);
	s->cores = xreallocarray(s->cores, s->ncores + 1, sizeof(*s->cores));
	struct core *c = &s->cores[s->ncores++];
	memset(c, 0, sizeof(*c));
	c->proc = proc;
	c->nc = nc;
	return c;
}

/* The next execution on a core, in entry order: it overlaps the busy interval and grows it,
 * or a new interval starts. */
static void sweep(struct core *c, int64_t t0, int64_t t1)
{
	if (c->open && t1 < c->cur0) {
		/* out of entry order (a call that never returned, emitted at the end) */
		c->busy = sat_add(c->busy, t1 - t0);
		return;
	}
	if (c->open && t0 <= c->cur1) {
		if (t1 > c->cur1)
			c->cur1 = t1;
		if (t0 < c->cur0)
			c->cur0 = t0;
		return;
	}
	if (c->open)
		c->busy = sat_add(c->busy, c->cur1 - c->cur0);
	c->cur0 = t0;
	c->cur1 = t1;
	c->open = 1;
}

static void execution(struct nrtsum *s, const struct event *ev, const struct nrt_info *ni, int64_t dur)
{
	struct model *m = model_of(s, ni->model);
	agg_add(&m->t, dur);
	if (nrt_failed(ev->call->ret))
		m->failed++;
	if (ni->has_exec) {
		m->in_bytes += ni->x.in_bytes;
		m->out_bytes += ni->x.out_bytes;
	}
	int32_t first;
	int n = nrt_cores(ni, &first);
	for (int k = 0; k < n; k++) {
		int32_t nc = first + k;
		if (nc < CORE_BITS)
			m->cores[nc / 64] |= 1ull << (nc % 64);
		else
			m->more_cores = 1;
		struct core *c = core_of(s, ev->proc->index, nc);
		c->execs++;
		sweep(c, ev->t0, ev->t0 + dur);
	}
}

static void failure(struct nrtsum *s, uint32_t name, int status, uint64_t count)
{
	for (size_t i = 0; i < s->nfails; i++)
		if (s->fails[i].name == name && s->fails[i].status == status) {
			s->fails[i].count += count;
			return;
		}
	s->fails = xreallocarray(s->fails, s->nfails + 1, sizeof(*s->fails));
	s->fails[s->nfails++] = (struct failure){ name, status, count };
}

void nrtsum_event(struct nrtsum *s, const struct event *ev)
{
	const struct nrt_info *ni = nrt_info_of(ev);
	int64_t dur = ev->t1 > ev->t0 ? ev->t1 - ev->t0 : 0;
	s->calls++;
	if (nrt_failed(ev->call->ret))
		failure(s, ev->name, ev->call->ret, 1);
	if (!ni)
		return;
	if (ni->a.op == TPROF_NRT_EXECUTE && ni->model) {
		execution(s, ev, ni, dur);
		return;
	}
	int op = ni->a.op - TPROF_NRT_TENSOR_READ;
	if (nrt_traffic_name(ni->a.op) && op >= 0 && op < 4) {
		struct traffic *t = &s->traffic[op][ni->a.placement < 3 ? ni->a.placement : 3];
		t->calls++;
		t->bytes += ni->a.bytes;
		t->time = sat_add(t->time, dur);
	}
}

/* ---- the parallel analyzer's partial tables ---------------------------------------------- */

static void core_close(struct core *c)
{
	if (c->open)
		c->busy = sat_add(c->busy, c->cur1 - c->cur0);
	c->open = 0;
}

void nrtsum_pack(struct nrtsum *s, struct pack *b)
{
	pack_u64(b, s->calls);
	pack_u64(b, s->nmodels);
	for (size_t i = 0; i < s->nmodels; i++) {
		const struct model *m = &s->models[i];
		pack_name(b, m->name);
		pack_u64(b, m->t.calls);
		pack_i64(b, m->t.total);
		pack_i64(b, m->t.min);
		pack_i64(b, m->t.max);
		pack_u64(b, m->failed);
		pack_u64(b, m->in_bytes);
		pack_u64(b, m->out_bytes);
		pack_bytes(b, m->cores, sizeof(m->cores));
		pack_i64(b, m->more_cores);
	}
	pack_u64(b, s->ncores);
	for (size_t i = 0; i < s->ncores; i++) {
		struct core *c = &s->cores[i];
		core_close(c);
		pack_i64(b, c->proc);
		pack_i64(b, c->nc);
		pack_u64(b, c->execs);
		pack_i64(b, c->busy);
	}
	for (int op = 0; op < 4; op++)
		for (int at = 0; at < 4; at++) {
			const struct traffic *t = &s->traffic[op][at];
			pack_u64(b, t->calls);
			pack_u64(b, t->bytes);
			pack_i64(b, t->time);
		}
	pack_u64(b, s->nfails);
	for (size_t i = 0; i < s->nfails; i++) {
		pack_name(b, s->fails[i].name);
		pack_i64(b, s->fails[i].status);
		pack_u64(b, s->fails[i].count);
	}
}

void nrtsum_merge(struct nrtsum *s, struct unpack *u)
{
	s->calls += unpack_u64(u);
	size_t n = unpack_count(u, 9 * sizeof(uint64_t) + CORE_BITS / 8);
	for (size_t i = 0; i < n; i++) {
		struct model *m = model_of(s, unpack_name(u));
		struct agg t;
		t.calls = unpack_u64(u);
		t.total = unpack_i64(u);
		t.min = unpack_i64(u);
		t.max = unpack_i64(u);
		agg_merge(&m->t, &t);
		m->failed += unpack_u64(u);
		m->in_bytes += unpack_u64(u);
		m->out_bytes += unpack_u64(u);
		uint64_t cores[CORE_BITS / 64];
		unpack_bytes(u, cores, sizeof(cores));
		for (int k = 0; k < CORE_BITS / 64; k++)
			m->cores[k] |= cores[k];
		m->more_cores |= unpack_i64(u) != 0;
	}
	n = unpack_count(u, 4 * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		int proc = (int)unpack_i64(u);
		struct core *c = core_of(s, proc, (int32_t)unpack_i64(u));
		c->execs += unpack_u64(u);
		c->busy = sat_add(c->busy, unpack_i64(u));
	}
	for (int op = 0; op < 4; op++)
		for (int at = 0; at < 4; at++) {
			struct traffic *t = &s->traffic[op][at];
			t->calls += unpack_u64(u);
			t->bytes += unpack_u64(u);
			t->time = sat_add(t->time, unpack_i64(u));
		}
	n = unpack_count(u, 3 * sizeof(uint64_t));
	for (size_t i = 0; i < n; i++) {
		uint32_t name = unpack_name(u);
		int status = (int)unpack_i64(u);
		failure(s, name, status, unpack_u64(u));
	}
}

/* ---- printing ----------------------------------------------------------------------------- */

static double gbps(uint64_t bytes, int64_t ns)
{
	return ns > 0 ? (double)bytes / (double)ns : 0.0;
}

/* Three decimals, or three significant digits for rates under 0.01 GB/s (small tensors of a
 * long execution), which would otherwise print as 0.000: 0.0000997, never 9.97e-05. */
static const char *fmt_gbps(double v, char *buf, size_t len)
{
	if (v == 0.0 || v >= 0.01)
		snprintf(buf, len, "%.3f", v);
	else
		fmt_sig(v, 3, buf, len);
	return buf;
}

/* "0-3,6" */
static const char *core_list(const struct model *m, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < CORE_BITS && o + 24 < len;) {
		if (!(m->cores[i / 64] >> (i % 64) & 1)) {
			i++;
			continue;
		}
		int j = i;
		while (j + 1 < CORE_BITS && m->cores[(j + 1) / 64] >> ((j + 1) % 64) & 1)
			j++;
		o += (size_t)snprintf(buf + o, len - o, o ? ",%d" : "%d", i);
		if (j > i)
			o += (size_t)snprintf(buf + o, len - o, "-%d", j);
		i = j + 1;
	}
	if (m->more_cores && o + 8 < len)
		snprintf(buf + o, len - o, o ? ",..." : "...");
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

static int by_total(const void *a, const void *b)
{
	const struct model *x = a, *y = b;
	if (x->t.total != y->t.total)
		return x->t.total > y->t.total ? -1 : 1;
	return strcmp(strings_get(x->name), strings_get(y->name));
}

static void model_row(struct sumw *w, const struct model *m, int64_t sum)
{
	char cores[128], g[32];
	double rate = gbps(m->in_bytes + m->out_bytes, m->t.total);
	sw_obj(w, NULL);
	sw_real(w, "%7.1f %% ", "total_pct", sum ? 100.0 * (double)m->t.total / (double)sum : 0.0);
	sw_dur(w, "%12s ", "time_ns", m->t.total);
	sw_count(w, "%10s ", "execs", m->t.calls);
	sw_dur(w, "%12s ", "avg_ns", m->t.total / (int64_t)m->t.calls);
	sw_dur(w, "%12s ", "min_ns", m->t.min);
	sw_dur(w, "%12s ", "max_ns", m->t.max);
	sw_count(w, "%8s ", "failed", m->failed);
	sw_count(w, "%14s ", "input_bytes", m->in_bytes);
	sw_count(w, "%14s ", "output_bytes", m->out_bytes);
	sw_num(w, "%10s  ", "bandwidth_GBps", rate, fmt_gbps(rate, g, sizeof(g)));
	sw_str(w, "%-8s ", "cores", core_list(m, cores, sizeof(cores)));
	sw_name(w, "name", strings_get(m->name));
	sw_close(w);
}

static void models_table(struct sumw *w, struct nrtsum *s, int top)
{
	if (s->nmodels > 1)
		qsort(s->models, s->nmodels, sizeof(*s->models), by_total);
	int64_t sum = 0;
	for (size_t i = 0; i < s->nmodels; i++)
		sum = sat_add(sum, s->models[i].t.total);
	sw_obj(w, "models");
	sw_if(w, s->nmodels > 0);
	sw_text(w, "\nNRT models: executions by model, all NeuronCores and processes\n");
	sw_text(w, "%9s %12s %10s %12s %12s %12s %8s %14s %14s %10s  %-8s %s\n", "Total(%)", "Time",
		"Execs", "Avg", "Min", "Max", "Failed", "Input bytes", "Output bytes", "GB/s", "Cores",
		"Model");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < s->nmodels ? (size_t)top : s->nmodels;
	for (size_t i = 0; i < shown; i++)
		model_row(w, &s->models[i], sum);
	sw_close(w);
	table_more(w, s->nmodels - shown);
	sw_close(w);
}

static void traffic_table(struct sumw *w, struct nrtsum *s)
{
	static const char *const place[] = { "device", "host", "virtual", "?" };
	int any = 0;
	for (int op = 0; op < 4; op++)
		for (int p = 0; p < 4; p++)
			any |= s->traffic[op][p].calls != 0;
	sw_obj(w, "tensor_traffic");
	sw_if(w, any);
	sw_text(w, "\nNRT tensor traffic\n%10s %16s %12s %10s  %-9s %s\n", "Calls", "Bytes", "Time",
		"GB/s", "Operation", "Placement");
	sw_endif(w);
	sw_arr(w, "rows");
	for (int op = 0; op < 4; op++)
		for (int p = 0; p < 4; p++) {
			const struct traffic *t = &s->traffic[op][p];
			if (!t->calls)
				continue;
			char g[32];
			double rate = gbps(t->bytes, t->time);
			sw_obj(w, NULL);
			sw_count(w, "%10s ", "calls", t->calls);
			sw_count(w, "%16s ", "bytes", t->bytes);
			sw_dur(w, "%12s ", "time_ns", t->time);
			sw_num(w, "%10s  ", "bandwidth_GBps", rate, fmt_gbps(rate, g, sizeof(g)));
			sw_str(w, "%-9s ", "operation",
			       nrt_traffic_name((unsigned)(TPROF_NRT_TENSOR_READ + op)));
			sw_str(w, "%s\n", "placement", place[p]);
			sw_close(w);
		}
	sw_close(w);
	sw_close(w);
}

static int by_core(const void *a, const void *b)
{
	const struct core *x = a, *y = b;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return x->nc < y->nc ? -1 : x->nc > y->nc;
}

static void cores_table(struct sumw *w, struct nrtsum *s, const struct sum_span *span)
{
	static const struct busy_names names = { "neuroncores", "NeuronCores", "NeuronCores",
						 "Execs", "execs", "NeuronCore", "nc", "nc" };
	if (s->ncores > 1)
		qsort(s->cores, s->ncores, sizeof(*s->cores), by_core);
	struct busy_row *rows = xmallocarray(s->ncores + 1, sizeof(*rows));
	for (size_t i = 0; i < s->ncores; i++) {
		struct core *c = &s->cores[i];
		core_close(c);
		rows[i] = (struct busy_row){ c->proc, c->nc, c->busy, c->execs };
	}
	busy_table(w, &names, rows, s->ncores, span);
	free(rows);
}

static int by_count(const void *a, const void *b)
{
	const struct failure *x = a, *y = b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->status != y->status)
		return x->status < y->status ? -1 : 1;
	return strcmp(strings_get(x->name), strings_get(y->name));
}

static void failures_table(struct sumw *w, struct nrtsum *s, int top)
{
	if (s->nfails > 1)
		qsort(s->fails, s->nfails, sizeof(*s->fails), by_count);
	sw_obj(w, "failures");
	sw_if(w, s->nfails > 0);
	sw_text(w, "\nNRT calls that failed\n%10s  %-34s %s\n", "Calls", "Status", "Call");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < s->nfails ? (size_t)top : s->nfails;
	for (size_t i = 0; i < shown; i++) {
		const struct failure *x = &s->fails[i];
		char st[48];
		const char *name = nrt_status_name(x->status);
		if (!name) {
			snprintf(st, sizeof(st), "NRT_STATUS %d", x->status);
			name = st;
		}
		sw_obj(w, NULL);
		sw_count(w, "%10s  ", "calls", x->count);
		sw_i64(w, NULL, "status_code", x->status);
		sw_str(w, "%-34s ", "status", name);
		sw_name(w, "name", strings_get(x->name));
		sw_close(w);
	}
	sw_close(w);
	table_more(w, s->nfails - shown);
	sw_close(w);
}

void nrtsum_end(struct nrtsum *s, struct sumw *w, const struct sum_span *span, int top)
{
	sw_obj(w, "nrt");
	models_table(w, s, top);
	traffic_table(w, s);
	cores_table(w, s, span);
	failures_table(w, s, top);
	sw_close(w);
	free(s->models);
	u64map_free(&s->model_of);
	free(s->cores);
	u64map_free(&s->core_of);
	free(s->fails);
	free(s);
}

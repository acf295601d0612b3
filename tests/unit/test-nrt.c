/* test-nrt.c — the analyzer's Neuron runtime part on a small synthetic trace (nrtw.h): NRT
 * calls decoded (model names, an unnamed model named by its handle, executions' units,
 * status), the NeuronCore tracks in each --group-by layout (lanes for overlapping work, labels,
 * groups and their order), and the summary's arithmetic (per model, tensor traffic, busy
 * share, failures) against figures worked out by hand. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analyze/runtimes/nrt/nrt.h"
#include "../../analyze/model/output.h"
#include "../../analyze/summary/summary.h"
#include "../../analyze/model/tracks.h"
#include "nrtw.h"
#include "rts.h"
#include "tap.h"

/* ---- the trace ---------------------------------------------------------------------------- */

/* P (host h1, trn2.48xlarge): main runs m1 on core 0 twice (10 us, then 20 us failing with
 * NRT_EXEC_COMPLETED_WITH_NUM_ERR) and m2 on cores 1-2 (30 us); a worker writes a device
 * tensor on core 0 during the first m1 and reads a host tensor.  Q (host h0): an unnamed
 * model on core 0 (5 us). */
static void write_trace(const char *dir)
{
	static struct nw_proc p, q;
	nw_begin(&p, dir, "h1", 500, "./app", "trn2.48xlarge", 200000);
	nw_thread(&p, 1, "app", 500);
	nw_thread(&p, 2, "w", 501);
	nw_exec(&p, 1, 10000, 20000, "m1", 0x10, 0, 1, 1000, 3000, 0, 0);
	nw_exec(&p, 1, 30000, 50000, "m1", 0x10, 0, 1, 1000, 3000, 0, 1003);
	nw_exec(&p, 1, 60000, 90000, "m2", 0x20, 1, 2, 500, 500, 0, 0);
	nw_tensor(&p, 2, "nrt_tensor_write", TPROF_NRT_TENSOR_WRITE, 15000, 17000, "in", 0x30, 0, 0, 4000);
	nw_tensor(&p, 2, "nrt_tensor_read", TPROF_NRT_TENSOR_READ, 40000, 44000, "hb", 0x40, -1, 1, 8000);
	nw_end(&p);
	nw_begin(&q, dir, "h0", 600, "./app", NULL, 200000);
	nw_thread(&q, 1, "app", 600);
	nw_exec(&q, 1, 20000, 25000, NULL, 0xbeef, 0, 1, 100, 100, 0, 0);
	nw_end(&q);
}

/* ---- decoding ----------------------------------------------------------------------------- */

struct seen {
	int calls, first_ok, unnamed_ok, failed_ok, host_ok;
};

static int cap_begin(void *priv, const struct trace *tr)
{
	(void)priv, (void)tr;
	return 0;
}

static void cap_event(void *priv, const struct event *ev)
{
	struct seen *s = priv;
	if (ev->kind != EV_CALL || ev->call->domain != TPROF_DOM_NRT)
		return;
	const struct nrt_info *ni = nrt_info_of(ev);
	int32_t first;
	s->calls++;
	if (!ni)
		return;
	if (ev->t1 - ev->t0 == 10000 && ni->a.op == TPROF_NRT_EXECUTE)
		s->first_ok = ni->has_exec && !strcmp(strings_get(ni->model), "m1") && ni->a.nc == 0 &&
			      ni->x.in_bytes == 1000 && ni->x.out_bytes == 3000 && ev->call->ret == 0 &&
			      !strcmp(strings_get(ev->name), "nrt_execute") && nrt_cores(ni, &first) == 1;
	if (ni->a.handle == 0xbeef)
		s->unnamed_ok = ni->a.name == 0 && !strcmp(strings_get(ni->model), "model 0xbeef");
	if (ev->t1 - ev->t0 == 20000)
		s->failed_ok = ev->call->ret == 1003 &&
			       !strcmp(nrt_status_name(ev->call->ret), "NRT_EXEC_COMPLETED_WITH_NUM_ERR");
	if (ni->a.handle == 0x40)
		s->host_ok = nrt_cores(ni, &first) == 0 && !strcmp(strings_get(ni->a.name), "hb") &&
			     !strcmp(nrt_placement_name(ni->a.placement), "host");
}

static int cap_end(void *priv, const struct trace *tr)
{
	(void)priv, (void)tr;
	return 0;
}

static const struct output_ops cap_ops = { "capture", cap_begin, cap_event, cap_end };

/* ---- tracks ------------------------------------------------------------------------------- */

#define MAXMETA 64

struct meta {
	char what[32], s[640];
	int64_t pid, tid, num;
};

struct metas {
	struct meta v[MAXMETA];
	int n;
};

static void meta_cb(void *ctx, const char *what, int64_t pid, int64_t tid, const char *key,
		    const char *s, int64_t num)
{
	struct metas *m = ctx;
	(void)key;
	if (m->n == MAXMETA)
		return;
	struct meta *x = &m->v[m->n++];
	snprintf(x->what, sizeof(x->what), "%s", what);
	snprintf(x->s, sizeof(x->s), "%s", s ? s : "");
	x->pid = pid;
	x->tid = tid;
	x->num = num;
}

/* The name given to (pid, tid) (tid -1: the group), or "" */
static const char *name_of(const struct metas *m, int64_t pid, int64_t tid)
{
	for (int i = 0; i < m->n; i++)
		if (m->v[i].pid == pid && m->v[i].tid == tid &&
		    !strcmp(m->v[i].what, tid < 0 ? "process_name" : "thread_name"))
			return m->v[i].s;
	return "";
}

static int64_t sort_of(const struct metas *m, int64_t pid, int64_t tid)
{
	for (int i = 0; i < m->n; i++)
		if (m->v[i].pid == pid && m->v[i].tid == tid &&
		    !strcmp(m->v[i].what, tid < 0 ? "process_sort_index" : "thread_sort_index"))
			return m->v[i].num;
	return INT64_MIN;
}

static int same(struct track a, struct track b)
{
	return a.pid == b.pid && a.tid == b.tid;
}

static void test_tracks(struct trace *tr)
{
	struct proc *p = tr->procs[0], *q = tr->procs[1];
	if (strcmp(strings_get(p->host), "h1"))
		p = tr->procs[1], q = tr->procs[0];
	const struct thread *pmain = p->threads[1], *qmain = q->threads[1];
	char pl[512], ql[512], buf[700];
	proc_label(p, pl, sizeof(pl));
	proc_label(q, ql, sizeof(ql));

	/* by process */
	struct tracks *t = tracks_new(TRACKS_BY_PROCESS);
	struct metas m = { .n = 0 };
	struct track th = tracks_thread(t, pmain, 1);
	struct track a = tracks_neuroncore(t, p, 0, 10000, 20000);
	struct track b = tracks_neuroncore(t, p, 0, 15000, 17000);
	struct track c = tracks_neuroncore(t, p, 0, 30000, 50000);
	struct track d = tracks_neuroncore(t, q, 0, 20000, 25000);
	struct track e = tracks_neuroncore(t, p, 1, 60000, 90000);
	tracks_metadata(t, tr, meta_cb, &m);
	ok(a.pid == p->index && same(a, c) && !same(a, b) && b.pid == p->index && d.pid == q->index &&
	   !same(a, e), "by process: a NeuronCore track per process and core, a second lane for overlapping work");
	ok(!strcmp(name_of(&m, a.pid, a.tid), "nc 0") && !strcmp(name_of(&m, b.pid, b.tid), "nc 0 (2)") &&
	   !strcmp(name_of(&m, e.pid, e.tid), "nc 1"), "by process: labelled nc 0, nc 0 (2), nc 1 (got '%s', '%s')",
	   name_of(&m, a.pid, a.tid), name_of(&m, b.pid, b.tid));
	ok(sort_of(&m, th.pid, th.tid) < sort_of(&m, a.pid, a.tid) &&
	   sort_of(&m, a.pid, a.tid) < sort_of(&m, b.pid, b.tid) &&
	   sort_of(&m, b.pid, b.tid) < sort_of(&m, e.pid, e.tid), "by process: cores sorted after the threads, by core and lane");
	struct track_info ia, ib, ie, it, is;
	ok(!tracks_info(t, a, &ia) && !strcmp(ia.kind, "neuroncore") && ia.proc == p &&
	   ia.device == 0 && ia.number == 0 && !tracks_info(t, b, &ib) && ib.number == 1 &&
	   !tracks_info(t, e, &ie) && ie.device == 1 && !tracks_info(t, th, &it) &&
	   !strcmp(it.kind, "thread") && it.thread == pmain &&
	   tracks_info(t, tracks_steps(t, p), &is) == -1,
	   "tracks_info: what each track is, looked up by the track (none for steps)");
	tracks_free(t);

	/* by NeuronCore */
	t = tracks_new(TRACKS_BY_NEURONCORE);
	m.n = 0;
	th = tracks_thread(t, pmain, 1);
	a = tracks_neuroncore(t, p, 0, 10000, 20000);
	d = tracks_neuroncore(t, q, 0, 20000, 25000);
	e = tracks_neuroncore(t, p, 1, 60000, 90000);
	tracks_metadata(t, tr, meta_cb, &m);
	ok(a.pid == d.pid && a.tid != d.tid && e.pid != a.pid && th.pid == p->index,
	   "by neuroncore: core 0 of both processes in one group, core 1 in another, threads by process");
	ok(!strcmp(name_of(&m, a.pid, -1), "nc 0") && !strcmp(name_of(&m, e.pid, -1), "nc 1") &&
	   !strcmp(name_of(&m, a.pid, a.tid), pl) && !strcmp(name_of(&m, d.pid, d.tid), ql),
	   "by neuroncore: groups 'nc 0', 'nc 1', tracks named by process (got '%s', '%s')",
	   name_of(&m, a.pid, -1), name_of(&m, a.pid, a.tid));
	ok(sort_of(&m, a.pid, -1) < sort_of(&m, e.pid, -1) && sort_of(&m, e.pid, -1) < 0 &&
	   sort_of(&m, a.pid, a.tid) < sort_of(&m, d.pid, d.tid),
	   "by neuroncore: core groups first, in core order; processes in trace order within");
	tracks_free(t);

	/* by instance */
	t = tracks_new(TRACKS_BY_INSTANCE);
	tracks_begin(t, tr);
	m.n = 0;
	th = tracks_thread(t, pmain, 1);
	a = tracks_neuroncore(t, p, 0, 10000, 20000);
	struct track qt = tracks_thread(t, qmain, 1);
	d = tracks_neuroncore(t, q, 0, 20000, 25000);
	tracks_metadata(t, tr, meta_cb, &m);
	ok(th.pid == a.pid && qt.pid == d.pid && th.pid != qt.pid && th.pid != p->index,
	   "by instance: a process's threads and cores in its host's group");
	snprintf(buf, sizeof(buf), "%s: nc 0", pl);
	ok(!strcmp(name_of(&m, th.pid, -1), "h1 (trn2.48xlarge)") && !strcmp(name_of(&m, qt.pid, -1), "h0") &&
	   !strcmp(name_of(&m, a.pid, a.tid), buf),
	   "by instance: groups named by host and instance type, tracks by process (got '%s', '%s')",
	   name_of(&m, th.pid, -1), name_of(&m, a.pid, a.tid));
	ok(sort_of(&m, qt.pid, -1) < sort_of(&m, th.pid, -1) && sort_of(&m, th.pid, th.tid) < sort_of(&m, a.pid, a.tid),
	   "by instance: hosts in name order, a process's threads before its cores");
	tracks_free(t);

	/* by domain */
	t = tracks_new(TRACKS_BY_DOMAIN);
	m.n = 0;
	a = tracks_neuroncore(t, p, 0, 10000, 20000);
	d = tracks_neuroncore(t, q, 0, 20000, 25000);
	tracks_metadata(t, tr, meta_cb, &m);
	snprintf(buf, sizeof(buf), "%s: nc 0", ql);
	ok(a.pid == d.pid && !strcmp(name_of(&m, a.pid, -1), "NeuronCores") && !strcmp(name_of(&m, d.pid, d.tid), buf),
	   "by domain: every process's cores in the group NeuronCores");
	tracks_free(t);
}

/* ---- the summary -------------------------------------------------------------------------- */

/* The line of `table` (its title's start) whose last field is `name`, or NULL. */
static char *row(char *text, const char *table, const char *name)
{
	char *at = strstr(text, table);
	if (!at)
		return NULL;
	if (*at == '\n')
		at++;
	for (char *line = at; line && *line && *line != '\n'; ) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		size_t nlen = strlen(name);
		if (len > nlen && !strncmp(line + len - nlen, name, nlen) && line[len - nlen - 1] == ' ') {
			static char buf[512];
			snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
			return buf;
		}
		line = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static void test_summary(const char *dir)
{
	struct trace tr = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	trace_load(&tr, dir);
	struct pipeline pl = { .rts = test_runtimes(), .tr = &tr };
	summary_set_runtimes(test_runtimes());
	struct output outs[1] = { output_summary(f, dir, 0) };
	pl.outs = outs;
	pl.nouts = 1;
	outs[0].ops->begin(outs[0].priv, &tr);
	merge_run(&tr, &pl);
	outs[0].ops->end(outs[0].priv, &tr);
	fclose(f);
	char *r;
	/* m1: 2 executions, 10 + 20 us, one failed, 2 x 1000 in, 2 x 3000 out: 8000 B / 30 us */
	r = row(text, "NRT models", "m1");
	ok(r && strstr(r, "  30.000 us ") && strstr(r, " 2 ") && strstr(r, " 15.000 us ") &&
	   strstr(r, " 10.000 us ") && strstr(r, " 20.000 us ") && strstr(r, " 2,000 ") &&
	   strstr(r, " 6,000 ") && strstr(r, " 0.267 ") && strstr(r, " 0 "),
	   "models: m1 time, executions, avg, min, max, bytes, GB/s, core (%s)", r ? r : "no row");
	ok(r && strstr(r, "        1 ") , "models: m1 counts its failed execution");
	r = row(text, "NRT models", "m2");
	ok(r && strstr(r, " 30.000 us ") && strstr(r, " 0.033 ") && strstr(r, " 1-2 "),
	   "models: m2 on cores 1-2, (500 + 500) B / 30 us (%s)", r ? r : "no row");
	r = row(text, "NRT models", "model 0xbeef");
	ok(r && strstr(r, " 5.000 us ") && strstr(r, " 0.040 "), "models: the unnamed model by its handle (%s)", r ? r : "no row");
	r = row(text, "NRT models", "m2");
	char *share = row(text, "NRT models", "m1");
	ok(share && strstr(share, "46.2 %"), "models: m1's share of all execution time, 30 / 65 us");
	r = row(text, "NRT tensor traffic", "device");
	ok(r && strstr(r, " 4,000 ") && strstr(r, " 2.000 us ") && strstr(r, " 2.000 ") && strstr(r, "write"),
	   "traffic: the device write, 4000 B in 2 us (%s)", r ? r : "no row");
	r = row(text, "NRT tensor traffic", "host");
	ok(r && strstr(r, " 8,000 ") && strstr(r, " 4.000 us ") && strstr(r, "read"),
	   "traffic: the host read (%s)", r ? r : "no row");
	/* core 0 of P: 10 + 20 us of executions; the tensor write inside the first is not an
	 * execution */
	char *cov = strstr(text, "NeuronCores: busy share of the covered time (");
	double covered_us = cov ? atof(cov + strlen("NeuronCores: busy share of the covered time (")) : 0;
	r = row(text, "\nNeuronCores:", "nc 0 of app (h1, pid 500)");
	char want[32];
	snprintf(want, sizeof(want), "%.1f %%", 100.0 * 30.0 / covered_us);
	ok(r && strstr(r, " 30.000 us ") && strstr(r, want) && strstr(r, "  2  "),
	   "cores: nc 0 busy 30 us of %.3f us covered, 2 executions (%s)", covered_us, r ? r : "no row");
	r = row(text, "\nNeuronCores:", "nc 2 of app (h1, pid 500)");
	ok(r && strstr(r, " 30.000 us "), "cores: m2 keeps core 2 busy too");
	r = row(text, "NRT calls that failed", "nrt_execute");
	ok(r && strstr(r, "NRT_EXEC_COMPLETED_WITH_NUM_ERR") && strstr(r, " 1 "), "failures: by status and call");
	ok(strstr(text, "\nNRT API\n") != NULL, "the NRT API table");
	if (tap_failed)
		fputs(text, stdout);
	free(text);
	trace_free(&tr);
}

int main(void)
{
	char dir[] = "/tmp/tprof-nrt-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	write_trace(dir);

	struct trace tr = { 0 };
	ok(trace_load(&tr, dir) == 0 && tr.nprocs == 2, "two processes load");
	struct seen s = { 0 };
	struct output outs[1] = { { &cap_ops, &s } };
	struct pipeline pl = { .rts = test_runtimes(), .tr = &tr, .outs = outs, .nouts = 1 };
	merge_run(&tr, &pl);
	is_u64(s.calls, 6, "six NRT calls");
	ok(s.first_ok, "an execution: model name, core, input and output bytes, status, one core");
	ok(s.unnamed_ok, "an unnamed model is named by its handle");
	ok(s.failed_ok, "a failed execution's status by its NRT_STATUS name");
	ok(s.host_ok, "a host tensor's call: tensor name, placement, on no NeuronCore");
	test_tracks(&tr);
	trace_free(&tr);

	test_summary(dir);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return tap_done();
}

/* diagnose/report.c — the diagnosis as text or JSON (summary/write.h): the findings first,
 * each with what the one who caused it was doing and the command that writes its time as a
 * Perfetto trace; then where the time went over the whole job, each step's spread over the
 * ranks (imbalance), each process's split, the wait states by kind and place, and the
 * launches.  docs/summary-json.md describes the JSON. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../read/trace.h"
#include "../summary/write.h"
#include "../util/fmt.h"
#include "state.h"

static const char *proc_name(const struct dproc *dp, char *buf, size_t len)
{
	if (dp->p->rank >= 0)
		snprintf(buf, len, "rank %" PRId64, dp->p->rank);
	else
		snprintf(buf, len, "pid %" PRId64, dp->p->pid);
	return buf;
}

/* "... 5 more steps (--top 0 shows all)" in text, when some were not shown. */
static void more_line(struct sumw *w, size_t n, const char *what)
{
	sw_if(w, n > 0);
	sw_text(w, "  ... %zu more %s (--top 0 shows all)\n", n, what);
	sw_endif(w);
}

static void proc_cells(struct sumw *w, const struct dproc *dp)
{
	sw_obj(w, "process");
	sw_i64(w, NULL, "index", dp->p->index);
	if (dp->p->rank >= 0)
		sw_i64(w, NULL, "rank", dp->p->rank);
	else
		sw_null(w, NULL, "rank", NULL);
	sw_i64(w, NULL, "pid", dp->p->pid);
	sw_str(w, NULL, "host", dp->p->host ? strings_get(dp->p->host) : "");
	sw_close(w);
}

/* DIR as a shell word. */
static void shell_word(char *buf, size_t len, const char *s)
{
	int plain = *s != '\0';
	for (const char *c = s; *c; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+,:@",
			    *c))
			plain = 0;
	if (plain) {
		snprintf(buf, len, "%s", s);
		return;
	}
	size_t n = 0;
	buf[n++] = '\'';
	for (const char *c = s; *c && n + 5 < len; c++) {
		if (*c == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *c;
		}
	}
	buf[n++] = '\'';
	buf[n] = '\0';
}

/* The command that writes the time of a finding as a Perfetto trace: its step, or its time
 * with a tenth more on each side. */
void report_look(char *buf, size_t len, const char *dir, size_t nth, int has_step,
		 uint64_t step, int64_t t0, int64_t t1)
{
	char d[1024];
	shell_word(d, sizeof(d), dir);
	if (has_step) {
		snprintf(buf, len, "tprof-analyze %s --steps %" PRIu64
			 " -f perfetto -o step-%" PRIu64 ".pftrace", d, step, step);
	} else {
		int64_t m = (t1 - t0) / 10;
		int64_t a = t0 - m > 0 ? (t0 - m) / 1000 : 0, b = (t1 + m + 999) / 1000;
		snprintf(buf, len, "tprof-analyze %s --start %" PRId64 " --end %" PRId64
			 " -f perfetto -o finding-%zu.pftrace", d, a, b, nth);
	}
}

static void look_line(struct sumw *w, const char *dir, size_t nth, int has_step, uint64_t step,
		 int64_t t0, int64_t t1)
{
	char cmd[1400];
	report_look(cmd, sizeof(cmd), dir, nth, has_step, step, t0, t1);
	sw_str(w, "     look: %s\n", "look", cmd);
}

static void where_cells(struct sumw *w, int has_step, uint64_t step, int64_t t0, int64_t t1)
{
	sw_obj(w, "where");
	if (has_step)
		sw_u64(w, NULL, "step", step);
	else
		sw_null(w, NULL, "step", NULL);
	sw_i64(w, NULL, "start_ns", t0);
	sw_i64(w, NULL, "end_ns", t1);
	sw_close(w);
}

/* "in step 3" or "10 times in 10 steps (median 10.01 ms; longest 12.1 ms in step 4)";
 * median < 0: none to say. */
static void when_text(char *buf, size_t len, uint64_t n, uint64_t steps, int has_step, uint64_t step,
		 int64_t max, int64_t median)
{
	char t[32], m[64] = "";
	if (median >= 0 && n > 1) {
		char v[32];
		snprintf(m, sizeof(m), "median %s; ", fmt_dur(median, v, sizeof(v)));
	}
	if (has_step && steps <= 1 && n <= 1)
		snprintf(buf, len, "in step %" PRIu64, step);
	else if (has_step)
		snprintf(buf, len, "%" PRIu64 " %s in %" PRIu64 " %s (%slongest %s in step %" PRIu64
			 ")", n, n == 1 ? "time" : "times", steps, steps == 1 ? "step" : "steps", m,
			 fmt_dur(max, t, sizeof(t)), step);
	else
		snprintf(buf, len, "%" PRIu64 " %s (%slongest %s)", n, n == 1 ? "time" : "times", m,
			 fmt_dur(max, t, sizeof(t)));
}

static int by_ns_desc(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;   /* { ns, cat } */
	if (x[0] != y[0])
		return x[0] > y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* What the late one was doing while late: the categories, most first. */
static void while_late(struct sumw *w, const struct delay_group *g)
{
	int64_t v[CATS][2];
	for (unsigned c = 0; c < CATS; c++) {
		v[c][0] = g->ex[c];
		v[c][1] = c;
	}
	qsort(v, CATS, sizeof(v[0]), by_ns_desc);
	sw_text(w, "     while late:");
	sw_arr(w, "while_late");
	int said = 0;
	for (unsigned i = 0; i < CATS; i++) {
		unsigned c = (unsigned)v[i][1];
		if (!g->ex[c])
			continue;
		sw_obj(w, NULL);
		sw_text(w, "%s", said && said < 3 ? "," : "");
		sw_if(w, said < 3);
		sw_dur(w, " %s", "ns", g->ex[c]);
		sw_str(w, " %s", "category", part_key(c));
		if (g->ex_top[c])
			sw_str(w, " (%s)", "top", strings_get(g->ex_top[c]));
		else
			sw_null(w, NULL, "top", NULL);
		if (c == CAT_HOST && g->after && !g->ex_top[c])
			sw_str(w, " (after %s)", "after_call", strings_get(g->after));
		else
			sw_null(w, NULL, "after_call", NULL);
		sw_endif(w);
		sw_close(w);
		said++;
	}
	sw_close(w);
	sw_text(w, "%s\n", said ? "" : " nothing recorded");
}

static const char *late_words(unsigned kind)
{
	switch (kind) {
	case WAIT_LATE_SENDER: return "sent a message late";
	case WAIT_LATE_RECEIVER: return "posted a receive late";
	case WAIT_LATE_BROADCAST: return "came late as the root of";
	case WAIT_EARLY_REDUCE: return "came last to (its root waited)";
	case WAIT_DEVICE_COLL: return "started last on its device:";
	default: return "came last to";
	}
}

/* "rank 2 came last to MPI_Allreduce (comm 0x1)" in text; kind, site, comm, the late
 * process in JSON. */
static void late_line(struct diagnosis *dx, struct sumw *w, const struct delay_group *g)
{
	char a[64];
	const struct dproc *dp = dx->procs[g->proc];
	sw_str(w, NULL, "kind", wait_kind_key(g->kind));
	sw_text(w, "%s %s", proc_name(dp, a, sizeof(a)), late_words(g->kind));
	if (g->site)
		sw_str(w, " %s", "site", strings_get(g->site));
	else
		sw_null(w, NULL, "site", NULL);
	if (g->caller)
		sw_str(w, " from %s", "caller", strings_get(g->caller));
	else
		sw_null(w, NULL, "caller", NULL);
	char comm[32];
	snprintf(comm, sizeof(comm), "0x%" PRIx64, g->comm);
	if (g->comm)
		sw_str(w, " (comm %s)", "comm", comm);
	else
		sw_null(w, NULL, "comm", NULL);
	sw_bool(w, "on_device", g->on_device);
	proc_cells(w, dp);
}

static void wait_finding(struct diagnosis *dx, struct sumw *w, const char *dir, size_t nth,
			 const struct delay_group *g)
{
	char b[32], c[32], t[200];
	when_text(t, sizeof(t), g->n, g->steps, g->max_has_step, g->max_step, g->max, g->median);
	sw_text(w, "  %zu. ", nth);
	late_line(dx, w, g);
	sw_text(w, ": %s, %s; %" PRIu32 " waited %s in all\n", fmt_dur(g->cost, b, sizeof(b)), t,
		g->waiters, fmt_dur(g->waited, c, sizeof(c)));
	sw_u64(w, NULL, "instances", g->n);
	sw_i64(w, NULL, "median_ns", g->median);
	sw_u64(w, NULL, "steps", g->steps);
	sw_i64(w, NULL, "waited_ns", g->waited);
	sw_u64(w, NULL, "waiters_max", g->waiters);
	sw_obj(w, "longest");
	sw_i64(w, NULL, "ns", g->max);
	sw_u64(w, NULL, "seq", g->max_seq);
	where_cells(w, g->max_has_step, g->max_step, g->max_t0, g->max_t1);
	sw_close(w);
	while_late(w, g);
	/* came late because it computes more than the others, step after step */
	const struct dproc *dp = dx->procs[g->proc];
	int excess = g->steps > 1 && dp->most_compute * 4 >= dp->steps * 3 &&
		     dp->excess_median * 2 >= g->median;
	sw_obj(w, "compute_excess");
	sw_bool(w, "applies", excess);
	sw_if(w, excess);
	sw_u64(w, "     its device computed the longest in %" PRIu64, "steps", dp->most_compute);
	sw_u64(w, " of %" PRIu64 " steps", "of_steps", dp->steps);
	sw_dur(w, ", %s more than the others' mean (median)\n", "median_ns", dp->excess_median);
	sw_endif(w);
	sw_close(w);
	look_line(w, dir, nth, g->max_has_step, g->max_step, g->max_t0, g->max_t1);
}

static void own_finding(struct diagnosis *dx, struct sumw *w, const char *dir, size_t nth,
			unsigned i)
{
	const struct dproc *dp = dx->procs[i / OWN_KINDS];
	unsigned k = i % OWN_KINDS;
	const struct own_cost *o = &dp->own[k];
	char a[64], b[32], c[32], t[200];
	if (o->max_has_step)
		when_text(t, sizeof(t), o->steps, o->steps, 1, o->max_step, o->max, -1);
	else
		snprintf(t, sizeof(t), "over its run");
	sw_str(w, NULL, "kind", own_kind_key[k]);
	proc_name(dp, a, sizeof(a));
	fmt_dur(o->total, b, sizeof(b));
	switch (k) {
	case OWN_STARVED:
		sw_text(w, "  %zu. %s is host-bound: its device streams sat idle %s between kernels "
			"until the host launched the next (%s gaps under 50 ms), %s\n", nth, a, b,
			fmt_count(o->count, c, sizeof(c)), t);
		sw_text(w, "     its kernels: %s, %s on average\n", fmt_count(dp->kernels, c,
			sizeof(c)), fmt_dur(dp->kernels ? dp->kernel_ns / (int64_t)dp->kernels : 0,
			t, sizeof(t)));
		break;
	case OWN_COPY_HELD:
		sw_text(w, "  %zu. %s's kernels waited %s behind copies on their own stream "
			"(%s kernels), %s\n", nth, a, b, fmt_count(o->count, c, sizeof(c)), t);
		if (o->name)
			sw_text(w, "     the copy: %s; another stream would let them overlap\n",
				strings_get(o->name));
		break;
	default:
		sw_text(w, "  %zu. %s waited %s for a CPU (its threads ready to run, the CPUs "
			"busy), %s\n", nth, a, b, t);
		break;
	}
	if (k == OWN_CPU_WAIT && o->by_ns > 0) {
		char lbl[300];
		const struct dproc *q = dx->procs[o->by_proc];
		if (q->label)   /* read by another analysis process */
			snprintf(lbl, sizeof(lbl), "%s", strings_get(q->label));
		else
			proc_label(q->p, lbl, sizeof(lbl));
		sw_obj(w, "ran_meanwhile");
		sw_dur(w, o->max_has_step ? "     running meanwhile on its CPUs, in that step: %s "
					    "of CPU time by "
					  : "     running meanwhile on its CPUs: %s of CPU time by ", "ns",
		       o->by_ns);
		sw_name(w, "label", lbl);
		proc_cells(w, q);
		sw_close(w);
	} else if (k == OWN_CPU_WAIT) {
		sw_null(w, NULL, "ran_meanwhile", NULL);
	}
	if (!o->made)
		sw_null(w, NULL, "made_late", NULL);
	else {
		sw_obj(w, "made_late");
		const struct delay_group *g = &dx->groups[o->made - 1];
		char e[32];
		sw_text(w, "     and so ");
		late_line(dx, w, g);
		sw_text(w, " %" PRIu64 " %s: %s; %" PRIu32 " waited %s in all\n", g->n,
			g->n == 1 ? "time" : "times", fmt_dur(g->cost, c, sizeof(c)), g->waiters,
			fmt_dur(g->waited, e, sizeof(e)));
		sw_i64(w, NULL, "cost_ns", g->cost);
		sw_u64(w, NULL, "instances", g->n);
		sw_u64(w, NULL, "waiters_max", g->waiters);
		sw_i64(w, NULL, "waited_ns", g->waited);
		sw_close(w);
	}
	proc_cells(w, dp);
	sw_u64(w, NULL, "count", o->count);
	sw_u64(w, NULL, "steps", o->steps);
	if (o->name)
		sw_str(w, NULL, "name", strings_get(o->name));
	else
		sw_null(w, NULL, "name", NULL);
	sw_obj(w, "longest");
	sw_i64(w, NULL, "ns", o->max);
	where_cells(w, o->max_has_step, o->max_step, o->max_t0, o->max_t1);
	sw_close(w);
	look_line(w, dir, nth, o->max_has_step, o->max_step, o->max_t0, o->max_t1);
}

static const char *const own_words[OWN_KINDS] = {
	"are host-bound: their device streams sat idle between kernels until the host launched "
	"the next",
	"had kernels wait behind copies on their own streams",
	"waited for a CPU (their threads ready to run, the CPUs busy)",
};

/* Many processes with one kind of cost: one finding, led by the one with the most. */
static void own_many_finding(struct diagnosis *dx, struct sumw *w, const char *dir, size_t nth,
			     unsigned k)
{
	const struct own_many *m = &dx->many[k];
	const struct dproc *dp = dx->procs[m->proc];
	const struct own_cost *o = &dp->own[k];
	char a[64], b[32], c[32], e[32];
	sw_str(w, NULL, "kind", own_kind_key[k]);
	sw_u64(w, "  %zu. ", "processes", m->procs);
	sw_text(w, "%zu processes %s: up to %s (%s), %s on average\n", nth, own_words[k],
		fmt_dur(m->max, b, sizeof(b)), proc_name(dp, a, sizeof(a)),
		fmt_dur(m->total / (int64_t)m->procs, c, sizeof(c)));
	sw_i64(w, NULL, "total_ns", m->total);
	sw_i64(w, NULL, "max_ns", m->max);
	proc_cells(w, dp);
	sw_obj(w, "longest");
	sw_i64(w, NULL, "ns", o->max);
	where_cells(w, o->max_has_step, o->max_step, o->max_t0, o->max_t1);
	sw_close(w);
	sw_text(w, "     the longest in one step: %s, %s's\n", fmt_dur(o->max, e, sizeof(e)), a);
	look_line(w, dir, nth, o->max_has_step, o->max_step, o->max_t0, o->max_t1);
}

/* Finding i (from 0), its cells. */
static void finding_cells(struct diagnosis *dx, struct sumw *w, const char *dir, size_t i)
{
	const struct finding *f = &dx->findings[i];
	if (f->kind == F_WAIT)
		wait_finding(dx, w, dir, i + 1, &dx->groups[f->i]);
	else if (f->kind == F_OWN_MANY)
		own_many_finding(dx, w, dir, i + 1, f->i);
	else
		own_finding(dx, w, dir, i + 1, f->i);
}

/* The text of a finding without its number, indentation and look line (a column of its
 * own), in place. */
static void finding_words(char *text)
{
	char *in = text, *out = text;
	while (*in == ' ')
		in++;
	while (*in >= '0' && *in <= '9')
		in++;
	if (*in == '.')
		in++;
	while (*in) {
		while (*in == ' ')
			in++;
		char *nl = strchr(in, '\n');
		size_t n = nl ? (size_t)(nl - in) : strlen(in);
		if (strncmp(in, "look: ", 6) != 0) {
			if (out != text)
				*out++ = '\n';
			memmove(out, in, n);
			out += n;
		}
		in += n + (nl != NULL);
	}
	*out = '\0';
}

char *report_finding_text(struct diagnosis *dx, const char *dir, size_t i)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return xstrdup("");
	struct sumw w;
	sw_init(&w, f, SUMMARY_TEXT);
	sw_obj(&w, NULL);
	finding_cells(dx, &w, dir, i);
	sw_close(&w);
	sw_finish(&w);
	fclose(f);
	finding_words(text);
	return text;
}

static void findings(struct diagnosis *dx, struct sumw *w, const char *dir, int top)
{
	size_t n = dx->nfindings, shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	sw_text(w, "\nFindings, by the time they cost (those of 1%% of a process's time or "
		"more)\n");
	sw_if(w, n == 0);
	sw_text(w, "  none: no wait, idle device or CPU wait costs that much\n");
	sw_endif(w);
	sw_arr(w, "findings");
	for (size_t i = 0; i < n; i++) {
		const struct finding *f = &dx->findings[i];
		sw_obj(w, NULL);
		sw_if(w, i < shown);
		sw_u64(w, NULL, "rank_order", i + 1);
		sw_i64(w, NULL, "cost_ns", f->cost);
		if (w->json) {   /* what the text says of it, for pages and chat messages */
			char *text = report_finding_text(dx, dir, i);
			sw_str(w, NULL, "text", text);
			free(text);
		}
		finding_cells(dx, w, dir, i);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	more_line(w, n - shown, "findings");
}

/* The parts of time: in JSON each in ns; in text, with shares of total, as columns. */
static void cats_cells(struct sumw *w, const int64_t ns[CATS], int64_t total, int shares)
{
	for (unsigned c = 0; c < CATS; c++) {
		char key[32];
		snprintf(key, sizeof(key), "%s_ns", part_key(c));
		sw_i64(w, NULL, key, ns[c]);
		if (shares)
			sw_text(w, " %8.1f%%", total > 0 ? 100.0 * (double)ns[c] / (double)total : 0);
	}
}

/* ---- critical paths ---- */

/* "50.02 ms host outside calls (after hipStreamSynchronize)" */
static void link_words(const struct cp_link *l, char *buf, size_t len)
{
	char d[32];
	fmt_dur(l->cat_ns, d, sizeof(d));
	if (l->name)
		snprintf(buf, len, "%s %s (%s)", d, part_words(l->cat), strings_get(l->name));
	else if (l->after)
		snprintf(buf, len, "%s %s (after %s)", d, part_words(l->cat), strings_get(l->after));
	else
		snprintf(buf, len, "%s %s", d, part_words(l->cat));
}

/* The link that says most of why the step took long: the longest that made others wait,
 * else the longest. */
static const struct cp_link *key_link(const struct step_agg *s)
{
	const struct cp_link *best = NULL;
	for (int pass = 0; pass < 2 && !best; pass++)
		for (uint32_t i = 0; i < s->npath; i++) {
			const struct cp_link *l = &s->path[i];
			if ((pass || l->has_via) && (!best || l->t1 - l->t0 > best->t1 - best->t0))
				best = l;
		}
	return best;
}

/* "step 3: 70.7 ms (median 20.5 ms); 70.2 ms on rank 2: 50.0 ms host outside calls (after
 * hipStreamSynchronize) -> late into MPI_Allreduce #5 (3 waited 150.3 ms in all)" */
void report_cause(struct diagnosis *dx, const struct step_agg *s, int64_t median, char *buf,
		  size_t len)
{
	char a[32], b[32], c[32], who_[64], what[400], via[400] = "";
	const struct cp_link *l = key_link(s);
	if (!l) {
		snprintf(buf, len, "step %" PRIu64 ": %s (median %s)", s->step,
			 fmt_dur(s->dur_max, a, sizeof(a)), fmt_dur(median, b, sizeof(b)));
		return;
	}
	link_words(l, what, sizeof(what));
	if (l->has_via && l->via_site)
		snprintf(via, sizeof(via), " -> late into %s #%" PRIu32 " (%" PRIu32
			 " waited %s in all)", strings_get(l->via_site), l->via_seq, l->via_waiters,
			 fmt_dur(l->via_waited, c, sizeof(c)));
	else if (l->has_via)
		snprintf(via, sizeof(via), " -> a late message (%" PRIu32 " waited %s in all)",
			 l->via_waiters, fmt_dur(l->via_waited, c, sizeof(c)));
	int n = snprintf(buf, len, "step %" PRIu64 ": %s (median %s); %s on %s: %s%s", s->step,
			 fmt_dur(s->dur_max, a, sizeof(a)), fmt_dur(median, b, sizeof(b)),
			 fmt_dur(l->t1 - l->t0, c, sizeof(c)),
			 proc_name(dx->procs[l->proc], who_, sizeof(who_)), what, via);
	/* it began the step late: what set the length came before */
	if (n > 0 && (size_t)n < len && s->late_start * 10 > s->dur_max)
		snprintf(buf + n, len - (size_t)n, "; %s began the step %s after the first",
			 proc_name(dx->procs[s->late_proc], who_, sizeof(who_)),
			 fmt_dur(s->late_start, a, sizeof(a)));
}

static void path_cells(struct diagnosis *dx, struct sumw *w, const struct step_agg *s,
		       int text)
{
	char a[64], what[400], d[32];
	sw_i64(w, NULL, "late_start_ns", s->late_start);
	sw_arr(w, "critical_path");
	for (uint32_t i = 0; i < s->npath; i++) {
		const struct cp_link *l = &s->path[i];
		sw_obj(w, NULL);
		sw_if(w, text);
		sw_str(w, "    %-10s", NULL, proc_name(dx->procs[l->proc], a, sizeof(a)));
		sw_dur(w, " %12s: ", "ns", l->t1 - l->t0);
		link_words(l, what, sizeof(what));
		sw_text(w, "%s", what);
		proc_cells(w, dx->procs[l->proc]);
		sw_i64(w, NULL, "start_ns", l->t0);
		sw_i64(w, NULL, "end_ns", l->t1);
		sw_str(w, NULL, "category", part_key(l->cat));
		sw_i64(w, NULL, "category_ns", l->cat_ns);
		if (l->name)
			sw_str(w, NULL, "top", strings_get(l->name));
		else
			sw_null(w, NULL, "top", NULL);
		if (l->after)
			sw_str(w, NULL, "after_call", strings_get(l->after));
		else
			sw_null(w, NULL, "after_call", NULL);
		if (!l->has_via) {
			sw_null(w, NULL, "via", NULL);
		} else {
			char comm[32];
			snprintf(comm, sizeof(comm), "0x%" PRIx64, l->via_comm);
			sw_obj(w, "via");
			if (l->via_site)
				sw_str(w, " -> %s", "site", strings_get(l->via_site));
			else
				sw_null(w, " -> %s", "site", "a late message");
			sw_if(w, l->via_site != 0);
			sw_u64(w, " #%" PRIu64, "seq", l->via_seq);
			sw_endif(w);
			if (l->via_comm)
				sw_str(w, NULL, "comm", comm);
			else
				sw_null(w, NULL, "comm", NULL);
			sw_u64(w, " (%" PRIu64 " waited", "waiters", l->via_waiters);
			sw_text(w, " %s in all)", fmt_dur(l->via_waited, d, sizeof(d)));
			sw_i64(w, NULL, "waited_ns", l->via_waited);
			sw_close(w);
		}
		sw_text(w, "\n");
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
}

static int by_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The median of the steps' longest ranks. */
int64_t report_steps_median(const struct diagnosis *dx)
{
	if (!dx->nsteps)
		return 0;
	int64_t *v = xmallocarray(dx->nsteps, sizeof(*v));
	for (size_t i = 0; i < dx->nsteps; i++)
		v[i] = dx->steps[i].dur_max;
	qsort(v, dx->nsteps, sizeof(*v), by_i64);
	int64_t m = v[(dx->nsteps - 1) / 2];
	free(v);
	return m;
}

static int by_length(const void *a, const void *b)
{
	const struct step_agg *x = *(const struct step_agg *const *)a;
	const struct step_agg *y = *(const struct step_agg *const *)b;
	if (x->dur_max != y->dur_max)
		return x->dur_max > y->dur_max ? -1 : 1;
	return (x->step > y->step) - (x->step < y->step);
}

/* Steps longer than SLOW_SHARE of the median, longest first, each with its cause; then the
 * critical path of the longest. */
#define SLOW_PCT 110
static void slow_steps(struct diagnosis *dx, struct sumw *w, int64_t median, int top)
{
	const struct step_agg **slow = xmallocarray(dx->nsteps + 1, sizeof(*slow));
	size_t n = 0;
	for (size_t i = 0; i < dx->nsteps; i++)
		if (dx->steps[i].dur_max * 100 > median * SLOW_PCT)
			slow[n++] = &dx->steps[i];
	qsort(slow, n, sizeof(*slow), by_length);
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	char line[1200];
	sw_obj(w, "slow_steps");
	sw_i64(w, NULL, "median_ns", median);
	sw_if(w, dx->nsteps > 0);
	sw_text(w, "\nSlow steps (longer than %d%% of the median step), longest first: why\n",
		SLOW_PCT);
	sw_if(w, n == 0);
	sw_text(w, "  none\n");
	sw_endif(w);
	sw_endif(w);
	sw_arr(w, "rows");
	for (size_t i = 0; i < n; i++) {
		report_cause(dx, slow[i], median, line, sizeof(line));
		sw_obj(w, NULL);
		sw_u64(w, NULL, "step", slow[i]->step);
		sw_i64(w, NULL, "ns", slow[i]->dur_max);
		sw_if(w, i < shown);
		sw_str(w, "  %s\n", "cause", line);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	more_line(w, n - shown, "slow steps");
	sw_if(w, n > 0);
	if (n) {
		sw_text(w, "\nCritical path of step %" PRIu64 ", the longest: the chain of work that "
			"set its length\n", slow[0]->step);
		sw_u64(w, NULL, "longest_step", slow[0]->step);
	} else {
		sw_null(w, NULL, "longest_step", NULL);
	}
	sw_endif(w);
	if (n)
		path_cells(dx, w, slow[0], 1);
	else
		sw_null(w, NULL, "critical_path", NULL);
	sw_close(w);
	free(slow);
}

static void job_split(struct diagnosis *dx, struct sumw *w)
{
	int64_t ns[CATS] = { 0 }, covered = 0;
	for (size_t i = 0; i < dx->nprocs; i++) {
		covered += dx->procs[i]->covered;
		for (unsigned c = 0; c < CATS; c++)
			ns[c] += dx->procs[i]->ns[c];
	}
	char b[32];
	sw_obj(w, "time");
	sw_text(w, "\nWhere the time went (%s, every process; each instant counted once, in "
		"this order)\n", dx->job_steps ? "their steps" : "their runs");
	sw_i64(w, NULL, "covered_ns", covered);
	for (unsigned c = 0; c < CATS; c++) {
		char key[32];
		snprintf(key, sizeof(key), "%s_ns", part_key(c));
		sw_dur(w, "  %12s", key, ns[c]);
		snprintf(b, sizeof(b), "%.1f%%", covered ? 100.0 * (double)ns[c] / (double)covered : 0);
		sw_text(w, "  %6s  %s\n", b, part_words(c));
	}
	sw_close(w);
}

static void steps_table(struct diagnosis *dx, struct sumw *w, int64_t median, int top)
{
	size_t shown = top > 0 && (size_t)top < dx->nsteps ? (size_t)top : dx->nsteps;
	char a[64], b[64];
	sw_if(w, dx->nsteps > 0);
	sw_text(w, "\nSteps over the ranks: the longest; compute (device busy) and waiting, "
		"the most and the mean, and whose\n%8s %6s %12s %12s %12s %-10s %12s %12s %s\n",
		"Step", "Ranks", "Longest", "Compute max", "mean", "(whose)", "Wait max", "mean",
		"(whose)");
	sw_endif(w);
	sw_arr(w, "steps");
	for (size_t i = 0; i < dx->nsteps; i++) {
		const struct step_agg *s = &dx->steps[i];
		sw_obj(w, NULL);
		sw_if(w, i < shown);
		sw_u64(w, "%8" PRIu64, "step", s->step);
		sw_u64(w, " %6" PRIu64, "ranks", s->ranks);
		sw_dur(w, " %12s", "longest_ns", s->dur_max);
		sw_dur(w, " %12s", "compute_max_ns", s->comp_max);
		sw_dur(w, " %12s", "compute_mean_ns", s->comp_sum / (int64_t)s->ranks);
		sw_str(w, " %-10s", NULL, proc_name(dx->procs[s->comp_max_proc], a, sizeof(a)));
		sw_dur(w, " %12s", "wait_max_ns", s->wait_max);
		sw_dur(w, " %12s", "wait_mean_ns", s->wait_sum / (int64_t)s->ranks);
		sw_str(w, " %s\n", NULL, proc_name(dx->procs[s->wait_max_proc], b, sizeof(b)));
		sw_i64(w, NULL, "compute_max_index", dx->procs[s->comp_max_proc]->p->index);
		sw_i64(w, NULL, "compute_min_index", dx->procs[s->comp_min_proc]->p->index);
		sw_i64(w, NULL, "wait_max_index", dx->procs[s->wait_max_proc]->p->index);
		sw_i64(w, NULL, "wait_min_index", dx->procs[s->wait_min_proc]->p->index);
		sw_i64(w, NULL, "longest_index", dx->procs[s->dur_max_proc]->p->index);
		sw_i64(w, NULL, "start_ns", s->t0);
		sw_i64(w, NULL, "end_ns", s->t1);
		sw_obj(w, "time");
		cats_cells(w, s->ns, 0, 0);
		sw_close(w);
		char line[1200];
		report_cause(dx, s, median, line, sizeof(line));
		sw_str(w, NULL, "cause", line);
		path_cells(dx, w, s, 0);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	more_line(w, dx->nsteps - shown, "steps");
}

static void procs_table(struct diagnosis *dx, struct sumw *w, struct dproc **order)
{
	char a[64];
	sw_text(w, "\nEach process: the share of its %s in each part\n%-10s %6s %12s",
		dx->job_steps ? "steps" : "run", "Process", "Steps", "Time");
	for (unsigned c = 0; c < CATS; c++)
		sw_text(w, " %9.9s", part_key(c));
	sw_text(w, "  Steps of most compute\n");
	sw_arr(w, "processes");
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct dproc *dp = order[i];
		if (!dp->covered)
			continue;
		sw_obj(w, NULL);
		proc_cells(w, dp);
		sw_str(w, "%-10s", NULL, proc_name(dp, a, sizeof(a)));
		sw_u64(w, " %6" PRIu64, "steps", dp->steps);
		sw_dur(w, " %12s", "covered_ns", dp->covered);
		cats_cells(w, dp->ns, dp->covered, 1);
		sw_u64(w, "  %" PRIu64 "\n", "most_compute_steps", dp->most_compute);
		sw_u64(w, NULL, "most_wait_steps", dp->most_wait);
		sw_u64(w, NULL, "kernels", dp->kernels);
		sw_i64(w, NULL, "kernel_ns", dp->kernel_ns);
		sw_i64(w, NULL, "host_bound_ns", dp->own[OWN_STARVED].total);
		sw_u64(w, NULL, "host_bound_gaps", dp->own[OWN_STARVED].count);
		sw_i64(w, NULL, "copy_held_ns", dp->own[OWN_COPY_HELD].total);
		sw_u64(w, NULL, "copy_held_kernels", dp->own[OWN_COPY_HELD].count);
		sw_u64(w, NULL, "delays_outside_steps", dp->outside);
		sw_close(w);
	}
	sw_close(w);
}

static void waits_table(struct diagnosis *dx, struct sumw *w, int top)
{
	size_t shown = top > 0 && (size_t)top < dx->nrows ? (size_t)top : dx->nrows;
	char a[64];
	sw_if(w, dx->nrows > 0);
	sw_text(w, "\nWait states (the whole profile): who waited, where, how long\n"
		"%12s %10s  %-22s %-10s %-20s %s\n", "Time", "Count", "Kind", "Waiter", "Comm",
		"Where");
	sw_endif(w);
	sw_arr(w, "wait_states");
	for (size_t i = 0; i < dx->nrows; i++) {
		const struct wait_row *r = &dx->rows[i];
		char comm[32];
		snprintf(comm, sizeof(comm), "0x%" PRIx64, r->comm);
		sw_obj(w, NULL);
		sw_if(w, i < shown);
		sw_dur(w, "%12s", "ns", r->ns);
		sw_count(w, " %10s", "count", r->n);
		sw_str(w, "  %-22s", "kind", wait_kind_key(r->kind));
		sw_str(w, " %-10s", NULL, proc_name(dx->procs[r->proc], a, sizeof(a)));
		proc_cells(w, dx->procs[r->proc]);
		if (r->comm)
			sw_str(w, " %-20s", "comm", comm);
		else
			sw_null(w, " %-20s", "comm", "-");
		char where[1024];
		snprintf(where, sizeof(where), "%s%s%s", r->site ? strings_get(r->site) : "(a message)",
			 r->caller ? " from " : "", r->caller ? strings_get(r->caller) : "");
		if (r->site)
			sw_str(w, NULL, "site", strings_get(r->site));
		else
			sw_null(w, NULL, "site", NULL);
		if (r->caller)
			sw_str(w, NULL, "caller", strings_get(r->caller));
		else
			sw_null(w, NULL, "caller", NULL);
		sw_name(w, NULL, where);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	more_line(w, dx->nrows - shown, "rows");
}

/* ---- launches ---- */

static void hist_cells(struct sumw *w, const struct hist *h)
{
	sw_dur(w, " %11s", "latency_median_ns", hist_quantile(h, 0.5));
	sw_dur(w, " %11s", "latency_p90_ns", hist_quantile(h, 0.9));
	sw_dur(w, " %11s", "latency_max_ns", h->max);
}

struct kernel_row {
	const struct dproc *dp;
	const struct kernel_launches *k;
};

static int by_launches(const void *a, const void *b)
{
	const struct kernel_row *x = a, *y = b;
	if (x->k->n != y->k->n)
		return x->k->n > y->k->n ? -1 : 1;
	if (x->dp->p->index != y->dp->p->index)
		return x->dp->p->index - y->dp->p->index;
	return strcmp(strings_get(x->k->name), strings_get(y->k->name));
}

/* Per process and stream: kernels, launch latency (median, 90th percentile, most), the queue
 * each launch found; per kernel (most launched first): the same latency and how many ran
 * shorter than their launching call; per process: communication hidden under compute. */
static void launch_tables(struct diagnosis *dx, struct sumw *w, struct dproc **order, int top)
{
	char a[64], q[32];
	size_t nk = 0, ns = 0;
	for (size_t i = 0; i < dx->nprocs; i++) {
		nk += order[i]->launches.nkernels;
		ns += order[i]->launches.nstreams;
	}
	sw_obj(w, "launches");
	sw_if(w, ns > 0);
	sw_text(w, "\nLaunches by stream: from the launching call's entry to the kernel's start "
		"(to within 19%%), and the kernels\nlaunched before each on its stream that had not "
		"started\n%-10s %18s %9s %11s %11s %11s %11s %9s\n", "Process", "Stream", "Kernels",
		"Median", "90%", "Most", "Queue mean", "Most");
	sw_endif(w);
	sw_arr(w, "streams");
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct dproc *dp = order[i];
		for (size_t j = 0; j < dp->launches.nstreams; j++) {
			const struct stream_launches *s = &dp->launches.streams[j];
			sw_obj(w, NULL);
			proc_cells(w, dp);
			sw_str(w, "%-10s", NULL, proc_name(dp, a, sizeof(a)));
			snprintf(q, sizeof(q), "0x%" PRIx64, s->stream);
			sw_str(w, " %18s", "stream", q);
			sw_count(w, " %9s", "kernels", s->latency.n);
			hist_cells(w, &s->latency);
			snprintf(q, sizeof(q), "%.2f", s->latency.n ? (double)s->depth_sum /
				 (double)s->latency.n : 0.0);
			sw_real(w, NULL, "queue_mean", s->latency.n ? (double)s->depth_sum /
				(double)s->latency.n : 0.0);
			sw_text(w, " %11s", q);
			sw_u64(w, " %9" PRIu64 "\n", "queue_max", s->depth_max);
			sw_close(w);
		}
	}
	sw_close(w);
	struct kernel_row *rows = xmallocarray(nk + 1, sizeof(*rows));
	size_t n = 0;
	for (size_t i = 0; i < dx->nprocs; i++)
		for (size_t j = 0; j < order[i]->launches.nkernels; j++)
			rows[n++] = (struct kernel_row){ order[i], &order[i]->launches.kernels[j] };
	qsort(rows, n, sizeof(*rows), by_launches);
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	sw_if(w, n > 0);
	sw_text(w, "\nLaunches by kernel, the most launched first; Shorter: kernels that ran shorter "
		"than their launching call took\n%-10s %9s %11s %11s %11s %9s  %s\n", "Process",
		"Kernels", "Median", "90%", "Most", "Shorter", "Kernel");
	sw_endif(w);
	sw_arr(w, "kernels");
	for (size_t i = 0; i < n; i++) {
		const struct kernel_launches *k = rows[i].k;
		sw_obj(w, NULL);
		sw_if(w, i < shown);
		proc_cells(w, rows[i].dp);
		sw_str(w, "%-10s", NULL, proc_name(rows[i].dp, a, sizeof(a)));
		sw_count(w, " %9s", "kernels", k->n);
		hist_cells(w, &k->latency);
		sw_count(w, " %9s", "shorter_than_launch", k->shorter);
		sw_u64(w, NULL, "launch_timed", k->timed);
		sw_text(w, "  ");
		sw_name(w, "name", strings_get(k->name));
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	free(rows);
	more_line(w, n - shown, "kernels");
	int any = 0;
	for (size_t i = 0; i < dx->nprocs; i++)
		any |= order[i]->comm_ns > 0;
	sw_if(w, any);
	sw_text(w, "\nCommunication hidden under compute: time in MPI or NCCL calls or device "
		"collectives, and of it while a kernel ran\n%-10s %12s %12s %8s\n", "Process",
		"Communicating", "Hidden", "Share");
	sw_endif(w);
	sw_arr(w, "overlap");
	for (size_t i = 0; i < dx->nprocs; i++) {
		const struct dproc *dp = order[i];
		if (!dp->covered)
			continue;
		sw_obj(w, NULL);
		sw_if(w, dp->comm_ns > 0);
		proc_cells(w, dp);
		sw_str(w, "%-10s", NULL, proc_name(dp, a, sizeof(a)));
		sw_dur(w, " %12s", "communicating_ns", dp->comm_ns);
		sw_dur(w, " %12s", "hidden_ns", dp->comm_hidden);
		snprintf(q, sizeof(q), "%.1f%%", dp->comm_ns ? 100.0 * (double)dp->comm_hidden /
			 (double)dp->comm_ns : 0.0);
		sw_text(w, " %8s\n", q);
		sw_endif(w);
		sw_close(w);
	}
	sw_close(w);
	sw_close(w);
}

void report_write(struct diagnosis *dx, struct sumw *w, const char *dir, int top)
{
	struct dproc **order = dprocs_in_order(dx);
	size_t counted = 0;
	for (size_t i = 0; i < dx->nprocs; i++)
		counted += dx->procs[i]->covered > 0;
	char b[32];
	sw_obj(w, "diagnosis");
	sw_str(w, NULL, "covers", dx->job_steps ? "steps" : "runs");
	sw_text(w, "\nDiagnosis: ");
	sw_if(w, dx->job_steps);
	sw_u64(w, "%" PRIu64 " step numbers", "step_count", dx->nsteps);
	sw_endif(w);
	sw_if(w, !dx->job_steps);
	sw_text(w, "no steps recorded: each process's run, first event to last");
	sw_endif(w);
	sw_u64(w, " on %" PRIu64 " processes\n", "process_count", counted);
	sw_u64(w, NULL, "late_spans", dx->late_spans);
	sw_if(w, dx->late_spans != 0);
	sw_text(w, "  %s spans came after their step was diagnosed (it waited %d steps, and %d s "
		"or more when no later device span came): not counted\n",
		fmt_count(dx->late_spans, b, sizeof(b)), DIAG_LAG, (int)(LAG_MIN / 1000000000));
	sw_endif(w);
	findings(dx, w, dir, top);
	int64_t median = report_steps_median(dx);
	slow_steps(dx, w, median, top);
	job_split(dx, w);
	steps_table(dx, w, median, top);
	procs_table(dx, w, order);
	waits_table(dx, w, top);
	launch_tables(dx, w, order, top);
	sw_close(w);
	free(order);
}

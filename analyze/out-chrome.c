/* out-chrome.c — Chrome trace-event JSON (Perfetto, chrome://tracing): one process per
 * profiled process image, one track per thread, ranges as complete events, marks as
 * instants, counters as counter events, and the training steps on a track of their own. */
#include <stdlib.h>
#include <string.h>

#include "../config.h"
#include "jsonw.h"
#include "output.h"

#define STEPS_TID 2147483000

struct chrome {
	char *path;
	struct jw w;
	int first;
	int failed;
};

static void sep(struct chrome *c)
{
	if (c->first)
		c->first = 0;
	else
		jw_lit(&c->w, ",\n");
}

static int begin(void *priv, const struct trace *tr)
{
	struct chrome *c = priv;
	(void)tr;
	if (jw_open(&c->w, c->path) < 0) {
		diag_error("cannot write %s: %m", c->path);
		c->failed = 1;
		return -1;
	}
	jw_lit(&c->w, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	c->first = 1;
	return 0;
}

static int32_t tid_of(const struct thread *t)
{
	return t->tid >= 0 ? t->tid : (int32_t)(1000000 + t->stream);
}

static void head(struct chrome *c, const struct event *ev, const char *ph, const char *cat)
{
	struct jw *w = &c->w;
	sep(c);
	jw_lit(w, "{\"ph\":\"");
	jw_raw(w, ph, strlen(ph));
	jw_lit(w, "\",\"cat\":\"");
	jw_raw(w, cat, strlen(cat));
	jw_lit(w, "\",\"pid\":");
	jw_i64(w, ev->proc->index);
	jw_lit(w, ",\"tid\":");
	jw_i64(w, ev->thread ? tid_of(ev->thread) : STEPS_TID);
	jw_lit(w, ",\"ts\":");
	jw_us(w, ev->t0);
}

static void flag_args(struct jw *w, unsigned flags, int open)
{
	if (!flags) {
		if (open)
			jw_lit(w, "}");
		return;
	}
	if (open)
		jw_lit(w, ",");
	else
		jw_lit(w, ",\"args\":{");
	if (flags & EVF_UNFINISHED)
		jw_lit(w, "\"unfinished\":true");
	if ((flags & EVF_UNFINISHED) && (flags & EVF_CLIPPED))
		jw_lit(w, ",");
	if (flags & EVF_CLIPPED)
		jw_lit(w, "\"clipped\":true");
	jw_lit(w, "}");
}

static void event(void *priv, const struct event *ev)
{
	struct chrome *c = priv;
	struct jw *w = &c->w;
	if (c->failed)
		return;
	switch (ev->kind) {
	case EV_RANGE:
		head(c, ev, "X", "range");
		jw_lit(w, ",\"dur\":");
		jw_us(w, ev->t1 - ev->t0);
		jw_lit(w, ",\"name\":");
		jw_str(w, strings_get(ev->name), strings_len(ev->name));
		flag_args(w, ev->flags, 0);
		break;
	case EV_MARK:
		head(c, ev, "i", "mark");
		jw_lit(w, ",\"s\":\"t\",\"name\":");
		jw_str(w, strings_get(ev->name), strings_len(ev->name));
		break;
	case EV_COUNTER:
		head(c, ev, "C", "counter");
		jw_lit(w, ",\"name\":");
		jw_str(w, strings_get(ev->name), strings_len(ev->name));
		jw_lit(w, ",\"args\":{\"value\":");
		jw_double(w, ev->value);
		jw_lit(w, "}");
		break;
	case EV_STEP:
		head(c, ev, "X", "step");
		jw_lit(w, ",\"dur\":");
		jw_us(w, ev->t1 - ev->t0);
		jw_lit(w, ",\"name\":\"step ");
		jw_u64(w, ev->step);
		jw_lit(w, "\",\"args\":{\"step\":");
		jw_u64(w, ev->step);
		flag_args(w, ev->flags, 1);
		break;
	}
	jw_lit(w, "}");
}

static void meta(struct chrome *c, const char *what, int64_t pid, int64_t tid, const char *key,
		 const char *s, int64_t num)
{
	struct jw *w = &c->w;
	sep(c);
	jw_lit(w, "{\"ph\":\"M\",\"name\":\"");
	jw_raw(w, what, strlen(what));
	jw_lit(w, "\",\"pid\":");
	jw_i64(w, pid);
	if (tid >= 0) {
		jw_lit(w, ",\"tid\":");
		jw_i64(w, tid);
	}
	jw_lit(w, ",\"args\":{\"");
	jw_raw(w, key, strlen(key));
	jw_lit(w, "\":");
	if (s)
		jw_str(w, s, strlen(s));
	else
		jw_i64(w, num);
	jw_lit(w, "}}");
}

static void proc_meta(struct chrome *c, const struct proc *p)
{
	char label[512];
	proc_label(p, label, sizeof(label));
	meta(c, "process_name", p->index, -1, "name", label, 0);
	meta(c, "process_sort_index", p->index, -1, "sort_index", NULL, p->index);
	char *cmd = proc_command(p, 400);
	if (cmd && *cmd)
		meta(c, "process_labels", p->index, -1, "labels", cmd, 0);
	free(cmd);
	if (p->had_steps) {
		meta(c, "thread_name", p->index, STEPS_TID, "name", "steps", 0);
		meta(c, "thread_sort_index", p->index, STEPS_TID, "sort_index", NULL, -1);
	}
	for (size_t s = 1; s < p->nstreams; s++) {
		const struct thread *t = p->threads[s];
		if (!t || !t->seen)
			continue;
		char name[300];
		const char *n = t->name ? strings_get(t->name) : "thread";
		snprintf(name, sizeof(name), "%s", n);
		meta(c, "thread_name", p->index, tid_of(t), "name", name, 0);
		meta(c, "thread_sort_index", p->index, tid_of(t), "sort_index", NULL,
		     t->tid == p->pid ? 0 : (int64_t)s);
	}
}

static void destroy(struct chrome *c)
{
	free(c->path);
	free(c);
}

static int end(void *priv, const struct trace *tr)
{
	struct chrome *c = priv;
	if (c->failed) {
		destroy(c);
		return -1;
	}
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->events)
			proc_meta(c, tr->procs[i]);
	jw_lit(&c->w, "\n],\"otherData\":{\"producer\":\"tprof " PACKAGE_VERSION "\",\"trace_start_realtime_ns\":");
	jw_i64(&c->w, tr->start_ns);
	jw_lit(&c->w, "}}\n");
	int rc = jw_close(&c->w);
	if (rc < 0)
		diag_error("error writing %s", c->path);
	destroy(c);
	return rc;
}

static const struct output_ops chrome_ops = { "chrome", begin, event, end };

struct output output_chrome(const char *path)
{
	struct chrome *c = calloc(1, sizeof(*c));
	if (!c)
		abort();
	c->path = strdup(path);
	return (struct output){ &chrome_ops, c };
}

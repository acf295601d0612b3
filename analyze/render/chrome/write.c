/* render/chrome/write.c — the pieces every Chrome trace event is written with: the separator
 * between events, strings and names, the head of an event (phase, category, track, time)
 * and its "args" object, one key and value at a time.  Below the parts that decide which
 * events to write (render/chrome/chrome.c, runtimes/mpi/chrome.c), so that both write alike. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "write.h"

void chrome_sep(struct chrome *c)
{
	if (c->first)
		c->first = 0;
	else
		jw_lit(&c->w, ",\n");
}

void chrome_str(struct jw *w, const char *s)
{
	jw_str(w, s, strlen(s));
}

void chrome_name(struct jw *w, uint32_t id)
{
	jw_str(w, strings_get(id), strings_len(id));
}

void chrome_head(struct chrome *c, struct track tr, const char *ph, const char *cat, int64_t ts)
{
	struct jw *w = &c->w;
	chrome_sep(c);
	jw_lit(w, "{\"ph\":\"");
	jw_raw(w, ph, strlen(ph));
	jw_lit(w, "\",\"cat\":\"");
	jw_raw(w, cat, strlen(cat));
	jw_lit(w, "\",\"pid\":");
	jw_i64(w, tr.pid);
	jw_lit(w, ",\"tid\":");
	jw_i64(w, tr.tid);
	jw_lit(w, ",\"ts\":");
	jw_us(w, ts);
}

void chrome_flow(struct chrome *c, struct track tr, const char *ph, const char *cat,
		 const char *name, const char *id, int64_t ts)
{
	struct jw *w = &c->w;
	chrome_head(c, tr, ph, cat, ts);
	if (ph[0] == 'f')
		jw_lit(w, ",\"bp\":\"e\"");
	jw_lit(w, ",\"name\":\"");
	jw_raw(w, name, strlen(name));
	jw_lit(w, "\",\"id\":");
	jw_raw(w, id, strlen(id));
}

int64_t chrome_flow_ts(int64_t t, int64_t t0, int64_t t1)
{
	if (t1 - t0 >= 2) {
		if (t <= t0)
			return t0 + 1;
		if (t >= t1)
			return t1 - 1;
		return t;
	}
	return t < t0 ? t0 : t > t1 ? t1 : t;
}

void chrome_launch_flow(struct chrome *c, struct track from, struct track to, const char *id,
			int64_t launch, int64_t t0, int64_t t1)
{
	int64_t end = t0 + (t1 - t0 > 2 ? 1 : 0);
	int64_t start = launch + 1 < end ? launch + 1 : end;
	chrome_flow(c, from, "s", "launch", "launch", id, start);
	jw_lit(&c->w, "}");
	chrome_flow(c, to, "f", "launch", "launch", id, end);
	jw_lit(&c->w, "}");
}

/* Arguments are written as ,"key":value pairs after an opening {"args":{ ... */
void chrome_arg_key(struct jw *w, int *n, const char *key)
{
	if ((*n)++)
		jw_lit(w, ",");
	else
		jw_lit(w, ",\"args\":{");
	jw_lit(w, "\"");
	jw_raw(w, key, strlen(key));
	jw_lit(w, "\":");
}

void chrome_arg_u64(struct jw *w, int *n, const char *key, uint64_t v)
{
	chrome_arg_key(w, n, key);
	jw_u64(w, v);
}

void chrome_arg_hex(struct jw *w, int *n, const char *key, uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	chrome_arg_key(w, n, key);
	chrome_str(w, buf);
}

void chrome_arg_str(struct jw *w, int *n, const char *key, const char *v)
{
	chrome_arg_key(w, n, key);
	chrome_str(w, v);
}

void chrome_arg_flags(struct jw *w, int *n, unsigned flags)
{
	if (flags & EVF_UNFINISHED) {
		chrome_arg_key(w, n, "unfinished");
		jw_lit(w, "true");
	}
	if (flags & EVF_CLIPPED) {
		chrome_arg_key(w, n, "clipped");
		jw_lit(w, "true");
	}
}

void chrome_end_args(struct jw *w, int n)
{
	if (n)
		jw_lit(w, "}}");
	else
		jw_lit(w, "}");
}

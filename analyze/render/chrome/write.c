/* render/chrome/write.c — the pieces every Chrome trace event is written with: the separator
 * between events, strings and names, the head of an event (phase, category, track, time)
 * and its "args" object from the scene's typed arguments. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../args-json.h"
#include "write.h"

void chrome_sep(struct chrome *c)
{
	if (c->first)
		c->first = 0;
	else
		jw_lit(&c->w, ",\n");
}

void chrome_str(struct json_writer *w, const char *s)
{
	jw_str(w, s, strlen(s));
}

void chrome_name(struct json_writer *w, uint32_t id)
{
	jw_str(w, strings_get(id), strings_len(id));
}

void chrome_head(struct chrome *c, struct track tr, const char *ph, const char *cat, int64_t ts)
{
	struct json_writer *w = &c->w;
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

void chrome_args(struct json_writer *w, const struct scene_args *args)
{
	if (!args || !args->n) {
		jw_lit(w, "}");
		return;
	}
	jw_lit(w, ",\"args\":");
	render_args_json(w, args);
	jw_lit(w, "}");
}

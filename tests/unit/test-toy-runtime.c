/* test-toy-runtime.c — a runtime added through the registry alone (runtimes_add), knowing
 * nothing of the renderers and changing none: "toy" calls (domain 200) carry one extension
 * unit (widgets, a gadget's name); the toy runtime (toy/runtime.c) decodes it, gives its calls
 * arguments, draws a span of toy work on a device track with an arrow from the call, and
 * writes a summary table.  Checked in the Chrome trace and the summary, text and JSON, on a
 * trace written here (toy/t-toy.sh records one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analyze/model/output.h"
#include "../../analyze/model/runtime.h"
#include "../../analyze/render/chrome/chrome.h"
#include "../../analyze/summary/summary.h"
#include "../toy/toy.h"
#include "nrtw.h"
#include "rts.h"
#include "tap.h"

/* One process, one thread, three toy calls: 5, 7 and 30 widgets. */
static void write_trace(const char *dir)
{
	static struct nw_proc p;
	nw_begin(&p, dir, "h1", 700, "./toyapp", NULL, 200000);
	nw_thread(&p, 1, "main", 700);
	static const uint64_t widgets[] = { 5, 7, 30 };
	for (int i = 0; i < 3; i++) {
		struct toy_unit u = { .widgets = widgets[i], .gadget = nw_str(&p, "sprocket") };
		struct tprof_rec rec = tw_rec(TPROF_K_CALL, nw_str(&p, "toyMake"), 10000 + 20000 * i,
					      20000 + 20000 * i, (uint64_t)(i + 1));
		rec.flags = TOY_DOMAIN;
		nw_put(&p, 1, rec, &u, 1);
	}
	nw_end(&p);
}

static char *analyze(const char *dir, const char *json, enum summary_format fmt)
{
	struct trace tr = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (trace_load(&tr, dir) < 0)
		return NULL;
	const struct runtime_set *rts = test_runtimes();
	struct pipeline pl = { .rts = rts, .tr = &tr };
	summary_set_runtimes(rts);
	struct output outs[2] = { output_summary_as(f, dir, 0, fmt),
				  output_scene(render_chrome(json), 0, rts) };
	pl.outs = outs;
	pl.nouts = 2;
	for (int i = 0; i < 2; i++)
		outs[i].ops->begin(outs[i].priv, &tr);
	merge_run(&tr, &pl);
	for (int i = 0; i < 2; i++)
		outs[i].ops->end(outs[i].priv, &tr);
	fclose(f);
	trace_free(&tr);
	return text;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

int main(void)
{
	char dir[] = "/tmp/tprof-toy-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	write_trace(dir);
	ok(runtimes_add(&runtime_toy) == 0, "the toy runtime joins the registry");

	char json[600];
	snprintf(json, sizeof(json), "%s.json", dir);
	char *text = analyze(dir, json, SUMMARY_TEXT);
	char *c = slurp(json);
	ok(c != NULL, "the Chrome trace is written");
	c = c ? c : "";
	is_u64((uint64_t)count(c, "\"cat\":\"toy\""), 3 + 2 * 3, "three toy calls in the toy category, "
	       "and their arrows' two ends");
	ok(strstr(c, "\"name\":\"toyMake\",\"args\":{\"correlation\":1,\"widgets\":5,"
		      "\"gadget\":\"sprocket\"}") != NULL,
	   "a call's arguments: the generic ones, then the toy runtime's");
	is_u64((uint64_t)count(c, "\"cat\":\"toywork\""), 3, "three spans of toy work");
	ok(strstr(c, "\"name\":\"toy work\",\"args\":{\"widgets\":30}") != NULL, "its own arguments");
	ok(strstr(c, "\"name\":\"GPU 9 stream 1\"") != NULL,
	   "the toy device's track is named like any device stream's");
	ok(text && strstr(text, "\nToy widgets\ncalls 3, widgets 42\n"), "the summary's toy table");
	ok(text && !strstr(text, "toyMake"), "toy calls are the toy part's, not the generic table's");
	free(text);
	text = analyze(dir, json, SUMMARY_JSON);
	ok(text && strstr(text, "\"toy\":") && strstr(text, "\"widgets\": 42"),
	   "the toy table in the JSON summary");
	if (tap_failed && text)
		fputs(text, stdout);
	free(text);
	unlink(json);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return tap_done();
}

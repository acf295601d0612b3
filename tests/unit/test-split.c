/* test-split.c — the splitter of --split (analyze/render/split) on hand-made scene items,
 * over a renderer that only records what each part got: which part an item and an arrow go
 * to (by end time, at a boundary), what comes after its part closed, how many parts are open
 * at once, size cuts and the slices kept whole beyond them, the index (read back with
 * cJSON); and the parsing of --split, the parts' names and the grouping of steps. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../analyze/render/split/state.h"
#include "tap.h"

/* ---- a renderer that records ---------------------------------------------------------- */

#define MAXP 16
#define MAXV 64

struct rec {
	int opened, ended;
	int n, nflows;
	int64_t t0[MAXV], t1[MAXV];
	uint64_t flow[MAXV];
};

static struct rec parts[MAXP + 1];
static int open_now, open_max;
static uint64_t item_bytes = 100;

struct fake {
	int part;
	uint64_t bytes;
};

static int fake_begin(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct fake *f = priv;
	(void)tr;
	(void)tracks;
	parts[f->part].opened++;
	if (++open_now > open_max)
		open_max = open_now;
	return 0;
}

static void fake_item(void *priv, const struct scene_item *it)
{
	struct fake *f = priv;
	struct rec *r = &parts[f->part];
	if (r->n < MAXV) {
		r->t0[r->n] = it->t0;
		r->t1[r->n++] = it->t1;
	}
	f->bytes += item_bytes;
}

static void fake_flow(void *priv, const struct scene_flow *fl)
{
	struct fake *f = priv;
	struct rec *r = &parts[f->part];
	if (r->nflows < MAXV)
		r->flow[r->nflows++] = fl->id;
}

static int fake_end(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct fake *f = priv;
	(void)tr;
	(void)tracks;
	parts[f->part].ended++;
	open_now--;
	free(f);
	return 0;
}

static uint64_t fake_size(void *priv)
{
	return ((struct fake *)priv)->bytes;
}

static const struct scene_ops fake_ops = { .name = "fake", .begin = fake_begin,
					   .item = fake_item, .flow = fake_flow, .end = fake_end,
					   .size = fake_size };

static struct scene_renderer make(const char *path, void *ctx)
{
	(void)ctx;
	struct fake *f = calloc(1, sizeof(*f));
	const char *at = strstr(path, ".part-");
	f->part = at ? atoi(at + 6) : 0;
	if (f->part > MAXP)
		f->part = 0;
	return (struct scene_renderer){ &fake_ops, f };
}

/* ---- items ------------------------------------------------------------------------------- */

static struct scene_renderer R;
static struct trace TR = { .start_ns = 1000000, .end_ns = 1000000 + 100000 };
static char dir[64];

static void slice(int64_t t0, int64_t t1)
{
	struct scene_item it = { .kind = SI_SLICE, .cat = "x", .name_str = "s",
				 .track = { 1, 1 }, .t0 = t0, .t1 = t1 };
	R.ops->item(R.priv, &it);
}

static void instant(int64_t t)
{
	struct scene_item it = { .kind = SI_INSTANT, .cat = "x", .name_str = "i",
				 .track = { 1, 1 }, .t0 = t, .t1 = t };
	R.ops->item(R.priv, &it);
}

static void arrow(uint64_t id, int64_t from, int64_t to_t0, int64_t to_t1)
{
	struct scene_flow f = { .id = id, .cat = "x", .name = "f", .from = { 1, 2 },
				.to = { 1, 1 }, .from_ts = from, .to_ts = to_t0, .to_t0 = to_t0,
				.to_t1 = to_t1 };
	R.ops->flow(R.priv, &f);
}

/* The part (1...) that got the slice or instant [t0, t1], or the arrow; 0: none, -1: two. */
static int where(int64_t t0, int64_t t1)
{
	int at = 0;
	for (int p = 1; p <= MAXP; p++)
		for (int i = 0; i < parts[p].n; i++)
			if (parts[p].t0[i] == t0 && parts[p].t1[i] == t1)
				at = at ? -1 : p;
	return at;
}

static int count_in(int p, int64_t t0, int64_t t1)
{
	int n = 0;
	for (int i = 0; i < parts[p].n; i++)
		n += parts[p].t0[i] == t0 && parts[p].t1[i] == t1;
	return n;
}

static int where_flow(uint64_t id)
{
	int at = 0;
	for (int p = 1; p <= MAXP; p++)
		for (int i = 0; i < parts[p].nflows; i++)
			if (parts[p].flow[i] == id)
				at = at ? -1 : p;
	return at;
}

static int start(const struct split_opts *o)
{
	memset(parts, 0, sizeof(parts));
	open_now = open_max = 0;
	char path[128];
	snprintf(path, sizeof(path), "%s/t.json", dir);
	R = render_split(path, o, make, NULL);
	return R.ops->begin(R.priv, &TR, NULL);
}

static cJSON *finish(void)
{
	char path[128];
	if (R.ops->end(R.priv, &TR, NULL) < 0)
		return NULL;
	snprintf(path, sizeof(path), "%s/t.index.json", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return cJSON_Parse(buf);
}

static int64_t part_num(cJSON *ix, int part, const char *key)
{
	cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItem(ix, "parts"), part - 1);
	cJSON *v = cJSON_GetObjectItem(p, key);
	return cJSON_IsNumber(v) ? (int64_t)v->valuedouble : -1;
}

/* ---- the tests ---------------------------------------------------------------------------- */

static const struct split_group three[] = { { 0, 1, 0 }, { 2, 3, 100 }, { 4, 5, 200 } };

static void by_end_time(void)
{
	struct split_opts o = { .spec = { .mode = SPLIT_STEPS, .steps = 2, .text = "steps:2" },
				.groups = three, .ngroups = 3, .end = INT64_MAX, .format = "fake" };
	ok(start(&o) == 0, "steps: the first part opens at begin");
	slice(10, 100);       /* ends at the boundary: the part before */
	instant(99);
	slice(50, 150);       /* crosses it: where it ends */
	instant(100);         /* at the boundary: the part after */
	slice(100, 100);      /* of no length at the boundary: after */
	slice(120, 250);
	arrow(1, 20, 50, 150);
	cJSON *ix = finish();
	ok(where(10, 100) == 1 && where(99, 99) == 1, "a slice ending at a boundary and an instant "
	   "before it are in part 1");
	ok(where(50, 150) == 2, "a slice crossing a boundary is kept whole in the part it ends in");
	ok(count_in(2, 100, 100) == 2, "an instant at a boundary, and a slice of no length, are in "
	   "the part after it");
	ok(where(120, 250) == 3, "a slice across the next boundary too goes where it ends");
	ok(where_flow(1) == 2, "an arrow goes to the part of the slice it ends in");
	ok(ix && part_num(ix, 2, "began_before") == 1 && part_num(ix, 3, "began_before") == 1 &&
	   part_num(ix, 2, "flows_from_before") == 1,
	   "the index counts the slices that began before their part and arrows from before");
	ok(ix && part_num(ix, 1, "end_ns") == 100 && part_num(ix, 2, "start_ns") == 100 &&
	   part_num(ix, 3, "end_ns") == 100000 && part_num(ix, 3, "first_step") == 4 &&
	   part_num(ix, 2, "slices") == 2 && part_num(ix, 2, "instants") == 1,
	   "the index: ranges from boundary to boundary to the trace's end, steps, counts");
	ok(parts[1].ended == 1 && parts[2].ended == 1 && parts[3].ended == 1,
	   "every part is finished once");
	cJSON_Delete(ix);
}

static void late_items(void)
{
	struct split_opts o = { .spec = { .mode = SPLIT_STEPS, .steps = 2, .text = "steps:2" },
				.groups = three, .ngroups = 3, .end = INT64_MAX, .format = "fake",
				.lag = 10 };
	start(&o);
	slice(0, 10);
	instant(105);         /* the front 10 past part 1's end: still open */
	slice(20, 90);
	instant(111);         /* 11 past: part 1 closes */
	int closed = parts[1].ended;
	slice(30, 95);        /* its part is closed: to the next one open */
	arrow(1, 25, 30, 95); /* ends in that slice: follows it */
	arrow(2, 25, 40, 80); /* ends in a slice that went to part 1 (not drawn here) */
	cJSON *ix = finish();
	ok(where(20, 90) == 1, "an item within `lag` of its part's end still goes there");
	ok(closed == 1, "a part closes when the front is `lag` past its end");
	ok(where(30, 95) == 2, "an item of a closed part goes to the next one");
	ok(where_flow(1) == 2, "an arrow ending in that item goes with it");
	ok(where_flow(2) == 2, "an arrow whose part is closed goes to the next one too");
	ok(ix && part_num(ix, 2, "late") == 1 && part_num(ix, 2, "late_flows") == 1 &&
	   cJSON_GetObjectItem(ix, "late")->valueint == 1, "the index counts both");
	cJSON_Delete(ix);
}

static void open_at_once(void)
{
	static const struct split_group six[] = { { 0, 0, 0 }, { 1, 1, 100 }, { 2, 2, 200 },
						  { 3, 3, 300 }, { 4, 4, 400 }, { 5, 5, 500 } };
	struct split_opts o = { .spec = { .mode = SPLIT_STEPS, .steps = 1, .text = "steps:1" },
				.groups = six, .ngroups = 6, .end = INT64_MAX, .format = "fake",
				.lag = 1000000, .max_open = 2 };
	start(&o);
	slice(10, 50);
	slice(20, 250);       /* ends in part 3: opens it ahead */
	slice(30, 450);       /* part 5: at most 2 open, part 1 closes */
	int p1 = parts[1].ended;
	slice(40, 60);        /* part 1 is closed: the next one, part 2 */
	slice(50, 350);
	slice(60, 550);
	cJSON *ix = finish();
	ok(p1 == 1, "with max_open parts open, opening another closes the oldest");
	ok(where(40, 60) == 2 && where(10, 50) == 1, "what comes for it goes to the next one");
	ok(open_max <= 3, "never more than max_open + 1 parts open at once (%d)", open_max);
	ok(ix && cJSON_GetArraySize(cJSON_GetObjectItem(ix, "parts")) == 6 &&
	   parts[2].opened == 1 && parts[4].opened == 1 && parts[6].opened == 1,
	   "every part is written, once");
	cJSON_Delete(ix);
}

static void size_cuts(void)
{
	struct split_opts o = { .spec = { .mode = SPLIT_SIZE, .bytes = 1000, .text = "size:x" },
				.end = INT64_MAX, .format = "fake", .lag = 5 };
	start(&o);
	slice(5, 5000);       /* a call still running at the cut */
	for (int i = 1; i <= 9; i++)
		instant(10 * i);
	int cut = parts[2].opened == 0;   /* the 10th item reached the size: cut at 90 + 1 */
	instant(95);
	instant(100);
	slice(60, 80);        /* within lag of the cut: part 1 */
	arrow(7, 1, 5, 5000); /* ends in the running call: with it, in part 1 */
	for (int i = 11; i <= 30; i++)
		instant(10 * i);
	int open1 = parts[1].ended == 0;
	instant(5010);        /* the call's end + lag passed */
	cJSON *ix = finish();
	ok(cut && where(90, 90) == 1 && where(100, 100) == 2,
	   "a part is cut when it reaches the size, at the front");
	ok(where(5, 5000) == 1 && where_flow(7) == 1,
	   "a slice still running at the cut stays whole where it was, and its arrows go there");
	ok(where(60, 80) == 1, "what arrives within lag for its range still goes there");
	ok(open1 && parts[1].ended == 1, "it stays open until that slice's end is lag behind");
	ok(ix && part_num(ix, 1, "end_after") == 1 && part_num(ix, 1, "end_ns") == 91 &&
	   part_num(ix, 2, "start_ns") == 91,
	   "the index: the cut, and the slice that ends after it");
	ok(ix && cJSON_GetArraySize(cJSON_GetObjectItem(ix, "parts")) >= 3,
	   "further parts are cut as they fill");
	cJSON_Delete(ix);
}

/* The part holding a running call is closed (max_open) before an arrow to the call comes:
 * the arrow cannot go with it, and is counted as late where it goes. */
static void closed_before_arrow(void)
{
	struct split_opts o = { .spec = { .mode = SPLIT_SIZE, .bytes = 1000, .text = "size:x" },
				.end = INT64_MAX, .format = "fake", .lag = 5, .max_open = 2 };
	start(&o);
	slice(5, 5000);
	for (int i = 1; i <= 19; i++)
		instant(10 * i);     /* two cuts: parts 1 and 2 full */
	instant(200);                /* opening part 3 closes part 1 */
	int closed = parts[1].ended;
	arrow(9, 1, 5, 5000);
	cJSON *ix = finish();
	ok(closed == 1 && where(5, 5000) == 1, "a part holding a running call can be closed to "
	   "open another");
	ok(where_flow(9) == 2 && ix && part_num(ix, 2, "late_flows") == 1,
	   "an arrow to that call then goes to the next part open, counted as late");
	cJSON_Delete(ix);
}

static void parsing(void)
{
	struct split_spec sp;
	ok(split_parse("steps:4", &sp) == 0 && sp.mode == SPLIT_STEPS && sp.steps == 4,
	   "steps:4 parses");
	ok(split_parse("size:0.5", &sp) == 0 && sp.mode == SPLIT_SIZE && sp.bytes == 500000 &&
	   !strcmp(sp.text, "size:0.5"), "size:0.5 is 500000 bytes");
	static const char *const bad[] = { "steps:0", "steps:", "steps:-1", "steps:2x", "size:0",
					   "size:0.001", "size:abc", "size:", "size:-5", "size:2e6",
					   "steps", "lines:5", "" };
	int refused = 1;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (split_parse(bad[i], &sp) == 0) {
			refused = 0;
			printf("#   accepted '%s'\n", bad[i]);
		}
	ok(refused, "bad values are refused");
}

static int named(const char *path, const char *part1, const char *index)
{
	struct split s = { 0 };
	if (split_names(&s, path) < 0)
		return 0;
	char *p = split_part_path(&s, 1), ix[256];
	snprintf(ix, sizeof(ix), "%s.index.json", s.stem);
	int good = !strcmp(p, part1) && !strcmp(ix, index);
	if (!good)
		printf("#   %s: %s, %s\n", path, p, ix);
	free(p);
	free(s.stem);
	free(s.ext);
	return good;
}

static void names(void)
{
	ok(named("out/t.json.gz", "out/t.part-0001.json.gz", "out/t.index.json") &&
	   named("t.json", "t.part-0001.json", "t.index.json") &&
	   named("a.b/trace", "a.b/trace.part-0001", "a.b/trace.index.json") &&
	   named("run.v2.json.gz", "run.v2.part-0001.json.gz", "run.v2.index.json") &&
	   named(".hidden.json", ".hidden.part-0001.json", ".hidden.index.json"),
	   "parts are named stem.part-NNNN.ext, the index stem.index.json");
}

static void grouping(void)
{
	struct step_start v[10];
	for (int i = 0; i < 10; i++)
		v[i] = (struct step_start){ (uint64_t)i, 10 * (i + 1) };
	struct split_group *g;
	size_t n = split_group_steps(v, 10, 3, 0, INT64_MAX, &g);
	ok(n == 4 && g[0].first == 0 && g[0].last == 2 && g[0].start == 0 && g[1].first == 3 &&
	   g[1].start == 40 && g[3].first == 9 && g[3].last == 9, "10 steps by 3: 4 parts");
	free(g);
	n = split_group_steps(v, 10, 3, 35, 85, &g);
	ok(n == 2 && g[0].first == 3 && g[0].start == 35 && g[1].first == 6 && g[1].last == 7,
	   "only the steps that start in the window, the first part from its start");
	free(g);
	v[3].ns = 25;   /* step 3 starts before step 2 */
	n = split_group_steps(v, 6, 1, 0, INT64_MAX, &g);
	ok(n == 5 && g[2].first == 2 && g[2].last == 3 && g[3].first == 4,
	   "a step that starts no later than the part before joins it");
	free(g);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(dir, sizeof(dir), "%s/tprof-split.XXXXXX", tmp);
	if (!mkdtemp(dir))
		return 1;
	by_end_time();
	late_items();
	open_at_once();
	size_cuts();
	closed_before_arrow();
	parsing();
	names();
	grouping();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}

/* render/html/page-doc.c — the summary document as the page embeds it (page-doc.h): only
 * the parts the page draws, so that the report stays a few megabytes whatever the job's size.
 * The summary's JSON is read with cJSON; the parts the page does not draw are left out (the
 * process list, clock alignment, launch statistics, wait-state rows...), the lists that grow
 * with the processes or steps are cut to their first rows (each cut said in "page"."cut":
 * path, rows kept, rows there were), and it is written compact, each number with the fewest
 * digits that read back as the same double (cJSON's own printer rounds some). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../../../common/xalloc.h"
#include "../../util/jsonw.h"
#include "page-doc.h"

/* The summary's parts the page draws (page.js), and the first level of those it draws only
 * some of. */
static const char *const top_keep[] = {
	"format", "version", "dir", "header", "diagnosis", "steps", "kernels", "copies", "system",
	"framework_ops", "hip_api", "cuda_api", "nrt_api", "mpi", "nccl", NULL
};
static const char *const header_drop[] = { "process_list", NULL };
static const char *const diagnosis_keep[] = {
	"covers", "step_count", "process_count", "late_spans", "findings", "slow_steps", "time",
	"steps", "processes", NULL
};
static const char *const step_keep[] = {
	"step", "ranks", "longest_ns", "longest_index", "start_ns", "end_ns", "cause",
	"compute_max_ns", "compute_mean_ns", "wait_max_ns", "wait_mean_ns", NULL
};
static const char *const mpi_keep[] = { "calls", "collectives", "ranks", NULL };
static const char *const nccl_keep[] = { "calls", "collectives", NULL };
static const char *const steps_keep[] = { "count", NULL };

/* Lists cut to their first rows. */
static const struct cut {
	const char *path;               /* dot-separated, from the document's top */
	int rows;
} cuts[] = {
	{ "diagnosis.findings", 100 },
	{ "diagnosis.processes", 256 },
	{ "diagnosis.steps", 4096 },
	{ "diagnosis.slow_steps.rows", 20 },
	{ "mpi.ranks.rows", 256 },
};

static void string(FILE *f, const char *s)
{
	size_t n = strlen(s);
	char *e = xmallocarray(6 * n + 1, 1);
	fputc('"', f);
	fwrite(e, 1, json_escape(s, n, e), f);
	fputc('"', f);
	free(e);
}

static int listed(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (!strcmp(*list, key))
			return 1;
	return 0;
}

/* Leaves in o only the keys of keep (keep_listed) or those not in it. */
static void prune(cJSON *o, const char *const *list, int keep_listed)
{
	if (!cJSON_IsObject(o))
		return;
	for (cJSON *c = o->child, *next; c; c = next) {
		next = c->next;
		if (c->string && listed(list, c->string) != keep_listed)
			cJSON_DeleteItemFromObjectCaseSensitive(o, c->string);
	}
}

static cJSON *at(cJSON *doc, const char *path)
{
	char part[64];
	while (doc && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		doc = cJSON_GetObjectItemCaseSensitive(doc, part);
		path += n + (path[n] == '.');
	}
	return doc;
}

/* Writes v as JSON: numbers as the summary wrote them (the fewest digits that read back as
 * the same double: json_double), not as cJSON would print them. */
static void print(FILE *f, const cJSON *v)
{
	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		int obj = cJSON_IsObject(v);
		fputc(obj ? '{' : '[', f);
		for (const cJSON *c = v->child; c; c = c->next) {
			if (c != v->child)
				fputc(',', f);
			if (obj) {
				string(f, c->string ? c->string : "");
				fputc(':', f);
			}
			print(f, c);
		}
		fputc(obj ? '}' : ']', f);
	} else if (cJSON_IsString(v)) {
		string(f, v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		char b[32];
		fwrite(b, 1, json_double(v->valuedouble, b), f);
	} else {
		fputs(cJSON_IsTrue(v) ? "true" : cJSON_IsFalse(v) ? "false" : "null", f);
	}
}

int html_page_doc(FILE *out, const char *doc, size_t len)
{
	cJSON *d = cJSON_ParseWithLength(doc, len);
	if (!d)
		return -1;
	prune(d, top_keep, 1);
	prune(cJSON_GetObjectItemCaseSensitive(d, "header"), header_drop, 0);
	prune(cJSON_GetObjectItemCaseSensitive(d, "diagnosis"), diagnosis_keep, 1);
	prune(cJSON_GetObjectItemCaseSensitive(d, "mpi"), mpi_keep, 1);
	prune(cJSON_GetObjectItemCaseSensitive(d, "nccl"), nccl_keep, 1);
	prune(cJSON_GetObjectItemCaseSensitive(d, "steps"), steps_keep, 1);
	cJSON *steps = at(d, "diagnosis.steps");
	cJSON *s;
	cJSON_ArrayForEach(s, steps)
		prune(s, step_keep, 1);
	cJSON *page = cJSON_AddObjectToObject(d, "page");
	cJSON *cut = page ? cJSON_AddArrayToObject(page, "cut") : NULL;
	for (size_t i = 0; i < sizeof(cuts) / sizeof(*cuts) && cut; i++) {
		cJSON *list = at(d, cuts[i].path);
		int n = cJSON_GetArraySize(list);
		if (!cJSON_IsArray(list) || n <= cuts[i].rows)
			continue;
		/* the rows from the first left out on, dropped at once (a cJSON array is a list:
		 * its first row's prev is its last) */
		cJSON *gone = cJSON_GetArrayItem(list, cuts[i].rows), *last = gone->prev;
		last->next = NULL;
		list->child->prev = last;
		gone->prev = NULL;
		cJSON_Delete(gone);
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "path", cuts[i].path);
		cJSON_AddNumberToObject(c, "kept", cuts[i].rows);
		cJSON_AddNumberToObject(c, "of", n);
		cJSON_AddItemToArray(cut, c);
	}
	print(out, d);
	cJSON_Delete(d);
	return 0;
}

/* jobs.c — the jobs of an output directory: the process images found by the scan, grouped by
 * the job their files' headers name (docs/FORMAT.md §5.1), and those to analyze: the one
 * --job names (a unique prefix of its id, or "unknown"), all of them, or by default the
 * latest, saying so when there are others.  Files written before jobs were recorded form one
 * job, "unknown"; a file whose headers are damaged goes with the job analyzed.  A job is
 * named by its id, start (its earliest file), process count and first process's command,
 * read from that process's stream 0 (quietly: the job may not be the one analyzed). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "../../common/chunk.h"
#include "../../common/file-names.h"
#include "../../common/job.h"
#include "../../common/xalloc.h"
#include "trace.h"

#define MAX_NAMED 5             /* other jobs named in the line that says which was taken */
#define COMMAND_MAX 200         /* bytes of a command shown */
#define ARGS_SCAN 4096          /* stream 0 records looked at for a command's arguments */

/* What one process image's headers say. */
struct tag {
	uint64_t job;
	int64_t created;        /* ns since 1970, 0 unknown */
	int known;              /* a header was good */
	size_t k;               /* its job in tr->jobs, when known */
};

/* Also notes whether the chunk file's header says p is a system image. */
static struct tag tag_of(struct proc *p)
{
	struct tag t = { 0, 0, 0, 0 };
	uint64_t id, created;
	uint32_t flags = 0;
	if ((p->trace_path &&
	     tprof_job_of_file(AT_FDCWD, p->trace_path, &id, &created, &flags) == 1) ||
	    (p->spool_path &&
	     tprof_job_of_file(AT_FDCWD, p->spool_path, &id, &created, NULL) == 1)) {
		t.job = id;
		t.created = (int64_t)(created > INT64_MAX ? INT64_MAX : created);
		t.known = 1;
	}
	p->system_file = !!(flags & TPROF_FILE_SYSTEM);
	return t;
}

struct pair {
	uint64_t key;           /* a job id, or a job's position */
	size_t i;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->i > y->i) - (x->i < y->i);
}

/* tr->jobs from the tags: one per id, oldest first, each tag given its job's index. */
static void group(struct trace *tr, struct tag *tags, size_t n)
{
	struct pair *v = xcalloc(n ? n : 1, sizeof(*v));
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (tags[i].known)
			v[m++] = (struct pair){ tags[i].job, i };
	qsort(v, m, sizeof(*v), pair_cmp);
	tr->jobs = xcalloc(m ? m : 1, sizeof(*tr->jobs));
	for (size_t a = 0; a < m; a++) {
		struct tag *t = &tags[v[a].i];
		if (!a || v[a].key != v[a - 1].key)
			tr->jobs[tr->njobs++] = (struct job){ .id = t->job, .start_ns = INT64_MAX };
		struct job *j = &tr->jobs[tr->njobs - 1];
		t->k = tr->njobs - 1;
		j->procs++;
		if (t->created && t->created < j->start_ns)
			j->start_ns = t->created;
	}
	/* oldest first (then by id): reorder the jobs and renumber the tags */
	for (size_t k = 0; k < tr->njobs; k++)
		v[k] = (struct pair){ (uint64_t)tr->jobs[k].start_ns, k };
	qsort(v, tr->njobs, sizeof(*v), pair_cmp);
	struct job *sorted = xcalloc(tr->njobs ? tr->njobs : 1, sizeof(*sorted));
	size_t *to = xcalloc(tr->njobs ? tr->njobs : 1, sizeof(*to));
	for (size_t k = 0; k < tr->njobs; k++) {
		sorted[k] = tr->jobs[v[k].i];
		to[v[k].i] = k;
	}
	for (size_t i = 0; i < n; i++)
		tags[i].k = tags[i].known ? to[tags[i].k] : 0;
	free(tr->jobs);
	tr->jobs = sorted;
	free(to);
	free(v);
}

/* ------------------------------------------------------------------ a job's command */

struct str {
	uint32_t id;
	char *s;
};

static const char *find_str(const struct str *v, size_t n, uint32_t id)
{
	for (size_t i = n; i-- > 0;)
		if (v[i].id == id)
			return v[i].s;
	return NULL;
}

/* The arguments of a process image not loaded (yet): its stream 0 read on its own, up to the
 * PROP argc that follows them; NULL when they are not there. */
static char *read_command(const char *trace_path, const char *spool_path)
{
	struct proc *p = xcalloc(1, sizeof(*p));
	struct trace tmp = { 0 };
	struct str *strs = NULL;
	size_t nstrs = 0, len = 0;
	char *out = NULL;
	p->trace_path = trace_path ? xstrdup(trace_path) : NULL;
	p->spool_path = spool_path ? xstrdup(spool_path) : NULL;
	diag_quiet++;
	tracefile_index(&tmp, p);
	spoolfile_index(&tmp, p);
	struct stream *s = p->nstreams ? p->streams[0] : NULL;
	if (s)
		stream_sort_pieces(s);
	for (int n = 0; s && n < ARGS_SCAN && (n ? stream_next(s) : (stream_rewind(s), stream_next(s))); n++) {
		const struct tprof_rec *r = s->rec;
		if (r->kind == TPROF_K_STRING) {
			size_t l = r->arg <= (uint64_t)r->ext * TPROF_UNIT ? (size_t)r->arg
									   : (size_t)r->ext * TPROF_UNIT;
			strs = xreallocarray(strs, nstrs + 1, sizeof(*strs));
			strs[nstrs].s = xstrndup((const char *)(r + 1), l);
			strs[nstrs++].id = r->name;
			continue;
		}
		if (r->kind != TPROF_K_PROP)
			continue;
		const char *key = find_str(strs, nstrs, r->name);
		if (key && !strcmp(key, "argc"))
			break;
		const char *val = key && !strcmp(key, "arg") && !(r->flags & TPROF_PROP_INT)
					  ? find_str(strs, nstrs, (uint32_t)r->arg) : NULL;
		if (!val || len >= COMMAND_MAX)
			continue;
		size_t add = strlen(val) + (len ? 1 : 0);
		out = xrealloc(out, len + add + 1);
		snprintf(out + len, add + 1, "%s%s", len ? " " : "", val);
		len += add;
	}
	diag_quiet--;
	for (size_t i = 0; i < nstrs; i++)
		free(strs[i].s);
	free(strs);
	proc_free(p);
	if (out && len > COMMAND_MAX)
		strcpy(out + COMMAND_MAX - 3, "...");
	return out;
}

/* "3f2a9c1e0b7d4a55 (2025-01-01 12:00:00 UTC, 2 processes: ./app 1)" */
static void describe(const struct job *j, char *buf, size_t len)
{
	char id[TPROF_JOB_HEX + 1] = "unknown", when[40] = "";
	if (j->id)
		tprof_job_format(j->id, id);
	time_t secs = (time_t)(j->start_ns / 1000000000);
	struct tm tm;
	if (j->start_ns > 0 && j->start_ns < INT64_MAX && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC, ", &tm);
	snprintf(buf, len, "%s (%s%u process%s%s%s)", id, when, j->procs, j->procs == 1 ? "" : "es",
		 j->command ? ": " : "", j->command ? j->command : "");
}

/* Names every job that has none yet (reading its first process). */
static void name_all(struct trace *tr, struct proc **first)
{
	for (size_t i = 0; i < tr->njobs; i++)
		if (!tr->jobs[i].command && first[i])
			tr->jobs[i].command = read_command(first[i]->trace_path, first[i]->spool_path);
}

static void list_jobs(const struct trace *tr)
{
	char what[512];
	for (size_t i = 0; i < tr->njobs; i++) {
		describe(&tr->jobs[i], what, sizeof(what));
		diag_error("  %s", what);
	}
}

/* The jobs `want` names: "all", "unknown" or a prefix of one id; -1, said, when not one. */
static int pick(struct trace *tr, const char *want, const char *dir)
{
	if (!strcmp(want, "all")) {
		for (size_t i = 0; i < tr->njobs; i++)
			tr->jobs[i].selected = 1;
		return 0;
	}
	size_t n = strlen(want), hits = 0, at = 0;
	int hex = n && n <= TPROF_JOB_HEX && strspn(want, "0123456789abcdefABCDEF") == n;
	for (size_t i = 0; i < tr->njobs; i++) {
		char id[TPROF_JOB_HEX + 1];
		tprof_job_format(tr->jobs[i].id, id);
		int match = tr->jobs[i].id ? hex && !strncasecmp(id, want, n) : !strcmp(want, "unknown");
		if (match) {
			hits++;
			at = i;
		}
	}
	if (hits == 1) {
		tr->jobs[at].selected = 1;
		return 0;
	}
	if (!tr->njobs)
		diag_error("--job %s: %s holds no job", want, dir);
	else
		diag_error("--job %s: %s job of %s has that id%s; its jobs (give a unique start of an "
			   "id, 'unknown' for files without one, or 'all'):", want,
			   hits ? "more than one" : "no", dir, hex || !strcmp(want, "unknown") ? "" :
			   " (an id is up to 16 hex digits)");
	list_jobs(tr);
	return -1;
}

/* The default with several jobs: the latest, and one line saying so. */
static void pick_latest(struct trace *tr, const char *dir)
{
	struct job *last = &tr->jobs[tr->njobs - 1];
	char what[512], line[4096];
	size_t k = 0;
	last->selected = 1;
	describe(last, what, sizeof(what));
	k += (size_t)snprintf(line + k, sizeof(line) - k, "%s holds %zu jobs; analyzing the latest, %s; "
			      "not analyzed: ", dir, tr->njobs, what);
	for (size_t i = tr->njobs - 1, named = 0; i-- > 0 && k < sizeof(line);) {
		if (named == MAX_NAMED) {
			k += (size_t)snprintf(line + k, sizeof(line) - k, "and %zu more; ", i + 1);
			break;
		}
		describe(&tr->jobs[i], what, sizeof(what));
		k += (size_t)snprintf(line + k, sizeof(line) - k, "%s%s", what, i ? ", " : "; ");
		named++;
	}
	if (k < sizeof(line))
		snprintf(line + k, sizeof(line) - k, "choose with --job ID or --job all");
	diag_error("%s", line);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static int kept_proc(const struct trace *tr, const struct tag *t)
{
	return !t->known || tr->jobs[t->k].selected;
}

/* Framework traces found beside the profile ("<host>.<pid>.pt.trace.json") go with the job of
 * the process image of that host and pid; one that no image names stays. */
static void filter_found(struct trace *tr, const struct tag *tags)
{
	size_t kept = 0;
	for (size_t f = 0; f < tr->nfound; f++) {
		const char *name = base_name(tr->found[f]);
		size_t len = tprof_host_pid_prefix(name);
		int named = 0, ours = 0;
		for (size_t i = 0; len && i < tr->nprocs; i++) {
			const struct proc *p = tr->procs[i];
			const char *b = base_name(p->trace_path ? p->trace_path : p->spool_path);
			if (tprof_host_pid_prefix(b) != len || strncmp(b, name, len))
				continue;
			named = 1;
			ours |= kept_proc(tr, &tags[i]);
		}
		if (!named || ours)
			tr->found[kept++] = tr->found[f];
		else
			free(tr->found[f]);
	}
	tr->nfound = kept;
}

int jobs_select(struct trace *tr, const char *want, const char *dir)
{
	struct tag *tags = xcalloc(tr->nprocs ? tr->nprocs : 1, sizeof(*tags));
	for (size_t i = 0; i < tr->nprocs; i++)
		tags[i] = tag_of(tr->procs[i]);
	group(tr, tags, tr->nprocs);
	/* each job's first process: the earliest file */
	struct proc **first = xcalloc(tr->njobs ? tr->njobs : 1, sizeof(*first));
	int64_t *when = xcalloc(tr->njobs ? tr->njobs : 1, sizeof(*when));
	for (size_t i = 0; i < tr->nprocs; i++) {
		size_t k = tags[i].k;
		if (tags[i].known && (!first[k] || tags[i].created < when[k])) {
			first[k] = tr->procs[i];
			when[k] = tags[i].created;
		}
	}
	int rc = 0;
	if (want || tr->njobs > 1)
		name_all(tr, first);
	if (want)
		rc = pick(tr, want, dir);
	else if (tr->njobs > 1)
		pick_latest(tr, dir);
	else if (tr->njobs)
		tr->jobs[0].selected = 1;
	if (rc == 0)
		filter_found(tr, tags);
	/* keep the selected jobs' images, and those whose job no header tells */
	size_t kept = 0;
	for (size_t i = 0; rc == 0 && i < tr->nprocs; i++) {
		if (kept_proc(tr, &tags[i]))
			tr->procs[kept++] = tr->procs[i];
		else
			proc_free(tr->procs[i]);
	}
	for (size_t k = 0; rc == 0 && k < tr->njobs; k++)
		tr->jobs[k].first = tr->jobs[k].selected ? first[k] : NULL;
	if (rc == 0)
		tr->nprocs = kept;
	free(first);
	free(when);
	free(tags);
	return rc;
}

void jobs_describe(struct trace *tr)
{
	for (size_t k = 0; k < tr->njobs; k++) {
		struct job *j = &tr->jobs[k];
		if (!j->selected || j->command || !j->first)
			continue;
		j->command = proc_command(j->first, COMMAND_MAX);
		if (j->command && !*j->command) {
			free(j->command);
			j->command = NULL;
		}
	}
}

void jobs_free(struct trace *tr)
{
	for (size_t i = 0; i < tr->njobs; i++)
		free(tr->jobs[i].command);
	free(tr->jobs);
	tr->jobs = NULL;
	tr->njobs = 0;
}

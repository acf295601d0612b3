/* job.c — tprof-inspect's part in a job's identity (job.h): which job this run is, the
 * numbered default output directory a run claims without racing the other ranks of its job,
 * and an output directory that already holds another job's profile: refused unless --append
 * (the analyzer tells the jobs apart) or --replace (tprof's own files of the other jobs are
 * removed, nothing else). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../common/chunk.h"
#include "../common/file-names.h"
#include "../common/format.h"
#include "../common/job.h"
#include "../common/outdir.h"
#include "../common/ownfd.h"
#include "../common/xalloc.h"
#include "job.h"
#include "fail.h"

#define MAX_DEPTH 16            /* as deep as the analyzer looks */
#define MAX_NAMED 4             /* other jobs named in the refusal */

uint64_t job_start(void)
{
	const char *from = NULL;
	char hex[TPROF_JOB_HEX + 1];
	uint64_t id = tprof_job_from_env(0, &from);
	if (!id) {
		id = tprof_job_random();
		from = "tprof-inspect";
	}
	tprof_job_format(id, hex);
	char *by = xstrdup(from);	/* from may point into the variable about to change */
	inspect_set_var(TPROF_JOB_VAR, hex);
	inspect_set_var(TPROF_JOB_FROM_VAR, by);
	free(by);
	tprof_job_set(id);
	return id;
}

/* ------------------------------------------------------------------ the default directory */

static void marker_name(uint64_t job, char *buf, size_t len)
{
	char hex[TPROF_JOB_HEX + 1];
	tprof_job_format(job, hex);
	snprintf(buf, len, ".tprof-job-%s", hex);
}

static int holds_marker(const char *dir, const char *marker)
{
	char path[256];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, marker);
	return !lstat(path, &st) && S_ISREG(st.st_mode);
}

static int make_marker(const char *dir, const char *marker)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, marker);
	int fd = tprof_fd_open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, tprof_file_mode());
	if (fd < 0)
		return -1;
	tprof_fd_close(fd);
	return 0;
}

/* Makes `name` with the marker already inside (a directory made aside and renamed into
 * place), so that another rank of the job never finds it without: 1 made, 0 it exists
 * already, -1 an error (errno).  Its mode is a profile directory's (common/outdir.h). */
static int claim(const char *name, const char *marker)
{
	char tmp[] = "." JOB_DEFAULT_BASE "-XXXXXX", path[128];
	if (!mkdtemp(tmp))
		return -1;
	if (chmod(tmp, tprof_dir_mode()) || make_marker(tmp, marker) < 0) {
		int err = errno;
		rmdir(tmp);
		errno = err;
		return -1;
	}
	int rc = renameat2(AT_FDCWD, tmp, AT_FDCWD, name, RENAME_NOREPLACE);
	int err = errno;
	if (!rc)
		return 1;
	snprintf(path, sizeof(path), "%s/%s", tmp, marker);
	unlink(path);
	rmdir(tmp);
	if (err == EEXIST || err == ENOTEMPTY)
		return 0;
	if (err != EINVAL && err != ENOSYS) {
		errno = err;
		return -1;
	}
	/* A file system without RENAME_NOREPLACE: made in place, the marker right after. */
	if (mkdir(name, tprof_dir_mode()))
		return errno == EEXIST ? 0 : -1;
	return make_marker(name, marker) < 0 ? -1 : 1;
}

char *job_default_dir(uint64_t job)
{
	char marker[64], name[64];
	marker_name(job, marker, sizeof(marker));
	for (unsigned n = 1; n < 1000000; n++) {
		struct stat st;
		snprintf(name, sizeof(name), JOB_DEFAULT_BASE "-%u", n);
		if (!lstat(name, &st)) {
			if (S_ISDIR(st.st_mode) && holds_marker(name, marker))
				break;
			continue;
		}
		if (errno != ENOENT)
			inspect_fail("cannot create output directory '%s': %s", name,
				     strerror(errno));
		int rc = claim(name, marker);
		if (rc < 0)
			inspect_fail("cannot create output directory '%s': %s", name,
				     strerror(errno));
		if (rc > 0 || holds_marker(name, marker))
			break;
	}
	return xstrdup(name);
}

/* ------------------------------------------------------------------ what a directory holds */

struct other {
	uint64_t id;            /* 0: unknown (written before jobs were recorded, or damaged) */
	uint64_t first_ns;      /* the earliest file's creation */
	unsigned procs;         /* chunk files */
};

struct scan {
	uint64_t job;           /* this run's */
	struct other *others;
	size_t nothers;
	int remove;             /* --replace: remove the other jobs' files */
	unsigned removed;
	const char *shown;
};

static int kept_others;

int job_others_kept(void)
{
	return kept_others;
}

/* Which job a tprof file (chunk file or spool) of this directory belongs to: 1 with *id, 0
 * when it is not tprof's. */
static int file_job(int dirfd, const char *name, uint64_t *id, uint64_t *created)
{
	if (!tprof_name_ends(name, TPROF_TRACE_SUFFIX) && !tprof_name_ends(name, TPROF_SPOOL_SUFFIX))
		return 0;
	return tprof_job_of_file(dirfd, name, id, created, NULL) > 0;
}

int job_file_is(int dirfd, const char *name, uint64_t job)
{
	uint64_t id, created;
	return file_job(dirfd, name, &id, &created) && id == job;
}

static void note_other(struct scan *sc, uint64_t id, uint64_t created, int is_trace)
{
	size_t i = 0;
	while (i < sc->nothers && sc->others[i].id != id)
		i++;
	if (i == sc->nothers) {
		sc->others = xreallocarray(sc->others, i + 1, sizeof(*sc->others));
		sc->others[i] = (struct other){ id, created, 0 };
		sc->nothers++;
	}
	struct other *o = &sc->others[i];
	if (created && (!o->first_ns || created < o->first_ns))
		o->first_ns = created;
	o->procs += is_trace;
}

/* PyTorch's traces the Python module writes beside the profile (docs/FORMAT.md §14). */
static int is_framework_trace(const char *name)
{
	return tprof_name_ends(name, ".pt.trace.json") || tprof_name_ends(name, ".pt.trace.json.part");
}

/* Whether a file of names[] whose own job is known says that prefix (host.pid.) belongs to
 * another job (want_other) or to this one. */
static int prefix_in(char **names, const uint8_t *kind, size_t n, const char *name, size_t len,
		     uint8_t want)
{
	for (size_t i = 0; i < n; i++)
		if (kind[i] == want && !strncmp(names[i], name, len) &&
		    tprof_host_pid_prefix(names[i]) == len)
			return 1;
	return 0;
}

/* A JIT symbol map "<base>.perf-<pid>.map" the sampler copied beside its image <base>.tpf:
 * the length of <base>, or 0. */
static size_t perf_map_base(const char *name)
{
	const char *p = strstr(name, ".perf-");
	if (!p || !tprof_name_ends(name, ".map"))
		return 0;
	size_t d = strspn(p + 6, "0123456789");
	return d && !strcmp(p + 6 + d, ".map") ? (size_t)(p - name) : 0;
}

static int base_is_other(char **names, const uint8_t *kind, size_t n, const char *name, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (kind[i] == 2 && !strncmp(names[i], name, len) &&
		    !strcmp(names[i] + len, TPROF_TRACE_SUFFIX))
			return 1;
	return 0;
}

static void scan_dir(int fd, struct scan *sc, int depth);

/* One directory's files: names[] and their kinds (0 not a profile file of a known job, 1 this
 * job's, 2 another job's); with sc->remove, the other jobs' files go. */
static void scan_files(int fd, struct scan *sc, char **names, size_t n)
{
	uint8_t *kind = xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < n; i++) {
		uint64_t id, created;
		if (!file_job(fd, names[i], &id, &created))
			continue;
		kind[i] = id == sc->job ? 1 : 2;
		if (kind[i] == 2 && !sc->remove)
			note_other(sc, id, created, tprof_name_ends(names[i], TPROF_TRACE_SUFFIX));
	}
	for (size_t i = 0; sc->remove && i < n; i++) {
		size_t len;
		int go = kind[i] == 2;
		if (!go && (len = perf_map_base(names[i])))
			go = base_is_other(names, kind, n, names[i], len);
		if (!go && is_framework_trace(names[i]) && (len = tprof_host_pid_prefix(names[i])))
			go = prefix_in(names, kind, n, names[i], len, 2) &&
			     !prefix_in(names, kind, n, names[i], len, 1);
		if (go && unlinkat(fd, names[i], 0) && errno != ENOENT)
			inspect_fail("cannot remove %s (under '%s'): %s", names[i], sc->shown,
				     strerror(errno));
		sc->removed += go;
	}
	free(kind);
}

/* Walks the open directory fd (closed here) and the directories below it, never following a
 * link. */
static void scan_dir(int fd, struct scan *sc, int depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				scan_dir(sub, sc, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			names = xreallocarray(names, n + 1, sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
	}
	scan_files(dirfd(d), sc, names, n);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
}

static void scan(const char *abs, struct scan *sc)
{
	int fd = open(abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		inspect_fail("cannot read output directory '%s': %s", sc->shown, strerror(errno));
	scan_dir(fd, sc, 0);
}

/* "3f2a9c1e0b7d4a55 (started 2025-01-01 12:00:00 UTC, 2 processes)" */
static void describe(const struct other *o, char *buf, size_t len)
{
	char id[TPROF_JOB_HEX + 1] = "unknown", when[64] = "";
	if (o->id)
		tprof_job_format(o->id, id);
	time_t secs = (time_t)(o->first_ns / 1000000000u);
	struct tm tm;
	if (o->first_ns && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "started %Y-%m-%d %H:%M:%S UTC, ", &tm);
	snprintf(buf, len, "%s (%s%u process%s%s)", id, when, o->procs, o->procs == 1 ? "" : "es",
		 o->id ? "" : "; no job identity: recorded by an older tprof, or its header is damaged");
}

static void __attribute__((noreturn)) refuse(const struct scan *sc)
{
	char what[256];
	fprintf(stderr, PROG ": output directory '%s' already holds the profile of %s:",
		sc->shown, sc->nothers == 1 ? "another job" : "other jobs");
	for (size_t i = 0; i < sc->nothers && i < MAX_NAMED; i++) {
		describe(&sc->others[i], what, sizeof(what));
		fprintf(stderr, "%s job %s", i ? ";" : "", what);
	}
	if (sc->nothers > MAX_NAMED)
		fprintf(stderr, "; and %zu more", sc->nothers - MAX_NAMED);
	fprintf(stderr, "\n" PROG ": give --append to add this run to it as a job of its own "
		"(tprof-analyze tells jobs apart), --replace to remove %s first, or another -o\n",
		sc->nothers == 1 ? "that profile" : "those profiles");
	exit(EXIT_SETUP);
}

void job_check_dir(const char *abs, const char *shown, uint64_t job, enum job_existing how)
{
	struct scan sc = { .job = job, .shown = shown };
	scan(abs, &sc);
	if (sc.nothers && how == JOB_REFUSE)
		refuse(&sc);
	if (sc.nothers && how == JOB_REPLACE) {
		sc.remove = 1;
		scan(abs, &sc);
		fprintf(stderr, PROG ": removed %u file%s of %zu other job%s from '%s'\n", sc.removed,
			sc.removed == 1 ? "" : "s", sc.nothers, sc.nothers == 1 ? "" : "s", shown);
	}
	kept_others = sc.nothers && how == JOB_APPEND;
	free(sc.others);
}

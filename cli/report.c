/* report.c — what tprof-inspect says once the command has ended: how many processes of the
 * job wrote a profile (and whether the system profile is there), found by a walk of the
 * output directory that also removes the spools left with nothing their chunk file lacks, and
 * when nothing was recorded or the command did not end well, what happened and what to do. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/file-names.h"
#include "../common/format.h"
#include "../common/spool-check.h"
#include "../common/writer-live.h"
#include "../common/xalloc.h"
#include "job.h"
#include "report.h"
#include "sampling.h"
#include "fail.h"

#define MAX_DEPTH 16		/* how deep the profile count looks into the output directory */

/* Whether the process that wrote spool `name` ("<host>.<pid>.<id>.spool") may still run: on
 * this host while its pid exists (another tprof-inspect sharing the directory may be waiting
 * for it, or it runs alone); on another host always, as there is no telling. */
static int writer_may_live(const char *name)
{
	return tprof_spool_writer(name, 0, NULL) != TPROF_WRITER_GONE;
}

/* 1 when the spool stays because it holds records its chunk file lacks (a process that did
 * not finish). */
static int tidy_spool(int dirfd, const char *name)
{
	if (writer_may_live(name))
		return 0;
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d/", dirfd);
	size_t n = strlen(path) + strlen(name) + 1;
	char *full = xmalloc(n);
	snprintf(full, n, "%s%s", path, name);
	int settled = tprof_spool_settled(full);
	if (settled == 1)
		unlinkat(dirfd, name, 0);
	free(full);
	return settled == 0;
}

/* Whether chunk file `name` holds records: a chunk after its header, or a spool beside it
 * (the records of a process that did not finish).  A file with its header alone is no
 * profile. */
static int holds_records(int dirfd, const char *name, const struct stat *st)
{
	struct stat sp;
	if (st->st_size > (off_t)TPROF_FILE_HEADER_SIZE)
		return 1;
	size_t n = strlen(name) - strlen(TPROF_TRACE_SUFFIX);
	char *spool = xmalloc(n + strlen(TPROF_SPOOL_SUFFIX) + 1);
	sprintf(spool, "%.*s%s", (int)n, name, TPROF_SPOOL_SUFFIX);
	int r = !fstatat(dirfd, spool, &sp, AT_SYMLINK_NOFOLLOW) && S_ISREG(sp.st_mode) &&
		sp.st_size > 0;
	free(spool);
	return r;
}

/* Walks the open directory fd (closed here) and below it, without following links: counts
 * the *.tpf files of this job that hold records, and removes the spools modified at or after
 * since of those runs that have ended and hold nothing their chunk file lacks (a killed
 * process's spool stays: it has the records, and *kept counts it; so does the spool of a
 * process still running, perhaps under another tprof-inspect writing to the same directory,
 * as every rank's does under mpirun). */
static int scan_outputs(int fd, uint64_t job, time_t since, int depth, int *kept)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int n = 0;

	if (!d) {
		close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat st;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				n += scan_outputs(sub, job, since, depth + 1, kept);
		} else if (S_ISREG(st.st_mode)) {
			if (tprof_name_ends(e->d_name, TPROF_TRACE_SUFFIX))
				n += job_file_is(dirfd(d), e->d_name, job) &&
				     holds_records(dirfd(d), e->d_name, &st);
			else if (st.st_mtime >= since && tprof_name_ends(e->d_name, TPROF_SPOOL_SUFFIX))
				*kept += tidy_spool(dirfd(d), e->d_name);
		}
	}
	closedir(d);
	return n;
}

static int plain_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_./,:@%+=-", *s))
			return 0;
	return 1;
}

/* s as a shell word: unchanged when that is safe, else in single quotes. */
static char *shell_quote(const char *s)
{
	char *out = xmalloc(4 * strlen(s) + 3), *p = out;
	if (plain_word(s))
		return strcpy(out, s);
	*p++ = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *s;
		}
	}
	*p++ = '\'';
	*p = '\0';
	return out;
}

/* How the command ended, when not with status 0, as "exited with status 3" or "was killed by
 * SIGSEGV". */
static void ending(int status, char *buf, size_t len)
{
	const char *sig = WIFSIGNALED(status) ? sigabbrev_np(WTERMSIG(status)) : NULL;
	if (WIFEXITED(status))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
	else if (sig)
		snprintf(buf, len, "was killed by SIG%s", sig);
	else
		snprintf(buf, len, "was killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static int is_mpi_launcher(const char *cmd)
{
	const char *base = strrchr(cmd, '/');
	base = base ? base + 1 : cmd;
	return !strncmp(base, "mpirun", 6) || !strncmp(base, "mpiexec", 7) || !strcmp(base, "srun");
}

/* The profile count: the processes of this job that recorded, and the system image if there
 * is one (found by the scan too, so counted once less); and when nothing was recorded, or the
 * command did not end well, what happened and what to do. */
void inspect_report(const char *dir, const char *abs, uint64_t job, time_t since, char **cmd,
		    int status, int sampled, int never_open)
{
	int fd = open(abs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int kept = 0;
	int n = fd < 0 ? 0 : scan_outputs(fd, job, since, 0, &kept);
	int sys = sampling_image() && n > 0;
	char *q = shell_quote(dir), *c = shell_quote(cmd[0]);
	char what[96], how[64];

	ending(status, how, sizeof(how));
	n -= sys;
	if (!sys)
		snprintf(what, sizeof(what), "%d process%s", n, n == 1 ? "" : "es");
	else if (n)
		snprintf(what, sizeof(what), "%d process%s and the system profile", n,
			 n == 1 ? "" : "es");
	else
		snprintf(what, sizeof(what), "the system profile");
	char pick[48] = "";
	if (job_others_kept())
		snprintf(pick, sizeof(pick), " --job %016llx", (unsigned long long)job);
	if ((n || sys) && WIFSIGNALED(status))
		fprintf(stderr, PROG ": %s %s; %s\n", c, how,
			kept ? "what it recorded until then is in its spool, which tprof-analyze reads"
			     : "what it recorded until then is in the profile");
	if (n || sys) {
		fprintf(stderr, PROG ": profile written to %s (%s)\n"
			PROG ": next: tprof-analyze %s%s --summary\n", q, what, q, pick);
	} else if (never_open) {
		fprintf(stderr, PROG ": no profile data was written to %s: %s ended before recording "
			"started (--delay, --start-paused)\n", q, c);
	} else if (status) {
		fprintf(stderr, PROG ": %s %s before any process was recorded; no profile data was "
			"written to %s\n", c, how, q);
		if (is_mpi_launcher(cmd[0]) && WIFEXITED(status))
			fprintf(stderr, PROG ": (Open MPI's mpirun needs --allow-run-as-root to run as "
				"root, and --oversubscribe for more ranks than cores; its own message "
				"above says why it stopped)\n");
	} else {
		fprintf(stderr, PROG ": no profile data was written to %s: %s made no call that tprof "
			"records (HIP, the Neuron runtime, MPI, NCCL/RCCL, roctx, tprof's own "
			"annotations), or did not load the recorder (a static or set-user-ID program)\n",
			q, c);
		if (!sampled)
			fprintf(stderr, PROG ": --sample all records any program: CPU samples, thread "
				"states and memory\n");
	}
	free(q);
	free(c);
}

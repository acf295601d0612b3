/* hang.c — tprof-inspect --hang-report S (hang.h).  A thread wakes every second (every S/4
 * for S under 4 s) and looks at every spool under the output directory: a process got on
 * when its threads wrote a record or a call of theirs returned (common/spool-progress.h), a
 * spool that appears or goes away is a process that started or ended.  When none got on for
 * S seconds while some still run, it runs `tprof-analyze DIR --live --once` into
 * DIR/hang-report.txt (written under a temporary name, then renamed), copies it to stderr,
 * and does the action: nothing more, the job ended (its processes here stopped together so
 * that none moves on when another dies, then SIGKILL, or SIGTERM for those that handle it;
 * the command SIGTERM; SIGKILL 10 s later), or the signal asked for.  Once: the watcher then
 * only waits to be stopped. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../common/file-names.h"
#include "../common/format.h"
#include "../common/job.h"
#include "../common/spool-progress.h"
#include "../common/writer-live.h"
#include "../common/xalloc.h"
#include "capture.h"
#include "hang.h"
#include "preload-lib.h"
#include "signal-name.h"
#include "fail.h"

#define WALK_DEPTH 8            /* as deep as tprof-analyze looks for files */
#define KILL_GRACE_S 10         /* --hang-action kill: SIGTERM, then SIGKILL this much later */

extern char **environ;

int hang_parse_seconds(const char *v, double *out)
{
	return capture_parse_seconds(v, out) < 0 || *out <= 0 ? -1 : 0;
}

int hang_parse_action(const char *v, struct hang_options *o)
{
	if (!strcmp(v, "kill")) {
		o->action = HANG_KILL;
		return 0;
	}
	if (strncmp(v, "signal:", 7) || !(o->signal = inspect_signal_of(v + 7)))
		return -1;
	o->action = HANG_SIGNAL;
	return 0;
}

struct watched {
	char *path;
	struct spool_progress sp;
	int seen;                        /* found by the latest walk */
};

static struct {
	struct hang_options opt;
	pthread_t thread;
	int running;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop;
	pid_t pid;
	char *dir;
	struct watched *w;
	size_t nw, capw;
	int moved;                       /* this round: a process got on, started or ended */
} hw = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER };

void inspect_set_hang_watch(const struct hang_options *o)
{
	hw.opt = *o;
}

static void look_at(const char *path)
{
	for (size_t i = 0; i < hw.nw; i++)
		if (!strcmp(hw.w[i].path, path)) {
			hw.w[i].seen = 1;
			int r = spool_progress_poll(&hw.w[i].sp);
			hw.moved |= r != 0;
			return;
		}
	if (hw.nw == hw.capw) {
		hw.capw = hw.capw ? 2 * hw.capw : 16;
		hw.w = xreallocarray(hw.w, hw.capw, sizeof(*hw.w));
	}
	struct watched *w = &hw.w[hw.nw];
	if (spool_progress_open(&w->sp, path) < 0)
		return;   /* not (yet) a spool: looked at again next time */
	w->path = xstrdup(path);
	w->seen = 1;
	hw.nw++;
	spool_progress_poll(&w->sp);
	hw.moved = 1;
}

static void walk(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[PATH_MAX];
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		if (tprof_name_ends(e->d_name, TPROF_SPOOL_SUFFIX))
			look_at(path);
		else if (depth < WALK_DEPTH && (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)) {
			struct stat st;
			if (!lstat(path, &st) && S_ISDIR(st.st_mode))
				walk(path, depth + 1);
		}
	}
	closedir(d);
}

/* One look: whether some process got on, started or ended; *live: how many run. */
static int look(size_t *live)
{
	hw.moved = 0;
	for (size_t i = 0; i < hw.nw; i++)
		hw.w[i].seen = 0;
	walk(hw.dir, 0);
	size_t k = 0;
	for (size_t i = 0; i < hw.nw; i++) {
		if (!hw.w[i].seen || hw.w[i].sp.fd < 0) {
			hw.moved = 1;   /* its process ended (or its spool went) */
			spool_progress_close(&hw.w[i].sp);
			free(hw.w[i].path);
			continue;
		}
		hw.w[k++] = hw.w[i];
	}
	hw.nw = k;
	*live = k;
	return hw.moved;
}

/* tprof-analyze: TPROF_ANALYZE, beside this program (installed, or in the build tree), or
 * where configure put it. */
static char *analyzer(void)
{
	const char *env = getenv("TPROF_ANALYZE");
	if (env && *env)
		return xstrdup(env);
	const char *dir = inspect_exe_dir();
	char p[PATH_MAX + 32];
	if (dir) {
		snprintf(p, sizeof(p), "%s/tprof-analyze", dir);
		if (inspect_is_file(p))
			return xstrdup(p);
		snprintf(p, sizeof(p), "%s/../analyze/tprof-analyze", dir);
		if (inspect_is_file(p))
			return xstrdup(p);
	}
	snprintf(p, sizeof(p), "%s/tprof-analyze", TPROF_BINDIR);
	return xstrdup(p);
}

/* Runs the analyzer with its output into the temporary file; 0 when it succeeded. */
static int run_report(const char *tmp)
{
	char *prog = analyzer();
	char *argv[] = { prog, hw.dir, "--live", "--once", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, tmp, O_WRONLY | O_CREAT | O_TRUNC,
					 0644);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	int rc = posix_spawn(&pid, prog, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	int status = 0;
	if (!rc)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	if (rc)
		fprintf(stderr, PROG ": warning: cannot run %s for the hang report: %s\n", prog,
			strerror(rc));
	free(prog);
	return rc || !WIFEXITED(status) || WEXITSTATUS(status) ? -1 : 0;
}

static void report(double stalled)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/%s", hw.dir, TPROF_HANG_REPORT);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fprintf(stderr, PROG ": no process of the job has got on for %.0f s: hang report in %s\n",
		stalled, path);
	if (run_report(tmp) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		fprintf(stderr, PROG ": warning: the hang report could not be written\n");
		return;
	}
	FILE *f = fopen(path, "r");
	char buf[4096];
	size_t n;
	while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stderr);
	if (f)
		fclose(f);
	fflush(stderr);
}

/* Waits s seconds, or until stopped: 1 when stopped. */
static int pause_for(double s)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += (time_t)s;
	until.tv_nsec += (long)((s - (double)(time_t)s) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&hw.lock);
	while (!hw.stop && pthread_cond_timedwait(&hw.wake, &hw.lock, &until) != ETIMEDOUT)
		;
	int stop = hw.stop;
	pthread_mutex_unlock(&hw.lock);
	return stop;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The pid of the process writing watched spool i when it runs on this host and belongs to
 * this job (not this program, not init); 0 otherwise. */
static pid_t writer(size_t i)
{
	pid_t pid = 0;
	uint64_t job = tprof_job_current();
	if (hw.w[i].sp.job != job || !job ||
	    tprof_spool_writer(hw.w[i].path, hw.w[i].sp.created_ns, &pid) != TPROF_WRITER_LIVE ||
	    pid <= 1 || pid == getpid())
		return 0;
	return pid;
}

/* Whether process pid has a handler for SIGTERM (its SigCgt mask; 1 when it cannot be read). */
static int catches_term(pid_t pid)
{
	char path[64], line[256];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	int catches = 1;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigCgt:", 7)) {
			unsigned long long mask = strtoull(line + 7, NULL, 16);
			catches = (int)(mask >> (SIGTERM - 1) & 1);
			break;
		}
	if (f)
		fclose(f);
	return catches;
}

/* --hang-action kill.  The job's processes on this host are stopped first, all of them, so
 * that none sees another end and moves on (a peer's collective failing, an error path) and
 * the profile keeps the hang the report described.  Those that do not handle SIGTERM are then
 * ended by SIGKILL, which ends a stopped process at once, every thread of it (SIGTERM would
 * have to wake it first, and while the thread that takes it ends the process another may run
 * on); those that handle it get SIGTERM and are let go, to do what they do.  Then the command
 * gets SIGTERM (mpirun, still there to collect its ranks, passes it to those of other hosts);
 * what still runs KILL_GRACE_S later, SIGKILL. */
static void end_job(void)
{
	size_t n = hw.nw;
	pid_t *pid = xcalloc(n ? n : 1, sizeof(*pid));
	for (size_t i = 0; i < n; i++)
		if ((pid[i] = writer(i)) && kill(pid[i], SIGSTOP))
			pid[i] = 0;
	for (size_t i = 0; i < n; i++)
		if (pid[i] && !catches_term(pid[i])) {
			kill(pid[i], SIGKILL);
			pid[i] = 0;
		}
	for (size_t i = 0; i < n; i++)
		if (pid[i])
			kill(pid[i], SIGTERM);
	for (size_t i = 0; i < n; i++)
		if (pid[i])
			kill(pid[i], SIGCONT);
	kill(hw.pid, SIGTERM);
	if (!pause_for(KILL_GRACE_S)) {
		kill(hw.pid, SIGKILL);
		for (size_t i = 0; i < n; i++)
			if (pid[i] && writer(i) == pid[i])   /* still the same process */
				kill(pid[i], SIGKILL);
	}
	free(pid);
}

static void *watch(void *arg)
{
	(void)arg;
	double tick = hw.opt.seconds < 4 ? hw.opt.seconds / 4 : 1;
	double last = now_s();
	while (!pause_for(tick)) {
		size_t live;
		if (look(&live) || !live) {
			last = now_s();
			continue;
		}
		if (now_s() - last < hw.opt.seconds)
			continue;
		report(now_s() - last);
		if (hw.opt.action == HANG_SIGNAL)
			kill(hw.pid, hw.opt.signal);
		else if (hw.opt.action == HANG_KILL)
			end_job();
		break;   /* once */
	}
	return NULL;
}

void hang_watch_start(pid_t pid, const char *dir)
{
	if (hw.opt.seconds <= 0)
		return;
	hw.pid = pid;
	hw.dir = xstrdup(dir);
	hw.stop = 0;
	if (pthread_create(&hw.thread, NULL, watch, NULL)) {
		fprintf(stderr, PROG ": warning: cannot watch for hangs: %s\n", strerror(errno));
		return;
	}
	hw.running = 1;
}

void hang_watch_stop(void)
{
	if (!hw.running)
		return;
	pthread_mutex_lock(&hw.lock);
	hw.stop = 1;
	pthread_cond_signal(&hw.wake);
	pthread_mutex_unlock(&hw.lock);
	pthread_join(hw.thread, NULL);
	hw.running = 0;
	for (size_t i = 0; i < hw.nw; i++) {
		spool_progress_close(&hw.w[i].sp);
		free(hw.w[i].path);
	}
	free(hw.w);
	free(hw.dir);
	hw.w = NULL;
	hw.nw = hw.capw = 0;
}

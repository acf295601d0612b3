/* diff/run.c — --diff A B: this program run on each profile with --diff-data (and the window
 * options), both at once, each writing into a file of a temporary directory; then the two
 * compared (compare.c).  A run that fails has said why on stderr; its exit status is ours. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/xalloc.h"
#include "../read/trace.h"
#include "diff.h"

extern char **environ;

static pid_t start(const char *self, const char *dir, const char *const *pass, const char *out)
{
	size_t n = 0;
	while (pass[n])
		n++;
	char **argv = xcalloc(n + 4, sizeof(*argv));
	argv[0] = (char *)self;
	argv[1] = (char *)dir;
	argv[2] = (char *)"--diff-data";
	for (size_t i = 0; i < n; i++)
		argv[3 + i] = (char *)pass[i];
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid;
	int rc = posix_spawn(&pid, self, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (rc) {
		diag_error("--diff: cannot run %s: %s", self, strerror(rc));
		return -1;
	}
	return pid;
}

/* The exit status of pid (a signal: 1). */
static int finish(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int diff_run(const char *self, const char *a, const char *b, const char *const *pass,
	     enum summary_format format, int top)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/tprof-diff.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		diag_error("--diff: cannot make a directory %s: %s", dir, strerror(errno));
		free(dir);
		return 1;
	}
	char *pa = xasprintf("%s/a.json", dir), *pb = xasprintf("%s/b.json", dir);
	pid_t ia = start(self, a, pass, pa);
	pid_t ib = ia < 0 ? -1 : start(self, b, pass, pb);
	int ra = ia < 0 ? 1 : finish(ia), rb = ib < 0 ? 1 : finish(ib);
	int rc = ra ? ra : rb;
	if (!rc && diff_compare(pa, pb, a, b, stdout, format, top) < 0)
		rc = 1;
	unlink(pa);
	unlink(pb);
	rmdir(dir);
	free(pa);
	free(pb);
	free(dir);
	return rc;
}

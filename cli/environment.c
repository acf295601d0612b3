/* environment.c — what the command is given: the output directory, made and checked as the
 * recorder checks it, and the environment it runs with (TPROF_ENABLE, TPROF_OUTPUT_DIR, the
 * variables the options ask for, LD_PRELOAD with the recorder first, PYTHONPATH with the
 * directory of tprof's Python module first). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/outdir.h"
#include "../common/xalloc.h"
#include "environment.h"
#include "fail.h"
#include "options.h"
#include "preload-lib.h"

/* The output directory's owner and mode are checked as the recorder checks them
 * (common/outdir.h): a directory of another user, or one others may write to, is refused. */
static void refuse_unsafe(const char *dir, const char *abs)
{
	char why[256];
	if (tprof_outdir_check(abs, why, sizeof(why)))
		inspect_fail("refusing output directory '%s': %s", dir, why);
}

/* Creates the output directory and gives its absolute path. */
char *inspect_prepare_output(const char *dir)
{
	if (tprof_outdir_make(dir))
		inspect_fail("cannot create output directory '%s': %s", dir, strerror(errno));
	char *abs = inspect_absolute(dir);
	refuse_unsafe(dir, abs);
	if (access(abs, W_OK | X_OK))
		inspect_fail("cannot write to output directory '%s': %s", dir, strerror(errno));
	return abs;
}

/* Whether this is the build tree's tprof-inspect: the recorder is built beside it. */
static int in_build_tree(void)
{
	char path[PATH_MAX + 64];
	const char *dir = inspect_exe_dir();
	if (!dir)
		return 0;
	snprintf(path, sizeof(path), "%s/../preload/.libs/" PRELOAD_NAME, dir);
	return inspect_is_file(path);
}

/* The directory that holds the tprof Python package, links resolved, as the recorder is
 * found: the source tree's python/ for the build tree's tprof-inspect, else the installed one
 * beside this program or where configure put it.  That one holds the package alone (a link to
 * it under pythondir), so that no other package comes before the command's own.  NULL when
 * none is there. */
static char *find_python_dir(void)
{
	char tried[3][PATH_MAX + 64], path[PATH_MAX + 96];
	const char *dir = inspect_exe_dir();
	int n = 0;
	if (in_build_tree())
		snprintf(tried[n++], sizeof(tried[0]), "%s", TPROF_SRC_PYTHONDIR);
	if (dir)
		snprintf(tried[n++], sizeof(tried[0]), "%s/../lib/" PACKAGE "/python", dir);
	snprintf(tried[n++], sizeof(tried[0]), "%s", TPROF_PYTHONDIR);
	for (int i = 0; i < n; i++) {
		int len = snprintf(path, sizeof(path), "%s/tprof/__init__.py", tried[i]);
		if (len < (int)sizeof(path) && inspect_is_file(path))
			return realpath(tried[i], NULL);
	}
	return NULL;
}

static int python_path_set;	/* PYTHONPATH is the recorder's to pass on to other hosts */

int inspect_sets_python_path(void)
{
	return python_path_set;
}

/* PYTHONPATH with dir first and the user's entries after it, as they were. */
static void set_python_path(const char *dir)
{
	const char *old = getenv("PYTHONPATH");
	size_t n = strlen(dir);
	python_path_set = 1;
	if (old && !strncmp(old, dir, n) && (old[n] == ':' || !old[n]))
		return;
	if (!old || !*old) {
		inspect_set_var("PYTHONPATH", dir);
		return;
	}
	char *v = xmalloc(n + strlen(old) + 2);
	sprintf(v, "%s:%s", dir, old);
	inspect_set_var("PYTHONPATH", v);
	free(v);
}

void inspect_set_environment(const struct options *o, const char *dir, const char *lib)
{
	char *py = find_python_dir();
	if (py)
		set_python_path(py);
	free(py);
	inspect_set_var("TPROF_ENABLE", "1");
	inspect_set_var("TPROF_OUTPUT_DIR", dir);
	if (o->group_readable)
		inspect_set_var("TPROF_GROUP_READABLE", "1");
	if (o->max_events[0])
		inspect_set_var("TPROF_MAX_EVENTS", o->max_events);
	if (o->buffer_kb[0])
		inspect_set_var("TPROF_BUFFER_KB", o->buffer_kb);
	if (o->verbose) {
		char v[2] = { (char)('0' + o->verbose), '\0' };
		inspect_set_var("TPROF_VERBOSE", v);
	}
	char *list = inspect_preload_list(lib, getenv("LD_PRELOAD"));
#ifdef TPROF_ASAN_RUNTIME
	/* A sanitizer build of the recorder needs the ASan runtime loaded before anything else;
	 * leak reports from the profiled program are not the recorder's to make. */
	char *with = xmalloc(strlen(TPROF_ASAN_RUNTIME) + strlen(list) + 2);
	sprintf(with, "%s:%s", TPROF_ASAN_RUNTIME, list);
	free(list);
	list = with;
	if (!getenv("ASAN_OPTIONS"))
		inspect_set_var("ASAN_OPTIONS", "detect_leaks=0");
#endif
	inspect_set_var("LD_PRELOAD", list);
	free(list);
}

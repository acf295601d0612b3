/* preload-lib.c — the recorder library tprof-inspect preloads: where it is found
 * (TPROF_PRELOAD_LIB, beside this program in the build tree or an installed tree, or where
 * configure put it) and the LD_PRELOAD list that puts it first, with no other copy of it
 * beside it.  The Python module is found the same way (environment.c). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/xalloc.h"
#include "preload-lib.h"
#include "fail.h"


int inspect_is_file(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* The directory of this executable, links resolved; NULL if /proc cannot say. */
char *inspect_exe_dir(void)
{
	static char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return buf;
}

char *inspect_absolute(const char *path)
{
	char *p = realpath(path, NULL);
	if (!p)
		inspect_fail("cannot resolve '%s': %s", path, strerror(errno));
	return p;
}

static char *preload_from_env(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		inspect_fail("TPROF_PRELOAD_LIB=%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		inspect_fail("TPROF_PRELOAD_LIB=%s: not a regular file", path);
	return inspect_absolute(path);
}

char *inspect_find_preload(void)
{
	const char *env = getenv("TPROF_PRELOAD_LIB");
	if (env && *env)
		return preload_from_env(env);

	char tried[3][PATH_MAX + 64];
	int n = 0;
	const char *dir = inspect_exe_dir();
	if (dir) {
		snprintf(tried[n++], sizeof(tried[0]), "%s/../preload/.libs/" PRELOAD_NAME, dir);
		snprintf(tried[n++], sizeof(tried[0]), "%s/../lib/" PRELOAD_NAME, dir);
	}
	snprintf(tried[n++], sizeof(tried[0]), "%s/" PRELOAD_NAME, TPROF_LIBDIR);
	for (int i = 0; i < n; i++)
		if (inspect_is_file(tried[i]))
			return inspect_absolute(tried[i]);

	fprintf(stderr, PROG ": cannot find " PRELOAD_NAME "; looked for:\n");
	for (int i = 0; i < n; i++)
		fprintf(stderr, "  %s\n", tried[i]);
	inspect_fail("set TPROF_PRELOAD_LIB to its path");
}

/* Whether an LD_PRELOAD entry is a recorder: this one, or another copy that must not be
 * loaded beside it. */
static int is_recorder(const char *entry, const char *lib)
{
	const char *base = strrchr(entry, '/');
	char *real = realpath(entry, NULL);
	int same = !strcmp(entry, lib) || (real && !strcmp(real, lib));

	free(real);
	base = base ? base + 1 : entry;
	if (!same && !strcmp(base, PRELOAD_NAME)) {
		fprintf(stderr, PROG ": leaving %s out of LD_PRELOAD in favour of %s\n", entry, lib);
		return 1;
	}
	return same;
}

/* LD_PRELOAD with lib first and every other entry of old after it, in order. */
char *inspect_preload_list(const char *lib, const char *old)
{
	old = old ? old : "";
	char *out = xmalloc(strlen(lib) + strlen(old) + 2);
	char *copy = xstrdup(old);
	char *save = NULL;
	strcpy(out, lib);
	for (char *e = strtok_r(copy, ": ", &save); e; e = strtok_r(NULL, ": ", &save)) {
		if (is_recorder(e, lib))
			continue;
		strcat(out, ":");
		strcat(out, e);
	}
	free(copy);
	return out;
}

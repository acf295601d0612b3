/* launchers.c — Open MPI's launcher: the recorder's variables (environment.c) passed on to
 * the ranks it starts on other hosts, as -x options added to mpirun's command line or as
 * names added to OMPI_MCA_mca_base_env_list.  Any other command is left as it is. */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/xalloc.h"
#include "environment.h"
#include "fail.h"
#include "launchers.h"
#include "preload-lib.h"

/* Open MPI's mpirun passes to ranks on other hosts only the variables named with -x or in
 * the MCA parameter mca_base_env_list, and refuses to run with both.  So when the user set
 * OMPI_MCA_mca_base_env_list, the recorder's variables are added to it; when COMMAND is
 * Open MPI's launcher itself (orterun, under whatever name), they are given to it as -x
 * options; anything else (a script, another launcher) is left as it is. */

/* Whether environment entry e is one of the recorder's variables: LD_PRELOAD, every TPROF_*,
 * PYTHONPATH when it leads to the Python module, and in a sanitizer build the ASAN_OPTIONS
 * set for it. */
static int recorder_var(const char *e)
{
#ifdef TPROF_ASAN_RUNTIME
	if (!strncmp(e, "ASAN_OPTIONS=", 13))
		return 1;
#endif
	if (inspect_sets_python_path() && !strncmp(e, "PYTHONPATH=", 11))
		return 1;
	return !strncmp(e, "TPROF_", 6) || !strncmp(e, "LD_PRELOAD=", 11);
}

/* The names of the recorder's variables set in this environment. */
static char **recorder_vars(size_t *n)
{
	extern char **environ;
	size_t cap = 1;
	for (char **e = environ; *e; e++)
		cap++;
	char **names = xmalloc(cap * sizeof(*names));
	*n = 0;
	for (char **e = environ; *e; e++) {
		if (!recorder_var(*e))
			continue;
		size_t len = strcspn(*e, "=");
		names[*n] = xmalloc(len + 1);
		memcpy(names[*n], *e, len);
		names[(*n)++][len] = '\0';
	}
	return names;
}

/* Whether a delim-separated list names var (as "VAR" or "VAR=value"). */
static int env_list_has(const char *list, char delim, const char *var)
{
	size_t n = strlen(var);
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, (char[]){ delim, '\0' });
		if (len >= n && !strncmp(p, var, n) && (len == n || p[n] == '='))
			return 1;
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

static void extend_env_list(const char *list, char **vars, size_t nvars)
{
	const char *d = getenv("OMPI_MCA_mca_base_env_list_delimiter");
	char delim = d && strlen(d) == 1 ? d[0] : ';';
	size_t len = strlen(list) + 1;
	for (size_t i = 0; i < nvars; i++)
		len += strlen(vars[i]) + 1;
	char *out = xmalloc(len);
	strcpy(out, list);
	for (size_t i = 0; i < nvars; i++) {
		if (env_list_has(out, delim, vars[i]))
			continue;
		size_t at = strlen(out);
		if (at && out[at - 1] != delim)
			out[at++] = delim;
		strcpy(out + at, vars[i]);
	}
	inspect_set_var("OMPI_MCA_mca_base_env_list", out);
	free(out);
}

/* The file COMMAND runs, found as execvp would, links resolved; NULL if none. */
static char *command_path(const char *cmd)
{
	if (strchr(cmd, '/'))
		return realpath(cmd, NULL);
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t len = strcspn(p, ":");
		char buf[PATH_MAX];
		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? p : ".", cmd) <
		    (int)sizeof(buf) && inspect_is_file(buf) && !access(buf, X_OK))
			return realpath(buf, NULL);
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

static int is_orterun(const char *cmd)
{
	char *path = command_path(cmd);
	const char *base = path ? strrchr(path, '/') : NULL;
	int yes = base && !strcmp(base + 1, "orterun");
	free(path);
	return yes;
}

/* COMMAND, with -x options for the recorder's variables when it is Open MPI's launcher. */
void inspect_forward_to_ranks(char **cmd, struct forwarding *f)
{
	size_t argc = 0;
	f->vars = recorder_vars(&f->nvars);
	f->cmd = cmd;
	f->added = NULL;
	const char *list = getenv("OMPI_MCA_mca_base_env_list");
	if (list) {
		extend_env_list(list, f->vars, f->nvars);
	} else if (is_orterun(cmd[0])) {
		while (cmd[argc])
			argc++;
		char **out = xmalloc((argc + 2 * f->nvars + 1) * sizeof(*out));
		out[0] = cmd[0];
		for (size_t i = 0; i < f->nvars; i++) {
			out[1 + 2 * i] = "-x";
			out[2 + 2 * i] = f->vars[i];
		}
		memcpy(out + 1 + 2 * f->nvars, cmd + 1, argc * sizeof(*out));
		f->cmd = f->added = out;
	}
}

void inspect_forwarding_done(struct forwarding *f)
{
	for (size_t i = 0; i < f->nvars; i++)
		free(f->vars[i]);
	free(f->vars);
	free(f->added);
}

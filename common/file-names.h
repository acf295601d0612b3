/* file-names.h — telling the files of an output directory by their names: one suffix test,
 * and one reading of a process's "<host>.<pid>." prefix, for tprof-inspect and the analyzer's
 * scan alike. */
#ifndef TPROF_FILE_NAMES_H
#define TPROF_FILE_NAMES_H

#include <string.h>

/* Whether `name` ends with `suffix` and has something before it. */
static inline int tprof_name_ends(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);
	return n > m && !strcmp(name + n - m, suffix);
}

/* "<host>.<pid>." of a file named "<host>.<pid>.<rest>" (pid all digits): its length, or 0. */
static inline size_t tprof_host_pid_prefix(const char *name)
{
	for (const char *p = strchr(name, '.'); p; p = strchr(p + 1, '.')) {
		size_t d = strspn(p + 1, "0123456789");
		if (d && p[1 + d] == '.')
			return (size_t)(p + 2 + d - name);
	}
	return 0;
}

#endif

/* file-names.h — telling the files of an output directory by their names: one suffix test
 * for tprof-inspect and the analyzer's scan alike. */
#ifndef TPROF_FILE_NAMES_H
#define TPROF_FILE_NAMES_H

#include <string.h>

/* Whether `name` ends with `suffix` and has something before it. */
static inline int tprof_name_ends(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);
	return n > m && !strcmp(name + n - m, suffix);
}

#endif

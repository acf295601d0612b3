/* preload-lib.h — the recorder library tprof-inspect preloads (preload-lib.c): where it is
 * found and the LD_PRELOAD list that puts it first; and the look-ups that find it, which find
 * the Python module and the command's file too. */
#ifndef TPROF_CLI_PRELOAD_LIB_H
#define TPROF_CLI_PRELOAD_LIB_H

#define PRELOAD_NAME "libtrace_preload.so"

/* Whether path is a regular file (links followed). */
int inspect_is_file(const char *path);
/* The directory of this executable, links resolved, in a static buffer; NULL if /proc cannot
 * say. */
char *inspect_exe_dir(void);
/* path resolved to an absolute path without links, malloc'd; exits EXIT_SETUP if it cannot
 * be. */
char *inspect_absolute(const char *path);

/* The recorder's absolute path, malloc'd: $TPROF_PRELOAD_LIB, else the first that exists
 * of the build tree's, the one beside this program's installed tree and the one under
 * TPROF_LIBDIR.  Exits EXIT_SETUP, saying where it looked, when there is none. */
char *inspect_find_preload(void);
/* LD_PRELOAD with lib first and every other entry of old (NULL: none) after it, in order,
 * but other copies of the recorder; malloc'd. */
char *inspect_preload_list(const char *lib, const char *old);

#endif

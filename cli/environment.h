/* environment.h — what the command is given (environment.c): the output directory, made and
 * checked, and the environment it runs with. */
#ifndef TPROF_CLI_ENVIRONMENT_H
#define TPROF_CLI_ENVIRONMENT_H

struct options;

/* Creates the output directory dir (as the user named it) and checks it as the recorder
 * does; its absolute path, malloc'd.  Exits EXIT_SETUP when it cannot be made or is refused. */
char *inspect_prepare_output(const char *dir);
/* The command's environment: TPROF_ENABLE=1, TPROF_OUTPUT_DIR=dir (absolute), the variables
 * the options o ask for, PYTHONPATH with tprof's Python module first and LD_PRELOAD with the
 * recorder lib first. */
void inspect_set_environment(const struct options *o, const char *dir, const char *lib);
/* Whether inspect_set_environment set PYTHONPATH (it is then the recorder's to pass on to
 * other hosts). */
int inspect_sets_python_path(void);

#endif

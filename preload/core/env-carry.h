/* env-carry.h — keeping TPROF_* and LD_PRELOAD in the environment across exec. */
#ifndef TPROF_ENV_CARRY_H
#define TPROF_ENV_CARRY_H

#include <stddef.h>

struct tprof_env;
/* At load: the variables to carry across exec, copied from what tprof_env_scan found. */
void tprof_env_capture(const struct tprof_env *env);
/* Pointer slots the caller must provide for tprof_env_fill (0: use envp as it is). */
size_t tprof_env_extra(char *const envp[]);
/* envp with the profiler's variables added, built in out[] and preload_buf; no allocation. */
char *const *tprof_env_fill(char *const envp[], char **out, size_t out_len, char *preload_buf,
			    size_t preload_len);

#endif

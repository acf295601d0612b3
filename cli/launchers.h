/* launchers.h — the recorder's variables passed on by Open MPI's launcher to the ranks it
 * starts on other hosts (launchers.c). */
#ifndef TPROF_CLI_LAUNCHERS_H
#define TPROF_CLI_LAUNCHERS_H

#include <stddef.h>

struct forwarding {
	char **cmd;             /* the command to run */
	char **added;           /* what was allocated for it, freed by inspect_forwarding_done */
	char **vars;
	size_t nvars;
};

/* After the environment is set: the command to run in f->cmd, cmd itself or, when it is Open
 * MPI's launcher, cmd with -x options for the recorder's variables; when
 * OMPI_MCA_mca_base_env_list is set, their names are added to it instead. */
void inspect_forward_to_ranks(char **cmd, struct forwarding *f);
/* Frees what inspect_forward_to_ranks allocated (the command has ended). */
void inspect_forwarding_done(struct forwarding *f);

#endif

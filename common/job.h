/* job.h — a job's identity: one 64-bit id that every process of one run shares and every
 * file of the run carries in its header, so that a directory holding several runs can be
 * told apart (docs/DESIGN.md, "Jobs").  Where the id comes from, so that the processes of a
 * job agree without talking to each other; how it is written; reading it back from a file. */
#ifndef TPROF_COMMON_JOB_H
#define TPROF_COMMON_JOB_H

#include <stddef.h>
#include <stdint.h>

#define TPROF_JOB_VAR "TPROF_JOB"            /* the id, 16 hex digits */
#define TPROF_JOB_FROM_VAR "TPROF_JOB_FROM"  /* who made it (TPROF_JOB_FROM_PROCESS: weak) */
/* The source of an id a recording process made for itself and its descendants: a launcher's
 * own identity, when its ranks have one, takes precedence over such an id. */
#define TPROF_JOB_FROM_PROCESS "process"
#define TPROF_JOB_HEX 16

/* The id as 16 lowercase hex digits and a NUL. */
void tprof_job_format(uint64_t id, char out[TPROF_JOB_HEX + 1]);
/* TPROF_JOB's value: 1 to 16 hex digits are the id itself; any other text is hashed to one.
 * 0 for NULL or empty. */
uint64_t tprof_job_parse(const char *s);
/* A new random id, never 0. */
uint64_t tprof_job_random(void);

/* The job of a launched rank, from its launcher's own job identity, which every rank of one
 * launch sees alike: Open MPI or PMIx (namespace), Slurm (job and step of srun's tasks), MPICH's
 * Hydra (the control port its proxies were given).  0 when this process is no launched rank;
 * *from then says nothing, else names the launcher. */
uint64_t tprof_job_launcher(const char **from);

/* The job this process belongs to as the environment tells: TPROF_JOB as given (by
 * tprof-inspect, by the user), else the launcher's, else, when accept_made, a TPROF_JOB that an
 * ancestor made for itself (TPROF_JOB_FROM=process).  0 when none; *from says where it came
 * from. */
uint64_t tprof_job_from_env(int accept_made, const char **from);
/* The same from the values of TPROF_JOB and TPROF_JOB_FROM (NULL: unset) as the caller read them. */
uint64_t tprof_job_from(const char *given, const char *by, int accept_made, const char **from);

/* The job the headers of the files this process writes from now on carry (chunk.c); 0, the
 * default, is "unknown". */
void tprof_job_set(uint64_t id);
uint64_t tprof_job_current(void);

#endif

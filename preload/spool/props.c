/* props.c — what a runtime says of the process (an MPI rank, a Neuron instance, a library's
 * version): a PROP record on the process stream (procinfo.c), kept also while the process
 * records nothing (outside its capture window): the image's files are made for it, so that
 * its strings and records have their stream. */
#include "../core/core.h"
#include "spool.h"

static void keep_props(void)
{
	if (__atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE) == TPROF_PHASE_PENDING &&
	    __atomic_load_n(&tprof_active, __ATOMIC_ACQUIRE))
		tprof_image_ensure();
}

void tprof_proc_prop_str(const char *key, const char *value)
{
	keep_props();
	tprof_procinfo_str(key, value);
}

void tprof_proc_prop_int(const char *key, int64_t value)
{
	keep_props();
	tprof_procinfo_int(key, value);
}

/* sampling.c — the system profile from inside the program (TPROF_SAMPLE without tprof-inspect):
 * a /proc sampler (sample/) for this process alone, its image begun on its own thread 20 ms
 * after the start (a process that execs sooner, a wrapper or a fork child about to run
 * another program, writes none; one that exits sooner writes it then), ended at the final
 * flush and before exec, and started afresh in a fork child, where the parent's sampler
 * thread does not exist.  Each process that runs the recorder samples itself, so the
 * processes a program starts are sampled by their own recorders. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "../../sample/sampler.h"
#include "core.h"

/* The lock (taken at every exit, so with the start's data) and the state below */
static pthread_mutex_t lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
static struct tprof_sampler *sampler TPROF_START_DATA;
static pid_t owner TPROF_START_DATA;   /* the process the sampler belongs to */
/* TPROF_SAMPLE asked for it, and the process has not ended */
static int wanted TPROF_START_DATA;
static char prog[40];           /* "tprof[PID]: warning", the sampler's message prefix */

/* Under the lock. */
static void start(void)
{
	char why[512] = "";
	wanted = 1;
	owner = getpid();
	snprintf(prog, sizeof(prog), "tprof[%d]: warning", (int)owner);
	struct tprof_sampler_opts o = {
		.what = tprof_g.cfg.sample_what, .hz = tprof_g.cfg.sample_hz,
		.dir = tprof_g.cfg.output_dir, .prog = prog, .no_bpf = 1, .self = 1,
		.lazy_ns = (uint64_t)tprof_g.cfg.sample_lazy_ms * 1000000u,
		.dir_ready = tprof_output_ready,
	};
	tprof_tls.guard++;
	sampler = tprof_sampler_start(&o, why, sizeof(why));
	tprof_tls.guard--;
	if (!sampler && why[0])
		tprof_log_warn("no system profile: %s", why);
}

TPROF_START_CODE void tprof_sampling_start(void)
{
	if (!tprof_g.cfg.sample_what)
		return;
	pthread_mutex_lock(&lock);
	if (!sampler)
		start();
	pthread_mutex_unlock(&lock);
}

/* The sampler is taken out under the lock and stopped outside it: a second caller (a thread
 * that execs while another exits) finds none. */
TPROF_START_CODE void tprof_sampling_stop(int exec)
{
	if (!tprof_g.cfg.sample_what)
		return;   /* never started: no lock (a shell's fork child execs at once) */
	pthread_mutex_lock(&lock);
	struct tprof_sampler *s = getpid() == owner ? sampler : NULL;
	if (s) {
		sampler = NULL;
		wanted = exec;
	}
	pthread_mutex_unlock(&lock);
	if (!s)
		return;
	tprof_tls.guard++;
	if (exec)
		tprof_sampler_stop_exec(s);
	else
		tprof_sampler_stop(s);
	tprof_tls.guard--;
}

void tprof_sampling_exec_failed(void)
{
	pthread_mutex_lock(&lock);
	if (wanted && !sampler && getpid() == owner)
		start();
	pthread_mutex_unlock(&lock);
}

/* Before fork: the sampler's thread is between two ticks, none of its work half done. */
TPROF_START_CODE void tprof_sampling_fork_prepare(void)
{
	pthread_mutex_lock(&lock);
	tprof_sampler_fork_prepare(sampler);
}

TPROF_START_CODE void tprof_sampling_fork_parent(void)
{
	tprof_sampler_fork_parent(sampler);
	pthread_mutex_unlock(&lock);
}

/* The only thread of the child, which holds the locks taken before the fork. */
TPROF_START_CODE void tprof_sampling_child(void)
{
	tprof_mutex_reset(&lock);
	if (sampler) {
		tprof_sampler_abandon(sampler);
		sampler = NULL;
	}
	if (wanted)
		start();
}

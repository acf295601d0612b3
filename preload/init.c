/* init.c — loading and unloading the recorder, and the moments that involve every part of
 * it: the constructor reads the configuration once, before any thread of ours exists; the
 * destructor and the exec hooks do the final pass over threads and then the image; fork
 * takes every lock first and gives the child a fresh image of its own.  The system profile
 * of TPROF_SAMPLE (core/sampling.c) starts, ends and forks with them. */
#include <stdlib.h>

#include "events/api.h"
#include "spool/buffer.h"
#include "core/clock.h"
#include "core/core.h"
#include "events/callstack.h"
#include "events/capture.h"
#include "events/devtime.h"
#include "core/env-carry.h"
#include "events/kernels.h"
#include "init.h"
#include "../common/outdir.h"

static int initialized TPROF_START_DATA;
static int clock_source TPROF_START_DATA;
static int enabled TPROF_START_DATA;   /* TPROF_ENABLE asked to record */


TPROF_START_CODE void tprof_prepare_exec(void)
{
	TPROF_KEEP_ERRNO;
	if (!enabled)
		return;
	tprof_sampling_stop(1);
	tprof_losses_exit();
	if (__atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE) != TPROF_PHASE_STARTED)
		return;
	tprof_inside_enter(&tprof_tls);
	tprof_threads_final();
	tprof_image_checkpoint();
	tprof_inside_leave(&tprof_tls);
}

static void finish(void)
{
	tprof_sampling_stop(0);
	tprof_losses_exit();
	int phase = __atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE);
	if (phase != TPROF_PHASE_STARTED && !(phase == TPROF_PHASE_FAILED && tprof_g.spool.path))
		return;
	tprof_inside_enter(&tprof_tls);
	/* Stop taking events first: everything recorded before this point is flushed. */
	__atomic_store_n(&tprof_active, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&tprof_recording, 0, __ATOMIC_RELEASE);
	tprof_threads_final();
	if (phase == TPROF_PHASE_STARTED)
		tprof_image_finish();
	else
		tprof_image_finish_failed();
	tprof_inside_leave(&tprof_tls);
}

/* Lock order, everywhere: the capture window (events/capture.c) -> image (start) -> intern ->
 * proc -> flush -> tprof_g.lock -> the list of descriptors (common/ownfd.c).  The sampler (core/sampling.c) takes none of the others
 * and its own before the list.  The handlers run on the program's thread: errno stays its. */
TPROF_START_CODE static void atfork_prepare(void)
{
	TPROF_KEEP_ERRNO;
	if (tprof_fork_prepare_hook)
		tprof_fork_prepare_hook();
	tprof_busy_enter(&tprof_tls);   /* no signal handler records while the locks are held */
	tprof_sampling_fork_prepare();
	tprof_image_fork_prepare();
	tprof_intern_lock();
	pthread_mutex_lock(&tprof_g.proc_lock);
	pthread_mutex_lock(&tprof_g.flush_lock);
	pthread_mutex_lock(&tprof_g.lock);
	tprof_fd_fork_prepare();
}

TPROF_START_CODE static void atfork_parent(void)
{
	TPROF_KEEP_ERRNO;
	tprof_fd_fork_parent();
	pthread_mutex_unlock(&tprof_g.lock);
	pthread_mutex_unlock(&tprof_g.flush_lock);
	pthread_mutex_unlock(&tprof_g.proc_lock);
	tprof_intern_unlock();
	tprof_image_fork_parent();
	tprof_sampling_fork_parent();
	tprof_busy_leave(&tprof_tls);
}

TPROF_START_CODE static void atfork_child(void)
{
	TPROF_KEEP_ERRNO;
	tprof_fd_fork_child();
	tprof_output_child();
	tprof_mutex_reset(&tprof_g.lock);
	tprof_mutex_reset(&tprof_g.flush_lock);
	tprof_mutex_reset(&tprof_g.proc_lock);
	tprof_intern_reset();
	tprof_image_reset_child();
	tprof_capture_fork_child();
	tprof_threads_reset();
	tprof_dev_reset_child();
	tprof_kernels_reset_child();
	tprof_sampling_child();
	tprof_busy_leave(&tprof_tls);
}

__attribute__((constructor(101))) static void tprof_init(void)
{
	TPROF_KEEP_ERRNO;
	if (initialized)
		return;
	initialized = 1;
	struct tprof_env env;
	tprof_env_scan(&env);
	if (!tprof_config_read(&tprof_g.cfg, &env))
		return;   /* off: nothing at exit either (tprof_fini) */
	enabled = 1;
	tprof_fd_guest();
	tprof_private_group(tprof_g.cfg.group_readable);
	clock_source = tprof_clock_init(tprof_g.cfg.clock);
	/* The variables these two set are carried across exec too: then the environment is
	 * scanned again (not under tprof-inspect, which sets the job's itself). */
	int set = tprof_job_begin(&env);
	if (tprof_config_warnings() | set)
		tprof_env_scan(&env);
	tprof_env_capture(&env);
	tprof_hooks_init(&env);
	if (tprof_g.cfg.callstack && tprof_callstack_init() < 0)
		tprof_g.cfg.callstack = 0;
	/* The fork handlers of a process that recorded nothing call nothing of libc but what the
	 * fork has already bound (locks), so that a shell's children fault in none of libc's
	 * pages for them: locks are reset by their bytes, and nothing is freed. */
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	tprof_image_begin(clock_source);
	tprof_capture_init();
	tprof_sampling_start();
}

__attribute__((destructor(101))) static void tprof_fini(void)
{
	TPROF_KEEP_ERRNO;
	if (!enabled)
		return;   /* nothing was started: the exit touches no page of ours */
	finish();
}

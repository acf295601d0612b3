/* state.c — the recorder's shared state: the process image (tprof_g), the hot-path switch,
 * the per-thread state, and stopping for good after an error.  Everything else reads these;
 * this file calls nothing above the logger. */
#include "core.h"

/* Written at every start and fork (its locks): with the start's data (common/startup.h). */
struct tprof_state tprof_g TPROF_START_DATA __attribute__((aligned(64))) = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.flush_lock = PTHREAD_MUTEX_INITIALIZER,
	.proc_lock = PTHREAD_MUTEX_INITIALIZER,
	.trace = { .fd = -1 },
	.spool = { .fd = -1 },
};
int tprof_recording TPROF_START_DATA;
int tprof_active TPROF_START_DATA;
void (*tprof_image_started_hook)(void) TPROF_START_DATA;
void (*tprof_fork_prepare_hook)(void) TPROF_START_DATA;
__thread struct tprof_thread tprof_tls __attribute__((tls_model("initial-exec")));

/* After an output error: no more buffers are handed out or written, but threads finish the
 * buffers they hold (their blocks are already reserved in the spool) and every event after
 * that is counted as dropped, so the trace says how much was lost.  1 for the first caller,
 * the one to say why. */
int tprof_stop_writing(void)
{
	return __atomic_exchange_n(&tprof_g.phase, TPROF_PHASE_FAILED, __ATOMIC_ACQ_REL) !=
	       TPROF_PHASE_FAILED;
}

/* Before any file exists: nothing can be kept, so nothing is taken. */
void tprof_stop_recording(const char *why)
{
	__atomic_store_n(&tprof_active, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&tprof_recording, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&tprof_g.phase, TPROF_PHASE_FAILED, __ATOMIC_RELEASE);
	if (why)
		tprof_log_warn("%s; recording stopped", why);
}

/* image.c — a recorded process image: begun at load (or in a fork child), given its files
 * and its flusher at its first record, flushed completely before exec, and finished at exit:
 * last clock sample, END, every buffer written, and the spool removed if nothing needs it.
 * Every failure here is one warning and a recorder that steps aside. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/chunk.h"
#include "guard.h"
#include "spool.h"
#include "../../common/outdir.h"
#include "chunks.h"
#include "../core/clock.h"
#include "../core/core.h"

static pthread_mutex_t start_lock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;

static int clock_source TPROF_START_DATA;
static struct tprof_clock_sample start_sample TPROF_START_DATA;
/* Taken by the parent just before a fork: the child's start, read from the clock pages that
 * the parent has mapped (the child would fault them in). */
static struct tprof_clock_sample fork_sample TPROF_START_DATA;

/* A fresh image that started at `at`: budget, start time.  Its instance id comes with its files,
 * at the first record (a process that records nothing makes no getrandom call). */
TPROF_START_CODE static void begin(const struct tprof_clock_sample *at)
{
	tprof_g.pid = getpid();
	tprof_g.instance = 0;
	tprof_g.generation++;
	tprof_g.budget = tprof_g.cfg.max_events ? (int64_t)tprof_g.cfg.max_events : 0;
	tprof_g.chunks_written = tprof_g.bytes_written = tprof_g.events_written = 0;
	start_sample = *at;
	tprof_g.phase = TPROF_PHASE_PENDING;
	__atomic_store_n(&tprof_active, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&tprof_recording, 1, __ATOMIC_RELEASE);   /* until the capture window says */
}

TPROF_START_CODE void tprof_image_begin(int source)
{
	struct tprof_clock_sample now;
	clock_source = source;
	tprof_clock_sample(&now);
	begin(&now);
}

static int open_trace_file(const char *path)
{
	struct tprof_file_header h;
	if (tprof_held_create(&tprof_g.trace, path, O_WRONLY | O_APPEND, tprof_file_mode(),
			      &tprof_g.flush_lock))
		return -1;
	tprof_file_header_init(&h, tprof_g.instance, (uint32_t)tprof_g.pid, tprof_real_ns(), 0);
	errno = 0;
	if (write(tprof_g.trace.fd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		int e = errno ? errno : ENOSPC;
		tprof_held_close(&tprof_g.trace);
		unlink(path);
		errno = e;
		return -1;
	}
	return 0;
}

static int create_files(void)
{
	const char *dir = tprof_g.cfg.output_dir;
	char host[256] = "host";
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = 0;
	for (char *c = host; *c; c++)
		if (*c == '/')
			*c = '_';
	size_t n = strlen(dir) + strlen(host) + 64;
	char *base = malloc(n);
	char *path = malloc(n + 16);
	if (!base || !path)
		goto fail;
	snprintf(base, n, "%s/%s.%d.%08x", dir, host, (int)tprof_g.pid,
		 (unsigned)(tprof_g.instance & 0xffffffffu));
	free(tprof_g.base);
	tprof_g.base = base;
	if (tprof_output_ready() < 0)
		goto fail_quiet;
	snprintf(path, n + 16, "%s%s", base, TPROF_TRACE_SUFFIX);
	if (open_trace_file(path) < 0) {
		tprof_log_warn("cannot write %s: %s; not recording", path, strerror(errno));
		goto fail_quiet;
	}
	snprintf(path, n + 16, "%s%s", base, TPROF_SPOOL_SUFFIX);
	uint32_t slot_bytes = TPROF_SLOT_HEADER_SIZE + tprof_g.cfg.buffer_units * TPROF_UNIT;
	if (tprof_spool_open(path, slot_bytes) < 0) {
		tprof_log_warn("cannot create %s: %s; not recording", path, strerror(errno));
		tprof_held_close(&tprof_g.trace);
		snprintf(path, n + 16, "%s%s", base, TPROF_TRACE_SUFFIX);
		unlink(path);
		goto fail_quiet;
	}
	free(path);
	return 0;
fail:
	tprof_log_warn("out of memory; not recording");
fail_quiet:
	free(path);
	return -1;
}

int tprof_image_start(void)
{
	tprof_inside_enter(&tprof_tls);
	pthread_mutex_lock(&start_lock);
	int phase = __atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE);
	if (phase != TPROF_PHASE_PENDING) {
		pthread_mutex_unlock(&start_lock);
		tprof_inside_leave(&tprof_tls);
		return phase == TPROF_PHASE_STARTED ? 0 : -1;
	}
	tprof_image_instance();
	if (tprof_chunks_init() < 0 || create_files() < 0) {
		/* No files: recording goes on only to count what is lost (losses.c). */
		__atomic_store_n(&tprof_g.phase, TPROF_PHASE_FAILED, __ATOMIC_RELEASE);
		tprof_losses_no_files();
		pthread_mutex_unlock(&start_lock);
		tprof_inside_leave(&tprof_tls);
		return -1;
	}
	tprof_flusher_cond_init();
	pthread_mutex_lock(&tprof_g.lock);
	__atomic_store_n(&tprof_g.phase, TPROF_PHASE_STARTED, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&tprof_g.lock);
	/* Stream 0 opens with the clock definition, so a reader can convert every later tick. */
	tprof_procinfo_int("clock", clock_source);
	tprof_proc_record(TPROF_K_CLOCK, TPROF_CLOCK_START, 0, start_sample.ticks, start_sample.mono,
			  start_sample.real);
	tprof_procinfo_record();
	if (tprof_image_started_hook)
		tprof_image_started_hook();
	/* A second sample now, some time after the first: a process killed before the flusher's
	 * first periodic sample still has its tick rate on record. */
	tprof_proc_clock(TPROF_CLOCK_PERIODIC);
	if (tprof_flusher_start() < 0)
		tprof_log_warn("cannot start the flusher thread; buffers are written at exit");
	tprof_log_info("recording to %s%s", tprof_g.base, TPROF_TRACE_SUFFIX);
	pthread_mutex_unlock(&start_lock);
	tprof_inside_leave(&tprof_tls);
	return 0;
}

int tprof_image_ensure(void)
{
	int phase = __atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE);
	if (phase == TPROF_PHASE_PENDING)
		return tprof_image_start();
	return phase == TPROF_PHASE_STARTED || phase == TPROF_PHASE_FINISHED ? 0 : -1;
}

/* Is any thread other than the caller still registered (and so perhaps still writing)? */
static int other_threads_live(void)
{
	/* the caller is inside the recorder (enter) */
	pthread_mutex_lock(&tprof_g.lock);
	int others = 0;
	for (struct tprof_thread *t = tprof_g.threads; t; t = t->reg_next)
		if (t != &tprof_tls)
			others = 1;
	pthread_mutex_unlock(&tprof_g.lock);
	return others;
}

/* Before exec: everything so far into the chunk file, and an END mark.  Nothing is torn down,
 * so a failed exec simply carries on recording into the same image. */
void tprof_image_checkpoint(void)
{
	TPROF_KEEP_ERRNO;
	tprof_inside_enter(&tprof_tls);
	pthread_mutex_lock(&start_lock);
	if (__atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE) == TPROF_PHASE_STARTED) {
		tprof_proc_clock(TPROF_CLOCK_FINAL);
		tprof_proc_record(TPROF_K_END, TPROF_END_EXEC, 0, tprof_now(), 0, 0);
		tprof_chunks_write_all();
	}
	pthread_mutex_unlock(&start_lock);
	tprof_inside_leave(&tprof_tls);
}

/* Everything so far into the chunk file, with a clock sample; recording carries on (a
 * runtime about to close: a trace read from now on is complete up to here). */
void tprof_image_flush(void)
{
	TPROF_KEEP_ERRNO;
	tprof_inside_enter(&tprof_tls);
	pthread_mutex_lock(&start_lock);
	if (__atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE) == TPROF_PHASE_STARTED) {
		tprof_proc_clock(TPROF_CLOCK_PERIODIC);
		tprof_chunks_write_all();
	}
	pthread_mutex_unlock(&start_lock);
	tprof_inside_leave(&tprof_tls);
}

/* At exit, after recording stopped: the last records, every buffer written, and the spool
 * removed when it holds nothing the chunk file lacks and no other thread can still write
 * into it; otherwise it stays and the reader takes what it needs from it. */
void tprof_image_finish(void)
{
	tprof_inside_enter(&tprof_tls);
	pthread_mutex_lock(&start_lock);
	if (__atomic_load_n(&tprof_g.phase, __ATOMIC_ACQUIRE) != TPROF_PHASE_STARTED) {
		pthread_mutex_unlock(&start_lock);
		tprof_inside_leave(&tprof_tls);
		return;
	}
	tprof_proc_clock(TPROF_CLOCK_FINAL);
	tprof_proc_record(TPROF_K_END, TPROF_END_EXIT, 0, tprof_now(), 0, 0);
	tprof_flusher_stop();
	pthread_mutex_lock(&tprof_g.lock);
	__atomic_store_n(&tprof_g.phase, TPROF_PHASE_FINISHED, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&tprof_g.lock);
	int ok = tprof_chunks_write_all() == 0;
	if (ok && !other_threads_live() && tprof_spool_idle() && !tprof_losses_keep()) {
		char path[4096];
		snprintf(path, sizeof(path), "%s%s", tprof_g.base, TPROF_SPOOL_SUFFIX);
		unlink(path);
	}
	tprof_log_info("%llu events in %llu chunks, %llu bytes, in %s%s",
		       (unsigned long long)tprof_g.events_written,
		       (unsigned long long)tprof_g.chunks_written,
		       (unsigned long long)tprof_g.bytes_written, tprof_g.base, TPROF_TRACE_SUFFIX);
	pthread_mutex_unlock(&start_lock);
	tprof_inside_leave(&tprof_tls);
}

/* The fork child must not write into its parent's mapped buffers: it drops them, and the
 * files, and begins an image of its own (if its parent was enabled: also when the parent's
 * files failed, so that what the child loses is counted, in the parent's loss table). */
TPROF_START_CODE void tprof_image_reset_child(void)
{
	int was = tprof_g.phase;
	tprof_mutex_reset(&start_lock);
	tprof_held_close(&tprof_g.trace);
	tprof_spool_forget();
	tprof_losses_fork_child();
	tprof_g.flusher_running = 0;
	if (was == TPROF_PHASE_OFF || !__atomic_load_n(&tprof_active, __ATOMIC_RELAXED)) {
		__atomic_store_n(&tprof_active, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&tprof_recording, 0, __ATOMIC_RELEASE);
	} else
		begin(&fork_sample);
}

/* At exit after a write error: what can still go into stream 0's buffer in the spool (the
 * drop counts were written by the caller), the last clock sample and the end mark. */
void tprof_image_finish_failed(void)
{
	tprof_inside_enter(&tprof_tls);
	pthread_mutex_lock(&start_lock);
	if (tprof_g.spool.path) {
		tprof_proc_clock(TPROF_CLOCK_FINAL);
		tprof_proc_record(TPROF_K_END, TPROF_END_EXIT, 0, tprof_now(), 0, 0);
	}
	pthread_mutex_unlock(&start_lock);
	tprof_inside_leave(&tprof_tls);
}

/* Before a fork: no image starts while it is copied, and the child's start time. */
TPROF_START_CODE void tprof_image_fork_prepare(void)
{
	pthread_mutex_lock(&start_lock);
	tprof_clock_sample(&fork_sample);
}

TPROF_START_CODE void tprof_image_fork_parent(void)
{
	pthread_mutex_unlock(&start_lock);
}

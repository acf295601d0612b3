/* core.h — state shared by the files of the preload core: configuration, the process image
 * being recorded, the per-thread state, and the declarations that cross files. */
#ifndef TPROF_CORE_H
#define TPROF_CORE_H

#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "../../common/events.h"
#include "../../common/format.h"
#include "../../common/ownfd.h"
#include "../../common/startup.h"

#define TPROF_EXPORT __attribute__((visibility("default")))
/* A declaration of the library's own data, hidden as -fvisibility=hidden defines it: read
 * directly, not by way of the GOT (one instruction). */
#define TPROF_HIDDEN __attribute__((visibility("hidden")))
#define TPROF_LIKELY(x) __builtin_expect(!!(x), 1)
#define TPROF_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* errno is the program's.  Out-of-line code of the recorder that may run on a thread of the
 * program (slow paths, hooks' helpers, handlers of load, exit and fork) begins with
 * TPROF_KEEP_ERRNO: errno is given back, as it was on entry, whenever the function returns. */
static inline void tprof_errno_restore(const int *saved)
{
	errno = *saved;
}
#define TPROF_KEEP_ERRNO                                                                \
	const int tprof_saved_errno_ __attribute__((cleanup(tprof_errno_restore), unused)) = errno

/* ---- configuration (config.c), read once from TPROF_* at load time ----------------------- */
struct tprof_config {
	int enable;              /* TPROF_ENABLE */
	char *output_dir;        /* TPROF_OUTPUT_DIR, made absolute */
	uint32_t buffer_units;   /* TPROF_BUFFER_KB, in record units per thread buffer */
	uint64_t max_events;     /* TPROF_MAX_EVENTS, 0 = unlimited */
	int verbose;             /* TPROF_VERBOSE */
	int group_readable;      /* TPROF_GROUP_READABLE: profiles readable by the group */
	uint64_t spool_max;      /* TPROF_SPOOL_MB, bytes of buffers a process may hold */
	int compress_level;      /* TPROF_COMPRESS_LEVEL, 1..9 */
	int clock;               /* TPROF_CLOCK: 0 auto, TPROF_CLOCKSRC_* */
	int callstack;           /* TPROF_CALLSTACK: host stacks at device launches */
	uint32_t mpi_sync_rounds;/* TPROF_MPI_SYNC_ROUNDS: clock round trips per MPI rank, 0 none */
	int64_t clock_skew_ns;   /* TPROF_TEST_CLOCK_SKEW_NS: added to every CLOCK sample (tests) */
	uint32_t slot_pause_us;  /* TPROF_TEST_SLOT_PAUSE_US: a thread that handed a buffer to the
				  * flusher waits this long (tests: the flush gets there first) */
	int poll_each;           /* TPROF_POLLS=each: every unsuccessful poll a CALL of its own */
	unsigned sample_what;    /* TPROF_SAMPLE: what the process samples of itself, 0: nothing */
	unsigned sample_hz;      /* TPROF_SAMPLE_HZ */
	uint32_t sample_lazy_ms; /* TPROF_TEST_SAMPLE_LAZY_MS: the system image begins this late */
	int capture_api;         /* TPROF_CAPTURE_RANGE=api: start paused, the runtimes' profiler
				  * calls open and close the window (events/capture.c) */
	int steps;               /* TPROF_STEPS given: record steps steps_first..steps_last */
	uint64_t steps_first, steps_last;
	char *capture_gate;      /* TPROF_CAPTURE_GATE: the job's gate file, tprof-inspect's */
};
/* The process's TPROF_* variables as they were at load, and its LD_PRELOAD, found in one pass
 * over the environment: what the start reads, it reads from here. */
#define TPROF_ENV_MAX 64
struct tprof_env {
	const char *v[TPROF_ENV_MAX];   /* "TPROF_NAME=value" */
	int n;
	int all;                        /* every TPROF_ entry is in v; else lookups use getenv */
	const char *ld_preload;         /* the first "LD_PRELOAD=..." entry, or NULL */
};

/* s after its prefix p, or NULL when s does not begin with p (strncmp's answer, without a
 * call into libc at start). */
static inline const char *tprof_after_prefix(const char *s, const char *p)
{
	while (*p)
		if (*s++ != *p++)
			return NULL;
	return s;
}

/* One pass: the thirty-odd variables read at start would otherwise be as many getenv calls,
 * each a walk of the whole environment (most of what reading the configuration cost). */
static inline void tprof_env_scan(struct tprof_env *e)
{
	extern char **environ;
	e->n = 0;
	e->all = 1;
	e->ld_preload = NULL;
	for (char **p = environ; p && *p; p++) {
		if ((*p)[0] == 'L' && !e->ld_preload && tprof_after_prefix(*p, "LD_PRELOAD="))
			e->ld_preload = *p;
		if ((*p)[0] != 'T' || !tprof_after_prefix(*p, "TPROF_"))
			continue;
		if (e->n == TPROF_ENV_MAX)
			e->all = 0;
		else
			e->v[e->n++] = *p;
	}
}

/* getenv(name) for a name that begins with TPROF_ */
static inline const char *tprof_env_get(const struct tprof_env *e, const char *name)
{
	if (!e->all)
		return getenv(name);
	for (int i = 0; i < e->n; i++) {   /* past "TPROF_", which both begin with */
		const char *a = e->v[i] + 6, *b = name + 6;
		while (*b && *a == *b)
			a++, b++;
		if (!*b && *a == '=')
			return a + 1;
	}
	return NULL;
}
/* Reads the TPROF_* environment into cfg; 1 when TPROF_ENABLE asks to record, else 0 (cfg
 * then left as it was, but for verbose). */
int tprof_config_read(struct tprof_config *cfg, const struct tprof_env *env);
/* Says the configuration's warnings, unless this job's processes have said them; 1 when it
 * set the variable that says so (the environment scanned before is stale). */
int tprof_config_warnings(void);

/* output.c: the output directory, made and checked once per process (warned about once);
 * 0 when files may be created in it */
int tprof_output_ready(void);
void tprof_output_child(void);

/* ---- logging (log.c): one line each on stderr, prefixed "tprof[pid]: " --------------------- */
void tprof_log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tprof_log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tprof_log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- spool slots (spool.c) ---------------------------------------------------------------- */
struct tprof_slot {
	struct tprof_slot_header *hdr;  /* in the mapped file */
	struct tprof_rec *units;        /* right after hdr */
	struct tprof_slot *next;        /* free list or flush queue */
	struct tprof_slot *all_next;    /* every slot, for the final flush */
};

/* ---- per-thread state (state.c, thread.c); one per thread, initial-exec TLS ----------------- */
struct tprof_strcache;
struct tprof_hook;

#define TPROF_POLL_ARMS 3               /* functions with a fast side for untimed polls */
/* The thread's open run of unsuccessful polls (poll.h): its POLL record may be updated while
 * it is the last thing written to the thread's buffer (pos still at `end`, in the same
 * buffer, none of it flushed since). */
struct tprof_pollrun {
	struct tprof_rec *rec;          /* the POLL record, NULL when no run is open */
	struct tprof_rec *end;          /* the thread's pos right after it */
	const uint32_t *flushed;        /* its buffer's count of flushed units ... */
	uint32_t flushed_then;          /* ... when the run began */
	uint32_t seq;                   /* the thread's seq then: the same buffer */
	unsigned n;                     /* functions in the record (its ext) */
	uint32_t untimed;               /* polls to come that are counted, not timed (poll.h) */
	uint64_t polls;                 /* timed polls in the run (all of its first ones) */
	uint64_t *armed[TPROF_POLL_ARMS]; /* per function with a fast side (its hook's `arm`): its
					 * count in the record while the next poll goes untimed,
					 * NULL else (poll.h) */
	struct tprof_hook *hooks[TPROF_POLL_FNS]; /* which, in the order of its units */
};
/* The thread leaves its buffer (spool/slots.c): the open run, which stays there, can be
 * updated no more (its flushed_then no buffer's count of flushed units can equal), and is
 * armed no more (poll.h). */
static inline void tprof_pollrun_leave_buffer(struct tprof_pollrun *run)
{
	for (unsigned k = 0; k < TPROF_POLL_ARMS; k++)
		run->armed[k] = NULL;
	run->flushed_then = UINT32_MAX;
}
/* Records a thread lost since its last GAP record (thread.c): what a reader needs to pair
 * ranges exactly across the gap (struct tprof_gap).  Updated by single atomic instructions,
 * also from a signal handler on the thread. */
struct tprof_gapstate {
	uint64_t n;                     /* records lost */
	uint64_t t0, t1;                /* ticks of the first and the last */
	uint32_t low;                   /* 1 + lowest range level a lost PUSH/POP touched, 0 none */
	uint32_t abegins, aends, steps;
	uint32_t reasons;               /* bit 1 << enum tprof_drop_reason */
};
struct tprof_thread {
	struct tprof_rec *pos;          /* next free unit */
	struct tprof_rec *end;          /* end of the units granted to this thread */
	struct tprof_slot *slot;        /* slot being written, NULL when none */
	uint32_t stream;                /* stream id, 0 = not registered yet */
	uint32_t seq;                   /* sequence number of the next slot */
	int guard;                      /* >0 inside a wrapped call or the profiler: runtime
					 * calls made meanwhile pass through unrecorded */
	uint32_t busy;                  /* >0 inside the recorder's own work on this thread (a
					 * record reserved and not yet published, a slow path, a
					 * lock of the recorder): an annotation made meanwhile (by
					 * a signal handler) is counted as lost; TPROF_BUSY_GAP:
					 * one was, a GAP record is due */
	int depth;                      /* open ranges (tprof and roctx): push/pop levels */
	uint32_t corr;                  /* correlation ids handed out (api.h) */
	int registered;                 /* in the thread registry */
	int key_armed;                  /* exit destructor armed */
	uint32_t generation;            /* process image this state belongs to */
	uint32_t unrec;                 /* range levels pushed outside the capture window, whose
					 * pops are not recorded either: bit min(level, 31) */
	struct tprof_slot *held;        /* a buffer kept from the flusher while a record in it is
					 * unfinished (a call in progress); NULL when none */
	uint64_t pend[TPROF_DROP_REASONS]; /* records lost, by reason, not yet in a DROP record */
	uint64_t *loss[TPROF_DROP_REASONS]; /* its counts in the loss table, by reason */
	struct tprof_gapstate gap;      /* records lost since the last GAP record */
	pid_t tid;
	pthread_t self;
	char name[16];                  /* thread name last recorded */
	struct tprof_strcache *cache;   /* string-id cache, allocated at registration */
	struct tprof_thread *reg_next;  /* thread registry link */
	struct tprof_pollrun poll;      /* unsuccessful polls being folded (poll.h) */
};

extern __thread struct tprof_thread tprof_tls __attribute__((tls_model("initial-exec")));

/* ---- the process image being recorded (state.c, image.c) ------------------------------------ */
enum tprof_phase {
	TPROF_PHASE_OFF = 0,       /* not recording in this process */
	TPROF_PHASE_PENDING = 1,   /* enabled; files are created at the first record */
	TPROF_PHASE_STARTED = 2,   /* files open, flusher running */
	TPROF_PHASE_FINISHED = 3,  /* final flush done */
	TPROF_PHASE_FAILED = 4,    /* an error stopped recording */
};

struct tprof_state {
	struct tprof_config cfg;
	int phase;                      /* enum tprof_phase, changed under `lock` */
	uint32_t generation;            /* bumped for each new process image (fork, failed exec) */
	pid_t pid;
	uint64_t instance;
	char *base;                     /* output path without suffix */
	struct tprof_held trace;        /* the chunk file, written under flush_lock */
	struct tprof_held spool;        /* the spool, grown under lock; path NULL when none */
	uint64_t start_tsc, start_mono, start_real;

	pthread_mutex_t lock;           /* slots, queues, registry, phase */
	pthread_cond_t flush_cond;
	pthread_mutex_t flush_lock;     /* writing to the chunk file */
	pthread_mutex_t proc_lock;      /* the process stream writer */

	struct tprof_slot *free_slots, *queue_head, *queue_tail, *all_slots;
	uint64_t spool_bytes;           /* file size of the spool */
	uint32_t slots_total;
	uint32_t free_count;
	struct tprof_thread *threads;   /* registry of live threads that recorded */
	uint32_t next_stream;
	int64_t budget;                 /* events left under TPROF_MAX_EVENTS */
	struct tprof_thread proc;       /* writer of stream 0, used under proc_lock */
	uint64_t proc_dropped;          /* stream-0 records that found no buffer (proc_lock) */
	struct tprof_loss_table *losses;   /* this image's loss table (its spool's header page) */
	struct tprof_loss_table *ancestor; /* the nearest ancestor image's, inherited at fork */
	uint64_t lost_nowhere;          /* records lost with neither table: the marker file's */
	uint64_t reported;              /* thread records lost that DROP records in the chunk file
					 * account for (the final pass) */

	pthread_t flusher;
	int flusher_running, flusher_stop;
	uint64_t chunks_written, bytes_written, events_written;
};

extern struct tprof_state tprof_g;
/* Hot-path switch: non-zero while this process records, that is while it is active and inside
 * its capture window (events/capture.c). */
extern int tprof_recording TPROF_HIDDEN;
/* Non-zero while the recorder runs in this process, inside the capture window or not: what
 * began inside is finished outside (device work, range pops). */
extern int tprof_active;

/* state.c */
void tprof_stop_recording(const char *why);
int tprof_stop_writing(void);     /* 1 when this call stopped it */

/* job.c: the job this process records for (common/job.h), settled and put in the environment
 * at load; where it came from (TPROF_JOB_FROM's value) */
int tprof_job_begin(const struct tprof_env *env);   /* 1: it set variables (env is stale) */
const char *tprof_job_source(void);

/* sampling.c: the system profile of this process (TPROF_SAMPLE), from inside it */
void tprof_sampling_start(void);        /* at load, and in a fork child */
void tprof_sampling_stop(int exec);     /* at the final flush; before exec (exec = 1) */
void tprof_sampling_exec_failed(void);  /* an exec returned: sampling goes on */
void tprof_sampling_fork_prepare(void); /* fork: the sampler held between two ticks ... */
void tprof_sampling_fork_parent(void);  /* ... and let go on in the parent */
void tprof_sampling_child(void);        /* fork child: the parent's sampler left alone */

/* Called as an image's files are made, after its first records, when set (the capture
 * window's, events/capture.c: a process started with it closed says so). */
extern void (*tprof_image_started_hook)(void);
/* Called by the fork handler of a recording process before it forks, when set (the exec
 * hooks', libc/hook-proc.c: the real exec functions bound for the child). */
extern void (*tprof_fork_prepare_hook)(void);

/* instance.c */
uint64_t tprof_image_instance(void);   /* the image's random id, drawn at its first use */

#endif

/* sampler.c — the sampler's life: the system image with its PROPs, the choice between the
 * kernel probes and /proc, the thread that samples (ticks at the sampling rate for /proc,
 * polls for the probes, counters at up to 20 Hz), and the end: last poll, kernel symbols,
 * JIT maps copied, END.  A self sampler (the recorder's) begins its image on its thread. */
#include "sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../common/outdir.h"
#include "../common/ownfd.h"
#include "../common/system-records.h"
#include "backend.h"

#define BPF_POLL_NS 10000000ull   /* the probes' ring buffer is read every 10 ms */

static void props(struct tprof_sampler *s, uint32_t target, int ncpu)
{
	char what[32];
	struct utsname u;
	tprof_sampler_what_str(s->what, what, sizeof(what));
	tprof_sysimg_prop_str(s->im, "sampler", s->bpf ? "bpf" : "proc");
	tprof_sysimg_prop_str(s->im, "sample", what);
	tprof_sysimg_prop_int(s->im, "sample_hz", s->hz);
	tprof_sysimg_prop_int(s->im, "counter_hz", s->counter_hz);
	tprof_sysimg_prop_int(s->im, "ncpu", ncpu);
	tprof_sysimg_prop_int(s->im, "mem_total", (int64_t)tprof_counters_mem_total());
	if (uname(&u) == 0)
		tprof_sysimg_prop_str(s->im, "kernel", u.release);
	tprof_sysimg_prop_int(s->im, "target", target);
}

static uint64_t period(unsigned hz)
{
	return 1000000000ull / hz;
}

/* One step of the thread, under the lock. */
static void step(struct tprof_sampler *s, uint64_t now)
{
	if (now >= s->next_tick) {
		if (s->bpf)
			tprof_bpfs_poll(s);
		else
			tprof_procpoll_tick(s, now);
		s->next_tick += s->bpf ? BPF_POLL_NS : period(s->hz);
		if (s->next_tick <= now)   /* fell behind: no burst of catching up */
			s->next_tick = now + 1;
	}
	if (now >= s->next_counter) {
		if (s->bpf && (s->what & TPROF_SAMPLE_MEM))
			tprof_tasks_read_stats(&s->tasks, now);
		tprof_counters_sample(&s->counters, s->im, &s->tasks, now);
		s->next_counter += period(s->counter_hz);
		if (s->next_counter <= now)
			s->next_counter = now + 1;
	}
	tprof_tasks_reap(&s->tasks);
	tprof_sysimg_tick(s->im);
}

static void choose_backend(struct tprof_sampler *s)
{
	if (!(s->what & (TPROF_SAMPLE_CPU | TPROF_SAMPLE_SCHED)))
		return;   /* counters only: /proc has them all */
	if (s->self)
		snprintf(s->bpf_why, sizeof(s->bpf_why), "a program samples itself from /proc");
	else if (s->no_bpf)
		snprintf(s->bpf_why, sizeof(s->bpf_why), "turned off by TPROF_SAMPLE_BPF=0");
	else
		tprof_bpfs_open(s);
	if (!s->bpf && s->hz > TPROF_SAMPLE_PROC_HZ_MAX)
		s->hz = TPROF_SAMPLE_PROC_HZ_MAX;
}

static void follow_locked(struct tprof_sampler *s, uint32_t pid)
{
	uint64_t now = tprof_sysimg_now();
	if (s->bpf)
		tprof_bpfs_follow(s, pid);
	tprof_tasks_follow(&s->tasks, pid, tprof_tasks_ppid(&s->tasks, pid), TPROF_TASK_SEEN, now);
}

/* A self sampler's directory, made and checked as the recorder's (outdir.h): 0 when usable;
 * -1 and why, or an empty why when dir_ready has said it already. */
static int dir_usable(struct tprof_sampler *s, char *why, size_t whylen)
{
	if (s->dir_ready) {
		why[0] = '\0';
		return s->dir_ready();
	}
	char reason[256];
	if (!tprof_outdir_prepare(s->dir, reason, sizeof(reason)))
		return 0;
	snprintf(why, whylen, "output directory %s: %s", s->dir, reason);
	return -1;
}

/* The image with its PROPs, the first reads and, for a self sampler, its process followed. */
static int begin(struct tprof_sampler *s, char *why, size_t whylen)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	s->begun = 1;
	if (s->self && dir_usable(s, why, whylen) < 0)
		return -1;
	s->im = tprof_sysimg_open(s->dir, s->prog, why, whylen);
	if (!s->im)
		return -1;
	if (asprintf(&s->path, "%s%s", tprof_sysimg_base(s->im), ".tpf") < 0) {
		s->path = NULL;
		snprintf(why, whylen, "out of memory");
		tprof_sysimg_close(s->im, 0);
		s->im = NULL;
		return -1;
	}
	choose_backend(s);
	s->counter_hz = s->hz < TPROF_SAMPLE_COUNTER_HZ_MAX ? s->hz : TPROF_SAMPLE_COUNTER_HZ_MAX;
	props(s, s->target, (int)ncpu);
	tprof_tasks_init(&s->tasks, s->im, s->bpf && (s->what & TPROF_SAMPLE_CPU));
	s->tasks.quiet_pid = s->self ? 0 : s->target;
	s->tasks.self_only = s->self;
	s->tasks.skip_tid = s->self_tid;
	tprof_counters_init(&s->counters, (int)ncpu, !!(s->what & TPROF_SAMPLE_CPU),
			    !!(s->what & TPROF_SAMPLE_MEM));
	uint64_t now = tprof_sysimg_now();
	s->started_ns = now;
	/* The first core busy shares need a read to start from. */
	tprof_counters_sample(&s->counters, s->im, &s->tasks, now);
	s->next_tick = now + (s->bpf ? BPF_POLL_NS : period(s->hz));
	s->next_counter = now + period(s->counter_hz);
	if (s->self)
		follow_locked(s, s->target);
	return 0;
}

/* /tmp/perf-PID.map of a followed process (a JIT's symbols), copied to
 * <image base>.perf-PID.map, where the analyzer finds it beside the image. */
static void copy_perf_map(struct tprof_sampler *s, uint32_t pid)
{
	char from[64], *to = NULL, buf[65536];
	snprintf(from, sizeof(from), "/tmp/perf-%u.map", pid);
	int in = tprof_fd_open(from, O_RDONLY, 0);
	if (in < 0)
		return;
	if (asprintf(&to, "%s.perf-%u.map", tprof_sysimg_base(s->im), pid) < 0) {
		tprof_fd_close(in);
		return;
	}
	int out = tprof_fd_open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, tprof_file_mode());
	ssize_t n = 0;
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (out < 0 || n < 0)
		tprof_fd_say("%s: cannot copy %s to %s: %s\n", s->prog, from, to, strerror(errno));
	if (out >= 0)
		tprof_fd_close(out);
	tprof_fd_close(in);
	free(to);
}

/* The end: the last look (the command has exited, its end goes on record; a process that
 * samples itself and exits takes its threads with it), the probes' losses, kernel symbols,
 * the JIT maps of followed processes copied, DROP and END, and every file closed.  On the
 * sampler's thread when it has a table of its own, else on the caller's, once the thread is
 * gone. */
static void finish(struct tprof_sampler *s)
{
	uint64_t lost = 0;
	if (s->im) {
		uint64_t now = tprof_sysimg_now();
		s->next_tick = s->next_counter = 0;
		s->tasks.exit_tid = s->exit_tid;
		step(s, now);
		if (s->bpf)
			lost = tprof_bpfs_close(s);
		tprof_ksyms_finish(&s->ksyms, s->im, tprof_sysimg_now());
		for (size_t i = 0; i < s->tasks.never; i++)
			copy_perf_map(s, s->tasks.ever[i]);
		tprof_sysimg_flush(s->im);
		s->final_records = tprof_sysimg_records(s->im);
	}
	s->final_lost = lost;
	tprof_sysimg_close(s->im, lost);
	s->im = NULL;
	tprof_tasks_free(&s->tasks);
	tprof_counters_free(&s->counters);
	tprof_ksyms_free(&s->ksyms);
	s->finished = 1;
}

/* Whatever start made, when it could not start sampling: nothing recorded yet. */
static void free_sampler(struct tprof_sampler *s)
{
	if (!s->finished) {
		tprof_sysimg_close(s->im, 0);
		tprof_tasks_free(&s->tasks);
		tprof_counters_free(&s->counters);
		tprof_ksyms_free(&s->ksyms);
	}
	free(s->path);
	free(s->dir);
	free(s);
}

/* Waits on the lock until `at` or the stop. */
static void wait_until(struct tprof_sampler *s, uint64_t at)
{
	struct timespec ts = { (time_t)(at / 1000000000ull), (long)(at % 1000000000ull) };
	while (!s->stop && tprof_sysimg_now() < at)
		pthread_cond_timedwait(&s->wake, &s->lock, &ts);
}

/* A self sampler's thread: its name, its tid kept out, the image begun when it is time. */
static void begin_on_thread(struct tprof_sampler *s)
{
	char why[512];
	prctl(PR_SET_NAME, "tprof-sample", 0, 0, 0);
	s->self_tid = (uint32_t)gettid();
	wait_until(s, s->begin_at);
	if (s->stop && s->exec_stop)
		return;
	if (begin(s, why, sizeof(why)) < 0 && why[0])
		tprof_fd_say("%s: no system profile: %s\n", s->prog, why);
}

static void *run(void *arg)
{
	struct tprof_sampler *s = arg;
	/* A self sampler opens and reads files all the time, inside the program: in a table of
	 * its own, none of them takes a number the program's next open would have had. */
	if (s->self && !s->begun)
		s->own_table = tprof_fd_private_table() == 0;
	pthread_mutex_lock(&s->lock);
	s->started = 1;
	pthread_cond_broadcast(&s->wake);
	if (!s->begun)
		begin_on_thread(s);
	while (!s->stop && s->im) {
		uint64_t now = tprof_sysimg_now();
		step(s, now);
		uint64_t next = s->next_tick < s->next_counter ? s->next_tick : s->next_counter;
		struct timespec ts = { (time_t)(next / 1000000000ull),
				       (long)(next % 1000000000ull) };
		while (!s->stop && pthread_cond_timedwait(&s->wake, &s->lock, &ts) == EINTR)
			;
	}
	if (s->own_table)
		finish(s);
	pthread_mutex_unlock(&s->lock);
	struct timespec cpu;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0)
		s->thread_cpu_ns = (uint64_t)cpu.tv_sec * 1000000000u + (uint64_t)cpu.tv_nsec;
	return NULL;
}

static int start_thread(struct tprof_sampler *s)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->wake, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&s->lock, NULL);
	/* Signals stay with the program's own threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&s->thread, NULL, run, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	s->running = rc == 0;
	/* Until the thread runs its own code: from then on it does nothing outside the lock
	 * (tprof_sampler_fork_prepare), while its start (a sanitizer's allocations) is not.  At
	 * most a second, as for the flusher: in a fork child (tprof_sampling_child) the thread's
	 * first allocation can wait forever for a lock a thread of the parent held at the fork
	 * (a sanitizer's allocator does not take its locks around fork), and the program must
	 * go on regardless. */
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += 1;
	pthread_mutex_lock(&s->lock);
	while (s->running && !s->started &&
	       pthread_cond_timedwait(&s->wake, &s->lock, &deadline) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

struct tprof_sampler *tprof_sampler_start(const struct tprof_sampler_opts *o, char *why,
					  size_t whylen)
{
	struct tprof_sampler *s = calloc(1, sizeof(*s));
	if (!s || !(s->dir = strdup(o->dir))) {
		free(s);
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	s->what = o->what & TPROF_SAMPLE_ALL;
	s->hz = o->hz ? o->hz : TPROF_SAMPLE_HZ_DEFAULT;
	s->prog = o->prog ? o->prog : "tprof";
	s->no_bpf = o->no_bpf;
	s->self = o->self;
	s->dir_ready = o->dir_ready;
	s->target = o->self ? (uint32_t)getpid() : o->target;
	s->begin_at = tprof_sysimg_now() + (o->self ? o->lazy_ns : 0);
	if (!s->self && begin(s, why, whylen) < 0) {
		free_sampler(s);
		return NULL;
	}
	if (start_thread(s) != 0) {
		fprintf(stderr, "%s: cannot start the sampler thread; the system profile holds "
			"only the start and the end\n", s->prog);
		if (!s->begun && begin(s, why, whylen) < 0) {
			free_sampler(s);
			return NULL;
		}
	}
	return s;
}

void tprof_sampler_follow(struct tprof_sampler *s, uint32_t pid)
{
	if (s->running)
		pthread_mutex_lock(&s->lock);
	follow_locked(s, pid);
	if (s->running)
		pthread_mutex_unlock(&s->lock);
}

const char *tprof_sampler_backend(const struct tprof_sampler *s)
{
	return s->bpf ? "bpf" : "proc";
}

const char *tprof_sampler_bpf_why(const struct tprof_sampler *s)
{
	return s->bpf_why;
}

unsigned tprof_sampler_hz(const struct tprof_sampler *s)
{
	return s->hz;
}

const char *tprof_sampler_path(const struct tprof_sampler *s)
{
	return s->path;
}

static void stop(struct tprof_sampler *s, int exec, struct tprof_sampler_stats *st)
{
	if (!s)
		return;
	if (s->self && !exec)
		s->exit_tid = (uint32_t)gettid();   /* read by finish, after the lock or the join */
	if (s->running) {
		pthread_mutex_lock(&s->lock);
		s->stop = 1;
		s->exec_stop = exec;
		pthread_cond_signal(&s->wake);
		pthread_mutex_unlock(&s->lock);
		/* Bounded, as the start: a thread stuck in its start (above) is left with s. */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 10;
		if (pthread_timedjoin_np(s->thread, NULL, &ts) != 0) {
			tprof_fd_say("%s: the sampler thread did not stop within 10 s; the "
				     "system profile is left unfinished\n", s->prog);
			if (st)
				memset(st, 0, sizeof(*st));
			return;
		}
		pthread_cond_destroy(&s->wake);
		pthread_mutex_destroy(&s->lock);
	}
	if (!s->finished)
		finish(s);
	if (st) {
		st->records = s->final_records;
		st->lost = s->final_lost;
		st->cpu_ns = s->thread_cpu_ns;
		st->wall_ns = s->started_ns ? tprof_sysimg_now() - s->started_ns : 0;
	}
	free_sampler(s);
}

void tprof_sampler_stop(struct tprof_sampler *s)
{
	stop(s, 0, NULL);
}

void tprof_sampler_finish(struct tprof_sampler *s, struct tprof_sampler_stats *st)
{
	stop(s, 0, st);
}

void tprof_sampler_stop_exec(struct tprof_sampler *s)
{
	stop(s, 1, NULL);
}

void tprof_sampler_fork_prepare(struct tprof_sampler *s)
{
	if (s && s->running)
		pthread_mutex_lock(&s->lock);
}

void tprof_sampler_fork_parent(struct tprof_sampler *s)
{
	if (s && s->running)
		pthread_mutex_unlock(&s->lock);
}

void tprof_sampler_abandon(struct tprof_sampler *s)
{
	/* A thread's own table is not the child's: its numbers are the program's here. */
	if (s && s->im)
		tprof_sysimg_abandon(s->im, !s->own_table);
}

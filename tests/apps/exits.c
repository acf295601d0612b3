/* exits.c — records a known number of ranges, then ends in a chosen way, so that tests can
 * check that every recorded event survives each kind of process end.
 *
 * Usage: exits MODE [K] [READY_FILE]
 *
 * Before ending, a worker thread records K ranges named "worker" and K marks "worker-mark"
 * and the main thread K ranges named "main" and K marks "main-mark" (all ranges closed).
 * MODE says how the process then ends:
 *   return   main returns 4
 *   thread   the worker calls exit(7) while main is blocked in pthread_join
 *            (main records first, the worker waits for it)
 *   _exit    _exit(9), no exit handlers, no final flush
 *   abort    abort()
 *   segv     a write through a null pointer (SIGSEGV)
 *   kill     kill(getpid(), SIGKILL)
 *   wait     writes READY_FILE, then sleeps until killed from outside (returns 0 after 60 s)
 *   trap     like wait, but on SIGTERM it writes READY_FILE.term and calls exit(5)
 * READY_FILE (all modes) is written, holding "ready PID", once everything is recorded.
 *
 * With EXITS_AWAIT_SYSTEM_IMAGE=DIR (the process samples itself, TPROF_SAMPLE), it first
 * waits (up to 30 s) until its system image in DIR has begun: the image's spool holds the
 * TASK record of this process, written after the opening and the first counters.  The end
 * then comes after the image began, however late the sampler ran. */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tprof/tprof.h>

#include "../../common/events.h"
#include "../../common/format.h"

static int k = 1000;
static const char *mode = "return";
static const char *ready;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int main_done;
static volatile sig_atomic_t got_term;

static void record(const char *range, const char *mark)
{
	for (int i = 0; i < k; i++) {
		tprof_range_push(range);
		tprof_mark(mark);
		tprof_range_pop();
	}
}

static void write_file(const char *path)
{
	if (!path)
		return;
	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		char line[64];
		int n = snprintf(line, sizeof(line), "ready %d\n", (int)getpid());
		ssize_t w = write(fd, line, (size_t)n);
		(void)w;
		close(fd);
		rename(tmp, path);
	}
}

/* Whether the spool of fd is a system image's that has begun: its stream 0 holds a TASK
 * record, which the sampler writes last as its image begins, for the process it follows
 * (docs/FORMAT.md §7.2; the recorder's spool has no such record). */
static int sampled_spool(int fd)
{
	struct tprof_spool_header h;
	struct stat st;
	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || fstat(fd, &st) < 0 ||
	    h.slot_bytes < TPROF_SLOT_HEADER_SIZE + TPROF_UNIT || h.slot_bytes > (64u << 20))
		return 0;
	uint32_t cap = (h.slot_bytes - TPROF_SLOT_HEADER_SIZE) / TPROF_UNIT;
	struct tprof_rec *u = malloc((size_t)cap * TPROF_UNIT);
	int found = 0;
	for (off_t at = TPROF_SPOOL_HEADER_SIZE; u && !found && at + h.slot_bytes <= st.st_size;
	     at += h.slot_bytes) {
		struct tprof_slot_header sh;
		if (pread(fd, &sh, sizeof(sh), at) != (ssize_t)sizeof(sh) ||
		    sh.magic != TPROF_SLOT_MAGIC || sh.stream != 0 ||
		    pread(fd, u, (size_t)cap * TPROF_UNIT, at + TPROF_SLOT_HEADER_SIZE) !=
			    (ssize_t)cap * TPROF_UNIT)
			continue;
		for (uint32_t i = 0; i < cap && u[i].kind && !found; i += 1u + u[i].ext)
			found = u[i].kind == TPROF_K_TASK;
	}
	free(u);
	return found;
}

/* Whether DIR holds a begun system image of this process ("<host>.<pid>.<id>.spool"). */
static int image_begun(const char *dir)
{
	char pid[32], path[4096];
	int found = 0;
	DIR *d = opendir(dir);
	snprintf(pid, sizeof(pid), ".%d.", (int)getpid());
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		size_t n = strlen(e->d_name), k = strlen(TPROF_SPOOL_SUFFIX);
		if (n < k || strcmp(e->d_name + n - k, TPROF_SPOOL_SUFFIX) || !strstr(e->d_name, pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			found = sampled_spool(fd);
			close(fd);
		}
	}
	if (d)
		closedir(d);
	return found;
}

static void await_system_image(void)
{
	const char *dir = getenv("EXITS_AWAIT_SYSTEM_IMAGE");
	for (int i = 0; dir && i < 3000 && !image_begun(dir); i++)
		usleep(10000);
}

static void *worker(void *arg)
{
	(void)arg;
	record("worker", "worker-mark");
	if (!strcmp(mode, "thread")) {
		pthread_mutex_lock(&mu);
		while (!main_done)
			pthread_cond_wait(&cv, &mu);
		pthread_mutex_unlock(&mu);
		write_file(ready);
		printf("exiting from the worker\n");
		fflush(stdout);
		exit(7);
	}
	return NULL;
}

static void on_term(int sig)
{
	(void)sig;
	got_term = 1;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		mode = argv[1];
	if (argc > 2)
		k = atoi(argv[2]);
	if (argc > 3)
		ready = argv[3];
	if (!strcmp(mode, "trap"))
		signal(SIGTERM, on_term);

	pthread_t t;
	if (pthread_create(&t, NULL, worker, NULL)) {
		perror("pthread_create");
		return 99;
	}
	if (!strcmp(mode, "thread")) {
		record("main", "main-mark");
		pthread_mutex_lock(&mu);
		main_done = 1;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
		pthread_join(t, NULL);  /* never returns: the worker exits the process */
		return 98;
	}
	pthread_join(t, NULL);
	record("main", "main-mark");
	printf("recorded mode=%s k=%d\n", mode, k);
	fflush(stdout);
	await_system_image();
	write_file(ready);

	if (!strcmp(mode, "return"))
		return 4;
	if (!strcmp(mode, "_exit"))
		_exit(9);
	if (!strcmp(mode, "abort"))
		abort();
	if (!strcmp(mode, "segv")) {
		volatile int *p = NULL;
		*p = 1;
		return 97;
	}
	if (!strcmp(mode, "kill")) {
		kill(getpid(), SIGKILL);
		pause();
	}
	if (!strcmp(mode, "wait") || !strcmp(mode, "trap")) {
		for (int i = 0; i < 600 && !got_term; i++)
			usleep(100000);
		if (got_term) {
			char path[4096];
			snprintf(path, sizeof(path), "%s.term", ready ? ready : "exits");
			write_file(path);
			exit(5);
		}
		return 0;
	}
	fprintf(stderr, "exits: unknown mode '%s'\n", mode);
	return 2;
}

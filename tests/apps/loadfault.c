/* loadfault.c — a load for the recorder's loss accounting: THREADS threads record ranges and
 * marks, start short-lived threads of their own, and fork children that do the same with
 * fewer threads (and fork once more), so that some processes record while the disk fills or
 * is full, or are killed.  Each process counts what it asked the recorder for in a file of its
 * own, COUNTS/<pid>, mapped shared (so the counts survive SIGKILL and a full disk elsewhere):
 * two 64-bit counters, records begun and records ended, each annotation call counted before
 * (begun) and after (ended), so that only a call in flight at a kill is uncertain.  Every
 * iteration is push "iter", mark "m", pop: three records, the mark inside the range; each
 * thread's iterations are inside one range "work" of its own.
 * With LOADFAULT_FORK_ALONE=1 a process forks only when its other threads have ended (as
 * many children as its threads would have forked): for runtimes that do not make fork safe
 * while other threads allocate (the sanitizers' allocator of gcc 12 leaves its lock held
 * in the child).
 * Usage: loadfault COUNTS THREADS ITERATIONS FORKS */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tprof/tprof.h>

static const char *counts_dir;
static uint64_t *counts;        /* [0] begun, [1] ended: this process's, in its file */
static int iterations, forks, fork_alone;
static pthread_mutex_t fork_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t children[64];
static int nchildren;

static void open_counts(void)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%d", counts_dir, (int)getpid());
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, 2 * sizeof(uint64_t)) < 0) {
		perror(path);
		_exit(3);
	}
	void *m = mmap(NULL, 2 * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		perror("mmap");
		_exit(3);
	}
	counts = m;
}

#define COUNTED(call)                                                       \
	do {                                                                \
		__atomic_add_fetch(&counts[0], 1, __ATOMIC_SEQ_CST);        \
		call;                                                       \
		__atomic_add_fetch(&counts[1], 1, __ATOMIC_SEQ_CST);        \
	} while (0)

static void iterate(int n)
{
	for (int i = 0; i < n; i++) {
		COUNTED(tprof_range_push("iter"));
		COUNTED(tprof_mark("m"));
		COUNTED(tprof_range_pop());
	}
}

static void *short_lived(void *arg)
{
	(void)arg;
	COUNTED(tprof_range_push("work"));
	iterate(iterations / 8 + 1);
	COUNTED(tprof_range_pop());
	return NULL;
}

static void run(int threads, int depth);

/* A child: its own counts, two threads that iterate 8 times as long (so that the test can kill
 * it while it records), and (from the first generation) one child more. */
static void child(int depth)
{
	nchildren = 0;
	if (depth == 0)
		iterations *= 8;
	open_counts();
	run(2, depth + 1);
	exit(0);
}

static void maybe_fork(int depth)
{
	pthread_mutex_lock(&fork_lock);
	int go = forks > 0 && depth < 2 && nchildren < 64;
	if (go)
		forks--;
	pthread_mutex_unlock(&fork_lock);
	if (!go)
		return;
	pid_t pid = fork();
	if (pid == 0)
		child(depth);
	if (pid > 0) {
		pthread_mutex_lock(&fork_lock);
		children[nchildren++] = pid;
		pthread_mutex_unlock(&fork_lock);
	}
}

struct worker {
	pthread_t id;
	int index, depth;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	int chunk = iterations / 4 + 1;
	COUNTED(tprof_range_push("work"));
	for (int done = 0; done < iterations; done += chunk) {
		iterate(done + chunk <= iterations ? chunk : iterations - done);
		if (w->index % 4 == 0) {           /* threads start threads */
			pthread_t t;
			if (pthread_create(&t, NULL, short_lived, NULL) == 0)
				pthread_join(t, NULL);
		}
		if (!fork_alone && w->index % 16 == 1 && done == 0)
			maybe_fork(w->depth);
	}
	COUNTED(tprof_range_pop());
	return NULL;
}

static void run(int threads, int depth)
{
	struct worker *w = calloc((size_t)threads, sizeof(*w));
	if (!w)
		_exit(3);
	for (int i = 0; i < threads; i++) {
		w[i].index = i;
		w[i].depth = depth;
		if (pthread_create(&w[i].id, NULL, work, &w[i]) != 0)
			_exit(3);
	}
	for (int i = 0; i < threads; i++)
		pthread_join(w[i].id, NULL);
	free(w);
	/* a child of its own, when no thread forked one (two threads never do); with fork_alone,
	 * the children its threads would have forked */
	int more = (threads < 16) + (fork_alone ? (threads + 14) / 16 : 0);
	for (int i = 0; i < more; i++)
		maybe_fork(depth);
	for (int i = 0; i < nchildren; i++)
		waitpid(children[i], NULL, 0);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: loadfault COUNTS THREADS ITERATIONS FORKS\n");
		return 2;
	}
	counts_dir = argv[1];
	int threads = atoi(argv[2]);
	iterations = atoi(argv[3]);
	forks = atoi(argv[4]);
	const char *alone = getenv("LOADFAULT_FORK_ALONE");
	fork_alone = alone && *alone == '1';
	open_counts();
	run(threads, 0);
	printf("done\n");
	return 0;
}

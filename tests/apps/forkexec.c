/* forkexec.c — processes that fork and exec while recording, so that tests can check that
 * every process image is recorded, each to its own files, with its events attributed to it.
 *
 * Usage: forkexec MODE [K]
 *   leaf        records K ranges "leaf"; prints "leaf pid=P"
 *   fork        records K ranges "parent", forks; the child records K ranges "child" and
 *               exits 0; the parent waits, records K more "parent"; prints both pids
 *   fork-exec   records K ranges "parent", forks; the child execs "forkexec leaf K"; the
 *               parent waits and prints both pids
 *   exec        records K ranges "before-exec", then execs itself as "forkexec leaf K"
 *   exec-noenv  the same, but execve gets an environment of only PATH=/usr/bin: no TPROF_*
 *               and no LD_PRELOAD
 *   threads     starts N short-lived threads (K = N, default 200), 20 at a time; thread i
 *               records 10 ranges "short i" and exits; prints "threads=N"
 * Every line of output is flushed before a fork or exec. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tprof/tprof.h>

static int k = 100;

static void record(const char *name)
{
	for (int i = 0; i < k; i++) {
		tprof_range_push(name);
		tprof_range_pop();
	}
}

static char self[4096];

static void find_self(const char *argv0)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0)
		self[n] = 0;
	else
		snprintf(self, sizeof(self), "%s", argv0);
}

static int wait_for(pid_t pid)
{
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void exec_leaf(int empty_env)
{
	char kbuf[16];
	snprintf(kbuf, sizeof(kbuf), "%d", k);
	char *argv[] = { self, "leaf", kbuf, NULL };
	fflush(stdout);
	if (empty_env) {
		char *envp[] = { "PATH=/usr/bin", NULL };
		execve(self, argv, envp);
	} else {
		execv(self, argv);
	}
	perror("exec");
	_exit(120);
}

static void *short_thread(void *arg)
{
	char name[32];
	snprintf(name, sizeof(name), "short %d", (int)(intptr_t)arg);
	for (int i = 0; i < 10; i++) {
		tprof_range_push(name);
		tprof_range_pop();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "leaf";
	if (argc > 2)
		k = atoi(argv[2]);
	find_self(argv[0]);

	if (!strcmp(mode, "leaf")) {
		record("leaf");
		printf("leaf pid=%d\n", (int)getpid());
		return 0;
	}
	if (!strcmp(mode, "fork") || !strcmp(mode, "fork-exec")) {
		int exec = !strcmp(mode, "fork-exec");
		record("parent");
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			if (exec)
				exec_leaf(0);
			record("child");
			printf("child pid=%d\n", (int)getpid());
			fflush(stdout);
			exit(0);
		}
		int st = wait_for(pid);
		if (!exec)
			record("parent");
		printf("parent pid=%d child=%d status=%d\n", (int)getpid(), (int)pid, st);
		return st == 0 ? 0 : 1;
	}
	if (!strcmp(mode, "exec") || !strcmp(mode, "exec-noenv")) {
		record("before-exec");
		printf("before-exec pid=%d\n", (int)getpid());
		exec_leaf(!strcmp(mode, "exec-noenv"));
	}
	if (!strcmp(mode, "threads")) {
		int n = argc > 2 ? k : 200;
		pthread_t t[20];
		for (int base = 0; base < n; base += 20) {
			int m = n - base < 20 ? n - base : 20;
			for (int i = 0; i < m; i++)
				if (pthread_create(&t[i], NULL, short_thread, (void *)(intptr_t)(base + i))) {
					perror("pthread_create");
					return 1;
				}
			for (int i = 0; i < m; i++)
				pthread_join(t[i], NULL);
		}
		printf("threads=%d\n", n);
		return 0;
	}
	fprintf(stderr, "forkexec: unknown mode '%s'\n", mode);
	return 2;
}

/* startcost.c — what starting a process costs, counted over the whole process.
 *
 * Usage: startcost COUNT [VAR=VALUE...] -- PROGRAM [ARGS...] [+ [VAR=VALUE...] -- PROGRAM [ARGS...]]...
 *
 * Starts PROGRAM COUNT times, one after the other, as a shell does (fork, then execve with this
 * process's environment plus the VAR=VALUE given, which only the child sees), and waits for
 * each.  Prints key=value lines: cpu_ns, the CPU time (user + system) per start of everything
 * the children ran, from getrusage(RUSAGE_CHILDREN), self_ns, this process's own (its forks:
 * what it costs a shell, when a library preloaded into it too has fork handlers), and wall_ns
 * per start.
 *
 * With several ways to start (separated by "+"), each round starts each way once, the order
 * turned round from one round to the next, so that whatever drifts on the machine falls on
 * all of them alike rather than on the one whose block of starts it met; then the figures are
 * cpu_ns_K and wall_ns_K for the way K (from 0), each the mean of its COUNT starts.
 *
 * Exits non-zero when a start fails or a child exits with a status other than 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

extern char **environ;

#define MAX_WAYS 16

struct way {
	char **env;    /* this process's environment with the way's VAR=VALUE in place */
	char **argv;   /* PROGRAM [ARGS...], NULL-terminated */
	uint64_t cpu, wall;
};

static uint64_t cpu_ns(int who)
{
	struct rusage ru;
	getrusage(who, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

/* args[0..n): VAR=VALUE... -- PROGRAM [ARGS...]; 0 when it is not that. */
static int parse_way(struct way *w, char **args, int n)
{
	int sep = 0;
	while (sep < n && strcmp(args[sep], "--"))
		sep++;
	if (sep + 1 >= n)
		return 0;
	size_t nenv = 0;
	while (environ[nenv])
		nenv++;
	w->env = calloc(nenv + (size_t)sep + 1, sizeof(*w->env));
	w->argv = calloc((size_t)(n - sep), sizeof(*w->argv));
	if (!w->env || !w->argv)
		return 0;
	size_t k = 0;
	for (int i = 0; i < sep; i++)
		w->env[k++] = args[i];
	for (size_t i = 0; i < nenv; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t len = eq ? (size_t)(eq - environ[i]) + 1 : strlen(environ[i]);
		int given = 0;
		for (int j = 0; j < sep && !given; j++)
			given = !strncmp(args[j], environ[i], len);
		if (!given)
			w->env[k++] = environ[i];
	}
	for (int i = sep + 1; i < n; i++)
		w->argv[i - sep - 1] = args[i];
	return 1;
}

/* One start of w: its children's CPU and the wall time added to its sums; 0 on failure. */
static int start(struct way *w)
{
	uint64_t cpu0 = cpu_ns(RUSAGE_CHILDREN), t0 = bench_now_ns();
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 0;
	}
	if (pid == 0) {
		execve(w->argv[0], w->argv, w->env);
		perror(w->argv[0]);
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "startcost: %s failed (status 0x%x)\n", w->argv[0], st);
		return 0;
	}
	w->wall += bench_now_ns() - t0;
	w->cpu += cpu_ns(RUSAGE_CHILDREN) - cpu0;
	return 1;
}

int main(int argc, char **argv)
{
	static struct way ways[MAX_WAYS];
	long count = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	int nways = 0, from = 2;
	for (int i = 2; i <= argc && count > 0; i++) {
		if (i < argc && strcmp(argv[i], "+"))
			continue;
		if (nways == MAX_WAYS || !parse_way(&ways[nways], argv + from, i - from)) {
			count = 0;
			break;
		}
		nways++;
		from = i + 1;
	}
	if (count <= 0 || !nways) {
		fprintf(stderr, "usage: startcost COUNT [VAR=VALUE...] -- PROGRAM [ARGS...] "
				"[+ [VAR=VALUE...] -- PROGRAM [ARGS...]]...\n");
		return 2;
	}
	uint64_t self0 = cpu_ns(RUSAGE_SELF);
	for (long r = 0; r < count; r++)
		for (int j = 0; j < nways; j++)
			if (!start(&ways[(j + r) % nways]))
				return 1;
	uint64_t self1 = cpu_ns(RUSAGE_SELF);
	if (nways == 1) {
		printf("cpu_ns=%.0f\nself_ns=%.0f\nwall_ns=%.0f\n", (double)ways[0].cpu / (double)count,
		       (double)(self1 - self0) / (double)count, (double)ways[0].wall / (double)count);
		return 0;
	}
	for (int k = 0; k < nways; k++)
		printf("cpu_ns_%d=%.0f\nwall_ns_%d=%.0f\n", k, (double)ways[k].cpu / (double)count, k,
		       (double)ways[k].wall / (double)count);
	return 0;
}

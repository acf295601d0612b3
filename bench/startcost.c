/* startcost.c — what starting a process costs, counted over the whole process.
 *
 * Usage: startcost COUNT [VAR=VALUE...] -- PROGRAM [ARGS...]
 *
 * Starts PROGRAM COUNT times, one after the other, as a shell does (fork, then execve with this
 * process's environment plus the VAR=VALUE given, which only the child sees), and waits for
 * each.  Prints key=value lines: cpu_ns, the CPU time (user + system) per start of everything
 * the children ran, from getrusage(RUSAGE_CHILDREN), self_ns, this process's own (its forks:
 * what it costs a shell, when a library preloaded into it too has fork handlers), and wall_ns
 * per start.  Exits non-zero when a start fails or a child exits with a status other than 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

extern char **environ;

static uint64_t cpu_ns(int who)
{
	struct rusage ru;
	getrusage(who, &ru);
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

int main(int argc, char **argv)
{
	int sep = 2;
	while (sep < argc && strcmp(argv[sep], "--"))
		sep++;
	long count = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	if (count <= 0 || sep + 1 >= argc) {
		fprintf(stderr, "usage: startcost COUNT [VAR=VALUE...] -- PROGRAM [ARGS...]\n");
		return 2;
	}
	size_t nenv = 0;
	while (environ[nenv])
		nenv++;
	char **env = calloc(nenv + (size_t)(sep - 2) + 1, sizeof(*env));
	if (!env)
		return 2;
	size_t k = 0;
	for (int i = 2; i < sep; i++)
		env[k++] = argv[i];
	for (size_t i = 0; i < nenv; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t n = eq ? (size_t)(eq - environ[i]) + 1 : strlen(environ[i]);
		int given = 0;
		for (int j = 2; j < sep && !given; j++)
			given = !strncmp(argv[j], environ[i], n);
		if (!given)
			env[k++] = environ[i];
	}
	uint64_t cpu0 = cpu_ns(RUSAGE_CHILDREN), self0 = cpu_ns(RUSAGE_SELF), t0 = bench_now_ns();
	for (long i = 0; i < count; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			execve(argv[sep + 1], argv + sep + 1, env);
			perror(argv[sep + 1]);
			_exit(127);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "startcost: %s failed (status 0x%x)\n", argv[sep + 1], st);
			return 1;
		}
	}
	uint64_t t1 = bench_now_ns(), cpu1 = cpu_ns(RUSAGE_CHILDREN), self1 = cpu_ns(RUSAGE_SELF);
	printf("cpu_ns=%.0f\nself_ns=%.0f\nwall_ns=%.0f\n", (double)(cpu1 - cpu0) / (double)count,
	       (double)(self1 - self0) / (double)count, (double)(t1 - t0) / (double)count);
	return 0;
}

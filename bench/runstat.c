/* runstat.c — runs a command and reports what it cost: wall time, CPU time and peak memory.
 *
 * Usage: runstat OUTFILE COMMAND [ARGS...]
 *
 * Writes one line to OUTFILE: "wall_s user_s sys_s maxrss_kb status", where status is the
 * command's exit status (128+N for a signal).  The command's own output is left alone.  Exits
 * with the command's status. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: runstat OUTFILE COMMAND [ARGS...]\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 2;
	}
	uint64_t t0 = bench_now_ns();
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror(argv[2]);
		_exit(127);
	}
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0) {
		perror("wait4");
		return 2;
	}
	uint64_t t1 = bench_now_ns();
	int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	fprintf(out, "%.6f %.6f %.6f %ld %d\n", (double)(t1 - t0) / 1e9,
		(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6,
		(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6, ru.ru_maxrss, status);
	fclose(out);
	return status;
}

/* test-writer-live.c — whether a spool's writer still runs (common/writer-live.h), which the
 * live view and tprof-inspect --hang-action kill act on: this process runs; a child that has
 * exited and not been waited for (a zombie: an orphan waits so for init) has ended, and so
 * has one waited for; a process that started after the spool was made holds a reused pid;
 * another host's writer is not known; a pid too large for pid_t names nobody. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/writer-live.h"
#include "tap.h"

static void name_of(char *buf, size_t len, const char *host, long long pid)
{
	snprintf(buf, len, "/some/dir/%s.%lld.0123abcd.spool", host, pid);
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

int main(void)
{
	char host[256], name[512];
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	for (char *c = host; *c; c++)
		if (*c == '/')
			*c = '_';

	pid_t got = 0;
	name_of(name, sizeof(name), host, getpid());
	ok(tprof_spool_writer(name, now_ns(), &got) == TPROF_WRITER_LIVE && got == getpid(),
	   "this process runs, and its pid is given");
	ok(tprof_spool_writer(name, 0, NULL) == TPROF_WRITER_LIVE, "without a creation time too");
	ok(tprof_spool_writer(name, 1000000000ull, NULL) == TPROF_WRITER_GONE,
	   "a spool made long before its pid's process started: the pid was reused");

	pid_t child = fork();
	if (child == 0)
		_exit(0);
	siginfo_t si;
	/* it has exited once waitid can tell, which leaves it a zombie */
	waitid(P_PID, (id_t)child, &si, WEXITED | WNOWAIT);
	name_of(name, sizeof(name), host, child);
	got = 0;
	ok(kill(child, 0) == 0 && tprof_spool_writer(name, 0, &got) == TPROF_WRITER_GONE &&
		   got == 0,
	   "a zombie has ended (no pid given)");
	waitpid(child, NULL, 0);
	ok(tprof_spool_writer(name, 0, NULL) == TPROF_WRITER_GONE, "and once waited for");

	ok(tprof_process_state(host, strlen(host), (long)getpid(), 0, NULL) == TPROF_WRITER_LIVE,
	   "by host and pid: this process runs");
	ok(tprof_process_state(host, strlen(host), (long)child, 0, NULL) == TPROF_WRITER_GONE,
	   "by host and pid: the child has ended");

	name_of(name, sizeof(name), "another-host.example", getpid());
	ok(tprof_spool_writer(name, 0, NULL) == TPROF_WRITER_UNKNOWN, "another host: not known");
	name_of(name, sizeof(name), host, (long long)UINT_MAX);   /* -1 as a pid_t */
	got = 0;
	ok(tprof_spool_writer(name, 0, &got) == TPROF_WRITER_UNKNOWN && got == 0,
	   "a pid beyond pid_t (it would be -1: every process) names nobody");
	ok(tprof_process_state(host, strlen(host), -1, 0, NULL) == TPROF_WRITER_UNKNOWN &&
		   tprof_process_state(host, strlen(host), 0, 0, NULL) == TPROF_WRITER_UNKNOWN,
	   "by host and pid: -1 and 0 name nobody");
	name_of(name, sizeof(name), host, 0);
	ok(tprof_spool_writer(name, 0, NULL) == TPROF_WRITER_UNKNOWN, "pid 0 in a name: nobody");
	return tap_done();
}

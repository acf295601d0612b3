/* run.c — the command run: forked and exec'd (after the sampler follows it, with a system
 * profile), the signals tprof-inspect is sent passed on to it (the capture signal excepted,
 * which toggles the capture window) and its end waited for, to give its exit status. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "hang.h"
#include "options.h"
#include "run.h"
#include "sampling.h"
#include "fail.h"

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

static struct sigaction saved_actions[NFORWARDED + 1];   /* and the capture signal's */
static int capture_sig;		/* --capture-signal: toggles the capture window, not passed on */
static volatile sig_atomic_t child;	/* the command while it can be signalled, else 0 */

/* ------------------------------------------------------------------ signals */

void inspect_set_capture_signal(int sig)
{
	capture_sig = sig;
}

/* Passes a signal on, unless the kernel sent it to the whole foreground process group (^C,
 * ^\, a hangup), in which case the command has had it already. */
static void forward(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno;
	pid_t pid = child;
	if (sig == capture_sig) {
		capture_toggle();
		errno = saved_errno;
		return;
	}
	if (pid > 0 && (!si || si->si_code != SI_KERNEL))
		kill(pid, sig);
	errno = saved_errno;
}

/* Blocks the forwarded signals (old mask in *old) and catches those not ignored; an ignored
 * one stays ignored, as it does for the command. */
static void catch_signals(sigset_t *old)
{
	struct sigaction sa = { .sa_sigaction = forward, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaddset(&set, forwarded[i]);
	if (capture_sig)
		sigaddset(&set, capture_sig);
	sigprocmask(SIG_BLOCK, &set, old);
	sa.sa_mask = set;
	for (size_t i = 0; i < NFORWARDED; i++) {
		sigaction(forwarded[i], NULL, &saved_actions[i]);
		if (saved_actions[i].sa_handler != SIG_IGN || forwarded[i] == capture_sig)
			sigaction(forwarded[i], &sa, NULL);
	}
	sigaction(capture_sig ? capture_sig : SIGUSR1, NULL, &saved_actions[NFORWARDED]);
	if (capture_sig)
		sigaction(capture_sig, &sa, NULL);
}

/* In the child: the dispositions and mask this program started with. */
static void restore_signals(const sigset_t *old)
{
	if (capture_sig)
		sigaction(capture_sig, &saved_actions[NFORWARDED], NULL);
	for (size_t i = 0; i < NFORWARDED; i++)
		sigaction(forwarded[i], &saved_actions[i], NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* ------------------------------------------------------------------ running the command */

/* In the child, with a system profile: waits until the sampler follows it (the parent closes
 * the other end of the gate). */
static void wait_gate(int gate)
{
	char c;
	if (gate < 0)
		return;
	while (read(gate, &c, 1) < 0 && errno == EINTR)
		;
	close(gate);
}

static void __attribute__((noreturn)) exec_child(char **cmd, const sigset_t *old, int fd, int gate)
{
	wait_gate(gate);
	restore_signals(old);
	execvp(cmd[0], cmd);
	int err = errno;
	dprintf(STDERR_FILENO, PROG ": cannot run '%s': %s\n", cmd[0], strerror(err));
	ssize_t w = write(fd, &err, sizeof(err));
	(void)w;
	_exit(err == ENOENT ? 127 : 126);
}

/* 0 once the command is running, the errno of the exec if it never started.  The pipe is
 * close-on-exec, so a successful exec reads as end of file. */
static int exec_result(int fd)
{
	int err = 0;
	ssize_t n;
	do
		n = read(fd, &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(fd);
	return n == (ssize_t)sizeof(err) ? err : 0;
}

/* Waits without reaping first, so that no signal is passed to a pid already reused. */
static int wait_child(pid_t pid)
{
	siginfo_t si;
	int status;

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			inspect_fail("cannot wait for the command: %s", strerror(errno));
	child = 0;
	hang_watch_stop();           /* before the pid can be reused */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			inspect_fail("cannot wait for the command: %s", strerror(errno));
	return status;
}

static int exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_SETUP;
}

/* Runs the command; the time it was started goes to *start.  With a system profile the
 * command waits, forked, until the sampler follows it, and then execs. */
int inspect_run(char **cmd, const struct tprof_sample_request *sr, const char *dir,
		struct timespec *start, int *exec_err, int *status)
{
	sigset_t old;
	int fds[2], gate[2] = { -1, -1 };

	signal(SIGCHLD, SIG_DFL);	/* an inherited SIG_IGN would reap it for us */
	if (pipe2(fds, O_CLOEXEC) || (sr->what && pipe2(gate, O_CLOEXEC)))
		inspect_fail("cannot create a pipe: %s", strerror(errno));
	clock_gettime(CLOCK_REALTIME, start);
	catch_signals(&old);
	pid_t pid = fork();
	if (pid < 0)
		inspect_fail("cannot fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		if (gate[1] >= 0)
			close(gate[1]);
		exec_child(cmd, &old, fds[1], gate[0]);
	}
	child = pid;
	hang_watch_start(pid, dir);   /* its signals stay blocked: they come to this thread */
	capture_started();
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	if (sr->what) {
		close(gate[0]);
		sampling_start(sr, dir, pid);
		close(gate[1]);
	}
	*exec_err = exec_result(fds[0]);
	*status = wait_child(pid);
	return exit_code(*status);
}

/* cpus.c — the clock that drives CPU sampling: a PERF_COUNT_SW_CPU_CLOCK event on each online
 * CPU, firing every 1e9/hz ns of that CPU's time, with the sampling program attached. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "../common/real-libc.h"
#include "internal.h"

/* Marks the CPUs of a list such as "0-3,8,10-11" in on[0..n); returns the highest + 1. */
static int parse_cpus(const char *s, char *on, int n)
{
	int top = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), z = a;

		if (end == s)
			break;
		if (*end == '-')
			z = strtol(end + 1, &end, 10);
		for (long c = a; c <= z && c < n; c++)
			on[c] = 1, top = (int)c + 1;
		s = *end == ',' ? end + 1 : end;
	}
	return top;
}

static int online_cpus(char *on, int n)
{
	char line[4096] = "";
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int top = 0;

	if (f) {
		if (fgets(line, sizeof(line), f))
			top = parse_cpus(line, on, n);
		fclose(f);
	}
	if (top > 0)
		return top;
	for (int c = 0; c < n; c++)
		on[c] = 1;
	return n;
}

static int open_clock(int cpu, unsigned hz)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 1000000000ull / hz;
	a.disabled = 1;
	return (int)tprof_real_syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int attach_one(struct tprof_bpf *b, struct bpf_program *prog, int cpu, unsigned hz)
{
	int fd = open_clock(cpu, hz), err;
	struct bpf_link *l;

	if (fd < 0)
		return errno == ENODEV ? 0 : -errno;   /* ENODEV: the CPU went offline */
	l = bpf_program__attach_perf_event(prog, fd);
	if (!l) {
		err = -errno;
		tprof_real_close(fd);
		return err;
	}
	b->clocks[b->nclocks++] = l;
	return 0;
}

int tprof_bpf_clocks_attach(struct tprof_bpf *b, struct bpf_program *prog, unsigned hz,
			    char *why, size_t whylen)
{
	int n = libbpf_num_possible_cpus(), err = 0;
	char *on;

	if (n <= 0)
		n = 1;
	on = calloc((size_t)n, 1);
	b->clocks = calloc((size_t)n, sizeof(*b->clocks));
	if (!on || !b->clocks) {
		free(on);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	n = online_cpus(on, n);
	for (int c = 0; c < n && !err; c++)
		if (on[c])
			err = attach_one(b, prog, c, hz);
	free(on);
	if (err)
		tprof_bpf_say_error(err, 0, "starting the CPU clock events", why, whylen);
	return err;
}

void tprof_bpf_clocks_detach(struct tprof_bpf *b)
{
	for (int i = 0; i < b->nclocks; i++)
		bpf_link__destroy(b->clocks[i]);
	free(b->clocks);
	b->clocks = NULL;
	b->nclocks = 0;
}

/* sampling.c — the system profile of tprof-inspect: runs the sampler (sample/) beside the
 * command, from before it execs until it has exited. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../sample/sampler.h"
#include "sampling.h"
#include "fail.h"


static struct tprof_sampler *sampler;
static char *image;

static void say_fallback(const struct tprof_sample_request *r)
{
	if (!(r->what & (TPROF_SAMPLE_CPU | TPROF_SAMPLE_SCHED)))
		return;
	unsigned hz = tprof_sampler_hz(sampler);
	char capped[96] = "";
	if (hz < r->hz)
		snprintf(capped, sizeof(capped), " (its limit; %u Hz asked)", r->hz);
	fprintf(stderr, PROG ": system profile from /proc at %u Hz%s%s (BPF: %s)\n", hz, capped,
		r->what & TPROF_SAMPLE_CPU ? ", no CPU stacks" : "",
		tprof_sampler_bpf_why(sampler));
}

int sampling_start(const struct tprof_sample_request *r, const char *dir, pid_t pid)
{
	const char *bpf = getenv("TPROF_SAMPLE_BPF");
	struct tprof_sampler_opts o = {
		.what = r->what, .hz = r->hz, .dir = dir, .prog = PROG,
		.no_bpf = bpf && !strcmp(bpf, "0"), .target = (uint32_t)pid,
	};
	char why[512];
	sampler = tprof_sampler_start(&o, why, sizeof(why));
	if (!sampler) {
		fprintf(stderr, PROG ": no system profile: %s\n", why);
		return 0;
	}
	const char *path = tprof_sampler_path(sampler);
	const char *slash = strrchr(path, '/');
	image = strdup(slash ? slash + 1 : path);
	if (!strcmp(tprof_sampler_backend(sampler), "proc"))
		say_fallback(r);
	tprof_sampler_follow(sampler, (uint32_t)pid);
	return 1;
}

void sampling_stop(int keep, int verbose)
{
	if (!sampler)
		return;
	char *path = strdup(tprof_sampler_path(sampler));
	char backend[8];
	snprintf(backend, sizeof(backend), "%s", tprof_sampler_backend(sampler));
	struct tprof_sampler_stats st;
	tprof_sampler_finish(sampler, &st);
	sampler = NULL;
	if (verbose && keep)
		fprintf(stderr, PROG ": system profile (%s): %llu records, %llu lost; the sampler "
			"used %.1f ms of CPU in %.2f s (%.2f %% of a CPU)\n", backend,
			(unsigned long long)st.records, (unsigned long long)st.lost,
			st.cpu_ns / 1e6, st.wall_ns / 1e9,
			st.wall_ns ? 100.0 * (double)st.cpu_ns / (double)st.wall_ns : 0.0);
	if (!keep && path) {
		unlink(path);
		free(image);
		image = NULL;
	}
	free(path);
}

const char *sampling_image(void)
{
	return image;
}

/* image.c — the system image (image.h): a process image of its own written with
 * common/imgwrite.c, opened with what the sampler's process is (the clock, host, pid,
 * executable, arguments), clock samples about 20 ms after the start and then every second,
 * buffers written every 250 ms (and, until then, in a spool that outlives any end of the
 * process), and DROP and END at the close. */
#include "image.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/events.h"
#include "../common/imgwrite.h"
#include "../common/ownfd.h"

#define FLUSH_NS 250000000ull           /* a buffer's records reach the file within this */
#define CLOCK_FIRST_NS 20000000ull      /* the second periodic clock sample */
#define CLOCK_EVERY_NS 1000000000ull
#define SPOOL_KB 64                     /* a stream's buffer: a slot of the image's spool */

struct tprof_sysimg {
	struct tprof_imgw *w;
	uint64_t last_flush, last_clock;
	int nclocks;
};

uint64_t tprof_sysimg_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t real_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void tprof_sysimg_write(struct tprof_sysimg *im, uint32_t stream, struct tprof_rec r,
			const void *ext, size_t ext_bytes)
{
	tprof_imgw_write(im->w, stream, &r, ext, ext_bytes);
}

uint32_t tprof_sysimg_string_n(struct tprof_sysimg *im, const char *s, size_t len, uint64_t t)
{
	return tprof_imgw_string_n(im->w, s, len, t);
}

uint32_t tprof_sysimg_string(struct tprof_sysimg *im, const char *s, uint64_t t)
{
	return tprof_imgw_string(im->w, s, t);
}

void tprof_sysimg_prop_str(struct tprof_sysimg *im, const char *key, const char *value)
{
	tprof_imgw_prop_str(im->w, key, value, tprof_sysimg_now());
}

void tprof_sysimg_prop_int(struct tprof_sysimg *im, const char *key, int64_t value)
{
	tprof_imgw_prop_int(im->w, key, value, tprof_sysimg_now());
}

void tprof_sysimg_flush(struct tprof_sysimg *im)
{
	tprof_imgw_flush(im->w);
	im->last_flush = tprof_sysimg_now();
}

/* A clock sample: ticks are monotonic ns, so t0 = t1; the tightest of 5 tries. */
static void clock_sample(struct tprof_sysimg *im, unsigned when)
{
	uint64_t best = UINT64_MAX, mono = 0, real = 0;
	for (int i = 0; i < 5; i++) {
		uint64_t a = tprof_sysimg_now(), r = real_ns(), b = tprof_sysimg_now();
		if (b - a < best) {
			best = b - a;
			mono = a + (b - a) / 2;
			real = r;
		}
	}
	struct tprof_rec c = { .kind = TPROF_K_CLOCK, .flags = (uint8_t)when, .t0 = mono,
			       .t1 = mono, .arg = real };
	tprof_sysimg_write(im, 0, c, NULL, 0);
	im->last_clock = mono;
	im->nclocks++;
}

void tprof_sysimg_tick(struct tprof_sysimg *im)
{
	uint64_t now = tprof_sysimg_now();
	uint64_t every = im->nclocks <= 2 ? CLOCK_FIRST_NS : CLOCK_EVERY_NS;
	if (now - im->last_clock >= every)
		clock_sample(im, TPROF_CLOCK_PERIODIC);
	if (now - im->last_flush >= FLUSH_NS)
		tprof_sysimg_flush(im);
}

static void host_name(char *buf, size_t len)
{
	if (gethostname(buf, len - 1) < 0)
		snprintf(buf, len, "host");
	buf[len - 1] = '\0';
}

static void own_args(struct tprof_sysimg *im)
{
	char *buf = malloc(65536);
	long n = buf ? 0 : -1;
	int fd = buf ? tprof_fd_open("/proc/self/cmdline", O_RDONLY, 0) : -1;
	if (fd >= 0) {
		ssize_t r;
		while (n < 65535 && (r = read(fd, buf + n, (size_t)(65535 - n))) > 0)
			n += r;
		tprof_fd_close(fd);
	}
	int argc = 0;
	if (buf)
		buf[n > 0 ? n : 0] = '\0';
	for (long i = 0; fd >= 0 && i < n; i += (long)strlen(buf + i) + 1, argc++)
		tprof_sysimg_prop_str(im, "arg", buf + i);
	if (fd >= 0)
		tprof_sysimg_prop_int(im, "argc", argc);
	free(buf);
}

/* Stream 0's opening (docs/FORMAT.md §3.4): the clock, the start sample, who wrote it. */
static void opening(struct tprof_sysimg *im)
{
	char buf[PATH_MAX];
	tprof_sysimg_prop_int(im, "clock", 2);
	clock_sample(im, TPROF_CLOCK_START);
	tprof_sysimg_prop_str(im, "role", "system");
	host_name(buf, sizeof(buf));
	tprof_sysimg_prop_str(im, "host", buf);
	tprof_sysimg_prop_int(im, "pid", getpid());
	tprof_sysimg_prop_int(im, "ppid", getppid());
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		tprof_sysimg_prop_str(im, "exe", buf);
	}
	if (getcwd(buf, sizeof(buf)))
		tprof_sysimg_prop_str(im, "cwd", buf);
	own_args(im);
}

struct tprof_sysimg *tprof_sysimg_open(const char *dir, const char *prog, char *why,
				       size_t whylen)
{
	char host[256];
	struct tprof_sysimg *im = calloc(1, sizeof(*im));
	if (!im) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	host_name(host, sizeof(host));
	struct tprof_imgw_opts o = { .dir = dir, .host = host, .pid = (uint32_t)getpid(),
				     .real_ns = real_ns(), .prog = prog,
				     .what = "the system profile", .spool_kb = SPOOL_KB,
				     .flags = TPROF_FILE_SYSTEM };
	if (!(im->w = tprof_imgw_open(&o, why, whylen))) {
		free(im);
		return NULL;
	}
	im->last_flush = tprof_sysimg_now();
	opening(im);
	clock_sample(im, TPROF_CLOCK_PERIODIC);
	return im;
}

void tprof_sysimg_close(struct tprof_sysimg *im, uint64_t lost)
{
	if (!im)
		return;
	if (tprof_imgw_ok(im->w)) {
		uint64_t now = tprof_sysimg_now();
		if (lost)
			tprof_sysimg_write(im, 0, (struct tprof_rec){ .kind = TPROF_K_DROP,
				.flags = TPROF_DROP_SAMPLES, .t0 = now, .t1 = lost }, NULL, 0);
		clock_sample(im, TPROF_CLOCK_FINAL);
		tprof_sysimg_write(im, 0, (struct tprof_rec){ .kind = TPROF_K_END,
			.flags = TPROF_END_EXIT, .t0 = tprof_sysimg_now() }, NULL, 0);
	}
	tprof_imgw_close(im->w);
	free(im);
}

void tprof_sysimg_abandon(struct tprof_sysimg *im, int close_files)
{
	tprof_imgw_abandon(im->w, close_files);
}

const char *tprof_sysimg_base(const struct tprof_sysimg *im)
{
	return tprof_imgw_base(im->w);
}

int tprof_sysimg_ok(const struct tprof_sysimg *im)
{
	return tprof_imgw_ok(im->w);
}

uint64_t tprof_sysimg_records(const struct tprof_sysimg *im)
{
	return tprof_imgw_records(im->w);
}

/* image.c — the system image on disk: its chunk file (created with O_EXCL, a random instance),
 * a buffer per stream that becomes a chunk (codec + raw deflate + chunk header, as the
 * recorder's preload/spool/chunks.c) when full and every 250 ms, strings, clock samples, DROP
 * and END.  A write error stops the image with one warning; the caller goes on. */
#include "image.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../common/chunk.h"
#include "../common/codec.h"
#include "../common/events.h"
#include "../common/writev-all.h"
#include "strtab.h"

#define BUF_UNITS 8192u                 /* 256 KiB of records per stream buffer */
#define FLUSH_NS 250000000ull           /* a buffer's records reach the file within this */
#define CLOCK_FIRST_NS 20000000ull      /* the second periodic clock sample */
#define CLOCK_EVERY_NS 1000000000ull
#define MAX_STRING (TPROF_MAX_EXT * TPROF_UNIT)

struct sbuf {
	struct tprof_rec *units;        /* BUF_UNITS */
	uint32_t n, flushed, seq;
	uint64_t last_t0;
};

struct tprof_sysimg {
	int fd;
	int failed;
	char *base;
	const char *prog;
	struct sbuf *streams;
	uint32_t nstreams;
	struct tprof_strtab strings;
	z_stream zs;
	uint8_t *raw, *comp;
	size_t raw_cap, comp_cap;
	uint64_t start_ns, last_flush, last_clock;
	int nclocks;
	uint64_t records;
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

static struct sbuf *stream_buf(struct tprof_sysimg *im, uint32_t stream)
{
	if (stream >= im->nstreams) {
		uint32_t n = stream + 8;
		struct sbuf *ns = realloc(im->streams, n * sizeof(*ns));
		if (!ns)
			return NULL;
		memset(ns + im->nstreams, 0, (n - im->nstreams) * sizeof(*ns));
		im->streams = ns;
		im->nstreams = n;
	}
	struct sbuf *b = &im->streams[stream];
	if (!b->units && !(b->units = calloc(BUF_UNITS, TPROF_UNIT)))
		return NULL;
	return b;
}


static void stop_writing(struct tprof_sysimg *im, const char *what)
{
	if (im->failed)
		return;
	im->failed = 1;
	fprintf(stderr, "%s: cannot write %s%s: %s; the system profile stops here\n", im->prog,
		im->base, TPROF_TRACE_SUFFIX, what);
}

/* The records of stream s not yet in the file, as one chunk. */
static void write_piece(struct tprof_sysimg *im, uint32_t s)
{
	struct sbuf *b = &im->streams[s];
	struct tprof_enc_info info;
	struct tprof_chunk_header ch;

	if (im->failed || b->flushed >= b->n)
		return;
	size_t raw_len = tprof_encode(b->units + b->flushed, b->n - b->flushed, im->raw, &info);
	if (info.units == 0)
		return;
	im->zs.next_in = im->raw;
	im->zs.avail_in = (uInt)raw_len;
	im->zs.next_out = im->comp;
	im->zs.avail_out = (uInt)im->comp_cap;
	if (deflateReset(&im->zs) != Z_OK || deflate(&im->zs, Z_FINISH) != Z_STREAM_END) {
		stop_writing(im, "compression failed");
		return;
	}
	uint32_t comp_len = (uint32_t)(im->comp_cap - im->zs.avail_out);
	tprof_chunk_header_init(&ch, s, b->seq, b->flushed, &info, (uint32_t)raw_len, im->comp,
				comp_len);
	struct iovec iov[2] = { { &ch, sizeof(ch) }, { im->comp, comp_len } };
	if (tprof_writev_all(im->fd, iov, 2) < 0) {
		stop_writing(im, strerror(errno));
		return;
	}
	b->flushed += info.units;
	if (s != 0)
		im->records += info.records;
}

void tprof_sysimg_flush(struct tprof_sysimg *im)
{
	for (uint32_t s = 0; s < im->nstreams; s++)
		write_piece(im, s);
	im->last_flush = tprof_sysimg_now();
}

void tprof_sysimg_write(struct tprof_sysimg *im, uint32_t stream, struct tprof_rec r,
			const void *ext, size_t ext_bytes)
{
	uint32_t ext_units = (uint32_t)((ext_bytes + TPROF_UNIT - 1) / TPROF_UNIT);
	struct sbuf *b;
	if (im->failed || ext_units > TPROF_MAX_EXT || !(b = stream_buf(im, stream)))
		return;
	if (b->n + 1 + ext_units > BUF_UNITS) {
		write_piece(im, stream);
		if (im->failed)
			return;
		memset(b->units, 0, (size_t)b->n * TPROF_UNIT);
		b->n = b->flushed = 0;
		b->seq++;
	}
	if (r.t0 < b->last_t0)
		r.t0 = b->last_t0;
	b->last_t0 = r.t0;
	r.ext = (uint8_t)ext_units;
	b->units[b->n] = r;
	if (ext_bytes)
		memcpy(&b->units[b->n + 1], ext, ext_bytes);
	b->n += 1 + ext_units;
}

uint32_t tprof_sysimg_string_n(struct tprof_sysimg *im, const char *s, size_t len, uint64_t t)
{
	int added;
	if (!s)
		return 0;
	if (len > MAX_STRING)
		len = MAX_STRING;
	uint32_t id = tprof_strtab_id(&im->strings, s, len, &added);
	if (added) {
		struct tprof_rec r = { .kind = TPROF_K_STRING, .name = id, .t0 = t, .arg = len };
		tprof_sysimg_write(im, 0, r, s, len);
	}
	return id;
}

uint32_t tprof_sysimg_string(struct tprof_sysimg *im, const char *s, uint64_t t)
{
	return s ? tprof_sysimg_string_n(im, s, strlen(s), t) : 0;
}

void tprof_sysimg_prop_str(struct tprof_sysimg *im, const char *key, const char *value)
{
	uint64_t t = tprof_sysimg_now();
	uint32_t k = tprof_sysimg_string(im, key, t), v = tprof_sysimg_string(im, value, t);
	tprof_sysimg_write(im, 0, (struct tprof_rec){ .kind = TPROF_K_PROP, .name = k, .t0 = t,
						     .arg = v }, NULL, 0);
}

void tprof_sysimg_prop_int(struct tprof_sysimg *im, const char *key, int64_t value)
{
	uint64_t t = tprof_sysimg_now();
	uint32_t k = tprof_sysimg_string(im, key, t);
	tprof_sysimg_write(im, 0, (struct tprof_rec){ .kind = TPROF_K_PROP, .flags = TPROF_PROP_INT,
						     .name = k, .t0 = t, .arg = (uint64_t)value },
			   NULL, 0);
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
	int fd = buf ? open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		ssize_t r;
		while (n < 65535 && (r = read(fd, buf + n, (size_t)(65535 - n))) > 0)
			n += r;
		close(fd);
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

static uint64_t new_instance(void)
{
	uint64_t x = 0;
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) != sizeof(x))
		x = real_ns() ^ ((uint64_t)getpid() << 32) ^ tprof_sysimg_now();
	return x ? x : 1;
}

static int create_file(struct tprof_sysimg *im, const char *dir, char *why, size_t whylen)
{
	char host[256], *path = NULL;
	struct tprof_file_header h;
	uint64_t instance = new_instance();

	host_name(host, sizeof(host));
	for (char *c = host; *c; c++)
		if (*c == '/')
			*c = '_';
	if (asprintf(&im->base, "%s/%s.%d.%08x", dir, host, (int)getpid(),
		     (unsigned)(instance & 0xffffffffu)) < 0 ||
	    asprintf(&path, "%s%s", im->base, TPROF_TRACE_SUFFIX) < 0) {
		im->base = NULL;
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	im->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	tprof_file_header_init(&h, instance, (uint32_t)getpid(), real_ns());
	if (im->fd < 0 || write(im->fd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		snprintf(why, whylen, "cannot create %s: %s", path,
			 errno ? strerror(errno) : "short write");
		if (im->fd >= 0)
			unlink(path);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

struct tprof_sysimg *tprof_sysimg_open(const char *dir, const char *prog, char *why,
				       size_t whylen)
{
	struct tprof_sysimg *im = calloc(1, sizeof(*im));
	if (!im) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	im->fd = -1;
	im->prog = prog;
	im->raw_cap = tprof_codec_bound(BUF_UNITS);
	if (deflateInit2(&im->zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(im);
		snprintf(why, whylen, "cannot set up compression");
		return NULL;
	}
	im->comp_cap = deflateBound(&im->zs, (uLong)im->raw_cap);
	im->raw = malloc(im->raw_cap);
	im->comp = malloc(im->comp_cap);
	if (!im->raw || !im->comp) {
		snprintf(why, whylen, "out of memory");
		im->failed = 1;
		tprof_sysimg_close(im, 0);
		return NULL;
	}
	errno = 0;
	if (create_file(im, dir, why, whylen) < 0) {
		im->failed = 1;
		tprof_sysimg_close(im, 0);
		return NULL;
	}
	im->start_ns = im->last_flush = tprof_sysimg_now();
	opening(im);
	clock_sample(im, TPROF_CLOCK_PERIODIC);
	return im;
}

void tprof_sysimg_close(struct tprof_sysimg *im, uint64_t lost)
{
	if (!im)
		return;
	if (!im->failed) {
		uint64_t now = tprof_sysimg_now();
		if (lost)
			tprof_sysimg_write(im, 0, (struct tprof_rec){ .kind = TPROF_K_DROP,
				.flags = TPROF_DROP_SAMPLES, .t0 = now, .t1 = lost }, NULL, 0);
		clock_sample(im, TPROF_CLOCK_FINAL);
		tprof_sysimg_write(im, 0, (struct tprof_rec){ .kind = TPROF_K_END,
			.flags = TPROF_END_EXIT, .t0 = tprof_sysimg_now() }, NULL, 0);
		tprof_sysimg_flush(im);
	}
	if (im->fd >= 0)
		close(im->fd);
	for (uint32_t s = 0; s < im->nstreams; s++)
		free(im->streams[s].units);
	free(im->streams);
	tprof_strtab_free(&im->strings);
	deflateEnd(&im->zs);
	free(im->raw);
	free(im->comp);
	free(im->base);
	free(im);
}

void tprof_sysimg_abandon(struct tprof_sysimg *im)
{
	if (im->fd >= 0)
		close(im->fd);
	im->fd = -1;
	im->failed = 1;
}

const char *tprof_sysimg_base(const struct tprof_sysimg *im)
{
	return im->base;
}

int tprof_sysimg_ok(const struct tprof_sysimg *im)
{
	return !im->failed;
}

uint64_t tprof_sysimg_records(const struct tprof_sysimg *im)
{
	return im->records;
}

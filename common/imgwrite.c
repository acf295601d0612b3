/* imgwrite.c — a process image written outside the recorder (imgwrite.h): its chunk file
 * (created with O_EXCL, a random instance), a buffer per stream that becomes a chunk (codec +
 * raw deflate + chunk header, as the recorder's preload/spool/chunks.c), and its strings.  A
 * write error stops the image with one warning; the caller goes on. */
#include "imgwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "chunk.h"
#include "codec.h"
#include "events.h"
#include "strtab.h"
#include "writev-all.h"

#define BUF_UNITS 8192u                 /* 256 KiB of records per stream buffer */
#define MAX_STRING (TPROF_MAX_EXT * TPROF_UNIT)

struct sbuf {
	struct tprof_rec *units;        /* BUF_UNITS */
	uint32_t n, flushed, seq;
	uint64_t last_t0;
};

struct tprof_imgw {
	int fd;
	int failed;
	char *base;
	const char *prog, *what;
	struct sbuf *streams;
	uint32_t nstreams;
	struct tprof_strtab strings;
	z_stream zs;
	uint8_t *raw, *comp;
	size_t raw_cap, comp_cap;
	uint64_t records;
};

static struct sbuf *stream_buf(struct tprof_imgw *w, uint32_t stream)
{
	if (stream >= w->nstreams) {
		uint32_t n = stream + 8;
		struct sbuf *ns = realloc(w->streams, n * sizeof(*ns));
		if (!ns)
			return NULL;
		memset(ns + w->nstreams, 0, (n - w->nstreams) * sizeof(*ns));
		w->streams = ns;
		w->nstreams = n;
	}
	struct sbuf *b = &w->streams[stream];
	if (!b->units && !(b->units = calloc(BUF_UNITS, TPROF_UNIT)))
		return NULL;
	return b;
}


static void stop_writing(struct tprof_imgw *w, const char *what)
{
	if (w->failed)
		return;
	w->failed = 1;
	fprintf(stderr, "%s: cannot write %s%s: %s; %s stops here\n", w->prog, w->base,
		TPROF_TRACE_SUFFIX, what, w->what);
}

/* The records of stream s not yet in the file, as one chunk. */
static void write_piece(struct tprof_imgw *w, uint32_t s)
{
	struct sbuf *b = &w->streams[s];
	struct tprof_enc_info info;
	struct tprof_chunk_header ch;

	if (w->failed || b->flushed >= b->n)
		return;
	size_t raw_len = tprof_encode(b->units + b->flushed, b->n - b->flushed, w->raw, &info);
	if (info.units == 0)
		return;
	w->zs.next_in = w->raw;
	w->zs.avail_in = (uInt)raw_len;
	w->zs.next_out = w->comp;
	w->zs.avail_out = (uInt)w->comp_cap;
	if (deflateReset(&w->zs) != Z_OK || deflate(&w->zs, Z_FINISH) != Z_STREAM_END) {
		stop_writing(w, "compression failed");
		return;
	}
	uint32_t comp_len = (uint32_t)(w->comp_cap - w->zs.avail_out);
	tprof_chunk_header_init(&ch, s, b->seq, b->flushed, &info, (uint32_t)raw_len, w->comp,
				comp_len);
	struct iovec iov[2] = { { &ch, sizeof(ch) }, { w->comp, comp_len } };
	if (tprof_writev_all(w->fd, iov, 2) < 0) {
		stop_writing(w, strerror(errno));
		return;
	}
	b->flushed += info.units;
	if (s != 0)
		w->records += info.records;
}

void tprof_imgw_flush(struct tprof_imgw *w)
{
	for (uint32_t s = 0; s < w->nstreams; s++)
		write_piece(w, s);
}

void tprof_imgw_write(struct tprof_imgw *w, uint32_t stream, struct tprof_rec r,
			const void *ext, size_t ext_bytes)
{
	uint32_t ext_units = (uint32_t)((ext_bytes + TPROF_UNIT - 1) / TPROF_UNIT);
	struct sbuf *b;
	if (w->failed || ext_units > TPROF_MAX_EXT || !(b = stream_buf(w, stream)))
		return;
	if (b->n + 1 + ext_units > BUF_UNITS) {
		write_piece(w, stream);
		if (w->failed)
			return;
		b->n = b->flushed = 0;
		b->seq++;
	}
	if (r.t0 < b->last_t0)
		r.t0 = b->last_t0;
	b->last_t0 = r.t0;
	r.ext = (uint8_t)ext_units;
	b->units[b->n] = r;
	if (ext_bytes) {
		uint8_t *e = (uint8_t *)&b->units[b->n + 1];
		memcpy(e, ext, ext_bytes);   /* the last unit's padding zeroed: buffers are reused */
		memset(e + ext_bytes, 0, (size_t)ext_units * TPROF_UNIT - ext_bytes);
	}
	b->n += 1 + ext_units;
}

uint32_t tprof_imgw_string_n(struct tprof_imgw *w, const char *s, size_t len, uint64_t t)
{
	int added;
	if (!s)
		return 0;
	if (len > MAX_STRING)
		len = MAX_STRING;
	uint32_t id = tprof_strtab_id(&w->strings, s, len, &added);
	if (added) {
		struct tprof_rec r = { .kind = TPROF_K_STRING, .name = id, .t0 = t, .arg = len };
		tprof_imgw_write(w, 0, r, s, len);
	}
	return id;
}

uint32_t tprof_imgw_string(struct tprof_imgw *w, const char *s, uint64_t t)
{
	return s ? tprof_imgw_string_n(w, s, strlen(s), t) : 0;
}

void tprof_imgw_prop_str(struct tprof_imgw *w, const char *key, const char *value, uint64_t t)
{
	uint32_t k = tprof_imgw_string(w, key, t), v = tprof_imgw_string(w, value, t);
	tprof_imgw_write(w, 0, (struct tprof_rec){ .kind = TPROF_K_PROP, .name = k, .t0 = t,
						     .arg = v }, NULL, 0);
}

void tprof_imgw_prop_int(struct tprof_imgw *w, const char *key, int64_t value, uint64_t t)
{
	uint32_t k = tprof_imgw_string(w, key, t);
	tprof_imgw_write(w, 0, (struct tprof_rec){ .kind = TPROF_K_PROP, .flags = TPROF_PROP_INT,
						     .name = k, .t0 = t, .arg = (uint64_t)value },
			   NULL, 0);
}


static uint64_t new_instance(const struct tprof_imgw_opts *o)
{
	uint64_t x = 0;
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) != sizeof(x)) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = o->real_ns ^ ((uint64_t)o->pid << 32) ^ (uint64_t)ts.tv_nsec;
	}
	return x ? x : 1;
}

static int create_file(struct tprof_imgw *w, const struct tprof_imgw_opts *o, char *why,
		       size_t whylen)
{
	char *host = strdup(o->host && *o->host ? o->host : "host"), *path = NULL;
	struct tprof_file_header h;
	uint64_t instance = new_instance(o);

	if (!host) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (char *c = host; *c; c++)
		if (*c == '/')
			*c = '_';
	int rc = asprintf(&w->base, "%s/%s.%u.%08x", o->dir, host, (unsigned)o->pid,
			  (unsigned)(instance & 0xffffffffu));
	free(host);
	if (rc < 0)
		w->base = NULL;
	if (rc < 0 || asprintf(&path, "%s%s", w->base, TPROF_TRACE_SUFFIX) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	errno = 0;
	w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	tprof_file_header_init(&h, instance, o->pid, o->real_ns);
	if (w->fd < 0 || write(w->fd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		snprintf(why, whylen, "cannot create %s: %s", path,
			 errno ? strerror(errno) : "short write");
		if (w->fd >= 0)
			unlink(path);
		free(path);
		return -1;
	}
	free(path);
	return 0;
}

struct tprof_imgw *tprof_imgw_open(const struct tprof_imgw_opts *o, char *why, size_t whylen)
{
	struct tprof_imgw *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	w->fd = -1;
	w->prog = o->prog ? o->prog : "tprof";
	w->what = o->what ? o->what : "the image";
	w->raw_cap = tprof_codec_bound(BUF_UNITS);
	int level = o->stored ? 0 : o->level ? o->level : 1;
	if (deflateInit2(&w->zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(w);
		snprintf(why, whylen, "cannot set up compression");
		return NULL;
	}
	w->comp_cap = deflateBound(&w->zs, (uLong)w->raw_cap);
	w->raw = malloc(w->raw_cap);
	w->comp = malloc(w->comp_cap);
	if (!w->raw || !w->comp) {
		snprintf(why, whylen, "out of memory");
		w->failed = 1;
		tprof_imgw_close(w);
		return NULL;
	}
	if (create_file(w, o, why, whylen) < 0) {
		w->failed = 1;
		tprof_imgw_close(w);
		return NULL;
	}
	return w;
}

void tprof_imgw_close(struct tprof_imgw *w)
{
	if (!w)
		return;
	if (!w->failed)
		tprof_imgw_flush(w);
	if (w->fd >= 0)
		close(w->fd);
	for (uint32_t s = 0; s < w->nstreams; s++)
		free(w->streams[s].units);
	free(w->streams);
	tprof_strtab_free(&w->strings);
	deflateEnd(&w->zs);
	free(w->raw);
	free(w->comp);
	free(w->base);
	free(w);
}

void tprof_imgw_abandon(struct tprof_imgw *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	w->failed = 1;
}

const char *tprof_imgw_base(const struct tprof_imgw *w)
{
	return w->base;
}

int tprof_imgw_ok(const struct tprof_imgw *w)
{
	return !w->failed;
}

uint64_t tprof_imgw_records(const struct tprof_imgw *w)
{
	return w->records;
}

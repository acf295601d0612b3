/* imgwrite.c — a process image written outside the recorder (imgwrite.h): its chunk file
 * (created with O_EXCL, a random instance), a buffer per stream that becomes a chunk (codec +
 * raw deflate + chunk header, as the recorder's preload/spool/chunks.c; with opts.raw, the
 * codec's bytes as they are), and its strings.  A stream's buffer starts small and doubles up
 * to BUF_UNITS as records come, so that an image of many streams with few records each costs
 * what they hold; a stream the caller is done with gives its buffer back.  A write error stops
 * the image with one warning; the caller goes on.  With opts.thread, the chunks are made and
 * written by a thread of the image's own, started when a first buffer fills: a full buffer is
 * handed over and the stream goes on in a fresh one. */
#include "imgwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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
#include "outdir.h"
#include "ownfd.h"
#include "strtab.h"
#include "writev-all.h"

#define BUF_UNITS 8192u                 /* 256 KiB of records at most per stream buffer */
#define FIRST_UNITS 8u                  /* a stream's first buffer */
#define MAX_STRING (TPROF_MAX_EXT * TPROF_UNIT)

struct sbuf {
	struct tprof_rec *units;        /* cap of them, or NULL */
	uint32_t n, flushed, seq, cap;
	uint64_t last_t0;
};

/* A piece of a stream buffer for the writing thread: units [first, first + count) of buffer
 * seq; owned: the buffer (of cap units) is the thread's to free, or keep, once written. */
struct job {
	struct tprof_rec *units;
	uint32_t stream, seq, first, count, cap;
	int owned;
};

#define NJOBS 32

struct writer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct job jobs[NJOBS];
	size_t head, n;
	int stop;
	struct tprof_rec **spare;       /* written buffers, for streams that need a fresh one */
	size_t nspare, capspare;
};

struct tprof_imgw {
	struct tprof_held file;         /* written under io_lock */
	pthread_mutex_t io_lock;
	int failed;                     /* read and set atomically with a writing thread */
	int want_thread;                /* opts.thread */
	struct writer *wr;              /* the writing thread once started, else NULL */
	char *base;
	const char *prog, *what;
	struct sbuf *streams;
	uint32_t nstreams;
	struct tprof_strtab strings;
	z_stream zs;
	uint8_t *raw, *comp;
	size_t raw_cap, comp_cap;
	int raw_chunks;                 /* opts.raw */
	int deflating;                  /* zs set up (not opts.raw) */
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
	return &w->streams[stream];
}

/* Room in b for need more units (need <= BUF_UNITS), its buffer grown (doubled) while it is
 * smaller than BUF_UNITS; 0 when it is full at BUF_UNITS, -1 out of memory. */
static int room(struct sbuf *b, uint32_t need)
{
	if (b->n + need <= b->cap)
		return 1;
	if (b->cap >= BUF_UNITS)
		return 0;
	uint32_t cap = b->cap ? b->cap : FIRST_UNITS;
	while (cap < b->n + need && cap < BUF_UNITS)
		cap *= 2;
	if (cap > BUF_UNITS)
		cap = BUF_UNITS;
	struct tprof_rec *u = realloc(b->units, (size_t)cap * TPROF_UNIT);
	if (!u)
		return -1;
	b->units = u;
	b->cap = cap;
	return b->n + need <= cap;
}


static int failed(const struct tprof_imgw *w)
{
	return __atomic_load_n(&w->failed, __ATOMIC_RELAXED);
}

static void stop_writing(struct tprof_imgw *w, const char *what)
{
	if (__atomic_exchange_n(&w->failed, 1, __ATOMIC_RELAXED))
		return;
	tprof_fd_say("%s: cannot write %s%s: %s; %s stops here\n", w->prog, w->base,
		     TPROF_TRACE_SUFFIX, what, w->what);
}

/* A chunk's header and payload to the file: 0, or -1 when the image stops.  Only into the
 * file: in a program that took its descriptor, it is reopened by path first. */
static int put_chunk(struct tprof_imgw *w, uint32_t s, const struct tprof_chunk_header *ch,
		     const void *payload, uint32_t records)
{
	struct iovec iov[2] = { { (void *)ch, sizeof(*ch) }, { (void *)payload, ch->comp_len } };
	char why[160];
	pthread_mutex_lock(&w->io_lock);
	int rc = tprof_held_check(&w->file);
	if (rc < 0)
		snprintf(why, sizeof(why), "its descriptor was taken and it cannot be reopened (%s)",
			 strerror(errno));
	else if ((rc = tprof_writev_all(w->file.fd, iov, 2)) < 0)
		snprintf(why, sizeof(why), "%s", strerror(errno));
	pthread_mutex_unlock(&w->io_lock);
	if (rc < 0) {
		stop_writing(w, why);
		return -1;
	}
	if (s != 0)
		__atomic_add_fetch(&w->records, records, __ATOMIC_RELAXED);
	return 0;
}

/* Units [first, first + count) of buffer seq of stream s as one chunk; 0, or -1 when the
 * image stops.  On the writing thread when there is one. */
static int write_chunk(struct tprof_imgw *w, uint32_t s, uint32_t seq, uint32_t first,
		       const struct tprof_rec *units, uint32_t count)
{
	struct tprof_enc_info info;
	struct tprof_chunk_header ch;

	if (failed(w))
		return -1;
	if (tprof_codec_bound(count) > w->raw_cap) {
		/* the codec's bytes for this many units, grown on demand: an image of few records
		 * never holds room for a full buffer's */
		size_t cap = tprof_codec_bound(count < BUF_UNITS / 4 ? BUF_UNITS / 4 : BUF_UNITS);
		free(w->raw);
		if (!(w->raw = malloc(cap))) {
			w->raw_cap = 0;
			stop_writing(w, "out of memory");
			return -1;
		}
		w->raw_cap = cap;
	}
	size_t raw_len = tprof_encode(units, count, w->raw, &info);
	if (info.units == 0)
		return 0;
	if (w->raw_chunks) {
		tprof_chunk_header_init(&ch, s, seq, first, &info, (uint32_t)raw_len, w->raw,
					(uint32_t)raw_len, TPROF_ENC_VARINT_RAW);
		return put_chunk(w, s, &ch, w->raw, info.records);
	}
	w->zs.next_in = w->raw;
	w->zs.avail_in = (uInt)raw_len;
	w->zs.next_out = w->comp;
	w->zs.avail_out = (uInt)w->comp_cap;
	if (deflateReset(&w->zs) != Z_OK || deflate(&w->zs, Z_FINISH) != Z_STREAM_END) {
		stop_writing(w, "compression failed");
		return -1;
	}
	uint32_t comp_len = (uint32_t)(w->comp_cap - w->zs.avail_out);
	tprof_chunk_header_init(&ch, s, seq, first, &info, (uint32_t)raw_len, w->comp, comp_len,
				TPROF_ENC_VARINT_DEFLATE);
	return put_chunk(w, s, &ch, w->comp, info.records);
}

/* ---- the writing thread ------------------------------------------------------------------- */

static void *writing(void *arg)
{
	struct tprof_imgw *w = arg;
	struct writer *wr = w->wr;
	pthread_mutex_lock(&wr->lock);
	for (;;) {
		while (!wr->n && !wr->stop)
			pthread_cond_wait(&wr->cond, &wr->lock);
		if (!wr->n)
			break;
		struct job j = wr->jobs[wr->head];
		pthread_mutex_unlock(&wr->lock);
		write_chunk(w, j.stream, j.seq, j.first, j.units + j.first, j.count);
		pthread_mutex_lock(&wr->lock);
		if (j.owned && j.cap == BUF_UNITS) {
			wr->spare = realloc(wr->spare, (wr->nspare + 1) * sizeof(*wr->spare));
			if (!wr->spare)
				abort();
			wr->spare[wr->nspare++] = j.units;
		} else if (j.owned) {
			free(j.units);  /* a stream given back before it filled: no spare */
		}
		wr->head = (wr->head + 1) % NJOBS;
		wr->n--;
		pthread_cond_broadcast(&wr->cond);
	}
	pthread_mutex_unlock(&wr->lock);
	return NULL;
}

static void hand_over(struct tprof_imgw *w, struct job j)
{
	struct writer *wr = w->wr;
	pthread_mutex_lock(&wr->lock);
	while (wr->n == NJOBS)
		pthread_cond_wait(&wr->cond, &wr->lock);
	wr->jobs[(wr->head + wr->n++) % NJOBS] = j;
	pthread_cond_broadcast(&wr->cond);
	pthread_mutex_unlock(&wr->lock);
}

/* A buffer for a stream that handed its own over: a written one, or a new one. */
static struct tprof_rec *fresh_units(struct tprof_imgw *w)
{
	struct writer *wr = w->wr;
	struct tprof_rec *u = NULL;
	pthread_mutex_lock(&wr->lock);
	if (wr->nspare)
		u = wr->spare[--wr->nspare];
	pthread_mutex_unlock(&wr->lock);
	return u ? u : malloc((size_t)BUF_UNITS * TPROF_UNIT);
}

/* Waits until every piece handed over is written. */
static void drain(struct tprof_imgw *w)
{
	struct writer *wr = w->wr;
	pthread_mutex_lock(&wr->lock);
	while (wr->n)
		pthread_cond_wait(&wr->cond, &wr->lock);
	pthread_mutex_unlock(&wr->lock);
}

static int start_writer(struct tprof_imgw *w)
{
	struct writer *wr = calloc(1, sizeof(*wr));
	if (!wr)
		return -1;
	pthread_mutex_init(&wr->lock, NULL);
	pthread_cond_init(&wr->cond, NULL);
	w->wr = wr;
	if (pthread_create(&wr->thread, NULL, writing, w) != 0) {
		pthread_mutex_destroy(&wr->lock);
		pthread_cond_destroy(&wr->cond);
		free(wr);
		w->wr = NULL;   /* written on the caller's thread */
	}
	return 0;
}

static void stop_writer(struct tprof_imgw *w)
{
	struct writer *wr = w->wr;
	if (!wr)
		return;
	pthread_mutex_lock(&wr->lock);
	wr->stop = 1;
	pthread_cond_broadcast(&wr->cond);
	pthread_mutex_unlock(&wr->lock);
	pthread_join(wr->thread, NULL);
	for (size_t i = 0; i < wr->nspare; i++)
		free(wr->spare[i]);
	free(wr->spare);
	pthread_mutex_destroy(&wr->lock);
	pthread_cond_destroy(&wr->cond);
	free(wr);
	w->wr = NULL;
}

/* ---- the caller's side -------------------------------------------------------------------- */

/* The records of stream s not yet in the file, as one chunk (by the writing thread when there
 * is one, started at the first full buffer); with full, the buffer goes with them and the
 * stream starts a fresh one (of BUF_UNITS); with release, it goes and the stream has none. */
static void write_piece(struct tprof_imgw *w, uint32_t s, int full, int release)
{
	struct sbuf *b = &w->streams[s];
	if (failed(w))
		return;
	if (!w->wr && full && w->want_thread)
		start_writer(w);
	if (!w->wr) {
		if (b->flushed < b->n &&
		    write_chunk(w, s, b->seq, b->flushed, b->units + b->flushed,
				b->n - b->flushed) < 0)
			return;
		b->flushed = b->n;
		if (release) {
			free(b->units);
			b->units = NULL;
			b->cap = 0;
		}
		return;
	}
	int owned = full || release;
	if (b->flushed < b->n || owned)
		hand_over(w, (struct job){ b->units, s, b->seq, b->flushed, b->n - b->flushed,
					   b->cap, owned });
	b->flushed = b->n;
	if (release) {
		b->units = NULL;
		b->cap = 0;
	} else if (full) {
		b->cap = BUF_UNITS;
		if (!(b->units = fresh_units(w))) {
			b->cap = 0;
			stop_writing(w, "out of memory");
		}
	}
}

void tprof_imgw_flush(struct tprof_imgw *w)
{
	for (uint32_t s = 0; s < w->nstreams; s++)
		if (w->streams[s].units)
			write_piece(w, s, 0, 0);
	if (w->wr)
		drain(w);
}

void tprof_imgw_release(struct tprof_imgw *w, uint32_t stream)
{
	if (stream >= w->nstreams || !w->streams[stream].units)
		return;
	struct sbuf *b = &w->streams[stream];
	write_piece(w, stream, 0, 1);
	if (b->units) {                 /* not written (a write error): dropped all the same */
		free(b->units);
		b->units = NULL;
		b->cap = 0;
	}
	b->n = b->flushed = 0;
	b->seq++;
}

void tprof_imgw_write(struct tprof_imgw *w, uint32_t stream, const struct tprof_rec *r,
			const void *ext, size_t ext_bytes)
{
	uint32_t ext_units = (uint32_t)((ext_bytes + TPROF_UNIT - 1) / TPROF_UNIT);
	struct sbuf *b;
	int fits;
	if (failed(w) || ext_units > TPROF_MAX_EXT || !(b = stream_buf(w, stream)))
		return;
	if ((fits = room(b, 1 + ext_units)) == 0) {
		write_piece(w, stream, 1, 0);
		if (failed(w))
			return;
		b->n = b->flushed = 0;
		b->seq++;
		fits = room(b, 1 + ext_units);
	}
	if (fits < 0) {
		stop_writing(w, "out of memory");
		return;
	}
	/* field by field: r was just written by the caller, and a copy in wider pieces than its
	 * stores waits for them to reach the cache */
	struct tprof_rec *u = &b->units[b->n];
	uint64_t t0 = r->t0 < b->last_t0 ? b->last_t0 : r->t0;
	b->last_t0 = t0;
	u->kind = r->kind;
	u->ext = (uint8_t)ext_units;
	u->flags = r->flags;
	u->name = r->name;
	u->t0 = t0;
	u->t1 = r->t1;
	u->arg = r->arg;
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
		tprof_imgw_write(w, 0, &r, s, len);
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
	tprof_imgw_write(w, 0, &(struct tprof_rec){ .kind = TPROF_K_PROP, .name = k, .t0 = t,
						     .arg = v }, NULL, 0);
}

void tprof_imgw_prop_int(struct tprof_imgw *w, const char *key, int64_t value, uint64_t t)
{
	uint32_t k = tprof_imgw_string(w, key, t);
	tprof_imgw_write(w, 0, &(struct tprof_rec){ .kind = TPROF_K_PROP, .flags = TPROF_PROP_INT,
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
	rc = tprof_held_create(&w->file, path, O_WRONLY | O_APPEND, tprof_file_mode(), &w->io_lock);
	tprof_file_header_init(&h, instance, o->pid, o->real_ns);
	if (rc < 0 || write(w->file.fd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		snprintf(why, whylen, "cannot create %s: %s", path,
			 errno ? strerror(errno) : "short write");
		if (rc == 0) {
			tprof_held_close(&w->file);
			unlink(path);
		}
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
	w->file.fd = -1;
	pthread_mutex_init(&w->io_lock, NULL);
	w->prog = o->prog ? o->prog : "tprof";
	w->what = o->what ? o->what : "the image";
	int level = o->level ? o->level : 1;
	w->raw_chunks = o->raw;
	w->want_thread = o->thread;
	/* the codec's buffer comes with the first chunk; compression only where it is used */
	if (!w->raw_chunks) {
		if (deflateInit2(&w->zs, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(w);
			snprintf(why, whylen, "cannot set up compression");
			return NULL;
		}
		w->deflating = 1;
		w->comp_cap = deflateBound(&w->zs, (uLong)tprof_codec_bound(BUF_UNITS));
		if (!(w->comp = malloc(w->comp_cap))) {
			snprintf(why, whylen, "out of memory");
			w->failed = 1;
			tprof_imgw_close(w);
			return NULL;
		}
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
	if (!failed(w))
		tprof_imgw_flush(w);
	stop_writer(w);
	tprof_held_close(&w->file);
	pthread_mutex_destroy(&w->io_lock);
	for (uint32_t s = 0; s < w->nstreams; s++)
		free(w->streams[s].units);
	free(w->streams);
	tprof_strtab_free(&w->strings);
	if (w->deflating)
		deflateEnd(&w->zs);
	free(w->raw);
	free(w->comp);
	free(w->base);
	free(w);
}

/* In a fork child, whose only thread this is: the io lock may be held by a writing thread of
 * the parent that does not exist here. */
void tprof_imgw_abandon(struct tprof_imgw *w)
{
	pthread_mutex_init(&w->io_lock, NULL);
	tprof_held_close(&w->file);
	w->failed = 1;
}

const char *tprof_imgw_base(const struct tprof_imgw *w)
{
	return w->base;
}

int tprof_imgw_ok(const struct tprof_imgw *w)
{
	return !failed(w);
}

uint64_t tprof_imgw_records(const struct tprof_imgw *w)
{
	return __atomic_load_n(&w->records, __ATOMIC_RELAXED);
}

/* imgwrite.c — a process image written outside the recorder (imgwrite.h): its chunk file
 * (created with O_EXCL, a random instance; or a part of the caller's, opts.into), a buffer per
 * stream that becomes a chunk (codec + raw deflate + chunk header, as the recorder's
 * preload/spool/chunks.c; with opts.raw, the codec's bytes as they are), and its strings.  A
 * stream's buffer starts small and doubles up to BUF_UNITS as records come, so that an image
 * of many streams with few records each costs what they hold; a stream the caller is done with
 * gives its buffer back.  A write error stops the image with one warning; the caller goes on.
 * With opts.thread, the chunks are made and written by a thread of the image's own, started
 * when a first buffer fills: a full buffer is handed over and the stream goes on in a fresh
 * one.  With opts.spool_kb, each stream's buffer is instead a slot of a spool beside the file
 * (docs/FORMAT.md §7), mapped shared: what the image wrote and the file does not hold yet
 * outlives the process, whatever ends it, and a reader finds it there as it finds the
 * recorder's; the spool is removed once the image is closed whole. */
#include "deflate.h"
#include "imgwrite.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "chunk.h"
#include "codec.h"
#include "events.h"
#include "hash.h"
#include "outdir.h"
#include "ownfd.h"
#include "record.h"
#include "spool-reserve.h"
#include "strtab.h"
#include "writev-all.h"

#define BUF_UNITS 8192u                 /* 256 KiB of records at most per stream buffer */
#define FIRST_UNITS 8u                  /* a stream's first buffer */
#define MAX_STRING (TPROF_MAX_EXT * TPROF_UNIT)

struct sbuf {
	struct tprof_rec *units;        /* cap of them, or NULL */
	struct tprof_slot_header *slot; /* the spool's slot the units are in, or NULL (malloc) */
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
	size_t nspare;
};

struct tprof_imgw {
	struct tprof_held file;         /* written under io_lock */
	int borrowed;                   /* file is opts.into: never closed here */
	pthread_mutex_t io_lock;
	int failed;                     /* read and set atomically with a writing thread */
	int want_thread;                /* opts.thread */
	struct writer *wr;              /* the writing thread once started, else NULL */
	char *base;
	const char *prog, *what;
	struct sbuf *streams;
	uint32_t nstreams;
	struct tprof_strtab strings;
	struct libdeflate_compressor *zc;       /* not opts.raw */
	uint8_t *raw, *comp;
	size_t raw_cap, comp_cap;
	int raw_chunks;                 /* opts.raw */
	struct tprof_held spool;        /* opts.spool_kb: the spool (fd -1: none, or given up) */
	uint64_t spool_bytes;           /* its size: the header page and the slots taken */
	uint32_t slot_bytes;
	uint64_t instance;
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

/* A spool slot for stream s, its header written and its units zero: 1 when b has it, 0 when
 * the stream goes on in memory (no spool, or the disk or the mapping refused: the records are
 * then safe only once written, as in an image without a spool). */
static int take_slot(struct tprof_imgw *w, uint32_t stream, struct sbuf *b)
{
	if (w->spool.fd < 0)
		return 0;
	void *m = MAP_FAILED;
	pthread_mutex_lock(&w->io_lock);
	if (tprof_held_check(&w->spool) == 0 &&
	    tprof_spool_reserve(w->spool.fd, w->spool_bytes, w->slot_bytes) == 0)
		m = mmap(NULL, w->slot_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, w->spool.fd,
			 (off_t)w->spool_bytes);
	if (m != MAP_FAILED)
		w->spool_bytes += w->slot_bytes;
	pthread_mutex_unlock(&w->io_lock);
	if (m == MAP_FAILED)
		return 0;
	b->slot = m;
	b->slot->magic = TPROF_SLOT_MAGIC;
	b->slot->capacity = (w->slot_bytes - TPROF_SLOT_HEADER_SIZE) / TPROF_UNIT;
	b->slot->stream = stream;
	b->slot->seq = b->seq;
	b->slot->flushed = 0;
	__atomic_store_n(&b->slot->state, TPROF_SLOT_ACTIVE, __ATOMIC_RELEASE);
	b->units = (struct tprof_rec *)(b->slot + 1);
	b->cap = b->slot->capacity;
	return 1;
}

/* A stream's buffer starts over as the next one of the stream (seq + 1), its records written
 * or given up: a slot's used units are zeroed before its header names the next buffer, so
 * that a reader never takes old records for the new buffer's (until then, the chunks of the
 * old one cover whatever of it a reader finds). */
static void next_buffer(struct sbuf *b)
{
	if (b->slot) {
		memset(b->units, 0, (size_t)b->n * TPROF_UNIT);
		__atomic_store_n(&b->slot->flushed, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&b->slot->seq, b->seq + 1, __ATOMIC_RELEASE);
	}
	b->n = b->flushed = 0;
	b->seq++;
}

/* Room in b for need more units (need <= BUF_UNITS), its buffer grown (doubled) while it is
 * smaller than BUF_UNITS; 0 when it is full at BUF_UNITS, -1 out of memory. */
static int room(struct tprof_imgw *w, uint32_t stream, struct sbuf *b, uint32_t need)
{
	if (b->n + need <= b->cap)
		return 1;
	if (b->slot || b->cap >= BUF_UNITS)
		return 0;
	if (!b->units && take_slot(w, stream, b))
		return b->n + need <= b->cap;
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
					(uint32_t)raw_len, TPROF_ENC_PACKED_RAW);
		return put_chunk(w, s, &ch, w->raw, info.records);
	}
	uint32_t comp_len = (uint32_t)tprof_deflate(w->zc, w->raw, raw_len, w->comp, w->comp_cap);
	if (comp_len == 0) {
		stop_writing(w, "compression failed");
		return -1;
	}
	tprof_chunk_header_init(&ch, s, seq, first, &info, (uint32_t)raw_len, w->comp, comp_len,
				TPROF_ENC_PACKED_DEFLATE);
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
		struct tprof_rec **sp = j.owned && j.cap == BUF_UNITS
			? realloc(wr->spare, (wr->nspare + 1) * sizeof(*wr->spare)) : NULL;
		if (sp) {
			wr->spare = sp;
			wr->spare[wr->nspare++] = j.units;
		} else if (j.owned) {
			/* a stream given back before it filled, or no room to keep it: no spare */
			free(j.units);
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
		if (b->slot)
			__atomic_store_n(&b->slot->flushed, b->n, __ATOMIC_RELEASE);
		else if (release) {
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
	if (b->units && !b->slot) {     /* not written (a write error): dropped all the same */
		free(b->units);
		b->units = NULL;
		b->cap = 0;
	}
	next_buffer(b);   /* a slot stays the stream's */
}

void tprof_imgw_write(struct tprof_imgw *w, uint32_t stream, const struct tprof_rec *r,
			const void *ext, size_t ext_bytes)
{
	uint32_t ext_units = (uint32_t)((ext_bytes + TPROF_UNIT - 1) / TPROF_UNIT);
	struct sbuf *b;
	int fits;
	if (failed(w) || ext_units > TPROF_MAX_EXT || !(b = stream_buf(w, stream)))
		return;
	if ((fits = room(w, stream, b, 1 + ext_units)) == 0) {
		write_piece(w, stream, 1, 0);
		if (failed(w))
			return;
		next_buffer(b);
		fits = room(w, stream, b, 1 + ext_units);
	}
	if (fits < 0) {
		stop_writing(w, "out of memory");
		return;
	}
	/* field by field: r was just written by the caller, and a copy in wider pieces than its
	 * stores waits for them to reach the cache; the header word last (record.h), for a
	 * reader of the spool */
	struct tprof_rec *u = &b->units[b->n];
	uint64_t t0 = r->t0 < b->last_t0 ? b->last_t0 : r->t0;
	b->last_t0 = t0;
	if (ext_bytes) {
		uint8_t *e = (uint8_t *)&b->units[b->n + 1];
		/* the last unit's padding zeroed (buffers are reused): the whole unit first, a
		 * fixed size the compiler stores inline, then the bytes over it */
		memset(e + (size_t)(ext_units - 1) * TPROF_UNIT, 0, TPROF_UNIT);
		memcpy(e, ext, ext_bytes);
	}
	u->t0 = t0;
	u->t1 = r->t1;
	u->arg = r->arg;
	tprof_publish(u, r->kind, (uint8_t)ext_units, r->flags, r->name);
	b->n += 1 + ext_units;
}

uint32_t tprof_imgw_string_n(struct tprof_imgw *w, const char *s, size_t len, uint64_t t)
{
	int added;
	if (!s)
		return 0;
	if (len > MAX_STRING)
		len = MAX_STRING;
	uint32_t id = tprof_strtab_id(&w->strings, s, len, tprof_hash_table(s, len), &added, NULL);
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
	if (o->instance)
		return o->instance;
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) != sizeof(x)) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = o->real_ns ^ ((uint64_t)o->pid << 32) ^ (uint64_t)ts.tv_nsec;
	}
	return x ? x : 1;
}

/* <base>.spool with its header page (no loss table: the image counts its losses in DROP
 * records); without it, when it cannot be made, the streams' buffers are in memory. */
static void create_spool(struct tprof_imgw *w, const struct tprof_imgw_opts *o)
{
	char *path = NULL;
	static char page[TPROF_SPOOL_HEADER_SIZE];   /* zero but for the header */
	struct tprof_spool_header h;
	long pagesize = sysconf(_SC_PAGESIZE);
	uint32_t bytes = o->spool_kb * 1024u;

	if (pagesize <= 0 || bytes % (uint32_t)pagesize || bytes < 2 * TPROF_SLOT_HEADER_SIZE ||
	    asprintf(&path, "%s%s", w->base, TPROF_SPOOL_SUFFIX) < 0)
		return;
	if (tprof_held_create(&w->spool, path, O_RDWR, tprof_file_mode(), &w->io_lock) == 0) {
		tprof_spool_header_init(&h, w->instance, o->pid, bytes, o->real_ns);
		struct iovec iov[2] = { { &h, sizeof(h) }, { page, sizeof(page) - sizeof(h) } };
		if (tprof_writev_all(w->spool.fd, iov, 2) == 0) {
			w->spool_bytes = TPROF_SPOOL_HEADER_SIZE;
			w->slot_bytes = bytes;
		} else {
			tprof_held_close(&w->spool);
			unlink(path);
		}
	}
	free(path);
}

/* The image's header at the end of the caller's file (opts.into). */
static int start_in(struct tprof_imgw *w, const struct tprof_imgw_opts *o, char *why,
		    size_t whylen)
{
	struct tprof_file_header h;
	struct stat st;
	tprof_file_header_init(&h, w->instance = new_instance(o), o->pid, o->real_ns, o->flags);
	w->file.fd = *o->into;
	w->file.lock = &w->io_lock;
	w->borrowed = 1;
	errno = 0;
	if (fstat(w->file.fd, &st) < 0 || write(w->file.fd, &h, sizeof(h)) != (ssize_t)sizeof(h)) {
		snprintf(why, whylen, "cannot write: %s", errno ? strerror(errno) : "short write");
		return -1;
	}
	w->file.dev = st.st_dev;
	w->file.ino = st.st_ino;
	return 0;
}

static int create_file(struct tprof_imgw *w, const struct tprof_imgw_opts *o, char *why,
		       size_t whylen)
{
	if (o->into)
		return start_in(w, o, why, whylen);
	char *host = strdup(o->host && *o->host ? o->host : "host"), *path = NULL;
	struct tprof_file_header h;
	uint64_t instance = w->instance = new_instance(o);

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
	tprof_file_header_init(&h, instance, o->pid, o->real_ns, o->flags);
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
	w->file.fd = w->spool.fd = -1;
	pthread_mutex_init(&w->io_lock, NULL);
	w->prog = o->prog ? o->prog : "tprof";
	w->what = o->what ? o->what : "the image";
	int level = o->level ? o->level : 1;
	w->raw_chunks = o->raw;
	w->want_thread = o->thread;
	/* the codec's buffer comes with the first chunk; compression only where it is used */
	if (!w->raw_chunks) {
		if (!(w->zc = tprof_deflate_new(level))) {
			free(w);
			snprintf(why, whylen, "cannot set up compression");
			return NULL;
		}
		w->comp_cap = tprof_deflate_bound(w->zc, tprof_codec_bound(BUF_UNITS));
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
	if (o->spool_kb && !o->thread && !o->into)
		create_spool(w, o);
	return w;
}

/* The file let go: closed, unless it is the caller's (opts.into). */
static void close_file(struct tprof_imgw *w)
{
	if (w->borrowed)
		w->file.fd = -1;
	tprof_held_close(&w->file);
}

/* The streams' buffers let go: slots unmapped and, with and_memory, the others freed. */
static void let_go_buffers(struct tprof_imgw *w, int and_memory)
{
	for (uint32_t s = 0; s < w->nstreams; s++) {
		struct sbuf *b = &w->streams[s];
		if (b->slot)
			munmap(b->slot, w->slot_bytes);
		else if (and_memory)
			free(b->units);
		else
			continue;
		b->slot = NULL;
		b->units = NULL;
		b->cap = b->n = b->flushed = 0;
	}
}

void tprof_imgw_close(struct tprof_imgw *w)
{
	if (!w)
		return;
	if (!failed(w))
		tprof_imgw_flush(w);
	stop_writer(w);
	/* Everything the spool held is in the file now, unless writing stopped: then it keeps
	 * what the file lacks, for the reader. */
	if (w->spool.fd >= 0 && !failed(w) && w->spool.path)
		unlink(w->spool.path);
	tprof_held_close(&w->spool);
	close_file(w);
	pthread_mutex_destroy(&w->io_lock);
	let_go_buffers(w, 1);
	free(w->streams);
	tprof_strtab_free(&w->strings);
	tprof_deflate_free(w->zc);
	free(w->raw);
	free(w->comp);
	free(w->base);
	free(w);
}

/* In a fork child, whose only thread this is: the io lock may be held by a writing thread of
 * the parent that does not exist here.  The spool's slots are the parent's (shared): unmapped
 * here, never written; nothing is freed. */
void tprof_imgw_abandon(struct tprof_imgw *w, int close_files)
{
	pthread_mutex_init(&w->io_lock, NULL);
	if (close_files) {
		tprof_held_close(&w->spool);
		close_file(w);
	}
	let_go_buffers(w, 0);
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

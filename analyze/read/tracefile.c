/* tracefile.c — indexes a chunk file: walks the chunk headers, checks every header and
 * payload checksum, and files each good chunk as a piece of its stream.  A damaged chunk is
 * named in a warning and skipped; a damaged header makes the reader look for the next chunk
 * magic and carry on from there. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/chunk.h"
#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "../util/progress.h"
#include "trace.h"

#define BLOCK 65536

/* A new stream at the next index (0 is kept for stream 0). */
static struct stream *stream_at(struct proc *p, size_t i, uint32_t id)
{
	if (i >= p->nstreams) {
		size_t cap = p->capstreams;
		p->streams = util_grow_index(p->streams, &cap, i, sizeof(*p->streams), 2, 0);
		cap = p->capstreams;
		p->threads = util_grow_index(p->threads, &cap, i, sizeof(*p->threads), 2, 0);
		p->capstreams = cap;
		p->nstreams = i + 1;
	}
	if (!p->streams[i]) {
		struct stream *s = xcalloc(1, sizeof(*s));
		s->id = id;
		s->index = (uint32_t)i;
		s->proc = p;
		p->streams[i] = s;
	}
	return p->streams[i];
}

/* A process of a few streams finds them by looking through them; past this many, by the map
 * of their ids. */
#define FEW_STREAMS 8

/* The index of the stream of that id (not 0), or 0 for none. */
static size_t stream_index(struct proc *p, uint32_t id)
{
	if (p->has_stream_of) {
		const uint32_t *at = u64map_get(&p->stream_of, id);
		return at ? *at : 0;
	}
	for (size_t i = 1; i < p->nstreams; i++)
		if (p->streams[i] && p->streams[i]->id == id)
			return i;
	return 0;
}

/* Streams are numbered densely in the order met (stream 0 first): a stream id in a file
 * names a stream, it never sizes an array. */
struct stream *proc_stream(struct proc *p, uint32_t id)
{
	if (id == 0)
		return stream_at(p, 0, 0);
	size_t at = stream_index(p, id);
	if (at)
		return p->streams[at];
	size_t i = p->nstreams ? p->nstreams : 1;
	if (!p->has_stream_of && i >= FEW_STREAMS) {
		p->has_stream_of = 1;     /* from now on by the map: the ones so far into it */
		for (size_t k = 1; k < p->nstreams; k++)
			if (p->streams[k])
				u64map_put(&p->stream_of, p->streams[k]->id, (uint32_t)k);
	}
	if (p->has_stream_of)
		u64map_put(&p->stream_of, id, (uint32_t)i);
	return stream_at(p, i, id);
}

static int by_id(const void *a, const void *b)
{
	const struct stream *x = *(struct stream *const *)a, *y = *(struct stream *const *)b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Once the files are indexed: the streams in the order of their ids (the recorder's, from 1
 * up), so that the outputs list threads alike however their chunks were interleaved. */
void proc_streams_order(struct proc *p)
{
	if (p->nstreams < 3)
		return;
	qsort(p->streams + 1, p->nstreams - 1, sizeof(*p->streams), by_id);
	for (size_t i = 1; i < p->nstreams; i++) {
		p->streams[i]->index = (uint32_t)i;
		if (p->has_stream_of)
			u64map_put(&p->stream_of, p->streams[i]->id, (uint32_t)i);
	}
}

struct stream *proc_stream_find(struct proc *p, uint32_t id)
{
	if (id == 0)
		return p->nstreams ? p->streams[0] : NULL;
	size_t at = stream_index(p, id);
	return at ? p->streams[at] : NULL;
}

struct stream *proc_stream_new(struct proc *p)
{
	size_t i = p->nstreams ? p->nstreams : 1;
	return stream_at(p, i, UINT32_MAX);
}

static void add_piece(struct stream *s, const struct piece *pc)
{
	/* from one: most streams of an import have one piece */
	s->pieces = util_grow(s->pieces, &s->cap, s->npieces, sizeof(*s->pieces), 1);
	s->pieces[s->npieces++] = *pc;
}

/* Checks a payload of len bytes at off against crc, reading it in blocks. */
static int payload_ok(struct cfile *f, uint64_t off, uint32_t len, uint32_t crc, uint8_t *buf)
{
	uint32_t c = 0;
	while (len) {
		uint32_t n = len < BLOCK ? len : BLOCK;
		if (cfile_pread(f, buf, n, off) != (ssize_t)n)
			return 0;
		c = tprof_crc32_update(c, buf, n);
		off += n;
		len -= n;
	}
	return c == crc;
}

/* The next offset after `from` where a valid chunk header starts, or -1. */
static int64_t resync(struct cfile *f, uint64_t from, uint64_t size, uint8_t *buf)
{
	for (uint64_t base = from; base + TPROF_CHUNK_HEADER_SIZE <= size; base += BLOCK - 64) {
		ssize_t n = cfile_pread(f, buf, BLOCK, base);
		if (n < (ssize_t)TPROF_CHUNK_HEADER_SIZE)
			return -1;
		for (ssize_t i = 0; i + (ssize_t)TPROF_CHUNK_HEADER_SIZE <= n; i++) {
			if (memcmp(buf + i, TPROF_CHUNK_MAGIC, 4))
				continue;
			struct tprof_chunk_header h;
			memcpy(&h, buf + i, sizeof(h));
			if (!tprof_chunk_header_check(&h))
				return (int64_t)(base + (uint64_t)i);
		}
	}
	return -1;
}

static void note_damage(struct proc *p, uint64_t off, const struct tprof_chunk_header *h,
			int cut, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void note_damage(struct proc *p, uint64_t off, const struct tprof_chunk_header *h,
			int cut, const char *fmt, ...)
{
	p->damage = util_grow(p->damage, &p->capdamage, p->ndamage, sizeof(*p->damage), 8);
	struct damage *d = &p->damage[p->ndamage++];
	*d = (struct damage){ off, h->stream, h->seq, h->first, h->units, h->records, cut, "" };
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->why, sizeof(d->why), fmt, ap);
	va_end(ap);
}

/* Once the spool is read: a damaged chunk whose units the spool supplies lost nothing; a
 * running process's file ends in the chunk it is writing, whose records the spool has. */
void tracefile_report_damage(struct trace *tr, struct proc *p)
{
	for (size_t i = 0; i < p->ndamage; i++) {
		const struct damage *d = &p->damage[i];
		if (d->cut && p->writer == WRITER_LIVE) {
			diag_note("%s: offset %llu: %s: a chunk still being written, its records read "
				  "from the spool", p->trace_path, (unsigned long long)d->offset, d->why);
			continue;
		}
		if (d->cut == DAMAGE_CUT_HEADER) {
			diag_warn(p->trace_path, d->offset, "%s", d->why);
			tr->chunks_bad++;
			continue;
		}
		const struct stream *s = proc_stream_find(p, d->stream);
		uint64_t at = d->first, end = (uint64_t)d->first + d->units;
		for (size_t k = 0; s && k < s->npieces && at < end; k++) {
			const struct piece *pc = &s->pieces[k];
			if (pc->seq == d->seq && pc->src == PIECE_SPOOL && pc->first <= at &&
			    (uint64_t)pc->first + pc->units > at)
				at = (uint64_t)pc->first + pc->units;
		}
		if (at >= end) {
			diag_note("%s: offset %llu: %s (stream %u, buffer %u); its records are in the spool",
				  p->trace_path, (unsigned long long)d->offset, d->why, d->stream, d->seq);
			continue;
		}
		diag_warn(p->trace_path, d->offset, "%s (stream %u, buffer %u); %u records lost", d->why,
			  d->stream, d->seq, d->records);
		tr->chunks_bad++;
		diag_records_lost += d->records;
	}
}

static void check_file_header(struct proc *p)
{
	struct tprof_file_header fh;
	const char *why = "file shorter than its header";
	if (cfile_pread(&p->file, &fh, sizeof(fh), 0) == (ssize_t)sizeof(fh))
		why = tprof_file_header_check(&fh);
	if (why)
		diag_warn(p->trace_path, 0, "%s; reading the chunks that can be found", why);
	else
		p->instance = fh.instance;
}

/* The first call opens the file and reads its header; each call indexes the chunks from
 * where the one before stopped to the end of the file as it is now: a second call, once the
 * spool is read, finds what a running process flushed meanwhile (a chunk it was writing when
 * the first stopped, cut short then, is judged again). */
int tracefile_index(struct trace *tr, struct proc *p)
{
	if (!p->trace_path || p->file.failed)
		return 0;
	if (!p->indexed) {
		if (!p->file.whole) {   /* a part of a file is read through the whole's descriptor */
			cfile_init(&p->file, p->trace_path);
			int fd = fdcache_open(p->trace_path, O_RDONLY);
			if (fd < 0) {
				p->file.failed = 1;
				diag_unreadable(p->trace_path, "cannot open: %s; its records are left "
						"out", strerror(errno));
				return -1;
			}
			cfile_adopt(&p->file, fd);
		}
		check_file_header(p);
		p->indexed = TPROF_FILE_HEADER_SIZE;
	} else if (p->ndamage && p->damage[p->ndamage - 1].cut &&
		   p->damage[p->ndamage - 1].offset == p->indexed) {
		p->ndamage--;
	}
	uint64_t size;
	if (cfile_size(&p->file, p->trace_path, &size) < 0)
		return 0;
	uint8_t *buf = xmalloc(BLOCK);
	uint64_t off = p->indexed, counted = off;
	while (off < size) {
		struct tprof_chunk_header h;
		ssize_t n = cfile_pread(&p->file, &h, sizeof(h), off);
		if (n < (ssize_t)sizeof(h)) {
			if (!p->file.failed)
				note_damage(p, off, &(struct tprof_chunk_header){ .seq = 0 },
					    DAMAGE_CUT_HEADER, "truncated chunk header (%zd of %zu bytes); "
					    "end of file", n < 0 ? 0 : n, sizeof(h));
			break;
		}
		const char *why = tprof_chunk_header_check(&h);
		if (why) {
			int64_t next = resync(&p->file, off + 1, size, buf);
			tr->chunks_bad++;
			if (next < 0) {
				diag_warn(p->trace_path, off, "%s; no further chunk found (%llu bytes skipped)",
					  why, (unsigned long long)(size - off));
				off = size;
				break;
			}
			diag_warn(p->trace_path, off, "%s; resuming at offset %lld (%lld bytes skipped)", why,
				  (long long)next, (long long)(next - (int64_t)off));
			off = (uint64_t)next;
			continue;
		}
		uint64_t pay = off + sizeof(h);
		if (pay + h.comp_len > size) {
			note_damage(p, off, &h, DAMAGE_CUT, "chunk truncated (%llu of %u payload bytes)",
				    (unsigned long long)(size - pay), h.comp_len);
			break;
		}
		if (!p->scratch && !tprof_enc_raw(h.encoding) &&
		    !payload_ok(&p->file, pay, h.comp_len, h.payload_crc, buf)) {
			if (p->file.failed)
				break;
			note_damage(p, off, &h, DAMAGE_BAD, "chunk payload checksum mismatch");
			off = pay + h.comp_len;
			continue;
		}
		struct stream *s = proc_stream(p, h.stream);
		if (s) {
			struct piece pc = {
				.seq = h.seq, .first = h.first, .units = h.units, .records = h.records,
				.src = PIECE_CHUNK, .offset = pay, .comp_len = h.comp_len, .raw_len = h.raw_len,
				.raw = tprof_enc_raw(h.encoding), .encoding = (uint8_t)h.encoding,
				.t_first = h.t_first,
			};
			add_piece(s, &pc);
		}
		off = pay + h.comp_len;
		progress_add(off - counted, h.records);
		counted = off;
	}
	p->indexed = off;
	free(buf);
	return 0;
}

static int piece_cmp(const void *a, const void *b)
{
	const struct piece *x = a, *y = b;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	if (x->units != y->units)  /* of two pieces at one place, the longer one wins */
		return x->units > y->units ? -1 : 1;
	return (int)x->src - (int)y->src;
}

void stream_sort_pieces(struct stream *s)
{
	if (s->npieces > 1)
		qsort(s->pieces, s->npieces, sizeof(*s->pieces), piece_cmp);
	/* Overlapping pieces (a buffer flushed twice) keep the first. */
	size_t w = 0;
	uint32_t seq = UINT32_MAX;
	uint64_t end = 0;
	for (size_t i = 0; i < s->npieces; i++) {
		struct piece *pc = &s->pieces[i];
		if (pc->seq != seq) {
			seq = pc->seq;
			end = 0;
		}
		if (pc->first < end)
			continue;
		end = (uint64_t)pc->first + pc->units;
		s->pieces[w++] = *pc;
	}
	s->npieces = s->nsorted = w;
}

void stream_add_piece(struct stream *s, const struct piece *pc)
{
	add_piece(s, pc);
	progress_add(0, pc->records);   /* the spool's records, shown while reading */
}

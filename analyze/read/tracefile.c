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
#include "../util/progress.h"
#include "trace.h"

#define BLOCK 65536
#define MAX_STREAMS (1u << 20)

struct stream *proc_stream(struct proc *p, uint32_t id)
{
	if (id >= MAX_STREAMS)
		return NULL;
	if (id >= p->nstreams) {
		size_t n = p->nstreams ? p->nstreams : 8;
		while (n <= id)
			n *= 2;
		struct stream **ns = realloc(p->streams, n * sizeof(*ns));
		struct thread **nt = realloc(p->threads, n * sizeof(*nt));
		if (!ns || !nt)
			abort();
		memset(ns + p->nstreams, 0, (n - p->nstreams) * sizeof(*ns));
		memset(nt + p->nstreams, 0, (n - p->nstreams) * sizeof(*nt));
		p->streams = ns;
		p->threads = nt;
		p->nstreams = n;
	}
	if (!p->streams[id]) {
		struct stream *s = calloc(1, sizeof(*s));
		if (!s)
			abort();
		s->id = id;
		s->proc = p;
		p->streams[id] = s;
	}
	return p->streams[id];
}

static void add_piece(struct stream *s, const struct piece *pc)
{
	if (s->npieces == s->cap) {
		size_t n = s->cap ? s->cap * 2 : 2;   /* most streams of an import have one piece */
		struct piece *np = realloc(s->pieces, n * sizeof(*np));
		if (!np)
			abort();
		s->pieces = np;
		s->cap = n;
	}
	s->pieces[s->npieces++] = *pc;
}

/* Checks a payload of len bytes at off against crc, reading it in blocks. */
static int payload_ok(int fd, uint64_t off, uint32_t len, uint32_t crc, uint8_t *buf)
{
	uint32_t c = 0;
	while (len) {
		uint32_t n = len < BLOCK ? len : BLOCK;
		if (pread(fd, buf, n, (off_t)off) != (ssize_t)n)
			return 0;
		c = tprof_crc32_update(c, buf, n);
		off += n;
		len -= n;
	}
	return c == crc;
}

/* The next offset after `from` where a valid chunk header starts, or -1. */
static int64_t resync(int fd, uint64_t from, uint64_t size, uint8_t *buf)
{
	for (uint64_t base = from; base + TPROF_CHUNK_HEADER_SIZE <= size; base += BLOCK - 64) {
		ssize_t n = pread(fd, buf, BLOCK, (off_t)base);
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
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void note_damage(struct proc *p, uint64_t off, const struct tprof_chunk_header *h,
			const char *fmt, ...)
{
	struct damage *nd = realloc(p->damage, (p->ndamage + 1) * sizeof(*nd));
	if (!nd)
		abort();
	p->damage = nd;
	struct damage *d = &p->damage[p->ndamage++];
	*d = (struct damage){ off, h->stream, h->seq, h->first, h->units, h->records, "" };
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->why, sizeof(d->why), fmt, ap);
	va_end(ap);
}

/* Once the spool is read: a damaged chunk whose units the spool supplies lost nothing. */
void tracefile_report_damage(struct trace *tr, struct proc *p)
{
	for (size_t i = 0; i < p->ndamage; i++) {
		const struct damage *d = &p->damage[i];
		const struct stream *s = d->stream < p->nstreams ? p->streams[d->stream] : NULL;
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

static void check_file_header(struct proc *p, int fd)
{
	struct tprof_file_header fh;
	const char *why = "file shorter than its header";
	if (pread(fd, &fh, sizeof(fh), 0) == (ssize_t)sizeof(fh))
		why = tprof_file_header_check(&fh);
	if (why)
		diag_warn(p->trace_path, 0, "%s; reading the chunks that can be found", why);
	else
		p->instance = fh.instance;
}

int tracefile_index(struct trace *tr, struct proc *p)
{
	if (!p->trace_path)
		return 0;
	int fd = open(p->trace_path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		diag_warn(p->trace_path, 0, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	p->fd = fd;
	check_file_header(p, fd);
	uint8_t *buf = malloc(BLOCK);
	if (!buf)
		abort();
	uint64_t size = (uint64_t)st.st_size, off = TPROF_FILE_HEADER_SIZE, counted = 0;
	while (off < size) {
		struct tprof_chunk_header h;
		ssize_t n = pread(fd, &h, sizeof(h), (off_t)off);
		if (n < (ssize_t)sizeof(h)) {
			diag_warn(p->trace_path, off, "truncated chunk header (%zd of %zu bytes); end of file",
				  n < 0 ? 0 : n, sizeof(h));
			tr->chunks_bad++;
			break;
		}
		const char *why = tprof_chunk_header_check(&h);
		if (why) {
			int64_t next = resync(fd, off + 1, size, buf);
			tr->chunks_bad++;
			if (next < 0) {
				diag_warn(p->trace_path, off, "%s; no further chunk found (%llu bytes skipped)",
					  why, (unsigned long long)(size - off));
				break;
			}
			diag_warn(p->trace_path, off, "%s; resuming at offset %lld (%lld bytes skipped)", why,
				  (long long)next, (long long)(next - (int64_t)off));
			off = (uint64_t)next;
			continue;
		}
		uint64_t pay = off + sizeof(h);
		if (pay + h.comp_len > size) {
			note_damage(p, off, &h, "chunk truncated (%llu of %u payload bytes)",
				    (unsigned long long)(size - pay), h.comp_len);
			break;
		}
		if (!p->scratch && h.encoding != TPROF_ENC_VARINT_RAW &&
		    !payload_ok(fd, pay, h.comp_len, h.payload_crc, buf)) {
			note_damage(p, off, &h, "chunk payload checksum mismatch");
			off = pay + h.comp_len;
			continue;
		}
		struct stream *s = proc_stream(p, h.stream);
		if (s) {
			struct piece pc = {
				.seq = h.seq, .first = h.first, .units = h.units, .records = h.records,
				.src = PIECE_CHUNK, .offset = pay, .comp_len = h.comp_len, .raw_len = h.raw_len,
				.raw = h.encoding == TPROF_ENC_VARINT_RAW,
				.t_first = h.t_first,
			};
			add_piece(s, &pc);
		}
		off = pay + h.comp_len;
		progress_add(off - counted, h.records);
		counted = off;
	}
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
	s->npieces = w;
}

void stream_add_piece(struct stream *s, const struct piece *pc)
{
	add_piece(s, pc);
	progress_add(0, pc->records);   /* the spool's records, shown while reading */
}

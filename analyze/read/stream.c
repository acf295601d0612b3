/* stream.c — reads one stream's records in order across its pieces: chunk pieces are inflated
 * (or read as they are, when not compressed) and decoded a little at a time (memory per stream
 * stays small whatever the trace size), spool pieces are read from the spool's mapping (or
 * from the copy of a running writer's records).  A stream's buffers are sized to its piece (a
 * small piece, a small buffer: a profile of many streams with little in each, an import of
 * many threads, costs what they hold), its records are kept in a buffer of their size until
 * the stream proves long, its inflate state lives while a piece is being inflated, and the
 * whole reading state (struct stream_read) from the stream's first piece to its end. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/xalloc.h"
#include "trace.h"

#define IN_CAP 16384
#define OUT_CAP (32768 + TPROF_CODEC_RECORD_MAX)
#define REC_MAX (1 + TPROF_MAX_EXT)     /* units of the largest record */
#define SHORT_RECORDS 64                /* records read before a stream gets full buffers */

/* What reading a piece takes: its compressed bytes and their inflate state, the decoded bytes,
 * the place in a spool.  Allocated when a piece opens, freed when the stream ends. */
struct stream_read {
	uint32_t left;                  /* records left in the piece */
	z_stream zs;
	int zs_ready;
	uint64_t comp_off;              /* next compressed byte to read */
	uint32_t comp_left;
	uint8_t *in, *out;
	size_t incap, outcap;
	size_t out_pos, out_len;
	int out_end;                    /* inflate reached the end of the piece */
	const uint8_t *spool_base;      /* spool pieces: the mapping or the copy they are in */
	uint64_t spool_off;             /* spool pieces: next unit's byte offset */
	uint64_t spool_end;
	struct tprof_decoder dec;
};

/* A short stream's record is decoded here (room for the largest), then copied to the
 * stream's own buffer, sized to the records it holds. */
static __thread struct tprof_rec scratch[REC_MAX];

/* Room for units in s->rec. */
static void rec_room(struct stream *s, size_t units)
{
	if (units <= s->reccap)
		return;
	size_t n = s->reccap ? s->reccap : 2;
	while (n < units)
		n *= 2;
	s->rec = xreallocarray(s->rec, n, sizeof(*s->rec));
	s->reccap = n;
}

static uint8_t *room(uint8_t *buf, size_t *cap, size_t want)
{
	if (want <= *cap)
		return buf;
	buf = xrealloc(buf, want);
	*cap = want;
	return buf;
}

/* Buffers for the piece: no more than it needs; a long stream's record buffer holds the
 * largest record, so that records decode straight into it. */
static void buffers(struct stream *s, const struct piece *pc)
{
	struct stream_read *r = s->rd;
	rec_room(s, s->records_read < SHORT_RECORDS ? 2 : REC_MAX);
	if (pc->src != PIECE_CHUNK)
		return;
	r->in = room(r->in, &r->incap, pc->raw ? 0 : pc->comp_len < IN_CAP ? pc->comp_len : IN_CAP);
	/* the whole piece and a little more, so that inflate sees its end in one buffer */
	size_t want = pc->raw ? pc->comp_len : (size_t)pc->raw_len + 64;
	r->out = room(r->out, &r->outcap, want < OUT_CAP ? want : OUT_CAP);
	if (!pc->raw && !r->zs_ready) {
		memset(&r->zs, 0, sizeof(r->zs));
		if (inflateInit2(&r->zs, -15) != Z_OK)
			xalloc_failed("zlib's inflate state");
		r->zs_ready = 1;
	}
}

static void inflate_done(struct stream *s)
{
	struct stream_read *r = s->rd;
	if (r->zs_ready)
		inflateEnd(&r->zs);
	r->zs_ready = 0;
}

void stream_close(struct stream *s)
{
	if (s->rd) {
		inflate_done(s);
		free(s->rd->in);
		free(s->rd->out);
		free(s->rd);
		s->rd = NULL;
	}
	free(s->rec);
	s->rec = NULL;
	s->reccap = 0;
	s->open = 0;
}

uint64_t stream_records(const struct stream *s)
{
	uint64_t n = 0;
	for (size_t i = 0; i < s->npieces; i++)
		n += s->pieces[i].records;
	return n;
}

int stream_rewind(struct stream *s)
{
	s->cur = 0;
	s->open = 0;
	s->tb_cursor = s->tb_cursor_t1 = 0;
	s->records_read = 0;
	return 0;
}

static void open_piece(struct stream *s)
{
	const struct piece *pc = &s->pieces[s->cur];
	if (!s->rd)
		s->rd = xcalloc(1, sizeof(*s->rd));
	buffers(s, pc);
	s->rd->left = pc->records;
	tprof_decoder_start(&s->rd->dec, pc->encoding);
	if (pc->src == PIECE_CHUNK) {
		if (!pc->raw)
			inflateReset(&s->rd->zs);
		s->rd->zs.avail_in = 0;
		s->rd->comp_off = pc->offset;
		s->rd->comp_left = pc->comp_len;
		s->rd->out_pos = s->rd->out_len = 0;
		s->rd->out_end = 0;
	} else {
		s->rd->spool_base = pc->copied ? s->proc->spool->copy : s->proc->spool->map;
		s->rd->spool_off = pc->offset;
		s->rd->spool_end = pc->offset + (uint64_t)pc->units * TPROF_UNIT;
	}
	s->open = 1;
}

/* Reads or inflates until a whole record is buffered or the piece's data ends; -1 on
 * damage. */
static int fill(struct stream *s)
{
	struct stream_read *r = s->rd;
	if (r->out_pos) {
		memmove(r->out, r->out + r->out_pos, r->out_len - r->out_pos);
		r->out_len -= r->out_pos;
		r->out_pos = 0;
	}
	if (s->pieces[s->cur].raw) {
		/* the encoding as it is: straight into the buffer */
		size_t room = r->outcap - r->out_len;
		uint32_t n = r->comp_left < room ? r->comp_left : (uint32_t)room;
		if (n && cfile_pread(&s->proc->file, r->out + r->out_len, n, r->comp_off) != (ssize_t)n)
			return -1;
		r->comp_off += n;
		r->comp_left -= n;
		r->out_len += n;
		r->out_end = r->comp_left == 0;
		return 0;
	}
	while (!r->out_end && r->out_len < TPROF_CODEC_RECORD_MAX && r->out_len < r->outcap) {
		if (r->zs.avail_in == 0 && r->comp_left) {
			uint32_t n = r->comp_left < r->incap ? r->comp_left : (uint32_t)r->incap;
			if (cfile_pread(&s->proc->file, r->in, n, r->comp_off) != (ssize_t)n)
				return -1;
			r->comp_off += n;
			r->comp_left -= n;
			r->zs.next_in = r->in;
			r->zs.avail_in = n;
		}
		r->zs.next_out = r->out + r->out_len;
		r->zs.avail_out = (uInt)(r->outcap - r->out_len);
		int rc = inflate(&r->zs, Z_NO_FLUSH);
		r->out_len = r->outcap - r->zs.avail_out;
		if (rc == Z_STREAM_END) {
			r->out_end = 1;
			inflate_done(s);        /* the rest of the piece is in r->out */
		} else if (rc != Z_OK && !(rc == Z_BUF_ERROR && r->comp_left)) {
			return -1;
		}
	}
	return 0;
}

static int next_chunk_record(struct stream *s)
{
	struct stream_read *r = s->rd;
	if (r->out_len - r->out_pos < TPROF_CODEC_RECORD_MAX && !r->out_end && fill(s) < 0)
		return -1;
	if (r->out_len == r->out_pos)
		return -1;      /* records left, and no bytes (an empty payload has no buffer) */
	struct tprof_rec *to = s->reccap >= REC_MAX ? s->rec : scratch;
	long n = tprof_decode_one(&r->dec, r->out + r->out_pos, r->out_len - r->out_pos, to);
	if (n <= 0)
		return -1;
	r->out_pos += (size_t)n;
	if (to == scratch) {    /* a short stream: the record kept in a buffer of its size */
		rec_room(s, 1u + scratch[0].ext);
		memcpy(s->rec, scratch, (1u + scratch[0].ext) * sizeof(*s->rec));
	}
	return 0;
}

static int next_spool_record(struct stream *s)
{
	struct stream_read *r = s->rd;
	if (r->spool_off + TPROF_UNIT > r->spool_end)
		return -1;
	const struct tprof_rec *u = (const void *)(r->spool_base + r->spool_off);
	size_t bytes = (1u + u->ext) * (size_t)TPROF_UNIT;
	if (r->spool_off + bytes > r->spool_end || u->kind == 0)
		return -1;
	rec_room(s, 1u + u->ext);
	memcpy(s->rec, u, bytes);
	r->spool_off += bytes;
	return 0;
}

/* The chunk file could not be read again (said once, when that failed): the records of this
 * piece not yet read and of every later chunk piece of the stream are lost, without a word
 * per piece. */
static void lost_with_file(struct stream *s)
{
	uint64_t lost = s->rd->left;
	s->pieces[s->cur].bad = 1;
	for (size_t i = s->cur + 1; i < s->npieces; i++)
		if (s->pieces[i].src == PIECE_CHUNK && !s->pieces[i].bad) {
			lost += s->pieces[i].records;
			s->pieces[i].bad = 1;
		}
	diag_lost(lost);
	s->cur++;
	s->open = 0;
}

int stream_next(struct stream *s)
{
	for (;;) {
		if (!s->open) {
			if (s->cur >= s->npieces) {
				stream_close(s);
				return 0;
			}
			open_piece(s);
		}
		struct stream_read *r = s->rd;   /* there once a piece is open */
		if (r->left == 0) {
			s->cur++;
			s->open = 0;
			continue;
		}
		struct piece *pc = &s->pieces[s->cur];
		if (pc->bad) {
			s->cur++;
			s->open = 0;
			continue;
		}
		int rc = pc->src == PIECE_CHUNK ? next_chunk_record(s) : next_spool_record(s);
		if (rc == 0) {
			r->left--;
			s->records_read++;
			return 1;
		}
		if (pc->src == PIECE_CHUNK && s->proc->file.failed) {
			lost_with_file(s);
			continue;
		}
		diag_warn(pc->src == PIECE_CHUNK ? s->proc->trace_path : s->proc->spool_path,
			  pc->src == PIECE_CHUNK ? pc->offset - TPROF_CHUNK_HEADER_SIZE : pc->offset,
			  "stream %u, buffer %u: records could not be decoded; %u skipped", s->id, pc->seq,
			  r->left);
		diag_lost(r->left);
		pc->bad = 1;
		s->cur++;
		s->open = 0;
	}
}

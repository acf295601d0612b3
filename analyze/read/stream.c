/* stream.c — reads one stream's records in order across its pieces: chunk pieces are inflated
 * (or read as they are, when not compressed) and decoded a little at a time (memory per stream
 * stays small whatever the trace size), spool pieces are read straight from the mapped spool.
 * A stream's buffers are as small as its pieces and records allow until it proves long: a
 * trace of many streams with a few records each (an import of many threads) holds little per
 * stream, all of them being open at once in the merge. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace.h"

#define IN_CAP 16384
#define OUT_CAP (32768 + TPROF_CODEC_RECORD_MAX)
#define REC_MAX (1 + TPROF_MAX_EXT)     /* units of the largest record */
#define SHORT_RECORDS 64                /* records read before a stream gets full buffers */

/* What piece pc needs: inflate for a compressed one; out as large as a raw piece (at most
 * OUT_CAP), or OUT_CAP; the current record's room. */
static int buffers(struct stream *s, const struct piece *pc)
{
	size_t out = OUT_CAP;
	if (pc->src == PIECE_CHUNK && pc->raw && pc->comp_len < OUT_CAP &&
	    s->records_read < SHORT_RECORDS)
		out = pc->comp_len ? pc->comp_len : 1;
	if (!s->rec) {
		s->rec_units = s->records_read < SHORT_RECORDS ? 4 : REC_MAX;
		s->rec = malloc(s->rec_units * sizeof(struct tprof_rec));
	}
	if (pc->src == PIECE_CHUNK && !pc->raw && !s->in)
		s->in = malloc(IN_CAP);
	if (out > s->out_cap || !s->out) {
		free(s->out);
		s->out = malloc(out);
		s->out_cap = out;
	}
	if (!s->rec || (!pc->raw && pc->src == PIECE_CHUNK && !s->in) || !s->out)
		abort();
	if (pc->src == PIECE_CHUNK && !pc->raw && !s->zs_ready) {
		memset(&s->zs, 0, sizeof(s->zs));
		if (inflateInit2(&s->zs, -15) != Z_OK)
			abort();
		s->zs_ready = 1;
	}
	return 0;
}

/* Room for a record of units units in s->rec (the whole of the largest once the stream is
 * long, so that most records decode straight into it). */
static void rec_room(struct stream *s, uint32_t units)
{
	if (units <= s->rec_units && (s->rec_units == REC_MAX || s->records_read < SHORT_RECORDS))
		return;
	uint32_t n = s->records_read < SHORT_RECORDS && units < REC_MAX ? units * 2 : REC_MAX;
	if (n > REC_MAX)
		n = REC_MAX;
	if (n <= s->rec_units)
		return;
	struct tprof_rec *r = realloc(s->rec, n * sizeof(*r));
	if (!r)
		abort();
	s->rec = r;
	s->rec_units = n;
}

void stream_close(struct stream *s)
{
	if (s->zs_ready)
		inflateEnd(&s->zs);
	s->zs_ready = 0;
	free(s->in);
	free(s->out);
	free(s->rec);
	s->in = s->out = NULL;
	s->rec = NULL;
	s->out_cap = 0;
	s->rec_units = 0;
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
	buffers(s, pc);
	s->left = pc->records;
	s->dec.prev_t0 = 0;
	if (pc->src == PIECE_CHUNK) {
		if (!pc->raw)
			inflateReset(&s->zs);
		s->zs.avail_in = 0;
		s->comp_off = pc->offset;
		s->comp_left = pc->comp_len;
		s->out_pos = s->out_len = 0;
		s->out_end = 0;
	} else {
		s->spool_off = pc->offset;
		s->spool_end = pc->offset + (uint64_t)pc->units * TPROF_UNIT;
	}
	s->open = 1;
}

/* Reads or inflates until a whole record is buffered or the piece's data ends; -1 on
 * damage. */
static int fill(struct stream *s)
{
	if (s->out_pos) {
		memmove(s->out, s->out + s->out_pos, s->out_len - s->out_pos);
		s->out_len -= s->out_pos;
		s->out_pos = 0;
	}
	if (s->pieces[s->cur].raw) {
		/* the encoding as it is: straight into the buffer */
		size_t room = s->out_cap - s->out_len;
		uint32_t n = s->comp_left < room ? s->comp_left : (uint32_t)room;
		if (n && pread(s->proc->fd, s->out + s->out_len, n, (off_t)s->comp_off) != (ssize_t)n)
			return -1;
		s->comp_off += n;
		s->comp_left -= n;
		s->out_len += n;
		s->out_end = s->comp_left == 0;
		return 0;
	}
	while (!s->out_end && s->out_len < TPROF_CODEC_RECORD_MAX) {
		if (s->zs.avail_in == 0 && s->comp_left) {
			uint32_t n = s->comp_left < IN_CAP ? s->comp_left : IN_CAP;
			if (pread(s->proc->fd, s->in, n, (off_t)s->comp_off) != (ssize_t)n)
				return -1;
			s->comp_off += n;
			s->comp_left -= n;
			s->zs.next_in = s->in;
			s->zs.avail_in = n;
		}
		s->zs.next_out = s->out + s->out_len;
		s->zs.avail_out = (uInt)(OUT_CAP - s->out_len);
		int rc = inflate(&s->zs, Z_NO_FLUSH);
		s->out_len = OUT_CAP - s->zs.avail_out;
		if (rc == Z_STREAM_END)
			s->out_end = 1;
		else if (rc != Z_OK && !(rc == Z_BUF_ERROR && s->comp_left))
			return -1;
	}
	return 0;
}

static int next_chunk_record(struct stream *s)
{
	static _Thread_local struct tprof_rec whole[REC_MAX];
	if (s->out_len - s->out_pos < TPROF_CODEC_RECORD_MAX && !s->out_end && fill(s) < 0)
		return -1;
	struct tprof_rec *to = s->rec_units == REC_MAX ? s->rec : whole;
	long n = tprof_decode_one(&s->dec, s->out + s->out_pos, s->out_len - s->out_pos, to);
	if (n <= 0)
		return -1;
	s->out_pos += (size_t)n;
	if (to == whole) {      /* a short stream: the record kept in a buffer of its size */
		rec_room(s, 1u + whole[0].ext);
		memcpy(s->rec, whole, (1u + whole[0].ext) * sizeof(*whole));
	}
	return 0;
}

static int next_spool_record(struct stream *s)
{
	const uint8_t *base = s->proc->spool;
	if (s->spool_off + TPROF_UNIT > s->spool_end)
		return -1;
	const struct tprof_rec *r = (const void *)(base + s->spool_off);
	size_t bytes = (1u + r->ext) * (size_t)TPROF_UNIT;
	if (s->spool_off + bytes > s->spool_end || r->kind == 0)
		return -1;
	rec_room(s, 1u + r->ext);
	memcpy(s->rec, r, bytes);
	s->spool_off += bytes;
	return 0;
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
		if (s->left == 0) {
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
			s->left--;
			s->records_read++;
			return 1;
		}
		diag_warn(pc->src == PIECE_CHUNK ? s->proc->trace_path : s->proc->spool_path,
			  pc->src == PIECE_CHUNK ? pc->offset - TPROF_CHUNK_HEADER_SIZE : pc->offset,
			  "stream %u, buffer %u: records could not be decoded; %u skipped", s->id, pc->seq,
			  s->left);
		diag_lost(s->left);
		pc->bad = 1;
		s->cur++;
		s->open = 0;
	}
}

/* writer.h — writes chunk files the way the recorder does (same encoder, same headers), so
 * that reader and merge tests control every record, every stream and every clock. */
#ifndef TPROF_TEST_WRITER_H
#define TPROF_TEST_WRITER_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../common/chunk.h"
#include "../../common/codec.h"
#include "../../common/events.h"

struct tw {
	int fd;
	uint32_t seq[64];
	int raw;                /* chunks not compressed (TPROF_ENC_VARINT_RAW), as an import's */
};

/* A chunk file whose header carries flags (TPROF_FILE_*). */
static inline int tw_open_as(struct tw *w, const char *path, uint64_t instance, uint32_t flags)
{
	struct tprof_file_header h;
	memset(w, 0, sizeof(*w));
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	tprof_file_header_init(&h, instance, 4242, 0, flags);
	return w->fd >= 0 && write(w->fd, &h, sizeof(h)) == (ssize_t)sizeof(h) ? 0 : -1;
}

static inline int tw_open(struct tw *w, const char *path, uint64_t instance)
{
	return tw_open_as(w, path, instance, 0);
}

/* One chunk holding the given records of a stream (a fresh buffer each call). */
static inline off_t tw_chunk(struct tw *w, uint32_t stream, const struct tprof_rec *u, uint32_t units)
{
	struct tprof_enc_info info;
	uint8_t *raw = malloc(tprof_codec_bound(units));
	size_t raw_len = tprof_encode(u, units, raw, &info);
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	deflateInit2(&zs, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
	uLong cap = deflateBound(&zs, raw_len);
	uint8_t *comp = malloc(cap);
	zs.next_in = raw;
	zs.avail_in = (uInt)raw_len;
	zs.next_out = comp;
	zs.avail_out = (uInt)cap;
	deflate(&zs, Z_FINISH);
	uint32_t comp_len = (uint32_t)(cap - zs.avail_out);
	deflateEnd(&zs);
	struct tprof_chunk_header ch;
	if (w->raw) {
		memcpy(comp, raw, raw_len);
		comp_len = (uint32_t)raw_len;
	}
	tprof_chunk_header_init(&ch, stream, w->seq[stream % 64]++, 0, &info, (uint32_t)raw_len, comp,
				comp_len, w->raw ? TPROF_ENC_PACKED_RAW : TPROF_ENC_PACKED_DEFLATE);
	off_t at = lseek(w->fd, 0, SEEK_END);
	if (write(w->fd, &ch, sizeof(ch)) != (ssize_t)sizeof(ch) ||
	    write(w->fd, comp, comp_len) != (ssize_t)comp_len)
		at = -1;
	free(raw);
	free(comp);
	return at;
}

/* A spool with one buffer holding (stream, seq) and the given units, as a killed process
 * leaves it. */
static inline int tw_spool(const char *path, uint64_t instance, uint32_t stream, uint32_t seq,
			   const struct tprof_rec *u, uint32_t units)
{
	uint32_t cap = 1024, slot = TPROF_SLOT_HEADER_SIZE + cap * TPROF_UNIT;
	char *buf = calloc(1, TPROF_SPOOL_HEADER_SIZE + slot);
	struct tprof_spool_header h;
	tprof_spool_header_init(&h, instance, 4242, slot, 0);
	memcpy(buf, &h, sizeof(h));
	struct tprof_slot_header *sh = (void *)(buf + TPROF_SPOOL_HEADER_SIZE);
	sh->magic = TPROF_SLOT_MAGIC;
	sh->state = TPROF_SLOT_ACTIVE;
	sh->stream = stream;
	sh->seq = seq;
	sh->capacity = cap;
	memcpy(sh + 1, u, units * sizeof(*u));
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n = TPROF_SPOOL_HEADER_SIZE + slot;
	int rc = fd >= 0 && write(fd, buf, (size_t)n) == n ? 0 : -1;
	if (fd >= 0)
		close(fd);
	free(buf);
	return rc;
}

static inline void tw_close(struct tw *w)
{
	close(w->fd);
}

/* Record builders. */
static inline struct tprof_rec tw_rec(uint16_t kind, uint32_t name, uint64_t t0, uint64_t t1,
				      uint64_t arg)
{
	struct tprof_rec r = { .kind = kind, .name = name, .t0 = t0, .t1 = t1, .arg = arg };
	return r;
}

/* A STRING record and its extension units; returns units written to u. */
static inline uint32_t tw_string(struct tprof_rec *u, uint32_t id, const char *s)
{
	size_t len = strlen(s);
	uint32_t ext = (uint32_t)((len + TPROF_UNIT - 1) / TPROF_UNIT);
	memset(u, 0, (1 + ext) * sizeof(*u));
	u[0].kind = TPROF_K_STRING;
	u[0].ext = (uint8_t)ext;
	u[0].name = id;
	u[0].arg = len;
	memcpy(u + 1, s, len);
	return 1 + ext;
}

#endif

/* chunk.c — header construction and validation for every on-disk structure, and what a
 * file's header says of the job that wrote it. */
#include "chunk.h"
#include "deflate.h"
#include "job.h"
#include "real-libc.h"

#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

uint32_t tprof_crc32(const void *p, size_t n)
{
	return tprof_deflate_crc32(0, p, n);
}

uint32_t tprof_crc32_update(uint32_t crc, const void *p, size_t n)
{
	return tprof_deflate_crc32(crc, p, n);
}

void tprof_file_header_init(struct tprof_file_header *h, uint64_t instance, uint32_t pid,
			    uint64_t created_ns, uint32_t flags)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, TPROF_FILE_MAGIC, sizeof(h->magic));
	h->version = TPROF_FORMAT_VERSION;
	h->header_size = TPROF_FILE_HEADER_SIZE;
	h->byte_order = TPROF_BYTE_ORDER_MARK;
	h->instance = instance;
	h->pid = pid;
	h->flags = flags;
	h->created_ns = created_ns;
	h->job = tprof_job_current();
	h->header_crc = tprof_crc32(h, offsetof(struct tprof_file_header, header_crc));
}

const char *tprof_file_header_check(const struct tprof_file_header *h)
{
	if (memcmp(h->magic, TPROF_FILE_MAGIC, sizeof(h->magic)) != 0)
		return "not a tprof trace file (bad magic)";
	if (h->byte_order != TPROF_BYTE_ORDER_MARK)
		return "written on a host of the other byte order";
	if (h->version != TPROF_FORMAT_VERSION)
		return "unsupported format version";
	if (h->header_size != TPROF_FILE_HEADER_SIZE)
		return "unexpected file header size";
	if (h->header_crc != tprof_crc32(h, offsetof(struct tprof_file_header, header_crc)))
		return "file header checksum mismatch";
	return NULL;
}

void tprof_spool_header_init(struct tprof_spool_header *h, uint64_t instance, uint32_t pid,
			     uint32_t slot_bytes, uint64_t created_ns)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, TPROF_SPOOL_MAGIC, sizeof(h->magic));
	h->version = TPROF_FORMAT_VERSION;
	h->header_size = TPROF_SPOOL_HEADER_SIZE;
	h->byte_order = TPROF_BYTE_ORDER_MARK;
	h->instance = instance;
	h->pid = pid;
	h->slot_bytes = slot_bytes;
	h->created_ns = created_ns;
	h->job = tprof_job_current();
	h->header_crc = tprof_crc32(h, offsetof(struct tprof_spool_header, header_crc));
}

const char *tprof_spool_header_check(const struct tprof_spool_header *h)
{
	if (memcmp(h->magic, TPROF_SPOOL_MAGIC, sizeof(h->magic)) != 0)
		return "not a tprof spool (bad magic)";
	if (h->byte_order != TPROF_BYTE_ORDER_MARK)
		return "written on a host of the other byte order";
	if (h->version != TPROF_FORMAT_VERSION)
		return "unsupported format version";
	if (h->header_size != TPROF_SPOOL_HEADER_SIZE)
		return "unexpected spool header size";
	if (h->header_crc != tprof_crc32(h, offsetof(struct tprof_spool_header, header_crc)))
		return "spool header checksum mismatch";
	if (h->slot_bytes < TPROF_SLOT_HEADER_SIZE + TPROF_UNIT || h->slot_bytes % TPROF_UNIT ||
	    h->slot_bytes > TPROF_MAX_CHUNK_RAW)
		return "implausible slot size";
	return NULL;
}

void tprof_chunk_header_init(struct tprof_chunk_header *h, uint32_t stream, uint32_t seq,
			     uint32_t first, const struct tprof_enc_info *info, uint32_t raw_len,
			     const void *payload, uint32_t comp_len, uint32_t encoding)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, TPROF_CHUNK_MAGIC, sizeof(h->magic));
	h->version = TPROF_FORMAT_VERSION;
	h->header_size = TPROF_CHUNK_HEADER_SIZE;
	h->stream = stream;
	h->seq = seq;
	h->first = first;
	h->units = info->units;
	h->records = info->records;
	h->t_first = info->t_first;
	h->t_last = info->t_last;
	h->raw_len = raw_len;
	h->comp_len = comp_len;
	h->encoding = encoding;
	/* a raw chunk is read once, right away, by the program that wrote it: no payload CRC */
	h->payload_crc = tprof_enc_raw(encoding) ? 0 : tprof_crc32(payload, comp_len);
	h->header_crc = tprof_crc32(h, offsetof(struct tprof_chunk_header, header_crc));
}

const char *tprof_chunk_header_check(const struct tprof_chunk_header *h)
{
	if (memcmp(h->magic, TPROF_CHUNK_MAGIC, sizeof(h->magic)) != 0)
		return "bad chunk magic";
	if (h->header_crc != tprof_crc32(h, offsetof(struct tprof_chunk_header, header_crc)))
		return "chunk header checksum mismatch";
	if (h->version != TPROF_FORMAT_VERSION || h->header_size != TPROF_CHUNK_HEADER_SIZE)
		return "unsupported chunk version";
	if (h->encoding < TPROF_ENC_VARINT_DEFLATE || h->encoding > TPROF_ENC_PACKED_RAW ||
	    (tprof_enc_raw(h->encoding) && h->comp_len != h->raw_len))
		return "unknown chunk encoding";
	if (h->raw_len > TPROF_MAX_CHUNK_RAW || h->comp_len > TPROF_MAX_CHUNK_RAW ||
	    h->units > TPROF_MAX_CHUNK_UNITS || h->records > h->units ||
	    (uint64_t)h->first + h->units > TPROF_MAX_CHUNK_UNITS)
		return "implausible chunk lengths";
	return NULL;
}

int tprof_chunk_payload_ok(const struct tprof_chunk_header *h, const void *payload)
{
	if (tprof_enc_raw(h->encoding))
		return 1;
	return tprof_crc32(payload, h->comp_len) == h->payload_crc;
}

int tprof_job_of_file(int dirfd, const char *name, uint64_t *job, uint64_t *created_ns,
		      uint32_t *flags)
{
	union {
		struct tprof_file_header f;
		struct tprof_spool_header s;
	} h;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -1;
	ssize_t n = pread(fd, &h, sizeof(h), 0);
	tprof_real_close(fd);
	if (flags)
		*flags = 0;
	if (n < 0)
		return -1;
	if (n == (ssize_t)sizeof(h) && !tprof_file_header_check(&h.f)) {
		if (flags)
			*flags = h.f.flags;
		*job = h.f.job;
		*created_ns = h.f.created_ns;
		return 1;
	}
	if (n == (ssize_t)sizeof(h) && !tprof_spool_header_check(&h.s)) {
		*job = h.s.job;
		*created_ns = h.s.created_ns;
		return 1;
	}
	*job = *created_ns = 0;
	return n >= 8 && (!memcmp(&h, TPROF_FILE_MAGIC, 8) || !memcmp(&h, TPROF_SPOOL_MAGIC, 8)) ? 2
											    : 0;
}

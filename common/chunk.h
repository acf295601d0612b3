/* chunk.h — building and checking the headers of chunk files, chunks and spools.
 * Shared so that the writer and the reader agree on every check. */
#ifndef TPROF_CHUNK_H
#define TPROF_CHUNK_H

#include <stddef.h>
#include <stdint.h>
#include "codec.h"
#include "format.h"

/* The file and spool headers carry the job of this process, tprof_job_current() (job.h);
 * the file header flags (TPROF_FILE_*). */
void tprof_file_header_init(struct tprof_file_header *h, uint64_t instance, uint32_t pid,
			    uint64_t created_ns, uint32_t flags);
/* NULL when the header is good, else why it is not. */
const char *tprof_file_header_check(const struct tprof_file_header *h);

void tprof_spool_header_init(struct tprof_spool_header *h, uint64_t instance, uint32_t pid,
			     uint32_t slot_bytes, uint64_t created_ns);
const char *tprof_spool_header_check(const struct tprof_spool_header *h);

/* Fills every field of a chunk header, both CRCs included (encoding: TPROF_ENC_*). */
void tprof_chunk_header_init(struct tprof_chunk_header *h, uint32_t stream, uint32_t seq,
			     uint32_t first, const struct tprof_enc_info *info, uint32_t raw_len,
			     const void *payload, uint32_t comp_len, uint32_t encoding);
/* Whether a chunk of this encoding holds the codec's bytes as they are (not compressed). */
static inline int tprof_enc_raw(uint32_t encoding)
{
	return encoding == TPROF_ENC_VARINT_RAW || encoding == TPROF_ENC_PACKED_RAW;
}

/* Checks magic, version, sizes and the header CRC (not the payload). */
const char *tprof_chunk_header_check(const struct tprof_chunk_header *h);
/* Checks the payload against the header's CRC. */
int tprof_chunk_payload_ok(const struct tprof_chunk_header *h, const void *payload);

/* What a file's header says: 1 for a chunk file or spool whose header is good (*job 0: one
 * written before jobs were recorded), 2 for one whose magic is tprof's but whose header is
 * damaged (no job known), 0 for a file that is not tprof's, -1 when it cannot be read.  name
 * is relative to dirfd (AT_FDCWD: a path); a symbolic link is not followed.  *flags (when not
 * NULL): a good chunk file header's TPROF_FILE_* bits, else 0. */
int tprof_job_of_file(int dirfd, const char *name, uint64_t *job, uint64_t *created_ns,
		      uint32_t *flags);

uint32_t tprof_crc32(const void *p, size_t n);
uint32_t tprof_crc32_update(uint32_t crc, const void *p, size_t n);

#endif

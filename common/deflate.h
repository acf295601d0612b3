/* deflate.h — raw deflate and CRC-32, libdeflate's, bound the first time they are needed
 * (deflate.c): chunk payloads, the headers' checksums. */
#ifndef TPROF_DEFLATE_H
#define TPROF_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

struct libdeflate_compressor;

/* Loads libdeflate, once for the process: 0, or -1 with why it could not (a static
 * string) in *why when why is not NULL.  The functions below call it themselves. */
int tprof_deflate_load(const char **why);

/* A compressor at level 1-12; NULL without memory or without the library. */
struct libdeflate_compressor *tprof_deflate_new(int level);
void tprof_deflate_free(struct libdeflate_compressor *c);
/* Largest output of n bytes. */
size_t tprof_deflate_bound(struct libdeflate_compressor *c, size_t n);
/* Compresses in[0..n) into out[0..cap) as one raw deflate stream: its length, 0 when it
 * did not fit. */
size_t tprof_deflate(struct libdeflate_compressor *c, const void *in, size_t n, void *out,
		     size_t cap);
/* CRC-32 (zlib's) of p[0..n), continuing crc (0 to begin); 0 without the library. */
uint32_t tprof_deflate_crc32(uint32_t crc, const void *p, size_t n);

#endif

/* image.h — the system image writer (image.c): one chunk file of its own, a buffer per
 * stream (a slot of its spool) turned into chunks when full and every 250 ms, strings, clock
 * samples and the end mark (docs/FORMAT.md §3.9).  Not thread-safe: one thread writes an image. */
#ifndef TPROF_SAMPLE_IMAGE_H
#define TPROF_SAMPLE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "../common/format.h"

struct tprof_sysimg;

/* CLOCK_MONOTONIC in ns: the image's ticks. */
uint64_t tprof_sysimg_now(void);

/* Creates <dir>/<host>.<pid>.<id>.tpf and writes the start of stream 0 (clock, host and the
 * sampler's own pid, exe, cwd and arguments).  prog prefixes warnings.  NULL with a reason
 * in why when the file cannot be made. */
struct tprof_sysimg *tprof_sysimg_open(const char *dir, const char *prog, char *why,
				       size_t whylen);

/* The id of a string, its STRING record written (t0 = t) when new; 0 for NULL. */
uint32_t tprof_sysimg_string(struct tprof_sysimg *im, const char *s, uint64_t t);
uint32_t tprof_sysimg_string_n(struct tprof_sysimg *im, const char *s, size_t len,
			       uint64_t t);
void tprof_sysimg_prop_str(struct tprof_sysimg *im, const char *key, const char *value);
void tprof_sysimg_prop_int(struct tprof_sysimg *im, const char *key, int64_t value);

/* One record into a stream, with ext_bytes of extension (padded with zeros to whole units;
 * r->ext is set here).  A t0 earlier than the stream's last record is raised to it, so each
 * stream stays in time order. */
void tprof_sysimg_write(struct tprof_sysimg *im, uint32_t stream, struct tprof_rec r,
			const void *ext, size_t ext_bytes);

/* Periodic work, called often: clock samples (about 20 ms after the start, then every
 * second) and buffers written as chunks once 250 ms old. */
void tprof_sysimg_tick(struct tprof_sysimg *im);
/* Writes every buffer now. */
void tprof_sysimg_flush(struct tprof_sysimg *im);
/* DROP reason 5 for `lost` system records (nothing when 0), the final clock sample, END,
 * everything written; the file is closed and im freed. */
void tprof_sysimg_close(struct tprof_sysimg *im, uint64_t lost);

/* In a fork child: nothing more written, and with close_files (the child's table holds the
 * image's descriptors) its files closed; im is not freed. */
void tprof_sysimg_abandon(struct tprof_sysimg *im, int close_files);

/* <dir>/<host>.<pid>.<id>, the image's path without ".tpf". */
const char *tprof_sysimg_base(const struct tprof_sysimg *im);
/* Whether writing goes on (0 after a write error). */
int tprof_sysimg_ok(const struct tprof_sysimg *im);
/* Records written to chunks so far, besides stream 0. */
uint64_t tprof_sysimg_records(const struct tprof_sysimg *im);

#endif

/* imgwrite.h — a process image written outside the recorder (imgwrite.c): one chunk file of
 * its own (docs/FORMAT.md §3), or appended to a file the caller holds, a buffer per stream
 * (grown as records come, or a slot of a spool beside it) turned into chunks when full,
 * flushed or released, and a string table.  The system profile's sampler (sample/image.c) and
 * the analyzer's import of framework traces write their images with it.  Not thread-safe: one
 * thread writes an image (with opts.thread, a thread of its own makes the chunks). */
#ifndef TPROF_COMMON_IMGWRITE_H
#define TPROF_COMMON_IMGWRITE_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"

struct tprof_imgw;

struct tprof_imgw_opts {
	const char *dir;        /* the file is <dir>/<host>.<pid>.<id>.tpf */
	const char *host;       /* its name's host part ('/' becomes '_') */
	uint32_t pid;           /* its name's pid, and the file header's */
	uint64_t real_ns;       /* the file header's CLOCK_REALTIME */
	uint32_t flags;         /* the file header's TPROF_FILE_* bits */
	uint64_t instance;      /* the image's id; 0: a random one */
	const char *prog;       /* prefixes the one warning of a write error */
	const char *what;       /* what stops then: "the system profile" */
	int level;              /* zlib's compression level; 0: the default, 1 */
	int raw;                /* chunks not compressed (TPROF_ENC_VARINT_RAW): for a scratch
				 * image read once, right away */
	int thread;             /* chunks made and written by a thread of the image's own (not
				 * for an image a fork child may abandon) */
	uint32_t spool_kb;      /* not 0 (and no thread): each stream's buffer is a slot of this
				 * many KiB (whole pages) in <dir>/<host>.<pid>.<id>.spool, mapped
				 * shared, so that what the file lacks outlives any end of the
				 * process; removed at a close with nothing lost */
	const int *into;        /* not NULL (and no spool): the image, header and chunks, is
				 * appended to this descriptor, opened O_APPEND, which the caller
				 * keeps (images written one after another into one file; dir,
				 * host and the base name are then unused) */
};

/* Creates the file (O_EXCL, a random instance), or starts the image in opts.into, with its
 * header.  NULL with a reason in why
 * when it cannot be made. */
struct tprof_imgw *tprof_imgw_open(const struct tprof_imgw_opts *o, char *why, size_t whylen);

/* One record into a stream, with ext_bytes of extension (padded with zeros to whole units;
 * r->ext is set here).  A t0 earlier than the stream's last record is raised to it, so each
 * stream stays in time order. */
void tprof_imgw_write(struct tprof_imgw *w, uint32_t stream, const struct tprof_rec *r,
		      const void *ext, size_t ext_bytes);
/* The id of a string, its STRING record written into stream 0 (t0 = t) when new; 0 for
 * NULL.  Strings longer than a record holds are cut. */
uint32_t tprof_imgw_string_n(struct tprof_imgw *w, const char *s, size_t len, uint64_t t);
uint32_t tprof_imgw_string(struct tprof_imgw *w, const char *s, uint64_t t);
void tprof_imgw_prop_str(struct tprof_imgw *w, const char *key, const char *value, uint64_t t);
void tprof_imgw_prop_int(struct tprof_imgw *w, const char *key, int64_t value, uint64_t t);

/* Writes every stream's buffered records as chunks (and, with a writing thread, waits for
 * them to be written). */
void tprof_imgw_flush(struct tprof_imgw *w);
/* The caller is done with a stream for now: its records go out as a chunk and its buffer is
 * freed (a later record starts a fresh one).  An image of many streams written one after
 * the other then holds one buffer at a time. */
void tprof_imgw_release(struct tprof_imgw *w, uint32_t stream);
/* Flushes, closes the file and frees w (the caller writes END first). */
void tprof_imgw_close(struct tprof_imgw *w);
/* In a fork child: nothing more is written, the spool's slots are unmapped and, with
 * close_files (the child's descriptor table holds them), the files closed; w is not freed. */
void tprof_imgw_abandon(struct tprof_imgw *w, int close_files);

/* <dir>/<host>.<pid>.<id>, the file's path without ".tpf" (NULL with opts.into). */
const char *tprof_imgw_base(const struct tprof_imgw *w);
/* Whether writing goes on (0 after a write error). */
int tprof_imgw_ok(const struct tprof_imgw *w);
/* Records written to chunks so far, besides stream 0. */
uint64_t tprof_imgw_records(const struct tprof_imgw *w);

#endif

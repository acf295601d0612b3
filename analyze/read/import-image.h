/* import-image.h — what an imported image (docs/FORMAT.md §3.10) says of itself in its stream 0, as
 * read/import-image.c collects it: the file it came from, its process's name in the file, and how
 * the file's times read; the import's alignment (import/placement.c) puts it on the axis. */
#ifndef TPROF_ANALYZE_IMPORT_IMAGE_H
#define TPROF_ANALYZE_IMPORT_IMAGE_H

#include "trace.h"

/* A thread of the image that is a GPU stream (Kineto's kernels and copies): device and stream
 * as the file's args give them. */
struct imp_gpu {
	uint32_t stream;                 /* the image's stream (thread) */
	uint32_t device;
	uint64_t dstream;
};

struct import_image {
	uint32_t source;                 /* trace-wide string ids, 0: none */
	uint32_t pid_name, process_name;
	int64_t sort_index;              /* INT64_MIN: none */
	int64_t rank;                    /* distributedInfo's, -1: none */
	uint32_t time;                   /* "relative", "epoch" or "base" */
	int64_t base_ns;
	struct proc *home;               /* the recorded process it belongs to, NULL: none */
	struct proc *file_home;          /* its file's (whose GPU work it may hold), NULL: none */
	struct imp_gpu *gpu;             /* PROP gpu_stream "STREAM DEVICE DSTREAM" */
	size_t ngpu;
};

/* A PROP of an imported image (role "import" makes p one): 1 when it was one of its own. */
int impimage_prop(struct proc *p, const char *key, const struct tprof_rec *r);
/* The GPU stream that thread stream of the image is, or NULL. */
const struct imp_gpu *impimage_gpu(const struct import_image *im, uint32_t stream);

#endif

/* internal.h — what the files of the stand-in libamdhip64.so.5 share: the objects (devices,
 * streams, queued operations, events), the configuration read from STANDIN_HIP_* and the
 * helpers every API entry point uses (initialisation, per-thread last error, tracing).
 * Apps never see this header: they compile against Debian's <hip/hip_runtime_api.h>. */
#ifndef STANDIN_HIP_INTERNAL_H
#define STANDIN_HIP_INTERNAL_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
/* The library is built with -fvisibility=hidden; the public prototypes are exported (the
 * version script then gives each its real version tag and hides everything else). */
#pragma GCC visibility push(default)
#include <hip/hip_runtime_api.h>
#pragma GCC visibility pop

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SH_EXPORT __attribute__((visibility("default")))
#define SH_MAX_DEVICES 16
#define SH_STREAM_MAGIC 0x53545245u /* "STRE" */
#define SH_EVENT_MAGIC 0x45564e54u  /* "EVNT" */
#define SH_TOTAL_MEM ((size_t)16 << 30) /* memory of each stand-in device: 16 GiB */

/* ------------------------------------------------------------------ configuration (devices.c) */
struct sh_kernel_rule {
	char *key;           /* substring of the kernel name; NULL terminates the list */
	uint64_t ns;
};
struct sh_config {
	int ndevices;                              /* STANDIN_HIP_DEVICES, default 2 */
	int64_t clock_offset_ns[SH_MAX_DEVICES];   /* STANDIN_HIP_CLOCK_OFFSET_NS */
	struct sh_kernel_rule *kernel_rules;       /* STANDIN_HIP_KERNEL_US */
	uint64_t kernel_default_ns;                /* its "default" entry, 10 us unless given */
	double copy_gbps;                          /* STANDIN_HIP_COPY_GBPS, default 10 */
	uint64_t graph_ns;                         /* STANDIN_HIP_GRAPH_US, default 50 */
	int trace;                                 /* STANDIN_HIP_TRACE: 0, 1 (API), 2 (+ device ops) */
	int trace_fd;                              /* STANDIN_HIP_TRACE_FILE or stderr */
};
extern struct sh_config sh_cfg;

/* Reads the configuration once; every entry point calls it first. */
void sh_init(void);
/* CLOCK_MONOTONIC in nanoseconds: the host clock every device clock is derived from. */
uint64_t sh_now_ns(void);
/* Device clock of device `dev` at host time `host_ns`. */
int64_t sh_device_time(int dev, uint64_t host_ns);
/* Nominal duration of a kernel called `name`. */
uint64_t sh_kernel_ns(const char *name);
uint64_t sh_copy_ns(size_t bytes);

/* Current device of the calling thread (hipSetDevice/hipGetDevice). */
int sh_current_device(void);
int sh_valid_device(int dev);

/* Sets the thread's last error to `e` (HIP 5.2: every API call does), writes one trace line
 * "name(args) = error" when STANDIN_HIP_TRACE is set, and returns `e`. */
hipError_t sh_ret(const char *fn, hipError_t e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A trace line for entry points that do not return hipError_t (level >= `level`). */
void sh_trace(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *sh_error_name(hipError_t e);
#define SH_RET(e, ...) return sh_ret(__func__, (e), __VA_ARGS__)

/* ------------------------------------------------------------------ streams (streams.c) */
enum sh_op_kind {
	SH_OP_KERNEL, SH_OP_GRAPH, SH_OP_COPY, SH_OP_MEMSET, SH_OP_EVENT, SH_OP_WAIT,
	SH_OP_CALLBACK, SH_OP_FREE, SH_OP_NOP
};
struct sh_stream;

/* One operation queued on a stream.  Reference counted: the queue, the stream's `last`
 * pointer, events recorded by it and operations waiting for it each hold a reference. */
struct sh_op {
	atomic_int refs;
	enum sh_op_kind kind;
	struct sh_op *next;           /* queue link */
	struct sh_stream *stream;
	uint64_t t_enqueue;           /* host ns when the API call queued it */
	struct sh_op **deps;          /* must complete first (stream waits, legacy null stream) */
	int ndeps, capdeps;
	uint64_t dur_ns;              /* KERNEL, GRAPH */
	char label[256];              /* kernel name or what the op is, for the trace */
	/* COPY: rows of `width` bytes, `height` rows; MEMSET: `count` elements of `elem` bytes
	 * per row (elem 1, 2 or 4) */
	void *dst;
	const void *src;
	size_t width, height, dpitch, spitch;
	uint32_t value;
	int elem;
	hipStreamCallback_t cb;       /* CALLBACK */
	void *cb_data;
	hipStream_t cb_handle;        /* the handle the application passed */
	/* set by the worker */
	atomic_int done;
	uint64_t t_start, t_end;      /* nominal host ns: when the device started / finished it */
};

struct sh_device;
enum sh_stream_kind { SH_STREAM_USER, SH_STREAM_NULL, SH_STREAM_PER_THREAD };
struct sh_stream {
	uint32_t magic;
	enum sh_stream_kind kind;
	struct sh_device *dev;
	unsigned flags;
	int priority;
	pthread_mutex_t mu;           /* protects the queue, `last`, `stop` */
	pthread_cond_t cv;
	struct sh_op *head, *tail;    /* queued, not yet complete (the head is running) */
	struct sh_op *last;           /* the last op ever queued (a reference), or NULL */
	int stop;
	int worker_running;
	pthread_t worker;
	uint64_t cursor;              /* worker only: nominal time the stream becomes free */
	struct sh_stream *next;       /* in dev->streams */
};

struct sh_device {
	int id;
	pthread_mutex_t mu;           /* protects `streams`, `null_stream`, `torn_down` */
	struct sh_stream *streams;
	struct sh_stream *null_stream;
	int torn_down;
	atomic_size_t mem_used;
};
extern struct sh_device sh_devices[SH_MAX_DEVICES];

struct sh_op *sh_op_new(enum sh_op_kind kind);
void sh_op_ref(struct sh_op *op);
void sh_op_unref(struct sh_op *op);
int sh_op_add_dep(struct sh_op *op, struct sh_op *dep);
/* Blocks until `op` is complete. */
void sh_op_wait(struct sh_op *op);
/* The stream a handle names (NULL = null stream of the current device, hipStreamPerThread =
 * the calling thread's stream on the current device); NULL with *err set if invalid. */
struct sh_stream *sh_stream_resolve(hipStream_t h, hipError_t *err);
/* Queues `op` (takes the caller's reference). */
void sh_enqueue(struct sh_stream *s, struct sh_op *op);
/* Queues `op` and waits for it (host-blocking calls). */
void sh_enqueue_wait(struct sh_stream *s, struct sh_op *op);
/* Called once at initialisation: thread-exit and fork handlers. */
void sh_streams_setup(void);
/* Waits until everything queued so far on the device's streams is complete. */
void sh_device_sync(int dev);
/* A reference to the last op queued on `s` (NULL when none). */
struct sh_op *sh_stream_last(struct sh_stream *s);

/* ------------------------------------------------------------------ memory (memory.c) */
/* Frees an allocation made by one of the allocators (FREE ops, hipFree). */
hipError_t sh_mem_release(void *ptr, int host_kind);
/* Device owning `ptr` (any allocation kind), or -1. */
int sh_mem_device(const void *ptr);

/* ------------------------------------------------------------------ launches (launch.c) */

/* ------------------------------------------------------------------ events (events.c) */
hipError_t sh_event_record(hipEvent_t event, struct sh_stream *s);
/* The device an event belongs to, or -1 if `event` is not one. */
int sh_event_device(hipEvent_t event);
/* A reference to the event's latest marker, or NULL (never recorded). */
struct sh_op *sh_event_op(hipEvent_t event);

#endif

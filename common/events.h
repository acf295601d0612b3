/* events.h — every record kind, listed once.  The recorder writes them, the reader decodes them;
 * the meaning of each field per kind is in the table and in docs/FORMAT.md.
 *
 * Process stream (stream 0), written under a lock, only from slow paths:
 *   STRING  name=id, t0=ticks, arg=length in bytes; the bytes follow in ext units (no NUL)
 *   PROP    name=key string id; flags&TPROF_PROP_INT ? arg=integer : arg=value string id
 *   THREAD  arg=stream id, t0=ticks, t1=tid, name=thread name id (again when renamed)
 *   CLOCK   t0=ticks, t1=CLOCK_MONOTONIC ns, arg=CLOCK_REALTIME ns, flags=enum tprof_clock_when
 *   DROP    arg=stream id, t1=events dropped, flags=enum tprof_drop_reason, t0=ticks
 *   END     t0=ticks, flags=enum tprof_end_why: the image flushed everything (exit, or before
 *           exec; a failed exec carries on, so records may follow)
 * Thread streams (1..), written lock-free by their own thread:
 *   PUSH    name, t0                 a range opens (tprof_range_push)
 *   POP     t0                       the innermost open range closes
 *   MARK    name, t0                 an instant
 *   COUNTER name, t0, arg=double bits
 *   STEP    t0, arg=step number      training step `arg` starts
 *   CALL    name=API function, t0=entry, t1=return (0: it never returned), flags=enum
 *           tprof_domain, arg=correlation id (bits 0-47) | return code (bits 48-63);
 *           ext 0, 1 or 2 units: struct tprof_call_args, then struct tprof_launch_dims
 *   DEVICE  name=kernel or operation, t0=when written, flags=enum tprof_devop_kind,
 *           arg=correlation id; ext 3 units: struct tprof_devop (times in CLOCK_MONOTONIC ns)
 *   STACK   arg=correlation id, t1=frames; ext: the frames' function-name string ids, 8
 *           per unit, innermost first
 *   ABEGIN  name, t0, arg=range id   a range that may end on another thread (roctxRangeStartA)
 *   AEND    t0, arg=range id         its end (roctxRangeStop)
 *
 * PUSH, POP and MARK carry flags=enum tprof_source (which API made them).
 */
#ifndef TPROF_EVENTS_H
#define TPROF_EVENTS_H

#define TPROF_KINDS(X)      \
	X(STRING, 1, "string")  \
	X(PROP, 2, "prop")      \
	X(THREAD, 3, "thread")  \
	X(CLOCK, 4, "clock")    \
	X(DROP, 5, "drop")      \
	X(END, 6, "end")        \
	X(PUSH, 16, "push")     \
	X(POP, 17, "pop")       \
	X(MARK, 18, "mark")     \
	X(COUNTER, 19, "counter") \
	X(STEP, 20, "step")     \
	X(ABEGIN, 21, "abegin") \
	X(AEND, 22, "aend")     \
	X(CALL, 24, "call")     \
	X(DEVICE, 25, "device") \
	X(STACK, 26, "stack")

enum tprof_kind {
#define TPROF_KIND_ENUM(sym, num, str) TPROF_K_##sym = num,
	TPROF_KINDS(TPROF_KIND_ENUM)
#undef TPROF_KIND_ENUM
	TPROF_K_MAX = 256
};

#define TPROF_PROP_INT 0x01u

#include <stdint.h>

/* Which annotation API made a PUSH, POP or MARK. */
enum tprof_source {
	TPROF_SRC_TPROF = 0,
	TPROF_SRC_ROCTX = 1,
	TPROF_SRC_NVTX = 2,
};

/* The runtime an API call belongs to (flags of CALL). */
enum tprof_domain {
	TPROF_DOM_HIP = 1,
	TPROF_DOM_MPI = 2,
	TPROF_DOM_NCCL = 3,
	TPROF_DOM_NRT = 4,
	TPROF_DOM_CUDA = 5,
};

#define TPROF_CORR_MASK ((1ull << 48) - 1)
#define TPROF_CALL_RET_SHIFT 48

/* What the fields a and b of struct tprof_call_args mean. */
enum tprof_call_shape {
	TPROF_SHAPE_NONE = 0,
	TPROF_SHAPE_COPY = 1,    /* a = bytes, b = direction (enum tprof_copy_kind) */
	TPROF_SHAPE_MEMSET = 2,  /* a = bytes, b = value */
	TPROF_SHAPE_ALLOC = 3,   /* a = bytes, b = the pointer returned */
	TPROF_SHAPE_FREE = 4,    /* b = the pointer freed */
	TPROF_SHAPE_LAUNCH = 5,  /* a = the function's host address; dims in a second unit */
	TPROF_SHAPE_SYNC = 6,    /* a waiting call: stream (and b = event, if any) */
	TPROF_SHAPE_OBJECT = 7,  /* creates or destroys a stream or event: b = handle */
};

/* First extension unit of a CALL. */
struct tprof_call_args {
	uint16_t shape;          /* enum tprof_call_shape */
	uint16_t device;         /* device addressed, 0xffff when none */
	uint32_t name;           /* launches: kernel name string id */
	uint64_t stream;         /* stream handle (0: the null stream) */
	uint64_t a, b;
};

/* Second extension unit of a launching CALL. */
struct tprof_launch_dims {
	uint32_t grid[3], block[3];
	uint64_t shmem;
};

enum tprof_copy_kind {      /* the HIP/CUDA numbering */
	TPROF_COPY_HTOH = 0,
	TPROF_COPY_HTOD = 1,
	TPROF_COPY_DTOH = 2,
	TPROF_COPY_DTOD = 3,
	TPROF_COPY_DEFAULT = 4,
	TPROF_COPY_PEER = 5,
};

enum tprof_devop_kind {
	TPROF_DEVOP_KERNEL = 1,
	TPROF_DEVOP_COPY = 2,
	TPROF_DEVOP_MEMSET = 3,
	TPROF_DEVOP_GRAPH = 4,
	TPROF_DEVOP_COLLECTIVE = 5,
};

/* The three extension units of a DEVICE record: one operation as the device ran it. */
struct tprof_devop {
	int64_t start_ns, end_ns;    /* CLOCK_MONOTONIC of the recording host */
	uint64_t stream;
	uint32_t device;
	uint32_t launch_stream;      /* the tprof stream (thread) that launched it */
	uint64_t launch_t0;          /* ticks of the launching call's entry */
	uint64_t bytes;              /* copies, memsets */
	uint32_t copy_kind;          /* enum tprof_copy_kind */
	uint32_t caller;             /* string id of the launching function (TPROF_CALLSTACK) */
	struct tprof_launch_dims dims;
	uint64_t reserved;
};
_Static_assert(sizeof(struct tprof_call_args) == 32, "one unit");
_Static_assert(sizeof(struct tprof_launch_dims) == 32, "one unit");
_Static_assert(sizeof(struct tprof_devop) == 96, "three units");

enum tprof_clock_when {
	TPROF_CLOCK_START = 0,
	TPROF_CLOCK_PERIODIC = 1,
	TPROF_CLOCK_FINAL = 2,
};

/* The unit of t0/t1 in this process image: flags of the first CLOCK record's PROP "clock". */
enum tprof_clock_source {
	TPROF_CLOCKSRC_TSC = 1,        /* x86 invariant TSC; CLOCK records map it to nanoseconds */
	TPROF_CLOCKSRC_MONOTONIC = 2,  /* CLOCK_MONOTONIC nanoseconds */
};

enum tprof_end_why {
	TPROF_END_EXIT = 0,
	TPROF_END_EXEC = 1,
};

enum tprof_drop_reason {
	TPROF_DROP_MAX_EVENTS = 1,     /* TPROF_MAX_EVENTS reached */
	TPROF_DROP_NO_BUFFER = 2,      /* every buffer full: the flusher fell behind */
	TPROF_DROP_STOPPED = 3,        /* recording stopped after an output error */
	TPROF_DROP_DEVICE = 4,         /* device operations left untimed (queue full, events) */
};

const char *tprof_kind_name(unsigned kind);
const char *tprof_drop_reason_name(unsigned reason);

#endif

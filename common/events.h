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
	X(STEP, 20, "step")

enum tprof_kind {
#define TPROF_KIND_ENUM(sym, num, str) TPROF_K_##sym = num,
	TPROF_KINDS(TPROF_KIND_ENUM)
#undef TPROF_KIND_ENUM
	TPROF_K_MAX = 256
};

#define TPROF_PROP_INT 0x01u

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
};

const char *tprof_kind_name(unsigned kind);
const char *tprof_drop_reason_name(unsigned reason);

#endif

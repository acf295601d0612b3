/* import-records.h — the records of an imported image: a framework's Chrome trace (PyTorch, Kineto,
 * JAX, any tool's trace-event JSON) rewritten by tprof-analyze --import as a process image of its
 * own (PROP role = "import"), one per process of the file, so that the analyzer reads it as it
 * reads the recorders' images.  docs/FORMAT.md §3.10 says the same in prose; the kinds are listed
 * with the others in events.h.  Written by the analyzer into a scratch directory, never by a
 * recorder. */
#ifndef TPROF_IMPORT_RECORDS_H
#define TPROF_IMPORT_RECORDS_H

#include <stdint.h>

/* Ticks of an imported image are the file's own nanoseconds plus this bias (its times may be
 * negative): ticks = ts_ns + TPROF_IMP_TICK_BIAS.  Where they lie on the profile's axis is the
 * analyzer's to find (PROP "time": "epoch", "relative"; "base_ns"). */
#define TPROF_IMP_TICK_BIAS (1ull << 62)

/* Each thread stream holds one thread ("tid") of the file, in time order; stream 0 its
 * strings, PROPs, THREAD records (the file's tid as t1, its thread_name as name) and END.
 *
 * IBEGIN  a slice opens: name, t0; flags = enum tprof_imp_phase (X, B); arg = the step
 *         number of a step slice (head flags TPROF_IMP_STEP); ext: struct tprof_imp_head,
 *         then the args (below)
 * IEND    the innermost open slice closes: t0; flags TPROF_IMP_CLIPPED when its end was
 *         moved earlier (a slice that outlived the one it began in, or E of a B with slices
 *         still open inside)
 * IMARK   an instant: name, t0, flags = phase (i I R O N D P);
 *         arg = the object's id (O N D: a hash of its id text); ext: head, args
 * ICOUNTER one series of a C event: name = "<name>" (one series) or "<name> <series>", t0,
 *         arg = the value as double bits; ext: head (its category)
 * IASYNC  an async event: name, t0, flags = phase (b e n, and S F T p of the older form),
 *         arg = the id (a hash of category, scope and id text: b and e of one range match);
 *         ext: head, args
 * IFLOW   a flow event: name, t0, flags = phase (s t f) | TPROF_IMP_BIND_ENCLOSING when "bp"
 *         is "e" (bind to the enclosing slice, else the next slice begun); arg = the id (a hash
 *         of category, scope and id text); ext: head
 */
enum tprof_imp_phase {
	TPROF_IMP_X = 'X', TPROF_IMP_B = 'B',
};

#define TPROF_IMP_CLIPPED 0x01u
#define TPROF_IMP_BIND_ENCLOSING 0x80u  /* IFLOW: "bp": "e" (the phase is flags & 0x7f) */

/* The first extension unit of IBEGIN, IMARK, ICOUNTER, IASYNC and IFLOW. */
struct tprof_imp_head {
	uint32_t cat;             /* string id of "cat", 0: none */
	uint32_t args_len;        /* bytes of args that follow this unit (0: none) */
	uint32_t id;              /* 0 (ids are kept as the hash in arg, not as text) */
	uint32_t flags;           /* TPROF_IMP_ARGS_CUT, TPROF_IMP_STEP */
	uint64_t offset;          /* the event's byte offset in the file (its '{') */
	uint64_t reserved;
};
_Static_assert(sizeof(struct tprof_imp_head) == 32, "one unit");

#define TPROF_IMP_ARGS_CUT 0x01u  /* the args were longer than a record holds: left out */
#define TPROF_IMP_STEP 0x02u      /* IBEGIN of a step slice (ProfilerStep#N): arg = N */

/* The args that follow the head: the members of the "args" object, each a type byte, the key
 * (uint16_t length, then its bytes) and the value; a value inside an array has no key.
 *   NULL, FALSE, TRUE: no value; INT: int64_t; DOUBLE: double; STR: uint32_t length, bytes;
 *   OBJ, ARR: the members, up to an END.  Little-endian, unaligned. */
enum tprof_imp_arg {
	TPROF_IMP_A_NULL = 1, TPROF_IMP_A_FALSE, TPROF_IMP_A_TRUE, TPROF_IMP_A_INT,
	TPROF_IMP_A_DOUBLE, TPROF_IMP_A_STR, TPROF_IMP_A_OBJ, TPROF_IMP_A_ARR, TPROF_IMP_A_END,
};

#endif

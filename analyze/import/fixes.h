/* fixes.h — what the import changed or left out of the traces it read, by cause (fixes.c):
 * the reader's (chrome-read.h's enum chrome_fix), the rewriting's (transcode.c) and the
 * pairing's (runtimes/import/pipe.c).  Each cause is counted with the file and the offset
 * where it was first met; -v says one line per cause, and the summary's header shows them
 * (a cause that leaves an event out adds to "skipped"). */
#ifndef TPROF_ANALYZE_IMPORT_FIXES_H
#define TPROF_ANALYZE_IMPORT_FIXES_H

#include <stddef.h>
#include <stdint.h>

/* What a cause does: skips whole events (which the summary's "skipped" counts), leaves out a
 * part of the input (a value, a member, the rest of a file), or changes a value. */
enum imp_fix_class { IMP_SKIP, IMP_PART, IMP_CHANGE };

/* Every cause once: its name, its JSON key, its class, and what -v and the summary say of it
 * (after the count). */
#define IMP_FIXES(X)                                                                            \
	X(DAMAGED, "damaged", IMP_SKIP, "events not valid JSON, or with a ts, dur, pid, tid or id that "  \
	  "is not one: skipped")                                                                     \
	X(TOO_BIG, "too_big", IMP_SKIP, "events larger than 64 MiB: skipped")                               \
	X(STOPPED, "stopped", IMP_PART, "damage the read cannot go past: the rest of the file is lost")     \
	X(CUT, "cut_short", IMP_CHANGE, "files that end inside their traceEvents: what came before is read") \
	X(TRAILING, "trailing", IMP_PART, "files with data after their JSON value: ignored")                \
	X(EVENTS_AGAIN, "events_again", IMP_CHANGE, "traceEvents arrays after the first: their events "     \
	  "read as well")                                                                            \
	X(MEMBER_AGAIN, "member_again", IMP_CHANGE, "top-level members given again: the last kept")           \
	X(MEMBER_BAD, "member_bad", IMP_PART, "top-level members of the wrong type or too large: ignored") \
	X(AGAIN, "member_twice", IMP_PART, "events with a member given twice: the first kept")             \
	X(WRONG_TYPE, "wrong_type", IMP_PART, "events with a name, cat, args, bp, s or scope of another "  \
	  "type than its own: ignored")                                                              \
	X(FRACTION, "fraction", IMP_CHANGE, "pids or tids with a fraction: dropped")                          \
	X(NO_TS, "no_ts", IMP_SKIP, "events without a ts: skipped")                                         \
	X(PHASE, "phase", IMP_SKIP, "events of a phase not imported, or of none: skipped")                  \
	X(NO_PID, "no_pid", IMP_CHANGE, "events without a pid or tid: 0 taken")                               \
	X(METADATA, "metadata", IMP_SKIP, "metadata events not used (or with a value of the wrong type): " \
	  "skipped")                                                                                 \
	X(RENAMED, "renamed", IMP_CHANGE, "processes or threads named again: the last name kept")             \
	X(NO_DUR, "no_dur", IMP_CHANGE, "X events without a dur: 0 taken")                                    \
	X(NEG_DUR, "negative_dur", IMP_CHANGE, "X events with a negative dur: 0 taken")                       \
	X(TIME_RANGE, "time_range", IMP_CHANGE, "times more than 2^61 ns from the file's zero: held at " \
	  "that bound")                                                                              \
	X(CLIPPED, "clipped", IMP_CHANGE, "slices ending after the slice they began in: cut to end in it")    \
	X(E_ALONE, "e_alone", IMP_SKIP, "E events with no B open on their thread: skipped")                 \
	X(B_ALONE, "b_alone", IMP_CHANGE, "B events never ended: ended at their thread's last time")          \
	X(NESTED_START, "nested_start", IMP_CHANGE, "slices starting at their parent's nanosecond: started " \
	  "1 ns later")                                                                              \
	X(COUNTER, "counter_value", IMP_SKIP, "counter values that are not numbers: skipped")              \
	X(ARGS_CUT, "args_cut", IMP_PART, "args longer than an event holds (8 KiB encoded): left out")     \
	X(ARGS_DEEP, "args_deep", IMP_CHANGE, "args nested deeper than 31 levels: kept as JSON text")         \
	X(ARGS_MANY, "args_many", IMP_PART, "args of more values than an item shows (150): the rest left " \
	  "out of the outputs")                                                                      \
	X(NAME_CUT, "name_cut", IMP_CHANGE, "names, keys or values longer than a record holds: cut")          \
	X(ASYNC_ALONE, "async_end_alone", IMP_SKIP, "async ends (e, F) with no begin open: skipped")         \
	X(ASYNC_OPEN, "async_open", IMP_CHANGE, "async begins (b, S) never ended: ended with their process")  \
	X(FLOW_ALONE, "flow_end_alone", IMP_SKIP, "flow ends (t, f) with no start before them: skipped")    \
	X(FLOW_OPEN, "flow_open", IMP_SKIP, "flow starts (s, t) never ended: skipped")                      \
	X(FLOW_AGAIN, "flow_restarted", IMP_SKIP, "flow starts replaced by another of their id before "   \
	  "any end: skipped")

/* The values of an event's args that its drawn items show (the scene's SCENE_MAX_ARGS, less
 * room for what the import adds: the flags, a note of what was cut); an object or an array
 * counts twice. */
#define IMP_ARGS_SHOWN 150

enum imp_fix {
#define IMP_FIX_ENUM(id, key, cls, text) IMP_FIX_##id,
	IMP_FIXES(IMP_FIX_ENUM)
#undef IMP_FIX_ENUM
	IMP_FIX_N
};

struct imp_fixes {
	uint64_t n[IMP_FIX_N];
	uint64_t offset[IMP_FIX_N];     /* where each cause was first met */
	uint32_t file[IMP_FIX_N];       /* in that file: a trace-wide string id */
};

/* The order of the files to import (their trace-wide string ids, in the order given, then
 * those found): a cause's first place is its earliest, by file in that order then offset, so
 * that it is one however the files and the pass are divided (--parallel). */
void imp_fixes_order(const uint32_t *files, size_t n);
/* n more of a cause, met in file at offset (its first place when the earliest). */
void imp_fix_n(struct imp_fixes *x, enum imp_fix cause, uint64_t n, uint32_t file,
	       uint64_t offset);
static inline void imp_fix(struct imp_fixes *x, enum imp_fix cause, uint32_t file,
			   uint64_t offset)
{
	imp_fix_n(x, cause, 1, file, offset);
}
/* Adds every count of from to x (the first place of each the earlier of the two). */
void imp_fixes_add(struct imp_fixes *x, const struct imp_fixes *from);
/* The counts of the causes of a class, and of all. */
uint64_t imp_fixes_class(const struct imp_fixes *x, enum imp_fix_class cls);
uint64_t imp_fixes_total(const struct imp_fixes *x);

const char *imp_fix_key(enum imp_fix cause);
const char *imp_fix_text(enum imp_fix cause);
enum imp_fix_class imp_fix_class(enum imp_fix cause);

/* The -v lines: one per cause met, with its count and where it was first. */
void imp_fixes_report(const struct imp_fixes *x);

#endif

/* chrome-event.h — one Chrome trace event as the importer reads it: one object of traceEvents
 * as its phase, names, process and thread, times in exact nanoseconds and id, with its args
 * and other members as cJSON nodes.
 * Everything points into the parse (chrome-parser.h): valid until the next event. */
#ifndef TPROF_ANALYZE_CHROME_EVENT_H
#define TPROF_ANALYZE_CHROME_EVENT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* "pid" or "tid": a number, or a string (Kineto's "CPU functions", "stream 7"). */
struct chrome_ref {
	int present;            /* 0: absent (num 0, str NULL) */
	int is_str;
	int64_t num;            /* is_str 0: the number (fraction dropped) */
	const char *str;        /* is_str 1 */
};

enum chrome_id_kind {
	CHROME_ID_NONE,
	CHROME_ID_PLAIN,        /* "id" */
	CHROME_ID_LOCAL,        /* "id2": {"local": ...} — the id is unique within the process */
	CHROME_ID_GLOBAL,       /* "id2": {"global": ...} */
};

struct chrome_event {
	/* The phase letter: X B E i I R C b e n s t f M O N D P (and the older S T F p, v V, ...,
	 * passed on as found); 0 when "ph" is absent or not a one-letter string. */
	char ph;
	const char *name, *cat;     /* NULL when absent (or not strings) */
	struct chrome_ref pid, tid;
	/* "ts" and "dur" are microseconds in the format; they are read from the number's own text,
	 * exactly: 1700000000123456.789 is 1700000000123456789 ns (digits past the nanosecond
	 * rounded half away from zero; exponents and negative values read; a string holding a
	 * number read the same way).  displayTimeUnit does not change them. */
	int has_ts, has_dur;
	int64_t ts_ns, dur_ns;
	/* "id" or id2's value as text: a number's own digits ("12345678901234567890" stays
	 * exact), a string as written ("0x1f"); NULL when there is none. */
	const char *id;
	enum chrome_id_kind id_kind;
	const char *id_scope;       /* "scope": a string that puts the id in a namespace; or NULL */
	char bp;                    /* a flow event's binding point "bp": 'e' (enclosing) or 0 */
	char scope;                 /* an instant's "s": 'g', 'p' or 't'; 0 when absent */
	/* cJSON trees for reading only, with cJSON's functions (never cJSON_Delete them). */
	const cJSON *args;          /* "args" when it is an object, else NULL; with the reader's
				     * args_blob, only for M and C events (args_blob holds all) */
	/* With the reader's args_blob (chrome-read.h): "args", when it is an object, as the bytes
	 * argblob_encode (argblob.h) makes of it, args_len of them, and what it would say of
	 * them: args_full when they are more than args_blob (argblob_encode's -1, the bytes then
	 * cut there), args_items, args_deep and args_cut its struct argblob_stats; args_blob is
	 * NULL when there are no args. */
	const uint8_t *args_blob;
	size_t args_len;
	int args_full;
	unsigned args_items, args_deep, args_cut;
	const cJSON *obj;           /* the other members ("tts", "cname", "sf"); NULL: none */
	uint64_t offset;            /* of the event's '{' in the (decompressed) input */
	unsigned fixes;             /* what the reading changed (bits 1 << enum chrome_fix) */
};

/* What the reader changed or left out of its input, by cause: the bits of an event's fixes
 * (the first three), and the counts of struct chrome_meta. */
enum chrome_fix {
	CHROME_FIX_AGAIN,           /* a member given twice: the first (not null) kept */
	CHROME_FIX_WRONG_TYPE,      /* name, cat, args, bp, s or scope of another type (or value)
				     * than theirs: taken as absent */
	CHROME_FIX_FRACTION,        /* a pid or tid with a fraction: dropped */
	CHROME_FIX_DAMAGED,         /* an event that is not valid JSON, or whose ts, dur, pid, tid
				     * or id is not what it must be: skipped */
	CHROME_FIX_TOO_BIG,         /* an event larger than the bound: skipped */
	CHROME_FIX_EVENTS_AGAIN,    /* traceEvents given again: its events read as well */
	CHROME_FIX_MEMBER_AGAIN,    /* a kept top-level member given again: the last kept */
	CHROME_FIX_MEMBER_BAD,      /* a kept top-level member of the wrong type or too large:
				     * ignored */
	CHROME_FIX_TRAILING,        /* data after the JSON value: ignored */
	CHROME_FIX_CUT,             /* the input ends inside the object form: what came before
				     * is read */
	CHROME_FIX_STOPPED,         /* the read stopped at damage it cannot resynchronise from:
				     * the rest of the input is lost */
	CHROME_FIX_N
};

#endif

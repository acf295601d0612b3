/* chrome-json.h — the JSON parser of the events: the same cJSON trees as cJSON's own parser
 * makes, in the arena, at a fraction of the cost, with each number's text (which cJSON drops)
 * for the values that must be read exactly; and an event's own members read without a tree
 * where they are strings or numbers (chrome_json_event), the rest as cJSON trees. */

/* JSON as RFC 8259 has it, with cJSON's leniency (control characters inside strings, leading
 * zeros in numbers) and Python's (NaN, Infinity and -Infinity, which its json module writes). */
#ifndef TPROF_ANALYZE_CHROME_JSON_H
#define TPROF_ANALYZE_CHROME_JSON_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "chrome-arena.h"
#include "chrome-text.h"

/* The keys of an event that the parser does not copy: each is one string, the same pointer
 * every time it is a key, so that a member is told by its key's id (chrome_json_key_id). */
enum chrome_key {
	CHROME_KEY_PH, CHROME_KEY_NAME, CHROME_KEY_CAT, CHROME_KEY_PID, CHROME_KEY_TID,
	CHROME_KEY_TS, CHROME_KEY_DUR, CHROME_KEY_ARGS, CHROME_KEY_ID, CHROME_KEY_ID2,
	CHROME_KEY_LOCAL, CHROME_KEY_GLOBAL, CHROME_KEY_BP, CHROME_KEY_S, CHROME_KEY_SCOPE,
	CHROME_KEY_N
};

/* A number's text and its digits: (-1 if neg) * m * 10^e10, unless many (more than 19
 * significant digits, m holding the first; or special: NaN, Infinity, -Infinity, value d). */
struct chrome_json_num {
	const char *text;       /* in the parsed text: sign, digits, fraction, exponent */
	size_t len;
	uint64_t m;
	int e10, neg, many, special;
	double d;               /* special only */
};

/* A member's value as chrome_json_event hands it over: BLOB is an "args" object written into
 * the caller's struct chrome_json_blob. */
enum chrome_json_kind { CHROME_JSON_NULL, CHROME_JSON_STRING, CHROME_JSON_NUMBER, CHROME_JSON_NODE,
			CHROME_JSON_BLOB };

/* An event's "args" object written while it is parsed as the bytes that argblob_encode
 * (argblob.h) makes of its tree, without the tree: the same bytes, stats and overflow. */
struct chrome_json_blob {
	uint8_t *buf;           /* cap bytes, the caller's */
	size_t cap;
	size_t len;             /* bytes written */
	int full;               /* more than cap: the bytes stopped there (argblob_encode's -1) */
	unsigned items, deep, cut;      /* struct argblob_stats' */
	const char *text;       /* the object's own text, in the parsed text */
	size_t text_len;
};
struct chrome_json_value {
	enum chrome_json_kind kind;
	const char *str;                /* STRING: NUL-terminated, in the arena */
	struct chrome_json_num num;     /* NUMBER */
	cJSON *node;                    /* NODE: an object, array, true or false (its key set) */
};

/* Parses the JSON value at the start of text[0..len) (after white space): its tree, with *used
 * the length of the text through its end; or NULL, with *used where the parse stopped, which is
 * len when the text ended first (more text might complete the value).  The tree lives in a
 * (never give it to cJSON_Delete); numbers point to their text in text[]. */
cJSON *chrome_json_parse(struct chrome_arena *a, const char *text, size_t len, size_t *used);
/* Parses the JSON value at the start of text[0..len) as chrome_json_parse does, with *used
 * likewise, an event's way.  When it is an object: 1; of the members whose key is among keys[]
 * and in want (bits 1 << enum chrome_key), the first that is not null of each key is read into
 * vals[key] (strings and numbers without a node) with its bit set in *have, and the members of
 * other keys go into *rest (an object of them; NULL when there is none); a later member of a
 * key already read (not null) is left out, and sets CHROME_HAVE_AGAIN in *have.  A value that
 * is not an object: 2, with *rest its tree.  0 when it is not valid JSON, or not complete. */
#define CHROME_HAVE_AGAIN (1u << 31)
/* With blob set, the first "args" (CHROME_KEY_ARGS in want) that is an object is written into
 * it instead of a tree, its value's kind CHROME_JSON_BLOB. */
int chrome_json_event(struct chrome_arena *a, const char *text, size_t len, size_t *used,
		      unsigned want, struct chrome_json_value *vals, unsigned *have, cJSON **rest,
		      struct chrome_json_blob *blob);
/* A key's enum chrome_key when the parser made it, or -1. */
int chrome_json_key_id(const char *key);
/* The text of a number made by chrome_json_parse: its own digits, sign, fraction, exponent;
 * NULL for any other node. */
const char *chrome_json_number_text(const cJSON *number, size_t *len);
/* Such a number times 10^scale, exactly, rounded half away from zero (chrome-text.h): 0, or -1
 * when it does not fit in 64 bits or the node is not such a number. */
int chrome_json_number_scaled(const cJSON *number, int scale, int64_t *out);
/* The double nearest to the decimal m * 10^e10 (correctly rounded, as strtod): exact integer
 * arithmetic for |e10| <= 19, strtod beyond (text: the number's text, without a sign). */
double chrome_json_to_double(uint64_t m, int e10, const char *text, size_t len);
/* A number's value as a double, as cJSON reads it; and times 10^scale exactly (as
 * chrome_json_number_scaled). */
double chrome_json_num_double(const struct chrome_json_num *n);
int chrome_json_num_scaled(const struct chrome_json_num *n, int scale, int64_t *out);

#endif

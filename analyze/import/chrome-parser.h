/* chrome-parser.h — the reader's parser of events (chrome-event.c): an event's text into a tree
 * (chrome-json.h), the tree into a struct chrome_event. */
#ifndef TPROF_ANALYZE_CHROME_PARSER_H
#define TPROF_ANALYZE_CHROME_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "chrome-event.h"

/* The parser keeps the tree of the last event parsed, in memory reused for the next. */
struct chrome_parser;

struct chrome_parser *chrome_parser_new(void);
/* Parses the JSON value at the start of text[0..len) (parser: a struct chrome_parser): 1 when
 * it did, with *used its length; 0 when the text ends before the value does; -1 when it is
 * not valid JSON.  The scanner's parse function (chrome-scan.h). */
int chrome_parser_json(void *parser, const char *text, size_t len, size_t *used);
/* The event from the last parse, whose '{' is at offset in the input: 0, or -1 when it is
 * damaged (bad JSON, a member of the wrong type, a time out of range): why says what, with
 * offsets in the input. */
int chrome_parser_event(struct chrome_parser *ps, uint64_t offset, struct chrome_event *ev,
			char *why, size_t whylen);
/* Parses into a from now on, without emptying it before each event (its owner empties it when
 * what was parsed into it is done with); NULL: back to the parser's own arena, emptied before
 * each event. */
struct chrome_arena;
void chrome_parser_use_arena(struct chrome_parser *ps, struct chrome_arena *a);
/* From now on, an event's args as bytes of at most cap (chrome_event.args_blob), not as a
 * tree but for M and C events; 0: trees. */
void chrome_parser_args_blob(struct chrome_parser *ps, size_t cap);
/* The parser's own arena (emptied before each event). */
struct chrome_arena *chrome_parser_arena(struct chrome_parser *ps);
void chrome_parser_free(struct chrome_parser *ps);

#endif

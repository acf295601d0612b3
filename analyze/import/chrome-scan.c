/* chrome-scan.c — chrome-scan.h: blocks of input in one buffer that holds the current item from
 * its first byte, a small state machine for the top level, and brackets followed through
 * strings and escapes where an item must be delimited without being parsed. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../../common/xalloc.h"
#include "chrome-input.h"
#include "chrome-scan.h"

#define KEY_MAX 64

enum state {
	S_START,        /* before the first byte that is not white space */
	S_OBJ_FIRST,    /* after the top-level '{': a key or '}' */
	S_OBJ_NEXT,     /* after a top-level member: ',' or '}' */
	S_EV_FIRST,     /* after the event array's '[': an event or ']' */
	S_EV_NEXT,      /* after an event: ',' or ']' */
	S_EV_COMMA,     /* after a ',' between events: an event (or ']') */
	S_TAIL,         /* after the top-level value: white space only */
	S_DONE,
	S_FAILED,
};

struct chrome_scan {
	struct chrome_input *in;
	unsigned char *buf;
	size_t cap, len, pos;   /* buf[0..len) is input; buf[pos] the next byte to look at */
	uint64_t base;          /* the input offset of buf[0] */
	size_t block, max_item;
	int eof;
	int (*keep)(const char *key);
	chrome_scan_parse_fn *parse;
	void *parse_ctx;
	enum chrome_form form;
	enum state state;
	int depth, in_str, esc; /* where the scan of the current value stands */
	int saw_events;
	char key[KEY_MAX];
	char msg[256];
	uint64_t msg_offset;
	char note[160];         /* chrome_scan_note */
	uint64_t note_offset;
	int note_cut;           /* chrome_scan_cut */
};

/* step()'s "no item yet, go on". */
#define ITEM_AGAIN ((enum chrome_item)-1)

/* Bytes that matter outside strings (brackets, quote) and inside them (quote, backslash). */
static const unsigned char outside[256] = {
	['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1,
};
static const unsigned char inside[256] = { ['"'] = 1, ['\\'] = 1 };

static void fail(struct chrome_scan *s, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail(struct chrome_scan *s, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	s->msg_offset = offset;
	s->state = S_FAILED;
}

static void note(struct chrome_scan *s, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(struct chrome_scan *s, uint64_t offset, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->note, sizeof(s->note), fmt, ap);
	va_end(ap);
	s->note_offset = offset;
}

static ssize_t read_some(struct chrome_scan *s, unsigned char *to, size_t n)
{
	ssize_t r = chrome_input_read(s->in, to, n);
	if (r < 0)
		fail(s, s->base + s->len, "%s", chrome_input_error(s->in));
	return r;
}

/* Drops buf[0..from) and reads more after what is left.  1: read, 0: end of input, -1: error
 * (the state is S_FAILED).  Indices into buf move down by `from`. */
static int fill(struct chrome_scan *s, size_t from)
{
	if (s->eof)
		return 0;
	if (from) {
		memmove(s->buf, s->buf + from, s->len - from);
		s->base += from;
		s->len -= from;
		s->pos -= from;
	}
	if (s->cap - s->len < s->block) {
		size_t cap = s->cap * 2 > s->len + s->block ? s->cap * 2 : s->len + s->block;
		unsigned char *b = realloc(s->buf, cap);
		if (!b) {
			fail(s, s->base + s->len, "out of memory for an item of %zu bytes", s->len);
			return -1;
		}
		s->buf = b;
		s->cap = cap;
	}
	ssize_t r = read_some(s, s->buf + s->len, s->cap - s->len);
	if (r < 0)
		return -1;
	if (r == 0) {
		s->eof = 1;
		return 0;
	}
	s->len += (size_t)r;
	return 1;
}

#define TOK_END (-1)
#define TOK_ERR (-2)

/* The next byte that is not white space (pos stays on it), TOK_END or TOK_ERR. */
static int next_token(struct chrome_scan *s)
{
	for (;;) {
		while (s->pos < s->len) {
			unsigned char c = s->buf[s->pos];
			if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
				return c;
			s->pos++;
		}
		int r = fill(s, s->pos);
		if (r <= 0)
			return r == 0 ? TOK_END : TOK_ERR;
	}
}

/* Scans an object, array or string (in_str set after its opening quote) from pos; 1 when it
 * ended (pos past it), 0 when the buffer ran out first (the state is saved to go on). */
static int scan_nested(struct chrome_scan *s)
{
	const unsigned char *p = s->buf + s->pos, *end = s->buf + s->len;
	int depth = s->depth;

	if (s->in_str)
		goto string;
	for (;;) {
		while (p < end && !outside[*p])
			p++;
		if (p == end)
			break;
		unsigned char c = *p++;
		if (c == '"') {
string:
			if (s->esc) {
				s->esc = 0;
				p++;
			}
			for (;;) {
				while (p < end && !inside[*p])
					p++;
				if (p == end) {
					s->in_str = 1;
					goto out;
				}
				if (*p++ == '"')
					break;
				if (p == end) {
					s->in_str = s->esc = 1;
					goto out;
				}
				p++;
			}
			s->in_str = 0;
			if (depth == 0)
				goto done;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (--depth == 0) {
			goto done;
		}
	}
out:
	s->pos = (size_t)(p - s->buf);
	s->depth = depth;
	return 0;
done:
	s->pos = (size_t)(p - s->buf);
	s->depth = 0;
	return 1;
}

/* A number, true, false or null: to the first byte that cannot be part of one. */
static int scan_scalar(struct chrome_scan *s)
{
	while (s->pos < s->len) {
		unsigned char c = s->buf[s->pos];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '-' || c == '+' || c == '.'))
			return 1;
		s->pos++;
	}
	return 0;
}

enum take { TAKE_OK, TAKE_TOO_BIG, TAKE_CUT, TAKE_ERR };

/* Scans the value at pos to its end.  With hold, its text stays in the buffer from *start,
 * unless it grows past max_item: then it is scanned on without being held (TAKE_TOO_BIG). */
static enum take take_value(struct chrome_scan *s, int hold, size_t *start)
{
	size_t from = s->pos;
	int scalar = 0, big = 0;

	s->depth = s->in_str = s->esc = 0;
	if (s->buf[s->pos] == '"') {
		s->pos++;
		s->in_str = 1;
	} else if (s->buf[s->pos] != '{' && s->buf[s->pos] != '[') {
		scalar = 1;
	}
	for (;;) {
		if (scalar ? scan_scalar(s) : scan_nested(s))
			break;
		if (hold && s->len - from > s->max_item) {
			hold = 0;
			big = 1;
		}
		int r = fill(s, hold ? from : s->pos);
		if (hold)
			from = 0;
		if (r < 0)
			return TAKE_ERR;
		if (r == 0) {
			if (scalar)
				break;
			return TAKE_CUT;
		}
	}
	*start = from;
	if (big || (hold && s->pos - from > s->max_item))
		return TAKE_TOO_BIG;
	return TAKE_OK;
}

/* A byte as a message shows it: 'x', or its value in hex. */
static const char *shown(int c, char *tmp)
{
	if (c >= 0x20 && c < 0x7f)
		snprintf(tmp, 8, "'%c'", c);
	else
		snprintf(tmp, 8, "0x%02x", (unsigned)(c & 0xff));
	return tmp;
}

/* The element at pos, '{' already seen: parsed where it lies when it is all in the buffer and
 * valid; else delimited by brackets (and parsed again if it was only cut by the buffer). */
static enum chrome_item take_event(struct chrome_scan *s, struct chrome_span *sp)
{
	uint64_t at = s->base + s->pos;
	size_t start, used, avail = s->len - s->pos;
	int parsed = s->parse(s->parse_ctx, (const char *)s->buf + s->pos,
			      avail < s->max_item ? avail : s->max_item, &used);

	sp->key = NULL;
	if (parsed > 0) {
		sp->text = (const char *)s->buf + s->pos;
		sp->len = used;
		sp->offset = at;
		s->pos += used;
		s->state = S_EV_NEXT;
		return CHROME_ITEM_EVENT;
	}
	switch (take_value(s, 1, &start)) {
	case TAKE_OK:
		sp->text = (const char *)s->buf + start;
		sp->len = s->pos - start;
		sp->offset = s->base + start;
		s->state = S_EV_NEXT;
		if (parsed == 0 && s->parse(s->parse_ctx, sp->text, sp->len, &used) > 0)
			return CHROME_ITEM_EVENT;
		return CHROME_ITEM_DAMAGED;
	case TAKE_TOO_BIG:
		sp->text = NULL;
		sp->len = (size_t)(s->base + s->pos - at);
		sp->offset = at;
		s->state = S_EV_NEXT;
		return CHROME_ITEM_TOO_BIG;
	case TAKE_CUT:
		fail(s, at, "the input ends inside the event that starts here");
		return CHROME_ITEM_ERROR;
	default:
		return CHROME_ITEM_ERROR;
	}
}

/* Ends an object-form file that stops before its closing brackets: what was read is kept. */
static enum chrome_item cut(struct chrome_scan *s, const char *inside_what)
{
	note(s, s->base + s->len, "the input ends inside %s (cut short?): what came before is read",
	     inside_what);
	s->note_cut = 1;
	s->state = S_DONE;
	return CHROME_ITEM_END;
}

/* A top-level key and its value, pos on the key's opening quote. */
static enum chrome_item take_member(struct chrome_scan *s, struct chrome_span *sp)
{
	uint64_t at = s->base + s->pos;
	size_t start;
	char tmp[8];

	/* A key too long for any that is looked for is kept as "". */
	size_t klen = 0;
	switch (take_value(s, 1, &start)) {
	case TAKE_OK:
		klen = s->pos - start - 2;
		if (klen >= KEY_MAX)
			klen = 0;
		memcpy(s->key, s->buf + start + 1, klen);
		break;
	case TAKE_TOO_BIG:
		break;
	case TAKE_CUT:
		return cut(s, "a top-level key");
	default:
		return CHROME_ITEM_ERROR;
	}
	s->key[klen] = '\0';

	int c = next_token(s);
	if (c == TOK_END)
		return cut(s, "a top-level member");
	if (c != ':') {
		if (c >= 0)
			fail(s, s->base + s->pos, "expected ':' after the top-level key at offset %"
			     PRIu64 ", found %s", at, shown(c, tmp));
		return CHROME_ITEM_ERROR;
	}
	s->pos++;
	c = next_token(s);
	if (c == TOK_END)
		return cut(s, "a top-level member");
	if (c < 0)
		return CHROME_ITEM_ERROR;
	if (!strcmp(s->key, "traceEvents")) {
		if (c != '[') {
			fail(s, s->base + s->pos, "traceEvents is not an array (it starts with %s)",
			     shown(c, tmp));
			return CHROME_ITEM_ERROR;
		}
		s->pos++;
		s->state = S_EV_FIRST;
		if (s->saw_events) {
			sp->text = NULL;
			sp->len = 0;
			sp->offset = at;
			sp->key = NULL;
			return CHROME_ITEM_EVENTS_AGAIN;
		}
		s->saw_events = 1;
		return ITEM_AGAIN;
	}
	if (!c || !strchr("{[\"-0123456789tfn", c)) {
		fail(s, s->base + s->pos, "the value of the top-level key \"%s\" starts with %s",
		     s->key, shown(c, tmp));
		return CHROME_ITEM_ERROR;
	}
	int hold = s->keep && s->keep(s->key);
	uint64_t vat = s->base + s->pos;
	enum take t = take_value(s, hold, &start);
	if (t == TAKE_CUT)
		return cut(s, "a top-level member's value");
	if (t == TAKE_ERR)
		return CHROME_ITEM_ERROR;
	s->state = S_OBJ_NEXT;
	if (!hold)
		return ITEM_AGAIN;
	sp->key = s->key;
	if (t == TAKE_TOO_BIG) {
		sp->text = NULL;
		sp->len = (size_t)(s->base + s->pos - vat);
		sp->offset = vat;
		return CHROME_ITEM_TOO_BIG;
	}
	sp->text = (const char *)s->buf + start;
	sp->len = s->pos - start;
	sp->offset = s->base + start;
	return CHROME_ITEM_MEMBER;
}

/* The first byte of the file: '{' or '[' (after white space and a UTF-8 byte order mark). */
static enum chrome_item start(struct chrome_scan *s, struct chrome_span *sp)
{
	char tmp[8];
	int c = next_token(s);
	if (c == 0xef) {
		while (s->len - s->pos < 3 && !s->eof)
			if (fill(s, s->pos) < 0)
				return CHROME_ITEM_ERROR;
		if (s->len - s->pos >= 3 && !memcmp(s->buf + s->pos, "\xef\xbb\xbf", 3)) {
			s->pos += 3;
			c = next_token(s);
		}
	}
	if (c == TOK_END) {
		fail(s, 0, "the file is empty");
		return CHROME_ITEM_ERROR;
	}
	if (c < 0)
		return CHROME_ITEM_ERROR;
	s->pos++;
	if (c == '{') {
		s->form = CHROME_FORM_OBJECT;
		s->state = S_OBJ_FIRST;
	} else if (c == '[') {
		s->form = CHROME_FORM_ARRAY;
		s->saw_events = 1;
		s->state = S_EV_FIRST;
	} else {
		fail(s, s->base + s->pos - 1,
		     "not Chrome trace-event JSON: it starts with %s, not '{' or '['",
		     shown(c, tmp));
		return CHROME_ITEM_ERROR;
	}
	return ITEM_AGAIN;
}

static enum chrome_item in_object(struct chrome_scan *s, struct chrome_span *sp)
{
	char tmp[8];
	int c = next_token(s);
	if (c == TOK_END)
		return cut(s, "the top-level object");
	if (c < 0)
		return CHROME_ITEM_ERROR;
	if (c == '}') {
		s->pos++;
		s->state = S_TAIL;
		return ITEM_AGAIN;
	}
	if (s->state == S_OBJ_NEXT) {
		if (c != ',') {
			fail(s, s->base + s->pos,
			     "expected ',' or '}' between top-level members, found %s",
			     shown(c, tmp));
			return CHROME_ITEM_ERROR;
		}
		s->pos++;
		c = next_token(s);
		if (c == TOK_END)
			return cut(s, "the top-level object");
		if (c < 0)
			return CHROME_ITEM_ERROR;
	}
	if (c != '"') {
		fail(s, s->base + s->pos, "expected a top-level key, found %s", shown(c, tmp));
		return CHROME_ITEM_ERROR;
	}
	return take_member(s, sp);
}

static enum chrome_item in_events(struct chrome_scan *s, struct chrome_span *sp)
{
	char tmp[8];
	int c = next_token(s);
	if (c == TOK_END) {
		/* A bare array may lack its ']' (Chrome reads such a file). */
		s->state = S_DONE;
		return s->form == CHROME_FORM_ARRAY ? CHROME_ITEM_END : cut(s, "traceEvents");
	}
	if (c < 0)
		return CHROME_ITEM_ERROR;
	if (c == ']') {
		s->pos++;
		s->state = s->form == CHROME_FORM_ARRAY ? S_TAIL : S_OBJ_NEXT;
		return ITEM_AGAIN;
	}
	if (s->state == S_EV_NEXT) {
		if (c != ',') {
			fail(s, s->base + s->pos, "expected ',' or ']' after an event, found %s",
			     shown(c, tmp));
			return CHROME_ITEM_ERROR;
		}
		s->pos++;
		s->state = S_EV_COMMA;
		return ITEM_AGAIN;
	}
	if (c != '{') {
		fail(s, s->base + s->pos, "expected an event object after %s, found %s",
		     s->state == S_EV_COMMA ? "','" : "'['", shown(c, tmp));
		return CHROME_ITEM_ERROR;
	}
	return take_event(s, sp);
}

/* One step of the state machine: an item, or ITEM_AGAIN when it only moved on. */
static enum chrome_item step(struct chrome_scan *s, struct chrome_span *sp)
{
	int c;
	char tmp[8];

	switch (s->state) {
	case S_START:
		return start(s, sp);
	case S_OBJ_FIRST:
	case S_OBJ_NEXT:
		return in_object(s, sp);
	case S_EV_FIRST:
	case S_EV_NEXT:
	case S_EV_COMMA:
		return in_events(s, sp);
	case S_TAIL:
		c = next_token(s);
		if (c == TOK_ERR)
			return CHROME_ITEM_ERROR;
		s->state = S_DONE;
		if (c != TOK_END)
			note(s, s->base + s->pos, "%s after the end of the JSON value: ignored",
			     shown(c, tmp));
		if (s->form == CHROME_FORM_OBJECT && !s->saw_events) {
			fail(s, 0,
			     "not a Chrome trace: the top-level object has no \"traceEvents\"");
			return CHROME_ITEM_ERROR;
		}
		return CHROME_ITEM_END;
	case S_DONE:
		return CHROME_ITEM_END;
	default:
		return CHROME_ITEM_ERROR;
	}
}

enum chrome_item chrome_scan_next(struct chrome_scan *s, struct chrome_span *sp)
{
	enum chrome_item it;
	while ((it = step(s, sp)) == ITEM_AGAIN)
		;
	return it;
}

struct chrome_scan *chrome_scan_open(const char *path, const struct chrome_scan_opts *o,
				     char *err, size_t errlen)
{
	struct chrome_input *in = chrome_input_open(path, err, errlen);
	if (!in)
		return NULL;
	struct chrome_scan *s = xcalloc(1, sizeof(*s));
	s->buf = xmalloc(2 * o->block);
	s->in = in;
	s->cap = 2 * o->block;
	s->block = o->block;
	s->max_item = o->max_item;
	s->keep = o->keep;
	s->parse = o->parse;
	s->parse_ctx = o->parse_ctx;
	return s;
}

const char *chrome_scan_error(const struct chrome_scan *s, uint64_t *offset)
{
	*offset = s->msg_offset;
	return s->msg;
}

const char *chrome_scan_note(const struct chrome_scan *s, uint64_t *offset)
{
	*offset = s->note_offset;
	return s->note[0] ? s->note : NULL;
}

int chrome_scan_cut(const struct chrome_scan *s)
{
	return s->note_cut;
}

enum chrome_form chrome_scan_form(const struct chrome_scan *s)
{
	return s->form;
}

uint64_t chrome_scan_bytes(const struct chrome_scan *s)
{
	return s->base + s->len;
}

void chrome_scan_close(struct chrome_scan *s)
{
	if (!s)
		return;
	chrome_input_close(s->in);
	free(s->buf);
	free(s);
}

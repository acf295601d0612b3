/* chrome-json.c — chrome-json.h: a recursive descent over one event's text into cJSON nodes from
 * the arena; strings copied with one scan when they hold no escape; numbers converted without
 * strtod (Clinger's fast path, else exact 128-bit integer arithmetic) in nearly every case. */
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "chrome-json.h"
#include "../../common/import-records.h"
#include "../../common/xalloc.h"

/* cJSON's own limit on nesting (CJSON_NESTING_LIMIT), which keeps the recursion bounded. */
#define MAX_DEPTH 1000
/* The small functions of every member, put into their callers (calls cost the parse 15%). */
#define HOT static inline __attribute__((always_inline))
/* Marks the numbers made here, which carry their text (struct number). */
#define HAS_TEXT (1 << 12)

struct number {
	cJSON node;             /* first: a struct number is a cJSON */
	struct chrome_json_num num;
};

struct parser {
	const unsigned char *p, *end;
	struct chrome_arena *a;
	int depth;
};

/* The keys, 16 bytes each: every string the parser makes can be read 16 bytes at a time. */
static const char keys[CHROME_KEY_N][16] = {
	[CHROME_KEY_PH] = "ph", [CHROME_KEY_NAME] = "name", [CHROME_KEY_CAT] = "cat",
	[CHROME_KEY_PID] = "pid", [CHROME_KEY_TID] = "tid", [CHROME_KEY_TS] = "ts",
	[CHROME_KEY_DUR] = "dur", [CHROME_KEY_ARGS] = "args", [CHROME_KEY_ID] = "id",
	[CHROME_KEY_ID2] = "id2", [CHROME_KEY_LOCAL] = "local", [CHROME_KEY_GLOBAL] = "global",
	[CHROME_KEY_BP] = "bp", [CHROME_KEY_S] = "s", [CHROME_KEY_SCOPE] = "scope",
};

static const double pow10d[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static cJSON *parse_value(struct parser *ps);

/* parse_value() on a copy of the parser, the caller's moved on: the hot functions keep their struct
 * parser in registers only while its address is never taken (else every store through a char
 * pointer, a string's copy or a blob's byte, makes the compiler read ps->p again). */
static inline cJSON *value_of(struct parser *ps)
{
	struct parser t = *ps;
	cJSON *v = parse_value(&t);
	*ps = t;
	return v;
}

static const unsigned char is_space[256] = { [' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1 };

static inline void skip_space(struct parser *ps)
{
	const unsigned char *p = ps->p, *end = ps->end;
	/* Mostly there is none: a byte above ' ' is not white space. */
	if (p < end && *p > ' ')
		return;
	/* Or one space, as after the ", " and ": " of an indented file. */
	if (end - p >= 2 && p[0] == ' ' && p[1] > ' ') {
		ps->p = p + 1;
		return;
	}
#ifdef __SSE2__
	/* A line break and its indentation (Kineto's files have one before most members): 16
	 * bytes at a time. */
	const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
		      tab = _mm_set1_epi8('\t');
	for (; end - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		__m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, nl)),
					  _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, tab)));
		unsigned other = ~(unsigned)_mm_movemask_epi8(ws) & 0xffffu;
		if (other) {
			ps->p = p + __builtin_ctz(other);
			return;
		}
	}
#endif
	while (p < end && is_space[*p])
		p++;
	ps->p = p;
}

/* The byte c next, after white space: 1 and past it, or 0. */
static inline int expect(struct parser *ps, unsigned char c)
{
	if (ps->p < ps->end && *ps->p == c) {
		ps->p++;
		return 1;
	}
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == c) {
		ps->p++;
		return 1;
	}
	return 0;
}

/* The bytes c0 c1 (and c2) next, with no white space before them: 1 and past them, or 0 and
 * nothing moved.  An indented file's ": " and ", \"" in one test each, where expect would
 * skip the space on its own. */
static inline int next2(struct parser *ps, unsigned char c0, unsigned char c1)
{
	/* one 2-byte load and compare (a memcmp of constants the compiler puts inline) */
	const unsigned char want[2] = { c0, c1 };
	if (ps->end - ps->p >= 2 && !memcmp(ps->p, want, 2)) {
		ps->p += 2;
		return 1;
	}
	return 0;
}

static inline int next3(struct parser *ps, unsigned char c0, unsigned char c1, unsigned char c2)
{
	if (ps->end - ps->p >= 3 && ps->p[0] == c0 && ps->p[1] == c1 && ps->p[2] == c2) {
		ps->p += 3;
		return 1;
	}
	return 0;
}

static inline cJSON *node(struct parser *ps, int type)
{
	cJSON *n = chrome_arena_alloc(ps->a, sizeof(*n));
	memset(n, 0, sizeof(*n));
	n->type = type;
	return n;
}

/* The number of significant bits of v > 0. */
static int bit_length(unsigned __int128 v)
{
	uint64_t hi = (uint64_t)(v >> 64);
	return hi ? 128 - __builtin_clzll(hi) : 64 - __builtin_clzll((uint64_t)v);
}

/* v * 2^scale as a double: v (> 0) rounded to 53 significant bits, half to even, where sticky
 * says that v was truncated (the exact value is a little more). */
static double round_bits(unsigned __int128 v, int sticky, int scale)
{
	int bits = bit_length(v), drop = bits > 53 ? bits - 53 : 0;
	if (drop) {
		unsigned __int128 low = v & (((unsigned __int128)1 << drop) - 1);
		unsigned __int128 half = (unsigned __int128)1 << (drop - 1);
		v >>= drop;
		if (low > half || (low == half && (sticky || (v & 1))))
			v++;
	}
	/* 2^(scale + drop) made from its bits: the exponent stays well inside the normal range. */
	union { uint64_t u; double d; } two = { (uint64_t)(1023 + scale + drop) << 52 };
	return (double)(uint64_t)v * two.d;
}

static locale_t c_locale;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* strtod in the C locale (its decimal point is JSON's, whatever the program's locale). */
static double slow_to_double(const char *text, size_t len)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	char buf[64], *s = len < sizeof(buf) ? buf : xmalloc(len + 1);

	pthread_once(&once, c_locale_init);
	memcpy(s, text, len);
	s[len] = '\0';
	locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
	double d = strtod(s, NULL);
	if (old)
		uselocale(old);
	if (s != buf)
		free(s);
	return d;
}

double chrome_json_to_double(uint64_t m, int e10, const char *text, size_t len)
{
	if (m == 0)
		return 0;
	/* Clinger: both exact as doubles, so one operation rounds correctly. */
	if (m <= (1ull << 53) && e10 >= -22 && e10 <= 22)
		return e10 < 0 ? (double)m / pow10d[-e10] : (double)m * pow10d[e10];
	if (e10 >= 0 && e10 <= 19) {
		unsigned __int128 v = (unsigned __int128)m * (uint64_t)pow10d[e10];
		return round_bits(v, 0, 0);
	}
	if (e10 < 0 && e10 >= -19) {
		/* m / 10^k with 64 significant bits or more in the quotient, the rest sticky. */
		uint64_t d = (uint64_t)pow10d[-e10];
		int s = 64 + (64 - __builtin_clzll(d)) - (64 - __builtin_clzll(m));
		unsigned __int128 n = (unsigned __int128)m << s;
		unsigned __int128 q = n / d;
		return round_bits(q, n % d != 0, -s);
	}
	return slow_to_double(text, len);
}

/* The number's value as a double, as cJSON reads it (correctly rounded). */
double chrome_json_num_double(const struct chrome_json_num *n)
{
	if (n->special)
		return n->d;
	/* The magnitude, then the sign (the text without its '-' for strtod). */
	const char *digits = n->text + n->neg;
	size_t ndigits = n->len - (size_t)n->neg;
	double d = n->many ? slow_to_double(digits, ndigits)
			   : chrome_json_to_double(n->m, n->e10, digits, ndigits);
	return n->neg ? -d : d;
}

static inline int literal(struct parser *ps, const char *word, size_t n);

/* NaN, Infinity and -Infinity as Python's json module writes them (not JSON, and cJSON rejects
 * them, but a trace written from Python may hold them in its args); p after any '-'. */
static int special(struct parser *ps, const unsigned char *p, struct chrome_json_num *n)
{
	const char *word = *p == 'N' ? "NaN" : "Infinity";
	ps->p = p;
	if ((n->neg && *p == 'N') || !literal(ps, word, strlen(word)))
		return 0;
	n->len = (size_t)(ps->p - (const unsigned char *)n->text);
	n->many = n->special = 1;
	n->d = *p == 'N' ? NAN : n->neg ? -INFINITY : INFINITY;
	return 1;
}

static const uint64_t pow10u[9] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
};

/* The digits at p (up to eight, each a byte 0..9 in w, the first lowest) as a number. */
HOT uint64_t swar_value(uint64_t w)
{
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffull;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffull;
	return (w * 10000 + (w >> 32)) & 0xffffffffull;
}

/* Digits from p that all count (after the first non-zero one) onto *m, eight bytes at a time
 * while 19 digits hold them: where it stopped (at a non-digit, or where the byte loop must go
 * on); e10, when given, goes down by one a digit (a fraction). */
HOT const unsigned char *some_digits(const unsigned char *p, const unsigned char *end,
				     uint64_t *m, int *ndig, int *e10)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		uint64_t d = w - 0x3030303030303030ull;
		uint64_t bad = (d | (w + 0x4646464646464646ull)) & 0x8080808080808080ull;
		unsigned n = bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
		if (!n || *ndig + (int)n > 19)
			break;
		/* the n digits moved up to the top bytes, zeros below: the same value */
		uint64_t v = swar_value(n == 8 ? d : d << (64 - 8 * n));
		*m = *m * pow10u[n] + v;
		*ndig += (int)n;
		if (e10)
			*e10 -= (int)n;
		p += n;
		if (n < 8)
			break;
	}
#else
	(void)end, (void)m, (void)ndig, (void)e10;
#endif
	return p;
}

/* How many of the 8 bytes in w (the first lowest) are digits before the first that is not
 * one (8: all are), with their values, w less '0' in each byte, in *d. */
static inline unsigned digit_run(uint64_t w, uint64_t *d)
{
	*d = w - 0x3030303030303030ull;
	uint64_t bad = (*d | (w + 0x4646464646464646ull)) & 0x8080808080808080ull;
	return bad ? (unsigned)__builtin_ctzll(bad) >> 3 : 8;
}

/* The plain numbers of nearly every trace, read with a load or two: no sign, up to 15 digits
 * before an optional point and up to 7 after it (19 in all at most), no exponent, with 32
 * bytes of text at p.  1 when it was one, with *n and ps->p as scan_number sets them; 0 (and
 * nothing changed) for scan_number's byte loops. */
HOT int plain_number(struct parser *ps, struct chrome_json_num *n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const unsigned char *p = ps->p;
	uint64_t w, d, m;
	unsigned k, j;

	if (ps->end - p < 32)
		return 0;
	memcpy(&w, p, 8);
	k = digit_run(w, &d);
	if (k == 0)
		return 0;
	if (k < 8) {
		m = swar_value(d << (64 - 8 * k));
	} else {
		uint64_t d2;
		memcpy(&w, p + 8, 8);
		j = digit_run(w, &d2);
		if (j == 8)
			return 0;
		m = swar_value(d) * (j ? pow10u[j] : 1) + (j ? swar_value(d2 << (64 - 8 * j)) : 0);
		k += j;
	}
	/* the digits before a point: leading zeros (cJSON's leniency) add nothing, as in
	 * scan_number's loop */
	int e10 = 0;
	p += k;
	if (*p == '.') {
		memcpy(&w, p + 1, 8);
		j = digit_run(w, &d);
		if (j == 0 || j == 8 || k + j > 19)
			return 0;
		m = m * pow10u[j] + swar_value(d << (64 - 8 * j));
		e10 = -(int)j;
		p += 1 + j;
	}
	if (*p == 'e' || *p == 'E' || *p == '.')
		return 0;
	n->text = (const char *)ps->p;
	n->len = (size_t)(p - ps->p);
	n->m = m;
	n->e10 = e10;
	n->neg = n->many = n->special = 0;
	ps->p = p;
	return 1;
#else
	(void)ps, (void)n;
	return 0;
#endif
}

/* A number by JSON's grammar into *n: 1, or 0 with ps->p where it stopped (the end of the
 * text when the number may go on). */
HOT int scan_number(struct parser *ps, struct chrome_json_num *n)
{
	const unsigned char *start = ps->p, *p = ps->p, *end = ps->end;
	uint64_t m = 0;
	int ndig = 0, e10 = 0, many = 0, neg = 0;

	if (plain_number(ps, n))
		return 1;
	n->text = (const char *)start;
	n->special = 0;
	ps->p = p + (p < end && *p == '-');
	if (p < end && *p == '-')
		neg = 1, p++;
	n->neg = neg;
	if (p < end && (*p == 'N' || *p == 'I')) {
		struct parser t = *ps;  /* on a copy, as value_of */
		int r = special(&t, p, n);
		*ps = t;
		return r;
	}
	if (p == end || *p < '0' || *p > '9')
		return 0;
	/* No leading zero: every digit counts, read up to eight at a time while they fit. */
	if (*p != '0')
		p = some_digits(p, end, &m, &ndig, NULL);
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		if (ndig < 19) {
			m = m * 10 + (uint64_t)(*p - '0');
			ndig += m != 0;
		} else {
			e10++;
			many = 1;
		}
	}
	if (p < end && *p == '.') {
		if (++p == end || *p < '0' || *p > '9') {
			ps->p = p;
			return 0;
		}
		if (m)
			p = some_digits(p, end, &m, &ndig, &e10);
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (ndig < 19) {
				m = m * 10 + (uint64_t)(*p - '0');
				ndig += m != 0;
				e10--;
			} else {
				many = 1;
			}
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0, e = 0;
		if (++p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p == end || *p < '0' || *p > '9') {
			ps->p = p;
			return 0;
		}
		for (; p < end && *p >= '0' && *p <= '9'; p++)
			if (e < 100000)
				e = e * 10 + (*p - '0');
		e10 += eneg ? -e : e;
	}
	ps->p = p;
	n->len = (size_t)(p - start);
	n->m = m;
	n->e10 = e10;
	n->many = many;
	return 1;
}

/* A number node: its value, as cJSON sets valuedouble and valueint, and its text and digits. */
static cJSON *number(struct parser *ps)
{
	struct number *n = chrome_arena_alloc(ps->a, sizeof(*n));
	if (!scan_number(ps, &n->num))
		return NULL;
	double d = chrome_json_num_double(&n->num);
	memset(&n->node, 0, sizeof(n->node));
	n->node.type = cJSON_Number | HAS_TEXT;
	n->node.valuedouble = d;
	n->node.valueint = isnan(d) ? 0 : d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN
										       : (int)d;
	return &n->node;
}

static int hex4(const unsigned char *p, unsigned *out)
{
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		unsigned c = p[i], d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			d = (c | 0x20) - 'a' + 10;
		else
			return -1;
		v = v << 4 | d;
	}
	*out = v;
	return 0;
}

static char *utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* A \u escape at p (after the backslash and 'u'), a surrogate pair as one code point. */
static const unsigned char *unicode(const unsigned char *p, const unsigned char *end, char **o)
{
	unsigned cp, lo;
	if (end - p < 4 || hex4(p, &cp))
		return NULL;
	p += 4;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return NULL;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, &lo) ||
		    lo < 0xdc00 || lo > 0xdfff)
			return NULL;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		p += 6;
	}
	*o = utf8(*o, cp);
	return p;
}

/* The escapes from p (a backslash) to the closing quote at q, into o. */
static char *unescape(const unsigned char *p, const unsigned char *q, char *o)
{
	while (p < q) {
		if (*p != '\\') {
			*o++ = (char)*p++;
			continue;
		}
		switch (p[1]) {
		case '"': case '\\': case '/':
			*o++ = (char)p[1];
			break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			if (!(p = unicode(p + 2, q, &o)))
				return NULL;
			continue;
		default:
			return NULL;
		}
		p += 2;
	}
	*o = '\0';
	return o;
}

/* A key of up to 8 bytes as a number, told among keys[] by its length, then compared with
 * constants (a table looked up by a hash of it made a chain of dependent loads each key). */
#define KEY_MAX 6
#define KC(s, i) ((uint64_t)(unsigned char)(s)[i] << (8 * (i)))
#define KW2(s) (KC(s, 0) | KC(s, 1))
#define KW3(s) (KW2(s) | KC(s, 2))
#define KW4(s) (KW3(s) | KC(s, 3))
#define KW5(s) (KW4(s) | KC(s, 4))
#define KW6(s) (KW5(s) | KC(s, 5))

/* s[0..n) (n <= 8) as a little-endian number; avail: how many bytes may be read at s. */
static inline uint64_t key_word(const unsigned char *s, size_t n, size_t avail)
{
	uint64_t w = 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (avail >= 8) {
		memcpy(&w, s, 8);
		return n < 8 ? w & (~0ull >> (64 - 8 * n)) : w;
	}
#endif
	for (size_t i = 0; i < n; i++)
		w |= (uint64_t)s[i] << (8 * i);
	return w;
}

/* The key s[0..n) among keys[]: its enum chrome_key, or -1; avail as for key_word. */
static inline int known_key_id(const unsigned char *s, size_t n, size_t avail)
{
	if (n == 0 || n > KEY_MAX)
		return -1;
	uint64_t w = key_word(s, n, avail);
	int i = -1;
	switch (n) {
	case 1:
		i = w == KC("s", 0) ? CHROME_KEY_S : -1;
		break;
	case 2:
		i = w == KW2("ph") ? CHROME_KEY_PH : w == KW2("ts") ? CHROME_KEY_TS
		  : w == KW2("id") ? CHROME_KEY_ID : w == KW2("bp") ? CHROME_KEY_BP : -1;
		break;
	case 3:
		i = w == KW3("cat") ? CHROME_KEY_CAT : w == KW3("pid") ? CHROME_KEY_PID
		  : w == KW3("tid") ? CHROME_KEY_TID : w == KW3("dur") ? CHROME_KEY_DUR
		  : w == KW3("id2") ? CHROME_KEY_ID2 : -1;
		break;
	case 4:
		i = w == KW4("name") ? CHROME_KEY_NAME : w == KW4("args") ? CHROME_KEY_ARGS : -1;
		break;
	case 5:
		i = w == KW5("local") ? CHROME_KEY_LOCAL : w == KW5("scope") ? CHROME_KEY_SCOPE : -1;
		break;
	default:
		i = w == KW6("global") ? CHROME_KEY_GLOBAL : -1;
		break;
	}
	return i;
}

/* The key s[0..n) among keys[], or NULL; avail as for key_word. */
static inline const char *known_key(const unsigned char *s, size_t n, size_t avail)
{
	int i = known_key_id(s, n, avail);
	return i >= 0 ? keys[i] : NULL;
}

/* An event's own key, p after its opening quote, told from one 8-byte load: its enum
 * chrome_key when it is among keys[] and its closing quote is within those bytes (*after just
 * past it), else -1 for string() to read it.  (A known key holds no backslash and no NUL, so
 * a key with one before that quote is never taken for one.) */
HOT int fast_key(const unsigned char *p, const unsigned char *end, const unsigned char **after)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w;
	if (end - p < 8)
		return -1;
	memcpy(&w, p, 8);
	/* the lowest byte that is '"': the lowest zero byte of x, which this finds exactly */
	uint64_t x = w ^ 0x2222222222222222ull;
	uint64_t z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
	if (!z)
		return -1;
	size_t n = (size_t)__builtin_ctzll(z) >> 3;
	int id = known_key_id(p, n, 8);
	if (id >= 0)
		*after = p + n + 1;
	return id;
#else
	(void)p, (void)end, (void)after;
	return -1;
#endif
}

/* The first '"', '\\' or NUL in [q, end), or end: 16 bytes at a time where SSE2 is.  (A NUL,
 * which ends the C string cJSON keeps, sends a string the slow way, as an escape does.) */
static inline const unsigned char *quote_or_escape(const unsigned char *q, const unsigned char *end)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i zero = _mm_setzero_si128();
	for (; end - q >= 16; q += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)q);
		unsigned hit = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, zero)),
				     _mm_cmpeq_epi8(v, backslash)));
		if (hit)
			return q + __builtin_ctz(hit);
	}
#endif
	while (q < end && *q != '"' && *q != '\\' && *q)
		q++;
	return q;
}

/* A string, p after its opening quote: its text in the arena, NUL-terminated; a key among
 * keys[] is not copied. */
HOT char *string(struct parser *ps, int key)
{
	const unsigned char *s = ps->p, *end = ps->end, *q = quote_or_escape(s, end);
	if (q < end && *q == '"') {
		size_t n = (size_t)(q - s);
		const char *k = key ? known_key(s, n, (size_t)(end - s)) : NULL;
		ps->p = q + 1;
		if (k)
			return (char *)k;
		char *out = chrome_arena_alloc(ps->a, n + 1);
		/* Short strings in one 16-byte move: out has 16 bytes at least, and so has s. */
		if (n < 16 && end - s >= 16)
			memcpy(out, s, 16);
		else
			memcpy(out, s, n);
		out[n] = '\0';
		return out;
	}
	const unsigned char *e = q;
	while (e < end && *e != '"')
		e += *e == '\\' ? 2 : 1;
	if (e >= end) {
		ps->p = end;
		return NULL;
	}
	/* Escapes only shorten: the text's length is room enough. */
	char *out = chrome_arena_alloc(ps->a, (size_t)(e - s) + 1);
	memcpy(out, s, (size_t)(q - s));
	char *o = unescape(q, e, out + (q - s));
	if (!o) {
		ps->p = q;
		return NULL;
	}
	ps->p = e + 1;
	const char *k = key ? known_key((const unsigned char *)out, (size_t)(o - out), 0) : NULL;
	return k ? (char *)k : out;
}

/* After the opening '[' or '{': the elements, or the members with their keys. */
static cJSON *container(struct parser *ps, int object)
{
	cJSON *n = node(ps, object ? cJSON_Object : cJSON_Array), *last = NULL;
	const unsigned char close = object ? '}' : ']';

	if (++ps->depth > MAX_DEPTH)
		return NULL;
	if (expect(ps, close)) {
		ps->depth--;
		return n;
	}
	for (;;) {
		char *key = NULL;
		if (object) {
			/* the keys of an event's own members told apart, not those inside them */
			if (!expect(ps, '"') || !(key = string(ps, ps->depth == 1)) ||
			    !expect(ps, ':'))
				return NULL;
		}
		cJSON *v = parse_value(ps);
		if (!v)
			return NULL;
		v->string = key;
		if (last) {
			last->next = v;
			v->prev = last;
		} else {
			n->child = v;
		}
		last = v;
		n->child->prev = last;
		if (expect(ps, ','))
			continue;
		if (expect(ps, close)) {
			ps->depth--;
			return n;
		}
		return NULL;
	}
}

/* true, false, null; a word cut by the end of the text leaves ps->p there. */
static inline int literal(struct parser *ps, const char *word, size_t n)
{
	size_t have = (size_t)(ps->end - ps->p);
	if (have < n) {
		if (!memcmp(ps->p, word, have))
			ps->p = ps->end;
		return 0;
	}
	if (memcmp(ps->p, word, n))
		return 0;
	ps->p += n;
	return 1;
}

static cJSON *parse_value(struct parser *ps)
{
	skip_space(ps);
	if (ps->p >= ps->end)
		return NULL;
	switch (*ps->p) {
	case '{':
	case '[':
		return container(ps, *ps->p++ == '{');
	case '"': {
		ps->p++;
		char *s = string(ps, 0);
		if (!s)
			return NULL;
		cJSON *n = node(ps, cJSON_String);
		n->valuestring = s;
		return n;
	}
	case 't': {
		if (!literal(ps, "true", 4))
			return NULL;
		cJSON *t = node(ps, cJSON_True);
		t->valueint = 1;
		return t;
	}
	case 'f':
		return literal(ps, "false", 5) ? node(ps, cJSON_False) : NULL;
	case 'n':
		return literal(ps, "null", 4) ? node(ps, cJSON_NULL) : NULL;
	default:
		return number(ps);
	}
}

/* ---- args as bytes (chrome_json_blob): argblob.c's encoding, from the text ---------------- */

/* argblob.c's depth past which an object or array is written as its JSON text */
#define BLOB_DEPTH 31
#define EXACT_INT 9007199254740992.0    /* 2^53 */

static inline void bput(struct chrome_json_blob *b, const void *p, size_t n)
{
	if (b->full || b->cap - b->len < n) {
		b->full = 1;
		return;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static inline void bput_u8(struct chrome_json_blob *b, uint8_t v)
{
	if (b->full || b->cap == b->len) {
		b->full = 1;
		return;
	}
	b->buf[b->len++] = v;
}

/* A value's type into the byte kept for it at `at` (written before its key). */
static inline void btype(struct chrome_json_blob *b, size_t at, uint8_t type)
{
	if (at < b->len)
		b->buf[at] = type;
}

/* A string's length (2 bytes for a key, cut at 65535; 4 for a value) and its n bytes (without
 * a NUL), which may be read 16 at a time where avail (bytes readable at s) allows. */
static inline void bstr(struct chrome_json_blob *b, int key, const void *s, size_t n,
			size_t avail)
{
	size_t lb = key ? 2 : 4;
	if (key && n > 65535) {
		n = 65535;
		b->cut++;
	}
	if (b->full || b->cap - b->len < lb + n) {
		b->full = 1;    /* the bytes past cap are not wanted: only that they overflow */
		return;
	}
	uint8_t *o = b->buf + b->len;
	uint32_t n32 = (uint32_t)n;
	uint16_t n16 = (uint16_t)n;
	memcpy(o, key ? (const void *)&n16 : (const void *)&n32, lb);
	/* a short one in one 16-byte move: buf has 16 bytes of room past cap */
	if (n <= 16 && avail >= 16)
		memcpy(o + lb, s, 16);
	else
		memcpy(o + lb, s, n);
	b->len += lb + n;
}

static int bstring_slow(struct parser *ps, struct chrome_json_blob *b, int key,
			const unsigned char *s, const unsigned char *q);

/* A string, p after its opening quote, into the blob (bstr), as far as its first NUL (cJSON's
 * C string): 1, or 0 where string() fails.  One with no escape (nearly all) here, in the
 * caller; the others, unescaped, by bstring_slow. */
HOT int bstring(struct parser *ps, struct chrome_json_blob *b, int key)
{
	const unsigned char *s = ps->p, *end = ps->end, *q = quote_or_escape(s, end);
	if (q < end && *q == '"') {
		ps->p = q + 1;
		bstr(b, key, s, (size_t)(q - s), (size_t)(end - s));
		return 1;
	}
	return bstring_slow(ps, b, key, s, q);
}

static int bstring_slow(struct parser *ps, struct chrome_json_blob *b, int key,
			const unsigned char *s, const unsigned char *q)
{
	const unsigned char *end = ps->end, *e = q;
	while (e < end && *e != '"')
		e += *e == '\\' ? 2 : 1;
	if (e >= end) {
		ps->p = end;
		return 0;
	}
	char *out = chrome_arena_alloc(ps->a, (size_t)(e - s) + 1);
	memcpy(out, s, (size_t)(q - s));
	char *o = unescape(q, e, out + (q - s));
	if (!o) {
		ps->p = q;
		return 0;
	}
	ps->p = e + 1;
	bstr(b, key, out, strlen(out), 0);
	return 1;
}

static int bcontainer(struct parser *ps, struct chrome_json_blob *b, int object, int depth);

/* bcontainer() on a copy of the parser, as value_of. */
static inline int bcontainer_of(struct parser *ps, struct chrome_json_blob *b, int object,
				int depth)
{
	struct parser t = *ps;
	int ok = bcontainer(&t, b, object, depth);
	*ps = t;
	return ok;
}

/* One value at depth (argblob.c's: 0 for the members of args) into the blob, its type into
 * the byte kept at `at`. */
HOT int bvalue(struct parser *ps, struct chrome_json_blob *b, int depth, size_t at)
{
	skip_space(ps);
	if (ps->p >= ps->end)
		return 0;
	switch (*ps->p) {
	case '{':
	case '[': {
		int object = *ps->p == '{';
		if (depth >= BLOB_DEPTH) {
			/* too deep to follow: its JSON text, as cJSON prints its tree */
			cJSON *v = value_of(ps);
			if (!v)
				return 0;
			char *text = cJSON_PrintUnformatted(v);
			b->deep++;
			b->items++;
			btype(b, at, TPROF_IMP_A_STR);
			uint32_t n = text ? (uint32_t)strlen(text) : 0;
			bput(b, &n, 4);
			bput(b, text, n);
			cJSON_free(text);
			return 1;
		}
		ps->p++;
		btype(b, at, object ? TPROF_IMP_A_OBJ : TPROF_IMP_A_ARR);
		b->items += 2;
		if (!bcontainer_of(ps, b, object, depth + 1))
			return 0;
		bput_u8(b, TPROF_IMP_A_END);
		return 1;
	}
	case '"':
		ps->p++;
		btype(b, at, TPROF_IMP_A_STR);
		b->items++;
		return bstring(ps, b, 0);
	case 't':
		btype(b, at, TPROF_IMP_A_TRUE);
		b->items++;
		return literal(ps, "true", 4);
	case 'f':
		btype(b, at, TPROF_IMP_A_FALSE);
		b->items++;
		return literal(ps, "false", 5);
	case 'n':
		btype(b, at, TPROF_IMP_A_NULL);
		b->items++;
		return literal(ps, "null", 4);
	default: {
		struct chrome_json_num n;
		int64_t i;
		if (!scan_number(ps, &n))
			return 0;
		b->items++;
		if (!n.special && !n.many && n.e10 == 0 && n.m < (1ull << 53)) {
			/* a whole number a double holds: argblob.c's integer, without the double */
			i = n.neg ? -(int64_t)n.m : (int64_t)n.m;
		} else {
			double d = chrome_json_num_double(&n);
			if (!(fabs(d) < EXACT_INT && d == (double)(int64_t)d)) {
				btype(b, at, TPROF_IMP_A_DOUBLE);
				bput(b, &d, 8);
				return 1;
			}
			i = (int64_t)d;
		}
		btype(b, at, TPROF_IMP_A_INT);
		bput(b, &i, 8);
		return 1;
	}
	}
}

/* After the opening '{' or '[': the members (each a type byte, its key in an object, its
 * value), as container() parses them. */
HOT int bcontainer_in(struct parser *ps, struct chrome_json_blob *b, int object, int depth)
{
	const unsigned char close = object ? '}' : ']';

	if (++ps->depth > MAX_DEPTH)
		return 0;
	if (expect(ps, close)) {
		ps->depth--;
		return 1;
	}
	for (int quoted = 0;;) {
		size_t at = b->full ? SIZE_MAX : b->len;
		bput_u8(b, 0);
		/* quoted: the key's opening quote was read with the comma before it */
		if (object && ((!quoted && !expect(ps, '"')) || !bstring(ps, b, 1) ||
			       (!next2(ps, ':', ' ') && !expect(ps, ':'))))
			return 0;
		if (!bvalue(ps, b, depth, at))
			return 0;
		quoted = object && next3(ps, ',', ' ', '"');
		if (quoted || expect(ps, ','))
			continue;
		if (expect(ps, close)) {
			ps->depth--;
			return 1;
		}
		return 0;
	}
}

/* The same on a copy of the parser, in registers (value_of), copied back where it stopped. */
static int bcontainer(struct parser *ps, struct chrome_json_blob *b, int object, int depth)
{
	struct parser l = *ps;
	int ok = bcontainer_in(&l, b, object, depth);
	*ps = l;
	return ok;
}

/* One member's value of a key in want: a string or a number without a node; null, and any
 * other value as its node. */
HOT int member_value(struct parser *ps, struct chrome_json_value *v)
{
	skip_space(ps);
	if (ps->p >= ps->end)
		return 0;
	switch (*ps->p) {
	case '"':
		ps->p++;
		v->kind = CHROME_JSON_STRING;
		return (v->str = string(ps, 0)) != NULL;
	case 'n':
		v->kind = CHROME_JSON_NULL;
		return literal(ps, "null", 4);
	case '{': case '[': case 't': case 'f':
		v->kind = CHROME_JSON_NODE;
		return (v->node = value_of(ps)) != NULL;
	default:
		v->kind = CHROME_JSON_NUMBER;
		return scan_number(ps, &v->num);
	}
}

int chrome_json_event(struct chrome_arena *a, const char *text, size_t len, size_t *used,
		      unsigned want, struct chrome_json_value *vals, unsigned *have, cJSON **rest,
		      struct chrome_json_blob *blob)
{
	struct parser ps = { (const unsigned char *)text, (const unsigned char *)text + len, a, 1 };
	struct chrome_json_value later;
	cJSON *last = NULL;
	/* which were read, in a register: through the pointer, each store of a string's bytes
	 * would make the compiler read it again */
	unsigned got = 0;

	*rest = NULL;
	*have = 0;
	skip_space(&ps);
	if (ps.p >= ps.end || *ps.p != '{') {
		/* not an object: its tree as chrome_json_parse makes it */
		ps.depth = 0;
		*rest = value_of(&ps);
		*used = (size_t)(ps.p - (const unsigned char *)text);
		return *rest ? 2 : 0;
	}
	ps.p++;
	if (!expect(&ps, '}')) {
		for (int quoted = 0;;) {
			char *key;
			const unsigned char *after;
			/* quoted: the key's opening quote was read with the comma before it */
			if (!quoted && !expect(&ps, '"'))
				goto bad;
			int id = fast_key(ps.p, ps.end, &after);
			if (id >= 0) {
				key = (char *)keys[id];
				ps.p = after;
			} else {
				if (!(key = string(&ps, 1)))
					goto bad;
				id = chrome_json_key_id(key);
			}
			if (!next2(&ps, ':', ' ') && !expect(&ps, ':'))
				goto bad;
			if (id >= 0 && (want >> id & 1)) {
				/* read where it goes: the first that is not null counts */
				int first = !(got >> id & 1);
				struct chrome_json_value *v = first ? &vals[id] : &later;
				if (blob && first && id == CHROME_KEY_ARGS) {
					skip_space(&ps);
					if (ps.p < ps.end && *ps.p == '{') {
						/* the args as bytes, without their tree */
						const unsigned char *at = ps.p++;
						blob->len = 0;
						blob->full = 0;
						blob->items = blob->deep = blob->cut = 0;
						if (!bcontainer_of(&ps, blob, 1, 0))
							goto bad;
						blob->text = (const char *)at;
						blob->text_len = (size_t)(ps.p - at);
						v->kind = CHROME_JSON_BLOB;
						got |= 1u << id;
						goto next;
					}
				}
				if (!member_value(&ps, v))
					goto bad;
				if (v->kind == CHROME_JSON_NODE)
					v->node->string = key;
				if (first && v->kind != CHROME_JSON_NULL)
					got |= 1u << id;
				else if (!first && v->kind != CHROME_JSON_NULL)
					got |= CHROME_HAVE_AGAIN;
			} else {
				cJSON *v = value_of(&ps);
				if (!v)
					goto bad;
				v->string = key;
				if (!last) {
					*rest = node(&ps, cJSON_Object);
					(*rest)->child = v;
				} else {
					last->next = v;
					v->prev = last;
				}
				last = v;
				(*rest)->child->prev = last;
			}
next:
			quoted = next3(&ps, ',', ' ', '"');
			if (quoted || expect(&ps, ','))
				continue;
			if (expect(&ps, '}'))
				break;
			goto bad;
		}
	}
	*used = (size_t)(ps.p - (const unsigned char *)text);
	*have = got;
	return 1;
bad:
	*used = (size_t)(ps.p - (const unsigned char *)text);
	*have = got;
	return 0;
}

cJSON *chrome_json_parse(struct chrome_arena *a, const char *text, size_t len, size_t *used)
{
	struct parser ps = { (const unsigned char *)text, (const unsigned char *)text + len, a, 0 };
	cJSON *v = parse_value(&ps);
	*used = (size_t)(ps.p - (const unsigned char *)text);
	return v;
}

int chrome_json_key_id(const char *key)
{
	uintptr_t at = (uintptr_t)key - (uintptr_t)keys[0];
	return at < sizeof(keys) ? (int)(at / sizeof(keys[0])) : -1;
}

int chrome_json_number_scaled(const cJSON *number, int scale, int64_t *out)
{
	if (!number || !(number->type & HAS_TEXT))
		return -1;
	return chrome_json_num_scaled(&((const struct number *)number)->num, scale, out);
}

const char *chrome_json_number_text(const cJSON *number, size_t *len)
{
	if (!number || !(number->type & HAS_TEXT))
		return NULL;
	const struct number *n = (const struct number *)number;
	*len = n->num.len;
	return n->num.text;
}

int chrome_json_num_scaled(const struct chrome_json_num *n, int scale, int64_t *out)
{
	if (n->many)
		return chrome_text_decimal(n->text, n->len, scale, out);
	return chrome_text_scaled(n->m, n->e10 + scale, n->neg, out);
}

/* util/pack.h — values packed into bytes and read back, for what the analysis processes of
 * the parallel analyzer send each other (parallel/par.h): while loading (read/share.c) and at
 * the summary's end (summary/partial.c).  Fixed-width integers in the machine's order (the
 * processes of one job run one build); strings with their length; a reader that finds the
 * bytes ending early reads zeros from then on and says so (unpack_ok). */
#ifndef TPROF_ANALYZE_PACK_H
#define TPROF_ANALYZE_PACK_H

#include <stddef.h>
#include <stdint.h>

struct pack {
	char *v;
	size_t n, cap;
};

void pack_bytes(struct pack *b, const void *p, size_t n);
void pack_u64(struct pack *b, uint64_t v);
void pack_i64(struct pack *b, int64_t v);
void pack_f64(struct pack *b, double v);
/* A string's length and bytes (NULL as ""). */
void pack_str(struct pack *b, const char *s);
/* A string of the trace-wide set by its text (id 0: ""). */
void pack_name(struct pack *b, uint32_t id);
void pack_free(struct pack *b);

struct unpack {
	const char *at, *end;
	int short_read;                 /* the bytes ended before a value */
};

static inline struct unpack unpack_of(const void *p, size_t n)
{
	return (struct unpack){ p, (const char *)p + n, 0 };
}

/* Whether bytes remain (and none was missing). */
static inline int unpack_more(const struct unpack *u)
{
	return !u->short_read && u->at < u->end;
}

/* 1 with n bytes copied to p, or 0 (p zeroed) when fewer remain. */
int unpack_bytes(struct unpack *u, void *p, size_t n);
uint64_t unpack_u64(struct unpack *u);
int64_t unpack_i64(struct unpack *u);
double unpack_f64(struct unpack *u);
/* A string: its bytes in the buffer (not terminated) and *len; "" past the end. */
const char *unpack_str(struct unpack *u, size_t *len);
/* A string, malloc'd and terminated. */
char *unpack_strdup(struct unpack *u);
/* A string, as its id in the trace-wide set. */
uint32_t unpack_name(struct unpack *u);
/* A count of items each at least `min` bytes long: 0 (and the reader marked short) when the
 * bytes left cannot hold them, so that no count read drives memory past what was sent. */
size_t unpack_count(struct unpack *u, size_t min);

#endif

/* strings.h — string sets (strings.c): strings numbered from 1 in the order first seen, by
 * their content; and the trace-wide set, where every process's strings get one id, so that
 * outputs and tables can key on plain integers. */
#ifndef TPROF_ANALYZE_STRINGS_H
#define TPROF_ANALYZE_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include "hindex.h"

struct strset {
	struct strset_ent {
		char *s;
		uint32_t len;
	} *v;                           /* by id - 1 */
	uint32_t n;
	size_t cap;
	struct hindex by_hash;          /* the ids, by their strings' hashes */
};

/* The id of s[0..len), numbered now when new (*fresh set to 1; fresh may be NULL). */
uint32_t strset_id(struct strset *t, const char *s, size_t len, int *fresh);
/* The string of an id (1 to t->n), and its length (len may be NULL). */
const char *strset_str(const struct strset *t, uint32_t id, size_t *len);
void strset_free(struct strset *t);

/* The trace-wide set: id 0 is the empty string. */
uint32_t strings_add(const char *s, size_t len);
const char *strings_get(uint32_t id);
size_t strings_len(uint32_t id);
uint32_t strings_count(void);
void strings_free(void);

#endif

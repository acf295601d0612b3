/* argblob.h — an imported event's "args" object written as the compact bytes of
 * common/import-records.h (argblob.c), and read back member by member for the scene. */
#ifndef TPROF_ANALYZE_ARGBLOB_H
#define TPROF_ANALYZE_ARGBLOB_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* What an encoding held, for what the import says it changed. */
struct argblob_stats {
	unsigned items;         /* values written, each object and array counting twice (its
				 * start and its end): the scene's arguments they make */
	unsigned deep;          /* objects or arrays too deep to follow, written as JSON text */
	unsigned cut;           /* keys longer than 65535 bytes, cut */
};

/* Appends the members of args (an object) to buf[*len..cap), what they held in *st (NULL: not
 * wanted).  -1 when they do not fit (*len is then left where it was). */
int argblob_encode(const cJSON *args, uint8_t *buf, size_t *len, size_t cap,
		   struct argblob_stats *st);

/* One member read back: its key (NULL inside an array), its type (enum tprof_imp_arg) and
 * value; OBJ and ARR are followed by their members, then an END. */
struct argblob_item {
	const char *key;
	size_t key_len;
	uint8_t type;
	int64_t i;
	double d;
	const char *s;
	size_t s_len;
};

struct argblob_reader {
	const uint8_t *p, *end;
	int depth;
	uint8_t in_array[32];   /* per depth: 1 inside an array (no keys) */
};

void argblob_reader_init(struct argblob_reader *r, const uint8_t *blob, size_t len);
/* 1 with the next item, 0 at the end, -1 when the bytes are damaged. */
int argblob_next(struct argblob_reader *r, struct argblob_item *it);

#endif

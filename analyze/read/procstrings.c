/* procstrings.c — the strings of one process image: each process numbers its strings itself
 * (STRING records in its stream 0), and every stage that reads a record of that process turns
 * those local ids into ids of the trace-wide table (strings.c) here.  Below everything that
 * reads records, so that the readers of stream 0 (procstream.c, clocksync.c, mpi-comms.c) and
 * the pipeline share it without depending on each other.  The recorder numbers strings from
 * 1 up, so an array indexed by the local id serves; an id far beyond the strings defined so
 * far (a damaged or made-up file) goes to a map instead, so that no id sizes an array. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "trace.h"

/* Ids below this, or below twice the strings defined so far, are kept in the array. */
#define DENSE_FREE 4096
/* Past this many, strings that no record defined are all named alike (their numbers would
 * otherwise each make a string, as many as a damaged stream has records). */
#define UNKNOWN_NAMED_MAX 4096

/* A STRING record: local id `local` of process p is the string s (len bytes). */
void proc_string_map(struct proc *p, uint32_t local, const char *s, size_t len)
{
	uint32_t id = strings_add(s, len);
	p->nstrings++;
	if (local < DENSE_FREE || (uint64_t)local < 2 * (uint64_t)p->nstrings) {
		/* 0xff: unmapped */
		p->strmap = util_grow_index(p->strmap, &p->nstrmap, local, sizeof(*p->strmap), 16,
					    0xff);
		p->strmap[local] = id;
	} else {
		if (!p->strsparse)
			p->strsparse = xcalloc(1, sizeof(*p->strsparse));
		u64map_put(p->strsparse, local, id);
	}
}

static uint32_t proc_string_rest(const struct proc *p, uint32_t local) __attribute__((noinline));

/* The trace-wide id of a process-local string id: the array's, or the rest (a function of its
 * own, so that the array's look pays for none of the rest's stack). */
uint32_t proc_string(const struct proc *p, uint32_t local)
{
	if (local == 0)
		return 0;
	if (local < p->nstrmap && p->strmap[local] != UINT32_MAX)
		return p->strmap[local];
	return proc_string_rest(p, local);
}

/* A string the array does not map: in the map, or named as unknown. */
static uint32_t proc_string_rest(const struct proc *p, uint32_t local)
{
	static uint32_t unknown_named;
	if (p->strsparse) {
		uint32_t *at = u64map_get(p->strsparse, local);
		if (at)
			return *at;
	}
	char buf[48];
	int n = unknown_named < UNKNOWN_NAMED_MAX ? snprintf(buf, sizeof(buf), "(unknown string %u)", local)
						  : snprintf(buf, sizeof(buf), "(unknown string)");
	uint32_t before = strings_count(), id = strings_add(buf, (size_t)n);
	unknown_named += strings_count() != before;
	return id;
}

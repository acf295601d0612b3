/* procstrings.c — the strings of one process image: each process numbers its strings itself
 * (STRING records in its stream 0), and every stage that reads a record of that process turns
 * those local ids into ids of the trace-wide table (strings.c) here.  Below everything that
 * reads records, so that the readers of stream 0 (procstream.c, clocksync.c, mpi-comms.c) and
 * the pipeline share it without depending on each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/grow.h"
#include "trace.h"

/* A STRING record: local id `local` of process p is the string s (len bytes). */
void proc_string_map(struct proc *p, uint32_t local, const char *s, size_t len)
{
	/* 0xff: unmapped */
	p->strmap = util_grow_index(p->strmap, &p->nstrmap, local, sizeof(*p->strmap), 256, 0xff);
	p->strmap[local] = strings_add(s, len);
}

/* The trace-wide id of a process-local string id. */
uint32_t proc_string(const struct proc *p, uint32_t local)
{
	if (local == 0)
		return 0;
	if (local < p->nstrmap && p->strmap[local] != UINT32_MAX)
		return p->strmap[local];
	char buf[48];
	int n = snprintf(buf, sizeof(buf), "(unknown string %u)", local);
	return strings_add(buf, (size_t)n);
}

/* render/sqlite/out.c — the database being written (out.h): string ids for names the
 * renderer makes itself, and the row id of a thread. */
#include <string.h>

#include "out.h"

uint32_t sqlout_string(struct sqlout *o, const char *s)
{
	if (!s)
		return 0;
	unsigned h = (unsigned)(((uintptr_t)s >> 3) * 0x9e3779b9u) >> 26;
	if (o->cats[h].s == s)
		return o->cats[h].id;
	uint32_t id = strings_add(s, strlen(s));
	o->cats[h].s = s;
	o->cats[h].id = id;
	return id;
}

int64_t sqlout_thread_id(const struct sqlout *o, const struct thread *th)
{
	if (th && th->proc && th->proc->remote)   /* another analysis process's: merge.c */
		return -1 - (int64_t)(uint32_t)th->tid;
	if (!th || !th->proc || th->proc->index < 0 || (size_t)th->proc->index >= o->nprocs)
		return 0;
	return o->thread_base[th->proc->index] + th->stream;
}

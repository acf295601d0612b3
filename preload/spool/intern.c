/* intern.c — string interning.  Each distinct string gets a 32-bit id once per process image,
 * and its bytes are written once, as a STRING record of the process stream; events refer to
 * the id.  The global table is locked; threads keep small caches in front of it. */
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/hash.h"
#include "../../common/strtab.h"
#include "../core/core.h"
#include "guard.h"
#include "spool.h"
#include "intern.h"

#define MAX_LEN (TPROF_MAX_EXT * TPROF_UNIT)

/* Taken and reset at every fork: with the start's data (common/startup.h). */
static pthread_mutex_t ilock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
static struct tprof_strtab strings TPROF_START_DATA;
uint32_t tprof_intern_gen TPROF_START_DATA = 1;   /* bumped at every fork */

/* The id of s (of hash h), added (and its STRING record written) when new; *stored, the
 * table's copy.  The calling thread is busy (buffer.h) while it holds the lock: a signal
 * handler that interrupts it interns nothing. */
static uint32_t intern_id(const char *s, size_t len, uint64_t h, const char **stored)
{
	TPROF_KEEP_ERRNO;
	int added = 0;
	tprof_busy_enter(&tprof_tls);
	pthread_mutex_lock(&ilock);
	uint32_t id = tprof_strtab_id(&strings, s, len, h, &added, stored);
	if (added)
		tprof_proc_string(id, *stored, len);
	pthread_mutex_unlock(&ilock);
	tprof_busy_leave(&tprof_tls);
	return id;
}

uint32_t tprof_intern(const char *s, size_t len)
{
	if (len > MAX_LEN)
		len = MAX_LEN;
	const char *stored;
	return intern_id(s, len, tprof_hash_bytes(s, len), &stored);
}

struct ro_query {
	uintptr_t addr;
	int ro;
};

static int ro_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct ro_query *q = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD)
			continue;
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		if (q->addr >= lo && q->addr < lo + ph->p_memsz) {
			q->ro = !(ph->p_flags & PF_W);
			return 1;
		}
	}
	return 0;
}

/* A string in a read-only segment of a loaded object cannot change under the same pointer
 * (until that object is unloaded, which bumps tprof_intern_gen). */
static int in_readonly_image(const char *s)
{
	struct ro_query q = { (uintptr_t)s, 0 };
	dl_iterate_phdr(ro_cb, &q);
	return q.ro;
}

uint32_t tprof_intern_slow(struct tprof_thread *t, const char *s)
{
	if (!s)
		s = "(null)";
	t->guard++;
	tprof_busy_enter(t);    /* the thread's cache is being changed */
	size_t len = strnlen(s, MAX_LEN);
	uint64_t h = tprof_hash_bytes(s, len);
	uint32_t gen = __atomic_load_n(&tprof_intern_gen, __ATOMIC_RELAXED);
	struct tprof_strcache *c = t->cache;
	uint32_t id = 0;
	if (c) {
		unsigned i = (unsigned)h & (TPROF_STRCACHE_SIZE - 1);
		if (c->byval[i].gen == gen && c->byval[i].hash == h && c->byval[i].len == len &&
		    !memcmp(c->byval[i].stored, s, len))
			id = c->byval[i].id;
	}
	if (!id) {
		const char *stored = NULL;
		id = intern_id(s, len, h, &stored);
		if (id && c) {
			unsigned i = (unsigned)h & (TPROF_STRCACHE_SIZE - 1);
			c->byval[i].hash = h;
			c->byval[i].stored = stored;
			c->byval[i].len = (uint32_t)len;
			c->byval[i].id = id;
			c->byval[i].gen = gen;
			/* Only on a miss: the check walks the loaded objects. */
			if (in_readonly_image(s)) {
				i = tprof_strcache_slot(s);
				c->byptr[i].ptr = s;
				c->byptr[i].id = id;
				c->byptr[i].gen = gen;
			}
		}
	}
	tprof_busy_leave(t);
	t->guard--;
	return id;
}

void tprof_strcache_alloc(struct tprof_thread *t)
{
	t->cache = calloc(1, sizeof(*t->cache));
}

void tprof_intern_invalidate(void)
{
	__atomic_add_fetch(&tprof_intern_gen, 1, __ATOMIC_RELAXED);
}

/* A new process image starts with no strings: ids are per image. */
TPROF_START_CODE void tprof_intern_reset(void)
{
	tprof_mutex_reset(&ilock);
	if (strings.slots)   /* a shell that recorded nothing has none, and needs no call of free */
		tprof_strtab_free(&strings);
	tprof_intern_invalidate();
}

TPROF_START_CODE void tprof_intern_lock(void)
{
	pthread_mutex_lock(&ilock);
}

TPROF_START_CODE void tprof_intern_unlock(void)
{
	pthread_mutex_unlock(&ilock);
}

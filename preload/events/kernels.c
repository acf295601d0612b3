/* kernels.c — the kernel name table: an open-addressing table of pointers to entries,
 * grown by copying (the old table stays readable), so a launch reads it without a lock.
 * Entries hold the demangled name and its string id in the current process image. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "../../common/real-libc.h"
#include "../core/resolve.h"
#include "../spool/spool.h"

struct kentry {
	const void *fn;
	char *name;
	uint32_t id;
	uint32_t gen;
};

struct ktable {
	size_t cap;
	struct kentry *slot[];
};

static pthread_mutex_t klock TPROF_START_DATA = PTHREAD_MUTEX_INITIALIZER;
static struct ktable *table;
static size_t count;

static size_t slot_of(const void *fn, size_t cap)
{
	return (size_t)(((uintptr_t)fn * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

/* The C++ runtime's demangler, wherever the program has it (its own executable included). */
static void *lookup_anywhere(const char *name)
{
	return tprof_real_dlsym(RTLD_DEFAULT, name);
}

TPROF_REAL_WITH(char *, __cxa_demangle, (const char *, char *, size_t *, int *), lookup_anywhere)

const char *tprof_demangle(const char *name, char *buf, size_t len)
{
	int status = -1;
	char *d = name[0] == '_' && name[1] == 'Z' && get___cxa_demangle()
			  ? real___cxa_demangle(name, NULL, NULL, &status) : NULL;
	snprintf(buf, len, "%s", status == 0 && d ? d : name);
	free(d);
	return buf;
}

/* Under klock. */
static int grow(void)
{
	size_t cap = table ? table->cap * 2 : 4096;
	struct ktable *nt = calloc(1, sizeof(*nt) + cap * sizeof(nt->slot[0]));
	if (!nt)
		return -1;
	nt->cap = cap;
	for (size_t i = 0; table && i < table->cap; i++) {
		struct kentry *e = table->slot[i];
		if (!e)
			continue;
		size_t j = slot_of(e->fn, cap);
		while (nt->slot[j])
			j = (j + 1) & (cap - 1);
		nt->slot[j] = e;
	}
	/* The old table is left for readers that may still be in it. */
	__atomic_store_n(&table, nt, __ATOMIC_RELEASE);
	return 0;
}

void tprof_kernel_register(const void *fn, const char *name)
{
	TPROF_KEEP_ERRNO;
	char buf[1024];
	if (!fn || !name)
		return;
	tprof_demangle(name, buf, sizeof(buf));
	pthread_mutex_lock(&klock);
	if ((!table || (count + 1) * 2 > table->cap) && grow() < 0) {
		pthread_mutex_unlock(&klock);
		return;
	}
	size_t j = slot_of(fn, table->cap);
	while (table->slot[j] && table->slot[j]->fn != fn)
		j = (j + 1) & (table->cap - 1);
	struct kentry *e = table->slot[j];
	if (!e && (e = calloc(1, sizeof(*e)))) {
		e->fn = fn;
		count++;
	}
	if (e) {
		char *old = e->name;
		e->name = strdup(buf);
		e->gen = 0;
		__atomic_store_n(&table->slot[j], e, __ATOMIC_RELEASE);
		free(old);
	}
	pthread_mutex_unlock(&klock);
}

uint32_t tprof_kernel_name(const void *fn)
{
	struct ktable *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	if (!t)
		return 0;
	size_t j = slot_of(fn, t->cap);
	struct kentry *e;
	while ((e = __atomic_load_n(&t->slot[j], __ATOMIC_ACQUIRE)) && e->fn != fn)
		j = (j + 1) & (t->cap - 1);
	if (!e)
		return 0;
	if (__atomic_load_n(&e->gen, __ATOMIC_ACQUIRE) == tprof_g.generation)
		return e->id;
	pthread_mutex_lock(&klock);
	uint32_t id = tprof_intern(e->name, strlen(e->name));
	e->id = id;
	__atomic_store_n(&e->gen, tprof_g.generation, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&klock);
	return id;
}

/* Registrations survive fork (the child runs the same code); ids are per image and are
 * re-interned through `gen`. */
TPROF_START_CODE void tprof_kernels_reset_child(void)
{
	tprof_mutex_reset(&klock);
}

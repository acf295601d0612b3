/* env-carry.c — the profiler's variables survive exec: when a program execs with an
 * environment that lacks them (subprocess with env={...}, say), they are added back.  A
 * variable the program set itself, TPROF_ENABLE=0 included, is left as it is.  Built from
 * memory prepared at load time and the stack, because a vfork child must not allocate. */
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "env-carry.h"

extern char **environ;

#define MAX_CARRY 32

static char *carried[MAX_CARRY] TPROF_START_DATA;  /* "NAME=value" as they were at load time */
static int ncarried TPROF_START_DATA;
static const char *self_path TPROF_START_DATA;     /* this library's file */
/* LD_PRELOAD at load time, up to and including self_path */
static const char *head TPROF_START_DATA;

struct self_search {
	uintptr_t addr;
	const char *name;
};

/* dl_iterate_phdr's callback: the name of the object whose loaded segments hold s->addr. */
TPROF_START_CODE static int find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct self_search *s = arg;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && s->addr >= lo && s->addr - lo < ph->p_memsz) {
			s->name = info->dlpi_name;
			return 1;
		}
	}
	return 0;
}

/* This library's file as the loader named it (what dladdr gives as dli_fname), found by its
 * segments: dladdr would also look for the nearest of the library's 300-odd symbols, most
 * of what it costs, at every recorded process's start. */
TPROF_START_CODE void tprof_env_capture(void)
{
	struct self_search self = { (uintptr_t)tprof_env_capture, NULL };
	if (dl_iterate_phdr(find_self, &self) && self.name && *self.name)
		self_path = strdup(self.name);
	for (char **e = environ; e && *e && ncarried < MAX_CARRY; e++)
		if (!strncmp(*e, "TPROF_", 6) || !strncmp(*e, "LD_PRELOAD=", 11))
			carried[ncarried++] = strdup(*e);
	const char *lp = getenv("LD_PRELOAD");
	const char *at = self_path && lp ? strstr(lp, self_path) : NULL;
	head = at ? strndup(lp, (size_t)(at - lp) + strlen(self_path)) : self_path;
	if (!head)
		head = self_path;
}

static int has_name(char *const envp[], const char *entry)
{
	size_t n = strcspn(entry, "=") + 1;
	for (int i = 0; envp[i]; i++)
		if (!strncmp(envp[i], entry, n))
			return 1;
	return 0;
}

static const char *find(char *const envp[], const char *prefix)
{
	size_t n = strlen(prefix);
	for (int i = 0; envp[i]; i++)
		if (!strncmp(envp[i], prefix, n))
			return envp[i];
	return NULL;
}

size_t tprof_env_extra(char *const envp[])
{
	int envc = 0;
	if (!envp || !ncarried)
		return 0;
	while (envp[envc])
		envc++;
	return (size_t)envc + MAX_CARRY + 2;
}

char *const *tprof_env_fill(char *const envp[], char **out, size_t out_len, char *preload_buf,
			    size_t preload_len)
{
	size_t n = 0;
	if (!envp || !ncarried || !out_len)
		return envp;
	const char *lp = find(envp, "LD_PRELOAD=");
	for (int i = 0; envp[i] && n + 1 < out_len; i++)
		if (envp[i] != lp)
			out[n++] = envp[i];
	/* LD_PRELOAD must name this library, after whatever preceded it at load time (a
	 * sanitizer runtime must come first); keep whatever else the program put there. */
	if (self_path && (!lp || !strstr(lp, self_path))) {
		int k = lp ? snprintf(preload_buf, preload_len, "LD_PRELOAD=%s:%s", head, lp + 11)
			   : snprintf(preload_buf, preload_len, "LD_PRELOAD=%s", head);
		if (k > 0 && (size_t)k < preload_len && n + 1 < out_len)
			out[n++] = preload_buf;
		else if (lp && n + 1 < out_len)
			out[n++] = (char *)lp;
	} else if (lp && n + 1 < out_len) {
		out[n++] = (char *)lp;
	}
	for (int i = 0; i < ncarried && n + 1 < out_len; i++)
		if (strncmp(carried[i], "LD_PRELOAD=", 11) && !has_name(envp, carried[i]))
			out[n++] = carried[i];
	out[n] = NULL;
	return out;
}

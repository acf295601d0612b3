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
static uint32_t carried_tprof TPROF_START_DATA;    /* bits of carried[]: the TPROF_ ones */
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

/* What an exec in a fork child reads, with the start's data: the child writes that page
 * anyway, where a page of constants would be one more page to fault in before every command
 * that a shell runs.  For the same reason, no call of libc's string functions. */
static char ld_preload_eq[] TPROF_START_DATA = "LD_PRELOAD=";
static char tprof_prefix[] TPROF_START_DATA = "TPROF_";

/* Keeps a copy of entry ("NAME=value") to carry, while there is room and memory. */
TPROF_START_CODE static void carry(const char *entry)
{
	char *copy = ncarried < MAX_CARRY ? strdup(entry) : NULL;
	if (!copy)
		return;
	if (!tprof_after_prefix(copy, ld_preload_eq))
		carried_tprof |= 1u << ncarried;
	carried[ncarried++] = copy;
}

/* This library's file as the loader named it (what dladdr gives as dli_fname), found by its
 * segments: dladdr would also look for the nearest of the library's 300-odd symbols, most
 * of what it costs, at every recorded process's start. */
TPROF_START_CODE void tprof_env_capture(const struct tprof_env *env)
{
	struct self_search self = { (uintptr_t)tprof_env_capture, NULL };
	if (dl_iterate_phdr(find_self, &self) && self.name && *self.name)
		self_path = strdup(self.name);
	if (env->ld_preload)
		carry(env->ld_preload);
	if (env->all) {
		for (int i = 0; i < env->n; i++)
			carry(env->v[i]);
	} else {   /* more than the scan kept: the environment itself */
		for (char **e = environ; e && *e; e++)
			if ((*e)[0] == 'T' && tprof_after_prefix(*e, tprof_prefix))
				carry(*e);
	}
	const char *lp = env->ld_preload ? env->ld_preload + 11 : NULL;   /* as getenv gives it */
	head = self_path;
	if (!self_path || !lp || tprof_after_prefix(lp, self_path))
		return;   /* as a rule, this library comes first: the head is its name */
	const char *at = strstr(lp, self_path);
	char *h = at ? strndup(lp, (size_t)(at - lp) + strlen(self_path)) : NULL;
	if (h)
		head = h;
}

/* Which of the carried TPROF_ variables entry (of an exec's environment) is, as a bit. */
TPROF_START_CODE static uint32_t carried_bit(const char *entry)
{
	for (int i = 0; i < ncarried; i++) {
		const char *c = carried[i];
		size_t n = 0;
		while (c[n] && c[n] == entry[n] && c[n] != '=')
			n++;
		if (c[0] == 'T' && c[n] == '=' && entry[n] == '=')
			return 1u << i;
	}
	return 0;
}

/* Does the value of LD_PRELOAD (lp, "LD_PRELOAD=...") name this library?  As a rule it comes
 * first (tprof-inspect and the exec hooks put it there). */
TPROF_START_CODE static int names_self(const char *lp)
{
	const char *v = lp + 11, *rest = tprof_after_prefix(v, self_path);
	if (rest && (!*rest || *rest == ':' || *rest == ' '))
		return 1;
	return strstr(v, self_path) != NULL;
}

/* What an exec's environment lacks of the profiler's: *lp_out its first LD_PRELOAD, *add the
 * carried variables to add (bits of carried[]); nonzero when something must be added. */
TPROF_START_CODE static int lacking(char *const envp[], const char **lp_out, uint32_t *add,
				    int *preload)
{
	const char *lp = NULL;
	uint32_t present = 0;
	for (int i = 0; envp[i]; i++) {
		const char *e = envp[i];
		if (e[0] == 'L' && !lp && tprof_after_prefix(e, ld_preload_eq))
			lp = e;
		else if (e[0] == 'T' && tprof_after_prefix(e, tprof_prefix))
			present |= carried_bit(e);
	}
	*lp_out = lp;
	*add = carried_tprof & ~present;
	*preload = self_path && (!lp || !names_self(lp));
	return *add || *preload;
}

/* Room that tprof_env_fill needs for envp: 0 when envp has every variable of the profiler's
 * (as a rule: a shell's commands), and the exec passes it on as it is. */
TPROF_START_CODE size_t tprof_env_extra(char *const envp[])
{
	const char *lp;
	uint32_t add;
	int preload, envc = 0;
	if (!envp || !ncarried || !lacking(envp, &lp, &add, &preload))
		return 0;
	while (envp[envc])
		envc++;
	return (size_t)envc + MAX_CARRY + 2;
}

char *const *tprof_env_fill(char *const envp[], char **out, size_t out_len, char *preload_buf,
			    size_t preload_len)
{
	const char *lp;
	uint32_t add;
	int preload;
	size_t n = 0;
	if (!envp || !ncarried || !out_len || !lacking(envp, &lp, &add, &preload))
		return envp;
	for (int i = 0; envp[i] && n + 1 < out_len; i++)
		if (envp[i] != lp)
			out[n++] = envp[i];
	/* LD_PRELOAD must name this library, after whatever preceded it at load time (a
	 * sanitizer runtime must come first); keep whatever else the program put there. */
	if (preload) {
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
		if (add & (1u << i))
			out[n++] = carried[i];
	out[n] = NULL;
	return out;
}

/* callstack.c — call stacks for TPROF_CALLSTACK=1.  Frames are walked with libunwind; each
 * instruction address is named once (libunwind reads the symbol tables, static functions
 * included; C++ names are demangled) and cached, so a repeated call site costs the walk
 * alone.  Opt-in: a walk costs microseconds, not nanoseconds.
 *
 * libunwind is loaded (dlopen) only when call stacks are asked for: linked in, it and the
 * library it needs would be loaded into every process the recorder is preloaded into, and
 * cost each one's start the loader's work. */
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/real-libc.h"
#include "../spool/buffer.h"
#include "../spool/spool.h"
#include "callstack.h"
#include "../core/clock.h"
#include "kernels.h"

#define MAX_FRAMES 24
#define CACHE_BITS 12

struct named {
	uintptr_t ip;
	uint32_t id, gen;
	int stub;
};

/* hipcc and nvcc generate a host stub per kernel, __device_stub__<kernel>: never the
 * program's own launching function. */
#define STUB_PREFIX "__device_stub__"

static struct named cache[1u << CACHE_BITS];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t self_base;

/* libunwind's functions, by the names its header gives them (local unwinding only). */
#define LIBUNWIND_SONAME "libunwind.so.8"
#define NAME_OF(f) NAME_OF_(f)
#define NAME_OF_(f) #f
static struct {
#ifdef __x86_64__
	__typeof__(unw_tdep_getcontext) *getcontext;
#endif
	__typeof__(unw_init_local) *init_local;
	__typeof__(unw_step) *step;
	__typeof__(unw_get_reg) *get_reg;
	__typeof__(unw_get_proc_name) *get_proc_name;
} unw;
#ifdef __x86_64__
#define GETCONTEXT(ctx) unw.getcontext(ctx)
#else
#define GETCONTEXT(ctx) unw_getcontext(ctx)   /* inline: nothing to look up */
#endif

/* The object an address belongs to (its load address), 0 when none. */
static uintptr_t object_of(uintptr_t ip)
{
	Dl_info info;
	return dladdr((void *)ip, &info) ? (uintptr_t)info.dli_fbase : 0;
}

static uint32_t frame_name(unw_cursor_t *c, uintptr_t ip, int *stub)
{
	size_t i = (size_t)((ip * 0x9e3779b97f4a7c15ull) >> (64 - CACHE_BITS));
	pthread_mutex_lock(&cache_lock);
	if (cache[i].ip == ip && cache[i].gen == tprof_g.generation) {
		uint32_t id = cache[i].id;
		*stub = cache[i].stub;
		pthread_mutex_unlock(&cache_lock);
		return id;
	}
	pthread_mutex_unlock(&cache_lock);
	char raw[512], name[1024];
	unw_word_t off;
	if (unw.get_proc_name(c, raw, sizeof(raw), &off) == 0) {
		tprof_demangle(raw, name, sizeof(name));
	} else {
		Dl_info info;
		if (dladdr((void *)ip, &info) && info.dli_fname)
			snprintf(name, sizeof(name), "%s+0x%lx", strrchr(info.dli_fname, '/') ?
				 strrchr(info.dli_fname, '/') + 1 : info.dli_fname,
				 (unsigned long)(ip - (uintptr_t)info.dli_fbase));
		else
			snprintf(name, sizeof(name), "0x%lx", (unsigned long)ip);
	}
	uint32_t id = tprof_intern(name, strlen(name));
	*stub = !strncmp(name, STUB_PREFIX, sizeof(STUB_PREFIX) - 1);
	pthread_mutex_lock(&cache_lock);
	cache[i] = (struct named){ ip, id, tprof_g.generation, *stub };
	pthread_mutex_unlock(&cache_lock);
	return id;
}

static int load_libunwind(void)
{
	void *h = tprof_real_dlopen(LIBUNWIND_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		tprof_log_warn("TPROF_CALLSTACK: %s could not be loaded (%s); no call stacks",
			       LIBUNWIND_SONAME, why ? why : "?");
		return -1;
	}
#ifdef __x86_64__
	*(void **)&unw.getcontext = tprof_real_dlsym(h, NAME_OF(unw_tdep_getcontext));
#endif
	*(void **)&unw.init_local = tprof_real_dlsym(h, NAME_OF(unw_init_local));
	*(void **)&unw.step = tprof_real_dlsym(h, NAME_OF(unw_step));
	*(void **)&unw.get_reg = tprof_real_dlsym(h, NAME_OF(unw_get_reg));
	*(void **)&unw.get_proc_name = tprof_real_dlsym(h, NAME_OF(unw_get_proc_name));
	if (
#ifdef __x86_64__
	    !unw.getcontext ||
#endif
	    !unw.init_local || !unw.step || !unw.get_reg || !unw.get_proc_name) {
		tprof_log_warn("TPROF_CALLSTACK: %s lacks a function tprof uses; no call stacks",
			       LIBUNWIND_SONAME);
		return -1;
	}
	return 0;
}

int tprof_callstack_init(void)
{
	unw_context_t ctx;
	unw_cursor_t c;
	tprof_fd_adopting = 1;
	int ok = load_libunwind() == 0;
	if (ok && GETCONTEXT(&ctx) == 0 && unw.init_local(&c, &ctx) == 0)
		unw.step(&c);
	tprof_fd_adopting = 0;
	return ok ? 0 : -1;
}

uint32_t tprof_callstack(struct tprof_thread *t, uint64_t corr)
{
	TPROF_KEEP_ERRNO;
	/* the frames' names are written as the process's strings: only once its files are
	 * (an MPI process's first call, MPI_Init, may come first) */
	if (tprof_image_ensure() != 0)
		return 0;
	unw_context_t ctx;
	unw_cursor_t c;
	uint32_t ids[MAX_FRAMES];
	uintptr_t bases[MAX_FRAMES];
	int stubs[MAX_FRAMES];
	int n = 0;
	tprof_fd_adopting = 1;
	if (GETCONTEXT(&ctx) != 0 || unw.init_local(&c, &ctx) != 0) {
		tprof_fd_adopting = 0;
		return 0;
	}
	if (!self_base)
		self_base = object_of((uintptr_t)tprof_callstack);
	while (n < MAX_FRAMES && unw.step(&c) > 0) {
		unw_word_t ip;
		if (unw.get_reg(&c, UNW_REG_IP, &ip) != 0 || !ip)
			break;
		uintptr_t base = object_of((uintptr_t)ip);
		if (base == self_base)
			continue;
		bases[n] = base;
		ids[n] = frame_name(&c, (uintptr_t)(ip - 1), &stubs[n]);
		n++;
	}
	tprof_fd_adopting = 0;
	/* The caller: the first frame outside the object the call went into, when that object is
	 * a library (the runtime); the first frame itself when it is the program; either way the
	 * first that is not a compiler-generated kernel stub. */
	int at = 0;
	Dl_info first;
	if (n && dladdr((void *)bases[0], &first) && first.dli_fname && strstr(first.dli_fname, ".so"))
		while (at < n && bases[at] == bases[0])
			at++;
	while (at < n && stubs[at])
		at++;
	uint32_t caller = at < n ? ids[at] : n ? ids[0] : 0;
	unsigned ext = (unsigned)(n + 7) / 8;
	struct tprof_rec *r = n ? tprof_reserve(t, 1 + ext) : NULL;
	if (r) {
		memset(r + 1, 0, ext * sizeof(*r));
		memcpy(r + 1, ids, (size_t)n * sizeof(ids[0]));
		r->t0 = tprof_now();
		r->t1 = (uint64_t)n;
		r->arg = corr;
		tprof_commit(t, r, TPROF_K_STACK, (uint8_t)ext, 0, caller);
	}
	return caller;
}

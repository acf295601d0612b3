/* hook-dl.c — dlsym and dlopen.  A program that loads a runtime late and looks its functions
 * up in the library's own handle (Python's ctypes does dlopen + dlsym(handle, name)) would get
 * the real functions and bypass the wrappers: for any name tprof wraps, such a lookup returns
 * the wrapper instead, and the real function is remembered for it.  A dlopen starts a new
 * library generation (resolve.h): functions missing so far may be there now.
 *
 * RTLD_NEXT and RTLD_DEFAULT are answered relative to the caller (glibc takes the caller from
 * dlsym's return address), so for those dlsym jumps to the real dlsym, leaving the caller's
 * return address in place: every object, the sanitizer runtimes while they start included,
 * gets the answer it would have had without tprof.  dlopen likewise only bumps the generation
 * and jumps: the caller's RUNPATH and namespace, which glibc finds from the return address,
 * stay the caller's.  Built without sanitizers (Makefile.am). */
#include <dlfcn.h>

#include "../events/api.h"
#include "../core/core.h"
#include "../core/resolve.h"

typedef void *(*dlsym_fn)(void *, const char *);
typedef void *(*dlopen_fn)(const char *, int);

/* Read by the trampolines below; hidden, like the functions they call, so that they reach
 * them with plain PC-relative references. */
dlsym_fn tprof_trampoline_dlsym TPROF_START_DATA;
dlopen_fn tprof_trampoline_dlopen TPROF_START_DATA;

void *tprof_dlsym_resolve(void);
void *tprof_dlsym_handle(void *handle, const char *name);
void *tprof_dlopen_resolve(void);

/* libc's definition of `name`: dlvsym is not wrapped, and asks for the newest version first. */
static void *libc_newest(const char *name)
{
	TPROF_KEEP_ERRNO;
	void *real = dlvsym(RTLD_NEXT, name, "GLIBC_2.34");
	return real ? real : dlvsym(RTLD_NEXT, name, "GLIBC_2.2.5");
}

/* Finds libc's dlsym. */
TPROF_START_CODE void *tprof_dlsym_resolve(void)
{
	dlsym_fn real = (dlsym_fn)libc_newest("dlsym");
	__atomic_store_n(&tprof_trampoline_dlsym, real, __ATOMIC_RELEASE);
	return (void *)real;
}

/* The same for dlopen. */
void *tprof_dlopen_resolve(void)
{
	dlopen_fn real = (dlopen_fn)libc_newest("dlopen");
	__atomic_store_n(&tprof_trampoline_dlopen, real, __ATOMIC_RELEASE);
	return (void *)real;
}

/* Handles of runtimes a program loaded privately (RTLD_LOCAL, as ctypes does): the recorder
 * looks up there what the program did not (event functions, for device timing). */
#define MAX_HANDLES 16
static void *handles[MAX_HANDLES];

static void remember(void *handle)
{
	for (int i = 0; i < MAX_HANDLES; i++) {
		void *h = __atomic_load_n(&handles[i], __ATOMIC_ACQUIRE);
		if (h == handle)
			return;
		if (!h && __atomic_compare_exchange_n(&handles[i], &h, handle, 0, __ATOMIC_RELEASE,
						      __ATOMIC_RELAXED)) {
			/* Its functions are found from now on: missed ones are asked again. */
			__atomic_add_fetch(&tprof_dl_gen, 1, __ATOMIC_RELEASE);
			return;
		}
	}
}

void *tprof_dlsym_private(const char *name)
{
	dlsym_fn real = tprof_trampoline_dlsym ? tprof_trampoline_dlsym : (dlsym_fn)tprof_dlsym_resolve();
	for (int i = 0; real && i < MAX_HANDLES; i++) {
		void *h = __atomic_load_n(&handles[i], __ATOMIC_ACQUIRE);
		if (!h)
			break;
		void *r = real(h, name);
		if (r)
			return r;
	}
	return NULL;
}

/* A lookup in a given library's handle: the caller does not matter to the answer. */
void *tprof_dlsym_handle(void *handle, const char *name)
{
	dlsym_fn real = tprof_trampoline_dlsym ? tprof_trampoline_dlsym : (dlsym_fn)tprof_dlsym_resolve();
	void *r = real ? real(handle, name) : NULL;
	if (!r)
		return NULL;
	struct tprof_hook *h = tprof_hook_find(name);
	if (!h || r == h->wrapper)
		return r;    /* the program's own scope (dlopen(NULL)) finds the wrapper itself */
	remember(handle);
	if (!__atomic_load_n(h->real, __ATOMIC_RELAXED))
		__atomic_store_n(h->real, r, __ATOMIC_RELAXED);
	return h->wrapper;
}

#if defined(__x86_64__)
/* dlsym(handle, name): RTLD_NEXT (-1) and RTLD_DEFAULT (0) jump to the real dlsym with the
 * caller's return address untouched; any other handle goes to tprof_dlsym_handle.  With the
 * start's code (TPROF_START_CODE): every start runs it, for hook-fd.c's lookups. */
__asm__(".pushsection .text.startup,\"ax\",@progbits\n"
	".globl dlsym\n"
	".type dlsym, @function\n"
	"dlsym:\n"
	"	cmpq $-1, %rdi\n"
	"	je 1f\n"
	"	testq %rdi, %rdi\n"
	"	je 1f\n"
	"	jmp tprof_dlsym_handle\n"
	"1:	movq tprof_trampoline_dlsym(%rip), %rax\n"
	"	testq %rax, %rax\n"
	"	je 2f\n"
	"	jmp *%rax\n"
	"2:	pushq %rdi\n"
	"	pushq %rsi\n"
	"	subq $8, %rsp\n"
	"	call tprof_dlsym_resolve\n"
	"	addq $8, %rsp\n"
	"	popq %rsi\n"
	"	popq %rdi\n"
	"	testq %rax, %rax\n"
	"	je 3f\n"
	"	jmp *%rax\n"
	"3:	ret\n"
	".size dlsym, .-dlsym\n"
	".popsection\n");

/* dlopen(file, mode): a new library generation, then the real dlopen, jumped to. */
__asm__(".text\n"
	".globl dlopen\n"
	".type dlopen, @function\n"
	"dlopen:\n"
	"	lock incl tprof_dl_gen(%rip)\n"
	"	movq tprof_trampoline_dlopen(%rip), %rax\n"
	"	testq %rax, %rax\n"
	"	je 2f\n"
	"	jmp *%rax\n"
	"2:	pushq %rdi\n"
	"	pushq %rsi\n"
	"	subq $8, %rsp\n"
	"	call tprof_dlopen_resolve\n"
	"	addq $8, %rsp\n"
	"	popq %rsi\n"
	"	popq %rdi\n"
	"	testq %rax, %rax\n"
	"	je 3f\n"
	"	jmp *%rax\n"
	"3:	ret\n"
	".size dlopen, .-dlopen\n");
#else
/* Elsewhere the compiler's tail call keeps the caller's return address (at -O2). */
TPROF_EXPORT void *dlsym(void *handle, const char *name)
{
	if (handle != RTLD_NEXT && handle != RTLD_DEFAULT)
		return tprof_dlsym_handle(handle, name);
	dlsym_fn real = tprof_trampoline_dlsym ? tprof_trampoline_dlsym : (dlsym_fn)tprof_dlsym_resolve();
	return real ? real(handle, name) : NULL;
}

TPROF_EXPORT void *dlopen(const char *file, int mode)
{
	__atomic_add_fetch(&tprof_dl_gen, 1, __ATOMIC_RELEASE);
	dlopen_fn real = tprof_trampoline_dlopen ? tprof_trampoline_dlopen : (dlopen_fn)tprof_dlopen_resolve();
	return real ? real(file, mode) : NULL;
}
#endif

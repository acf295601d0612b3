/* deflate.c — libdeflate's compressor and CRC-32 through pointers bound by dlopen (libc's own,
 * real-libc.h) the first time one of them is needed.  The recorder is preloaded into every
 * process of a job, and a library it links is opened, mapped and relocated at every process
 * start (some 35 us here, a third of what the recorder cost a process that recorded nothing),
 * whether or not the process ever records: loaded at its first record (tprof_chunks_init), it
 * costs the others nothing.  The analyzer and tprof-inspect bind it the same way, at their
 * first checksum. */
#include "deflate.h"

#include <dlfcn.h>
#include <pthread.h>

#include "real-libc.h"

#define LIBDEFLATE_SONAME "libdeflate.so.0"

static struct {
	struct libdeflate_compressor *(*alloc)(int level);
	size_t (*compress)(struct libdeflate_compressor *c, const void *in, size_t n, void *out,
			   size_t cap);
	size_t (*bound)(struct libdeflate_compressor *c, size_t n);
	void (*free)(struct libdeflate_compressor *c);
	uint32_t (*crc32)(uint32_t crc, const void *p, size_t n);
	const char *why;        /* why it could not be loaded; NULL when it was */
} lib;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	void *h = tprof_real_dlopen(LIBDEFLATE_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		lib.why = LIBDEFLATE_SONAME " could not be loaded";
		return;
	}
	*(void **)&lib.alloc = tprof_real_dlsym(h, "libdeflate_alloc_compressor");
	*(void **)&lib.compress = tprof_real_dlsym(h, "libdeflate_deflate_compress");
	*(void **)&lib.bound = tprof_real_dlsym(h, "libdeflate_deflate_compress_bound");
	*(void **)&lib.free = tprof_real_dlsym(h, "libdeflate_free_compressor");
	void *crc32 = tprof_real_dlsym(h, "libdeflate_crc32");
	if (!lib.alloc || !lib.compress || !lib.bound || !lib.free || !crc32) {
		lib.why = LIBDEFLATE_SONAME " lacks a function tprof uses";
		return;
	}
	/* last, with release order: tprof_deflate_crc32 reads it without pthread_once */
	__atomic_store_n((void **)&lib.crc32, crc32, __ATOMIC_RELEASE);
}

int tprof_deflate_load(const char **why)
{
	pthread_once(&once, load);
	if (why)
		*why = lib.why;
	return lib.why ? -1 : 0;
}

struct libdeflate_compressor *tprof_deflate_new(int level)
{
	return tprof_deflate_load(NULL) == 0 ? lib.alloc(level) : NULL;
}

void tprof_deflate_free(struct libdeflate_compressor *c)
{
	if (c)
		lib.free(c);
}

size_t tprof_deflate_bound(struct libdeflate_compressor *c, size_t n)
{
	return lib.bound(c, n);
}

size_t tprof_deflate(struct libdeflate_compressor *c, const void *in, size_t n, void *out,
		     size_t cap)
{
	return lib.compress(c, in, n, out, cap);
}

uint32_t tprof_deflate_crc32(uint32_t crc, const void *p, size_t n)
{
	uint32_t (*f)(uint32_t, const void *, size_t) = __atomic_load_n(&lib.crc32, __ATOMIC_ACQUIRE);
	if (__builtin_expect(f == NULL, 0)) {
		if (tprof_deflate_load(NULL) < 0)
			return 0;
		f = lib.crc32;
	}
	return f(crc, p, n);
}

/* test-symbols.c — the symbolizer of sampled frames (runtimes/sys/symbols.c) on this very
 * process: a function of the test itself (a PIE executable) and one of zlib (a shared
 * library mapped at a file offset), found through the mappings /proc/self/maps lists;
 * C++ demangling; kernel symbols with return addresses looked up at address - 1; JIT code
 * from a perf-PID.map beside the image; what cannot be named, and the cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../../analyze/runtimes/sys/symbols.h"
#include "tap.h"

__attribute__((noinline, used)) int test_symbols_target(int x)
{
	return x * 7 + 3;
}

static struct sys_map maps[8];
static size_t nmaps;

/* The mapping of /proc/self/maps that holds addr, as a MAPS record would give it. */
static int add_mapping_of(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		char perms[8], path[4096] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perms, &off, path) < 4)
			continue;
		if ((uintptr_t)addr < s || (uintptr_t)addr >= e)
			continue;
		maps[nmaps++] = (struct sys_map){ s, e, off, 4242, 0, strings_add(path, strlen(path)) };
		found = 1;
	}
	if (f)
		fclose(f);
	return found;
}

static int by_start(const void *a, const void *b)
{
	const struct sys_map *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static const char *name_of(uint32_t id)
{
	return id ? strings_get(id) : "(none)";
}

int main(void)
{
	char buf[160], dir[] = "/tmp/tprof-symbols.XXXXXX";
	ok(symbols_demangle("_ZN5tprof4test6Worker7computeEi", buf, sizeof(buf)) == 0 &&
		   !strcmp(buf, "tprof::test::Worker::compute(int)"),
	   "a C++ name demangled: %s", buf);
	ok(symbols_demangle("main", buf, sizeof(buf)) < 0, "a C name is not demangled");

	ok(add_mapping_of((const void *)test_symbols_target), "the test's own code is mapped");
	ok(add_mapping_of((const void *)zlibVersion), "zlib's code is mapped");
	qsort(maps, nmaps, sizeof(*maps), by_start);
	struct proc p = { 0 };
	ok(mkdtemp(dir) != NULL, "a directory for the image");
	char img[600];
	snprintf(img, sizeof(img), "%s/node.1.1.tpf", dir);
	p.trace_path = img;
	struct sys_ksym ks[] = { { 0xffffffff81000000ull, 0xffffffff81000100ull, 0 },
				 { 0xffffffff81000100ull, 0xffffffff81000200ull, 0 } };
	ks[0].name = strings_add("schedule", 8);
	ks[1].name = strings_add("do_syscall_64", 13);
	struct sysimage si = { .proc = &p, .maps = maps, .nmaps = nmaps, .ksyms = ks, .nksyms = 2 };
	p.sys = &si;
	struct symbols *sy = symbols_new();

	uint64_t a = (uint64_t)(uintptr_t)test_symbols_target;
	uint32_t id = symbols_user(sy, &si, 4242, 0, a + 1, 0);
	ok(!strcmp(name_of(id), "test_symbols_target"), "a function of a PIE executable: %s",
	   name_of(id));
	ok(symbols_user(sy, &si, 4242, 0, a + 1, 0) == id, "asked again, the same name (cached)");
	id = symbols_user(sy, &si, 4242, -1, a + 2, 1);
	ok(!strcmp(name_of(id), "test_symbols_target"), "a return address, any generation: %s",
	   name_of(id));
	id = symbols_user(sy, &si, 4242, 0, (uint64_t)(uintptr_t)zlibVersion, 0);
	ok(!strcmp(name_of(id), "zlibVersion"), "a function of a shared library: %s", name_of(id));
	is_u64(symbols_unresolved(sy), 0, "everything so far was named");

	id = symbols_user(sy, &si, 4243, 0, a, 0);
	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)a);
	ok(!strcmp(name_of(id), buf), "another pid's address is in no mapping: %s", name_of(id));
	id = symbols_kernel(sy, &si, 0xffffffff81000010ull, 0);
	ok(!strcmp(name_of(id), "schedule"), "a kernel address: %s", name_of(id));
	id = symbols_kernel(sy, &si, 0xffffffff81000100ull, 1);
	ok(!strcmp(name_of(id), "schedule"), "a kernel return address at the next symbol's start "
	   "is its caller's: %s", name_of(id));
	id = symbols_kernel(sy, &si, 0xffffffff81000100ull, 0);
	ok(!strcmp(name_of(id), "do_syscall_64"), "the same address as the innermost frame: %s",
	   name_of(id));
	id = symbols_kernel(sy, &si, 0xffffffff81000300ull, 0);
	ok(!strcmp(name_of(id), "0xffffffff81000300"), "past the last symbol: %s", name_of(id));

	/* JIT code: perf-PID.map beside the image */
	char perf[700];
	snprintf(perf, sizeof(perf), "%s/perf-4244.map", dir);
	FILE *f = fopen(perf, "w");
	fputs("7f0000001000 100 jitted::fn [hot]\n7f0000002000 10 other\n", f);
	fclose(f);
	id = symbols_user(sy, &si, 4244, 0, 0x7f0000001050ull, 0);
	ok(!strcmp(name_of(id), "jitted::fn [hot]"), "JIT code from perf-PID.map: %s", name_of(id));
	id = symbols_user(sy, &si, 4244, 0, 0x7f0000001100ull, 0);
	ok(!strcmp(name_of(id), "0x7f0000001100"), "past a JIT symbol's size: %s", name_of(id));

	/* a mapping whose file is gone */
	struct sys_map gone = { 0x10000, 0x20000, 0x3000, 4245, 0, strings_add("/nonexistent/x.so", 17) };
	struct sysimage si2 = { .proc = &p, .maps = &gone, .nmaps = 1 };
	id = symbols_user(sy, &si2, 4245, 0, 0x10010, 0);
	ok(!strcmp(name_of(id), "x.so+0x3010"), "a missing file: file+offset: %s", name_of(id));
	is_u64(symbols_say(sy), 1, "one file could not be read");
	uint64_t unresolved = symbols_unresolved(sy);
	symbols_user(sy, &si2, 4245, 0, 0x10010, 0);
	is_u64(symbols_unresolved(sy), unresolved, "an unresolved address counts once");

	symbols_free(sy);
	unlink(perf);
	rmdir(dir);
	strings_free();
	return tap_done();
}

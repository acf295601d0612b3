/* symbols.c — sampled addresses named (symbols.h).  A user address is found in the mappings
 * of its process (MAPS records): at file offset addr - start + offset, which the file's
 * PT_LOAD segments turn into one of its own virtual addresses (PIE executables and shared
 * libraries alike), looked up with libdwfl in the file reported on its own at bias 0 (its
 * symbol table, or that of its separate debug file).  An address outside every mapping may
 * be JIT code named in perf-PID.map (beside the system image, else in /tmp).  Kernel
 * addresses are found in the KSYM records. */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../../common/hash.h"
#include "../../../common/xalloc.h"
#include "../../parallel/par.h"
#include "../../util/grow.h"
#include "../../util/hindex.h"
#include "../../util/pack.h"
#include "../../util/u64map.h"
#include "../../util/search.h"
#include "symbols.h"

/* libstdc++'s demangler (the Itanium C++ ABI's) */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

struct seg {
	uint64_t off, vaddr, filesz;
};

/* A function symbol of a file: [addr, addr + size) (size 0: up to the next one). */
struct fsym {
	uint64_t addr, size;
	const char *name;                /* libdwfl's, alive as long as the Dwfl */
	int global;
};

struct elf_file {
	uint32_t path;                   /* trace-wide string id */
	int ok;                          /* 1: reported, -1: cannot be read */
	int stat_ok;                     /* st holds the file as found now */
	struct stat st;
	int changed;                     /* found not to be the file that was mapped (said) */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct seg *segs;
	size_t nsegs;
	struct fsym *syms;               /* by address: libdwfl's lookup is a scan per address */
	size_t nsyms;
};

/* The JIT symbols of one process (perf-PID.map), sorted by start. */
struct jit_sym {
	uint64_t start, end;
	uint32_t name;
};
struct jit_map {
	const struct sysimage *si;
	uint32_t pid;
	struct jit_sym *v;
	size_t n;
};

struct cache_entry {
	const struct sysimage *si;
	uint64_t addr;
	int64_t gen;
	uint32_t pid;                    /* UINT32_MAX: kernel */
	uint32_t name;                   /* 0: not known yet */
};

struct symbols {
	struct elf_file *files;
	size_t nfiles, capfiles;
	struct jit_map *jits;
	size_t njits;
	struct cache_entry *cache;       /* addresses looked up, in the order first asked */
	size_t ncache, capcache;
	struct hindex cache_by_key;      /* their numbers (index + 1) by (si, pid, gen, addr) */
	uint64_t unresolved, missing;
	char **said;                     /* --parallel: the warnings about files, said at the end */
	size_t nsaid, capsaid;
};

/* A warning about a file (each file once in an analysis process): said now, or under
 * --parallel kept for symbols_say, since several analysis processes may meet the file. */
static void warn_file(struct symbols *sy, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn_file(struct symbols *sy, const char *fmt, ...)
{
	char line[1200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sy->missing++;
	if (par_size() < 2) {
		diag_error("%s", line);
		return;
	}
	sy->said = util_grow(sy->said, &sy->capsaid, sy->nsaid, sizeof(*sy->said), 8);
	sy->said[sy->nsaid++] = xstrdup(line);
}

uint64_t symbols_say(struct symbols *sy)
{
	if (par_size() < 2)
		return sy ? sy->missing : 0;
	struct pack mine = { 0 };
	for (size_t i = 0; sy && i < sy->nsaid; i++)
		pack_str(&mine, sy->said[i]);
	size_t *len_of = NULL;
	char *all = par_gather(mine.v, mine.n, 0, &len_of);
	pack_free(&mine);
	uint64_t distinct = 0;
	if (all) {
		size_t total = 0;
		for (int a = 0; a < par_size(); a++)
			total += len_of[a];
		struct u64map seen = { 0 };
		for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
			char *line = unpack_strdup(&u);
			uint64_t h = tprof_hash_bytes(line, strlen(line)) | 1;
			if (!u.short_read && !u64map_get(&seen, h)) {
				u64map_put(&seen, h, 1);
				diag_error("%s", line);
				distinct++;
			}
			free(line);
		}
		u64map_free(&seen);
	}
	free(all);
	free(len_of);
	return distinct;
}

struct symbols *symbols_new(void)
{
	struct symbols *sy = xcalloc(1, sizeof(*sy));
	return sy;
}

void symbols_free(struct symbols *sy)
{
	if (!sy)
		return;
	for (size_t i = 0; i < sy->nfiles; i++) {
		if (sy->files[i].dwfl)
			dwfl_end(sy->files[i].dwfl);
		free(sy->files[i].segs);
		free(sy->files[i].syms);
	}
	for (size_t i = 0; i < sy->njits; i++)
		free(sy->jits[i].v);
	for (size_t i = 0; i < sy->nsaid; i++)
		free(sy->said[i]);
	free(sy->said);
	free(sy->files);
	free(sy->jits);
	free(sy->cache);
	hindex_free(&sy->cache_by_key);
	free(sy);
}

uint64_t symbols_unresolved(const struct symbols *sy)
{
	return sy->unresolved;
}

int symbols_demangle(const char *name, char *buf, size_t len)
{
	if (strncmp(name, "_Z", 2))
		return -1;
	int status = 0;
	char *d = __cxa_demangle(name, NULL, NULL, &status);
	if (!d || status)
		return -1;
	snprintf(buf, len, "%s", d);
	free(d);
	return 0;
}

/* ---- ELF files ---------------------------------------------------------------------------- */

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static void load_segments(struct elf_file *f)
{
	GElf_Addr bias;
	Elf *e = dwfl_module_getelf(f->mod, &bias);
	size_t n;
	if (!e || elf_getphdrnum(e, &n) < 0)
		return;
	f->segs = xcalloc(n ? n : 1, sizeof(*f->segs));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			f->segs[f->nsegs++] = (struct seg){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
}

static int fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return x->global ? -1 : 1;   /* a global name before its local or weak aliases */
	return x->size > y->size ? -1 : x->size < y->size;
}

/* The file's function symbols (its symbol table, or its debug file's), sorted once. */
static void load_symbols(struct elf_file *f)
{
	int n = dwfl_module_getsymtab(f->mod);
	if (n <= 0)
		return;
	f->syms = xmallocarray((size_t)n, sizeof(*f->syms));
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(f->mod, i, &sym, &addr, NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || (type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		f->syms[f->nsyms++] = (struct fsym){ addr, sym.st_size, name,
						     GELF_ST_BIND(sym.st_info) == STB_GLOBAL };
	}
	if (f->nsyms > 1)
		qsort(f->syms, f->nsyms, sizeof(*f->syms), fsym_cmp);
}

/* The file, reported on first use (a file that cannot be read is said once). */
static struct elf_file *elf_file(struct symbols *sy, uint32_t path)
{
	for (size_t i = 0; i < sy->nfiles; i++)
		if (sy->files[i].path == path)
			return &sy->files[i];
	sy->files = util_grow(sy->files, &sy->capfiles, sy->nfiles, sizeof(*sy->files), 16);
	struct elf_file *f = &sy->files[sy->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->ok = -1;
	const char *name = strings_get(path);
	f->stat_ok = stat(name, &f->st) == 0;
	f->dwfl = dwfl_begin(&callbacks);
	if (f->dwfl) {
		dwfl_report_begin(f->dwfl);
		f->mod = dwfl_report_elf(f->dwfl, name, name, -1, 0, false);
		dwfl_report_end(f->dwfl, NULL, NULL);
	}
	if (f->mod) {
		f->ok = 1;
		load_segments(f);
		load_symbols(f);
	} else {
		warn_file(sy, "warning: %s: cannot read this ELF file (%s); its sampled frames show "
			  "as file+offset", name, f->dwfl ? dwfl_errmsg(-1) : strerror(errno));
	}
	return f;
}

static int file_vaddr(const struct elf_file *f, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < f->nsegs; i++) {
		const struct seg *s = &f->segs[i];
		if (off >= s->off && off < s->off + s->filesz) {
			*vaddr = off - s->off + s->vaddr;
			return 0;
		}
	}
	return -1;
}

static int file_lookup(const struct elf_file *f, uint64_t vaddr, char *buf, size_t len)
{
	size_t lo = search_upper_u64(f->syms, f->nsyms, sizeof(*f->syms),
				     offsetof(struct fsym, addr), vaddr);
	/* the first of the symbols at the greatest address at or below vaddr (aliases sort
	 * the global name first) */
	size_t i = lo;
	while (i > 0 && i - 1 > 0 && f->syms[i - 2].addr == f->syms[lo - 1].addr)
		i--;
	if (!lo)
		return -1;
	const struct fsym *y = &f->syms[i - 1];
	uint64_t end = y->size ? y->addr + y->size : lo < f->nsyms ? f->syms[lo].addr : UINT64_MAX;
	if (vaddr >= end)
		return -1;
	if (symbols_demangle(y->name, buf, len) < 0)
		snprintf(buf, len, "%s", y->name);
	return 0;
}

/* ---- JIT code ----------------------------------------------------------------------------- */

static int jit_cmp(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static FILE *open_perf_map(const struct sysimage *si, uint32_t pid)
{
	char path[4096];
	const char *img = si->proc->trace_path;
	const char *slash = img ? strrchr(img, '/') : NULL;
	if (slash) {
		snprintf(path, sizeof(path), "%.*s/perf-%u.map", (int)(slash - img), img, pid);
		FILE *f = fopen(path, "r");
		if (f)
			return f;
	}
	snprintf(path, sizeof(path), "/tmp/perf-%u.map", pid);
	return fopen(path, "r");
}

/* perf-PID.map: one "START SIZE name" line (hex) per piece of generated code. */
static struct jit_map *jit_map(struct symbols *sy, const struct sysimage *si, uint32_t pid)
{
	for (size_t i = 0; i < sy->njits; i++)
		if (sy->jits[i].si == si && sy->jits[i].pid == pid)
			return &sy->jits[i];
	sy->jits = xreallocarray(sy->jits, sy->njits + 1, sizeof(*sy->jits));
	struct jit_map *m = &sy->jits[sy->njits++];
	*m = (struct jit_map){ si, pid, NULL, 0 };
	FILE *f = open_perf_map(si, pid);
	if (!f)
		return m;
	char line[4096];
	size_t cap = 0;
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, size;
		int at = 0;
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &start, &size, &at) < 2 || !at)
			continue;
		size_t len = strcspn(line + at, "\n");
		m->v = util_grow(m->v, &cap, m->n, sizeof(*m->v), 256);
		m->v[m->n++] = (struct jit_sym){ start, start + size, strings_add(line + at, len) };
	}
	fclose(f);
	if (m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), jit_cmp);
	return m;
}

static uint32_t jit_lookup(struct symbols *sy, const struct sysimage *si, uint32_t pid,
			   uint64_t addr)
{
	const struct jit_map *m = jit_map(sy, si, pid);
	size_t lo = search_upper_u64(m->v, m->n, sizeof(*m->v), offsetof(struct jit_sym, start),
				     addr);
	return lo && addr < m->v[lo - 1].end ? m->v[lo - 1].name : 0;
}

/* ---- the cache ---------------------------------------------------------------------------- */

static uint64_t cache_hash(const struct sysimage *si, uint32_t pid, int64_t gen, uint64_t addr)
{
	uint64_t h = addr * 0x9e3779b97f4a7c15ull ^ (uint64_t)pid * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)gen * 0x165667b19e3779f9ull ^ (uint64_t)(uintptr_t)si;
	return h ^ h >> 29;
}

/* The entry of (si, pid, gen, addr), added (its name not known yet) when there was none. */
static struct cache_entry *cache_find(struct symbols *sy, const struct sysimage *si,
				      uint32_t pid, int64_t gen, uint64_t addr)
{
	uint64_t h = cache_hash(si, pid, gen, addr);
	size_t at;
	for (uint32_t id = hindex_first(&sy->cache_by_key, h, &at); id;
	     id = hindex_next(&sy->cache_by_key, h, &at)) {
		struct cache_entry *e = &sy->cache[id - 1];
		if (e->addr == addr && e->pid == pid && e->gen == gen && e->si == si)
			return e;
	}
	sy->cache = util_grow(sy->cache, &sy->capcache, sy->ncache, sizeof(*sy->cache), 4096);
	sy->cache[sy->ncache++] = (struct cache_entry){ si, addr, gen, pid, 0 };
	hindex_add(&sy->cache_by_key, h, (uint32_t)sy->ncache);
	return &sy->cache[sy->ncache - 1];
}

static uint32_t remember(struct symbols *sy, struct cache_entry *e, const char *s)
{
	e->name = strings_add(s, strlen(s));
	return e->name;
}

/* ---- lookups ------------------------------------------------------------------------------ */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Whether f is the file that was mapped (when the recording says which it was): a program
 * rebuilt or a library upgraded since would name the wrong functions.  Said once a file. */
static int same_file(struct symbols *sy, struct elf_file *f, const struct sys_map *m)
{
	if (!m->has_file || !f->stat_ok)
		return 1;
	int64_t mtime = (int64_t)f->st.st_mtim.tv_sec * 1000000000 + f->st.st_mtim.tv_nsec;
	if ((uint64_t)f->st.st_ino == m->inode && (uint64_t)f->st.st_size == m->size &&
	    mtime == m->mtime_ns)
		return 1;
	if (!f->changed++)
		warn_file(sy, "warning: %s changed since it was recorded (another inode, size or "
			  "modification time); its sampled frames show as file+offset",
			  strings_get(f->path));
	return 0;
}

/* An address of a mapped file: its function, else file+0xOFF. */
static void in_file(struct symbols *sy, const struct sys_map *m, uint64_t addr, char *buf,
		    size_t len)
{
	uint64_t off = addr - m->start + m->offset, vaddr;
	const char *path = m->path ? strings_get(m->path) : "?";
	if (m->path) {
		struct elf_file *f = elf_file(sy, m->path);
		if (f->ok > 0 && !same_file(sy, f, m))
			f->ok = 0;
		if (f->ok > 0 && file_vaddr(f, off, &vaddr) == 0 && file_lookup(f, vaddr, buf, len) == 0)
			return;
	}
	sy->unresolved++;
	snprintf(buf, len, "%s+0x%" PRIx64, base_name(path), off);
}

uint32_t symbols_user(struct symbols *sy, const struct sysimage *si, uint32_t pid, int64_t gen,
		      uint64_t addr, int is_return)
{
	if (is_return && addr)
		addr--;
	struct cache_entry *e = cache_find(sy, si, pid, gen, addr);
	if (e->name)
		return e->name;
	char buf[1024];
	const struct sys_map *m = system_map(si, pid, gen, addr);
	if (!m && gen >= 0)
		m = system_map(si, pid, -1, addr);
	if (m) {
		in_file(sy, m, addr, buf, sizeof(buf));
	} else {
		uint32_t jit = jit_lookup(sy, si, pid, addr);
		if (jit) {
			e->name = jit;
			return jit;
		}
		sy->unresolved++;
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
	}
	return remember(sy, e, buf);
}

uint32_t symbols_kernel(struct symbols *sy, const struct sysimage *si, uint64_t addr,
			int is_return)
{
	if (is_return && addr)
		addr--;
	struct cache_entry *e = cache_find(sy, si, UINT32_MAX, -1, addr);
	if (e->name)
		return e->name;
	const struct sys_ksym *k = system_ksym(si, addr);
	if (k && k->name) {
		e->name = k->name;
		return k->name;
	}
	char buf[64];
	sy->unresolved++;
	snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
	return remember(sy, e, buf);
}

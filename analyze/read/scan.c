/* scan.c — walks an output directory (recursively: several hosts may write into
 * subdirectories) and pairs each process image's chunk file with its spool.  Files that are
 * not tprof's are named in a warning and left alone, except the JIT symbol maps the sampler
 * copies beside its system image, and framework traces, kept for the import. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/chunk.h"
#include "../../common/file-names.h"
#include "../../common/hash.h"
#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "../util/u64map.h"
#include "trace.h"

/* How deep below the directory given the files are looked for (tprof-analyze(1)). */
#define MAX_DEPTH 8

/* What a walk keeps: the files and directories read (by device and inode: a file reached
 * again through a link is read once, a directory entered once), and each process image's
 * base name (its hash) for pairing a chunk file with its spool. */
struct scan {
	struct trace *tr;
	const char *top;
	struct u64map seen;
	struct u64map bases;              /* hash of the base -> index in tr->procs + 1 */
};

static uint64_t file_key(const struct stat *st)
{
	uint64_t dev = (uint64_t)st->st_dev, ino = (uint64_t)st->st_ino;
	return tprof_hash_more(tprof_hash_more(TPROF_HASH_SEED, &dev, sizeof(dev)), &ino, sizeof(ino));
}

/* 1 the first time a file or directory is met, 0 after. */
static int first_visit(struct scan *sc, const struct stat *st)
{
	uint64_t k = file_key(st);
	if (u64map_get(&sc->seen, k))
		return 0;
	u64map_put(&sc->seen, k, 1);
	return 1;
}

static int same_base(const struct proc *p, const char *base, size_t n)
{
	const char *b = p->trace_path ? p->trace_path : p->spool_path;
	return !strncmp(b, base, n) &&
	       (!strcmp(b + n, TPROF_TRACE_SUFFIX) || !strcmp(b + n, TPROF_SPOOL_SUFFIX));
}

/* A process image, nothing known of it yet, at the end of the trace's list. */
static struct proc *new_proc(struct trace *tr)
{
	struct proc *p = xcalloc(1, sizeof(*p));
	tr->procs = xreallocarray(tr->procs, tr->nprocs + 1, sizeof(*tr->procs));
	p->rank = p->pid = p->ppid = p->world_size = p->local_rank = p->gen = -1;
	p->scan_order = (uint32_t)tr->nprocs;
	tr->procs[tr->nprocs++] = p;
	return p;
}

static struct proc *find_or_add(struct scan *sc, const char *base)
{
	struct trace *tr = sc->tr;
	size_t n = strlen(base);
	uint64_t h = tprof_hash_table(base, n);
	uint32_t *at = u64map_get(&sc->bases, h);
	if (at && same_base(tr->procs[*at - 1], base, n))
		return tr->procs[*at - 1];
	for (size_t i = 0; at && i < tr->nprocs; i++)   /* two bases of one hash: never seen */
		if (same_base(tr->procs[i], base, n))
			return tr->procs[i];
	struct proc *p = new_proc(tr);
	if (!at)
		u64map_put(&sc->bases, h, (uint32_t)tr->nprocs);
	return p;
}

struct proc *scan_add_part(struct trace *tr, struct cfile *whole, uint64_t base, uint64_t len)
{
	struct proc *p = new_proc(tr);
	p->trace_path = (char *)whole->path;
	cfile_init_part(&p->file, whole, base, len);
	return p;
}

/* Reads the first bytes of a file and tells which kind of tprof file it is. */
static int sniff(const char *path, void *buf, size_t len)
{
	int fd = fdcache_open(path, O_RDONLY);
	if (fd < 0) {
		diag_unreadable(path, "cannot open: %s", strerror(errno));
		return -1;
	}
	ssize_t n = pread(fd, buf, len, 0);
	close(fd);
	if (n < 8) {
		memset(buf, 0, len);
		return 0;
	}
	if (!memcmp(buf, TPROF_FILE_MAGIC, 8))
		return 1;
	if (!memcmp(buf, TPROF_SPOOL_MAGIC, 8))
		return 2;
	return 0;
}

/* "<image base>.perf-<pid>.map": a JIT's /tmp/perf-<pid>.map, copied beside the system image
 * by the sampler (docs/FORMAT.md §3.9). */
static int is_perf_map(const char *path)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	const char *p = strstr(name, ".perf-");
	if (!p || !tprof_name_ends(name, ".map"))
		return 0;
	p += 6;
	size_t digits = strspn(p, "0123456789");
	return digits > 0 && !strcmp(p + digits, ".map");
}

/* A framework's trace to import: PyTorch's *.pt.trace.json, JAX's and TensorFlow's
 * *.trace.json, plain or gzipped. */
static int is_framework_trace(const char *path)
{
	return tprof_name_ends(path, ".trace.json") || tprof_name_ends(path, ".trace.json.gz");
}

/* Files are recognised by their suffix, so that a trace file whose header was damaged is
 * still searched for chunks; framework traces are kept for the import; anything else is
 * named and ignored. */
static void add_file(struct scan *sc, const char *path)
{
	struct trace *tr = sc->tr;
	int is_trace = tprof_name_ends(path, TPROF_TRACE_SUFFIX);
	int is_spool = tprof_name_ends(path, TPROF_SPOOL_SUFFIX);
	if (!is_trace && !is_spool && (is_perf_map(path) || losses_marker(tr, path) ||
				       tprof_name_ends(path, "/" TPROF_HANG_REPORT)))
		return;
	if (!is_trace && !is_spool && is_framework_trace(path)) {
		tr->found = xreallocarray(tr->found, tr->nfound + 1, sizeof(*tr->found));
		tr->found[tr->nfound++] = xstrdup(path);
		return;
	}
	if (!is_trace && !is_spool) {
		char head[8];
		int kind = sniff(path, head, sizeof(head));
		if (kind >= 0)
			diag_warn(path, 0, "%s; ignored",
				  kind ? "a tprof file under an unexpected name" : "not a tprof file");
		return;
	}
	size_t blen = strlen(path) - strlen(is_trace ? TPROF_TRACE_SUFFIX : TPROF_SPOOL_SUFFIX);
	char *base = xstrndup(path, blen);
	struct proc *p = find_or_add(sc, base);
	free(base);
	if (is_trace)
		p->trace_path = xstrdup(path);
	else
		p->spool_path = xstrdup(path);
}

/* The names in a directory, sorted (the same directory always gives the same output), those
 * starting with '.' left out; NULL (said) when it cannot be read.  The directory is closed
 * before any entry is looked at, so a walk holds one descriptor at a time. */
static char **dir_names(const char *dir, size_t *n)
{
	int fd = fdcache_open(dir, O_RDONLY | O_DIRECTORY);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		diag_unreadable(dir, "cannot read this directory: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	struct dirent *de;
	char **names = NULL;
	size_t cap = 0;
	*n = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		names = util_grow(names, &cap, *n, sizeof(*names), 64);
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n > 1)
		qsort(names, *n, sizeof(*names), strcmp_ptr);
	return names;
}

/* Reads dir, depth levels below the top: its files, and its subdirectories while within
 * MAX_DEPTH.  Links to files are followed (each file is read once however it is reached);
 * links to directories are not, so that no directory is read twice or forever. */
static void walk(struct scan *sc, const char *dir, int depth)
{
	size_t n;
	char **names = dir_names(dir, &n);
	for (size_t i = 0; names && i < n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		struct stat st;
		int link = 0;
		if (lstat(path, &st) < 0) {
			diag_unreadable(path, "cannot read: %s", strerror(errno));
			goto next;
		}
		if (S_ISLNK(st.st_mode)) {
			link = 1;
			if (stat(path, &st) < 0) {
				diag_unreadable(path, "a symbolic link to nothing (%s)", strerror(errno));
				goto next;
			}
		}
		if (S_ISDIR(st.st_mode) && link) {
			diag_warn(path, DIAG_NO_OFFSET, "a symbolic link to a directory; not followed");
		} else if (S_ISDIR(st.st_mode)) {
			if (depth >= MAX_DEPTH)
				diag_unreadable(path, "more than %d levels below %s; not read", MAX_DEPTH,
						sc->top);
			else if (first_visit(sc, &st))
				walk(sc, path, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			if (first_visit(sc, &st))
				add_file(sc, path);
			else
				diag_note("%s: a file already read under another name; read once", path);
		}
next:
		free(path);
		free(names[i]);
	}
	free(names);
}

int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int scan_dir(struct trace *tr, const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		diag_error("%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		diag_error("%s: not a directory (give the directory tprof-inspect wrote)", dir);
		return -1;
	}
	struct scan sc = { .tr = tr, .top = dir };
	first_visit(&sc, &st);
	size_t n;
	char **names = dir_names(dir, &n);
	if (!names) {
		u64map_free(&sc.seen);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	walk(&sc, dir, 0);
	u64map_free(&sc.seen);
	u64map_free(&sc.bases);
	return 0;
}

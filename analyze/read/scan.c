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
#include "../../common/hash.h"
#include "../util/u64map.h"
#include "trace.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static int has_base(const struct proc *p, const char *base, size_t n)
{
	const char *b = p->trace_path ? p->trace_path : p->spool_path;
	return b && !strncmp(b, base, n) &&
	       (!strcmp(b + n, TPROF_TRACE_SUFFIX) || !strcmp(b + n, TPROF_SPOOL_SUFFIX));
}

/* The process of a file's base (its chunk file or spool seen first), found through a hash of
 * the base: a directory of many images costs a probe per file, not a pass over the others. */
static struct proc *find_or_add(struct trace *tr, const char *base)
{
	size_t n = strlen(base);
	uint64_t h = tprof_hash_table(base, n);
	if (!tr->scan_index && !(tr->scan_index = calloc(1, sizeof(*tr->scan_index))))
		abort();
	uint32_t *v = u64map_get(tr->scan_index, h);
	if (v && *v < tr->nprocs && has_base(tr->procs[*v], base, n))
		return tr->procs[*v];
	for (size_t i = 0; v && i < tr->nprocs; i++)   /* moved, or another base of its hash */
		if (has_base(tr->procs[i], base, n))
			return tr->procs[i];
	struct proc *p = calloc(1, sizeof(*p));
	struct proc **np = realloc(tr->procs, (tr->nprocs + 1) * sizeof(*np));
	if (!p || !np)
		abort();
	p->fd = -1;
	p->rank = p->pid = p->ppid = p->world_size = p->local_rank = p->gen = -1;
	tr->procs = np;
	u64map_put(tr->scan_index, h, (uint32_t)tr->nprocs);
	tr->procs[tr->nprocs++] = p;
	return p;
}

/* Reads the first bytes of a file and tells which kind of tprof file it is. */
static int sniff(const char *path, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_warn(path, 0, "cannot open: %s", strerror(errno));
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
	if (!p || !ends_with(name, ".map"))
		return 0;
	p += 6;
	size_t digits = strspn(p, "0123456789");
	return digits > 0 && !strcmp(p + digits, ".map");
}

/* A framework's trace to import: PyTorch's *.pt.trace.json, JAX's and TensorFlow's
 * *.trace.json, plain or gzipped. */
static int is_framework_trace(const char *path)
{
	return ends_with(path, ".trace.json") || ends_with(path, ".trace.json.gz");
}

/* Files are recognised by their suffix, so that a trace file whose header was damaged is
 * still searched for chunks; framework traces are kept for the import; anything else is
 * named and ignored. */
static void add_file(struct trace *tr, const char *path)
{
	int is_trace = ends_with(path, TPROF_TRACE_SUFFIX);
	int is_spool = ends_with(path, TPROF_SPOOL_SUFFIX);
	if (!is_trace && !is_spool && (is_perf_map(path) || losses_marker(tr, path)))
		return;
	if (!is_trace && !is_spool && is_framework_trace(path)) {
		char **nf = realloc(tr->found, (tr->nfound + 1) * sizeof(*nf));
		if (!nf || !(nf[tr->nfound] = strdup(path)))
			abort();
		tr->found = nf;
		tr->nfound++;
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
	char *base = strndup(path, blen);
	if (!base)
		abort();
	struct proc *p = find_or_add(tr, base);
	free(base);
	if (is_trace)
		p->trace_path = strdup(path);
	else
		p->spool_path = strdup(path);
}

static int walk(struct trace *tr, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char **nn = realloc(names, (n + 1) * sizeof(*nn));
		if (!nn)
			abort();
		names = nn;
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	/* A stable order: the same directory always gives the same output. */
	if (n > 1)
		qsort(names, n, sizeof(*names), (int (*)(const void *, const void *))strcmp_ptr);
	for (size_t i = 0; i < n; i++) {
		char *path;
		if (asprintf(&path, "%s/%s", dir, names[i]) < 0)
			abort();
		struct stat st;
		if (stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < 16)
				walk(tr, path, depth + 1);
			else if (S_ISREG(st.st_mode))
				add_file(tr, path);
		}
		free(path);
		free(names[i]);
	}
	free(names);
	return 0;
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
	if (walk(tr, dir, 0) < 0) {
		diag_error("%s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

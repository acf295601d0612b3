/* maps.c — MAPS records: the executable file mappings of a followed process from
 * /proc/PID/maps, when it is first followed, after an exec (at its first sample) and when a
 * sample falls outside every mapping known (a library loaded by dlopen), each with the
 * file's inode, size and modification time. */
#include "maps.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/events.h"
#include "../common/ownfd.h"
#include "../common/system-records.h"

#define REREAD_NS 100000000ull   /* one process's maps are read at most this often */

int tprof_maps_parse_line(const char *line, size_t len, struct tprof_map_range *r,
			  uint64_t *offset, const char **path, size_t *path_len)
{
	char perms[8];
	unsigned long long start, end, off;
	int at = 0;
	/* "start-end perms offset dev inode    path" */
	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &off, &at) < 4 ||
	    at <= 0 || (size_t)at > len || strlen(perms) < 3 || perms[2] != 'x')
		return 0;
	while ((size_t)at < len && line[at] == ' ')
		at++;
	if ((size_t)at >= len || line[at] != '/')
		return 0;   /* anonymous, [vdso], [stack] ... */
	r->start = start;
	r->end = end;
	*offset = off;
	*path = line + at;
	*path_len = len - (size_t)at;
	return 1;
}

/* Whether p's mapping r was written already. */
static int already_written(const struct tprof_sproc *p, const struct tprof_map_range *r)
{
	for (size_t i = 0; i < p->nmaps; i++)
		if (p->maps[i].start == r->start && p->maps[i].end == r->end)
			return 1;
	return 0;
}

static void add_map(struct tprof_tasks *t, struct tprof_sproc *p, const struct tprof_map_range *r,
		    uint64_t offset, const char *path, size_t path_len, uint64_t now)
{
	struct tprof_map_range *nm = realloc(p->maps, (p->nmaps + 1) * sizeof(*nm));
	if (!nm)
		return;
	p->maps = nm;
	p->maps[p->nmaps++] = *r;
	struct {
		struct tprof_map m;
		struct tprof_map_file f;
	} u = { .m = { .start = r->start, .end = r->end, .offset = offset, .gen = p->gen } };
	uint32_t name = tprof_sysimg_string_n(t->im, path, path_len, now);
	struct tprof_rec rec = { .kind = TPROF_K_MAPS, .name = name, .t0 = now, .arg = p->pid };
	/* Which file it is: the analyzer names frames from the file as it finds it then. */
	char file[PATH_MAX];
	struct stat st;
	int known_file = path_len < sizeof(file);
	if (known_file) {
		memcpy(file, path, path_len);
		file[path_len] = '\0';
		known_file = stat(file, &st) == 0;
	}
	if (known_file)
		u.f = (struct tprof_map_file){ .inode = st.st_ino, .size = (uint64_t)st.st_size,
			.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec };
	tprof_sysimg_write(t->im, 0, rec, &u, known_file ? sizeof(u) : sizeof(u.m));
}

void tprof_maps_read(struct tprof_tasks *t, struct tprof_sproc *p, uint64_t now)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%u/maps", p->pid);
	FILE *f = tprof_fd_fopen_read(path);
	p->maps_ns = now ? now : 1;
	if (p->maps_stale) {
		p->nmaps = 0;
		p->maps_stale = 0;
	}
	if (!f)
		return;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		struct tprof_map_range r;
		uint64_t off;
		const char *file;
		size_t flen;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (tprof_maps_parse_line(line, (size_t)n, &r, &off, &file, &flen) &&
		    !already_written(p, &r))
			add_map(t, p, &r, off, file, flen, now);
	}
	free(line);
	tprof_fd_fclose(f);
}

void tprof_maps_check(struct tprof_tasks *t, struct tprof_sproc *p, uint64_t addr,
		      uint64_t now)
{
	if (p->maps_ns && now - p->maps_ns < REREAD_NS)
		return;
	if (!p->maps_stale && p->maps_ns) {
		for (size_t i = 0; i < p->nmaps; i++)
			if (addr >= p->maps[i].start && addr < p->maps[i].end)
				return;
	}
	tprof_maps_read(t, p, now);
}

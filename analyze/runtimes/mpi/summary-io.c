/* runtimes/mpi/summary-io.c — the summary's MPI-IO table: per file (by its name as opened),
 * the opens, the reads and the writes with their bytes and time, and the time of its other
 * calls (views, seeks, syncs, closes...), over all processes, files with the most time in
 * their calls first.  Bytes are as done; a nonblocking call's as asked for (its completion
 * comes in another call). */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "mpi.h"
#include "summary.h"
#include "../../summary/table.h"
#include "../../util/pack.h"

struct iofile {
	uint64_t opens, reads, writes, other;
	uint64_t read_bytes, write_bytes;
	int64_t read_time, write_time, other_time;
};

struct mpiio {
	struct iofile *files;       /* by the string id of the file's name (0: unknown) */
	size_t cap;
	uint32_t open_name;         /* string id of "MPI_File_open", once seen */
	int any;
};

struct mpiio *mpiio_new(void)
{
	return xcalloc(1, sizeof(struct mpiio));
}

static struct iofile *file_of(struct mpiio *m, uint32_t id)
{
	if (id >= m->cap) {
		size_t n = m->cap ? m->cap : 64;
		while (n <= id)
			n *= 2;
		m->files = xreallocarray(m->files, n, sizeof(*m->files));
		memset(m->files + m->cap, 0, (n - m->cap) * sizeof(*m->files));
		m->cap = n;
	}
	return &m->files[id];
}

void mpiio_call(struct mpiio *m, const struct mpi_info *mi, uint32_t name, int64_t dur)
{
	const struct tprof_mpi_args *a = &mi->a;
	struct iofile *f = file_of(m, mi->has_b ? mi->b.file : 0);
	m->any = 1;
	if (a->flags & TPROF_MPIF_READ) {
		f->reads++;
		f->read_bytes += a->bytes;
		f->read_time = sat_add(f->read_time, dur);
	} else if (a->flags & TPROF_MPIF_WRITE) {
		f->writes++;
		f->write_bytes += a->bytes;
		f->write_time = sat_add(f->write_time, dur);
	} else {
		if (!m->open_name && !strcmp(strings_get(name), "MPI_File_open"))
			m->open_name = name;
		f->opens += name == m->open_name;
		f->other++;
		f->other_time = sat_add(f->other_time, dur);
	}
}

static const struct iofile *sort_base;

static int64_t time_of(const struct iofile *f)
{
	return sat_add(sat_add(f->read_time, f->write_time), f->other_time);
}

static int by_time(const void *x, const void *y)
{
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	int64_t a = time_of(&sort_base[i]), b = time_of(&sort_base[j]);
	if (a != b)
		return a > b ? -1 : 1;
	return strcmp(strings_get(i), strings_get(j));   /* 0, a file not seen opened: "" */
}

void mpiio_pack(const struct mpiio *m, struct pack *b)
{
	uint64_t n = 0;
	for (uint32_t id = 0; id < m->cap; id++)
		n += m->files[id].reads || m->files[id].writes || m->files[id].other;
	pack_u64(b, n);
	for (uint32_t id = 0; id < m->cap; id++) {
		const struct iofile *f = &m->files[id];
		if (!f->reads && !f->writes && !f->other)
			continue;
		pack_name(b, id);
		pack_bytes(b, f, sizeof(*f));
	}
}

void mpiio_merge(struct mpiio *m, struct unpack *u)
{
	for (size_t i = 0, n = unpack_count(u, sizeof(uint64_t) + sizeof(struct iofile)); i < n; i++) {
		struct iofile *f = file_of(m, unpack_name(u)), g;
		unpack_bytes(u, &g, sizeof(g));
		f->opens += g.opens;
		f->reads += g.reads;
		f->writes += g.writes;
		f->other += g.other;
		f->read_bytes += g.read_bytes;
		f->write_bytes += g.write_bytes;
		f->read_time = sat_add(f->read_time, g.read_time);
		f->write_time = sat_add(f->write_time, g.write_time);
		f->other_time = sat_add(f->other_time, g.other_time);
	}
}

static void row(struct sumw *w, const struct iofile *f, uint32_t id)
{
	sw_obj(w, NULL);
	sw_count(w, "%7s ", "opens", f->opens);
	sw_count(w, "%8s ", "reads", f->reads);
	sw_bytes(w, "%11s ", "read_bytes", (double)f->read_bytes);
	sw_dur(w, "%12s ", "read_ns", f->read_time);
	sw_count(w, "%8s ", "writes", f->writes);
	sw_bytes(w, "%11s ", "write_bytes", (double)f->write_bytes);
	sw_dur(w, "%12s ", "write_ns", f->write_time);
	sw_count(w, "%8s ", "other_calls", f->other);
	sw_dur(w, "%12s  ", "other_ns", f->other_time);
	sw_name(w, "file", id ? strings_get(id) : "(not seen opened)");
	sw_close(w);
}

void mpiio_end(struct mpiio *m, struct sumw *w, int top)
{
	uint32_t *ids = xmallocarray(m->cap ? m->cap : 1, sizeof(*ids));
	size_t n = 0;
	for (uint32_t id = 0; id < m->cap; id++) {
		const struct iofile *f = &m->files[id];
		if (f->reads || f->writes || f->other)
			ids[n++] = id;
	}
	sort_base = m->files;
	if (n > 1)
		qsort(ids, n, sizeof(*ids), by_time);
	sw_obj(w, "io");
	sw_if(w, n > 0);
	sw_text(w, "\nMPI-IO by file: reads and writes with their bytes (nonblocking ones: as asked "
		   "for) and time; other calls: opening, views, seeks, syncs, closing\n"
		   "%7s %8s %11s %12s %8s %11s %12s %8s %12s  %s\n", "Opens", "Reads", "Read bytes",
		"Read time", "Writes", "Write bytes", "Write time", "Other", "Other time", "File");
	sw_endif(w);
	sw_arr(w, "rows");
	size_t shown = top > 0 && (size_t)top < n ? (size_t)top : n;
	for (size_t i = 0; i < shown; i++)
		row(w, &m->files[ids[i]], ids[i]);
	sw_close(w);
	table_more(w, n - shown);
	sw_close(w);
	free(ids);
	free(m->files);
	free(m);
}

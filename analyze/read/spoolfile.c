/* spoolfile.c — reads what a process left in its spool: buffers that were never (or only
 * partly) written to the chunk file because the process died, by SIGKILL or any other way.
 * Each such buffer fills the gaps the chunk file leaves in its stream. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/chunk.h"
#include "trace.h"

/* Units of written records from the start of a buffer, and how many records they hold. */
static uint32_t written_units(const struct tprof_rec *u, uint32_t cap, uint32_t *records)
{
	uint32_t i = 0, n = 0;
	while (i < cap && u[i].kind != 0 && i + 1u + u[i].ext <= cap) {
		i += 1u + u[i].ext;
		n++;
	}
	*records = n;
	return i;
}

static uint32_t records_between(const struct tprof_rec *u, uint32_t a, uint32_t b)
{
	uint32_t n = 0;
	for (uint32_t i = a; i < b; i += 1u + u[i].ext)
		n++;
	return n;
}

/* Adds spool pieces for the units [0, n) of (stream, seq) that no chunk covers. */
static void fill_gaps(struct stream *s, uint32_t seq, const struct tprof_rec *u, uint32_t n,
		      uint64_t unit0_off)
{
	uint32_t at = 0;
	size_t before = s->npieces;
	for (size_t i = 0; i < before && at < n; i++) {
		const struct piece *pc = &s->pieces[i];
		if (pc->seq != seq || pc->src != PIECE_CHUNK)
			continue;
		if (pc->first > at) {
			uint32_t end = pc->first < n ? pc->first : n;
			struct piece gap = { .seq = seq, .first = at, .units = end - at,
					     .records = records_between(u, at, end), .src = PIECE_SPOOL,
					     .offset = unit0_off + (uint64_t)at * TPROF_UNIT, .t_first = u[at].t0 };
			stream_add_piece(s, &gap);
		}
		if (pc->first + pc->units > at)
			at = pc->first + pc->units;
	}
	if (at < n) {
		struct piece tail = { .seq = seq, .first = at, .units = n - at,
				      .records = records_between(u, at, n), .src = PIECE_SPOOL,
				      .offset = unit0_off + (uint64_t)at * TPROF_UNIT, .t_first = u[at].t0 };
		stream_add_piece(s, &tail);
	}
}

static int map_spool(struct proc *p, size_t *len)
{
	int fd = open(p->spool_path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		diag_warn(p->spool_path, 0, "cannot open: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*len = (size_t)st.st_size;
	if (*len < TPROF_SPOOL_HEADER_SIZE) {
		diag_warn(p->spool_path, 0, "shorter than its header; ignored");
		close(fd);
		return -1;
	}
	void *m = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED) {
		diag_warn(p->spool_path, 0, "cannot map: %s", strerror(errno));
		return -1;
	}
	p->spool = m;
	p->spool_len = *len;
	return 0;
}

int spoolfile_index(struct trace *tr, struct proc *p)
{
	size_t len;
	(void)tr;
	if (!p->spool_path || map_spool(p, &len) < 0)
		return 0;
	const struct tprof_spool_header *h = (const void *)p->spool;
	const char *why = tprof_spool_header_check(h);
	if (why) {
		diag_warn(p->spool_path, 0, "%s; ignored", why);
		return 0;
	}
	if (p->instance && h->instance != p->instance)
		diag_warn(p->spool_path, 0, "belongs to another process image than %s; read anyway",
			  p->trace_path);
	p->slot_bytes = h->slot_bytes;
	losses_table(p, p->spool);
	for (uint64_t off = TPROF_SPOOL_HEADER_SIZE; off + h->slot_bytes <= len; off += h->slot_bytes) {
		const struct tprof_slot_header *sh = (const void *)(p->spool + off);
		if (sh->magic != TPROF_SLOT_MAGIC) {
			diag_warn(p->spool_path, off, "buffer header damaged; buffer skipped");
			continue;
		}
		uint32_t cap = (h->slot_bytes - TPROF_SLOT_HEADER_SIZE) / TPROF_UNIT;
		if (sh->state == TPROF_SLOT_FREE || sh->capacity > cap)
			continue;
		const struct tprof_rec *u = (const void *)(sh + 1);
		uint32_t records;
		uint32_t n = written_units(u, sh->capacity, &records);
		struct stream *s = n ? proc_stream(p, sh->stream) : NULL;
		if (s)
			fill_gaps(s, sh->seq, u, n, off + TPROF_SLOT_HEADER_SIZE);
	}
	return 0;
}

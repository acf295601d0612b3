/* spoolfile.c — reads what a process left in its spool: buffers that were never (or only
 * partly) written to the chunk file because the process died, by SIGKILL or any other way,
 * or because it is still running.  Each such buffer fills the gaps the chunk file leaves in
 * its stream.  The spool is mapped and its descriptor closed at once (a mapping needs none,
 * and a profile may hold more spools than the process may open); a finished writer's records
 * are read from the mapping, which is kept only when some buffer fills a gap.  A running
 * writer goes on writing into its buffers and reusing them, so the records of its gaps are
 * copied, and a buffer it handed on while it was read is left to the chunk file, which then
 * holds it.  Parts of the file never written (a sparse file's holes, buffers the process
 * never began) are skipped without being read, and damage is said once per file and cause,
 * with a count. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/chunk.h"
#include "../../common/writer-live.h"
#include "../../common/xalloc.h"
#include "trace.h"

/* Units of written records from the start of a buffer of cap units, and how many records
 * they hold. */
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

/* One spool being read: its mapping, whether its writer may still change it (its records are
 * then copied), the copy of the buffer being read, and the damage found. */
struct spool_read {
	struct proc *p;
	const uint8_t *m;
	int copy;
	struct tprof_rec *u;            /* a running writer's buffer, as it was copied */
	size_t room;
	struct tally {
		uint64_t n, first;      /* buffers, the first one's offset */
	} bad_header, bad_size;
	int mapped;                     /* a piece reads from the mapping */
};

static struct proc_spool *spool_of(struct proc *p)
{
	if (!p->spool)
		p->spool = xcalloc(1, sizeof(*p->spool));
	return p->spool;
}

/* Units [a, b) of the buffer whose unit 0 is u, at byte unit0 of the mapping, as a piece:
 * read from the mapping, or copied when the writer may change them. */
static void add_gap(struct spool_read *sp, struct stream *s, uint32_t seq,
		    const struct tprof_rec *u, uint64_t unit0, uint32_t a, uint32_t b)
{
	struct proc *p = sp->p;
	size_t bytes = (size_t)(b - a) * TPROF_UNIT;
	struct piece pc = { .seq = seq, .first = a, .units = b - a,
			    .records = records_between(u, a, b), .src = PIECE_SPOOL,
			    .offset = unit0 + (uint64_t)a * TPROF_UNIT, .t_first = u[a].t0 };
	if (sp->copy) {
		struct proc_spool *ps = spool_of(p);
		if (ps->len + bytes > ps->cap) {
			size_t cap = ps->cap ? ps->cap : 64 * TPROF_UNIT;
			while (cap < ps->len + bytes)
				cap *= 2;
			ps->copy = xrealloc(ps->copy, cap);
			ps->cap = cap;
		}
		memcpy(ps->copy + ps->len, u + a, bytes);
		pc.copied = 1;
		pc.offset = ps->len;
		ps->len += bytes;
	} else {
		sp->mapped = 1;
	}
	p->from_spool = 1;
	stream_add_piece(s, &pc);
}

/* The first chunk piece of buffer seq: the chunk file's pieces are sorted by (seq, first),
 * ahead of those the spool adds. */
static size_t first_of_seq(const struct stream *s, uint32_t seq)
{
	size_t lo = 0, hi = s->nsorted;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->pieces[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Adds spool pieces for the units [0, n) of (stream, seq) that no chunk covers. */
static void fill_gaps(struct spool_read *sp, struct stream *s, uint32_t seq, const struct tprof_rec *u,
		      uint64_t unit0, uint32_t n)
{
	uint32_t at = 0;
	for (size_t i = first_of_seq(s, seq); i < s->nsorted && at < n; i++) {
		const struct piece *pc = &s->pieces[i];
		if (pc->seq != seq)
			break;
		if (pc->src != PIECE_CHUNK)
			continue;
		if (pc->first > at)
			add_gap(sp, s, seq, u, unit0, at, pc->first < n ? pc->first : n);
		if (pc->first + pc->units > at)
			at = pc->first + pc->units;
	}
	if (at < n)
		add_gap(sp, s, seq, u, unit0, at, n);
}

/* Damage of one kind in one spool: said once, with a count and the first offset. */
static void tally(struct tally *t, uint64_t off)
{
	if (!t->n++)
		t->first = off;
}

static void say(const struct proc *p, const struct tally *t, const char *what)
{
	if (t->n)
		diag_warn(p->spool_path, t->first, "%llu buffer%s %s; skipped",
			  (unsigned long long)t->n, t->n == 1 ? "" : "s", what);
}

static int all_zero(const void *v, size_t n)
{
	const uint8_t *b = v;
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

/* Reads the buffer at off. */
static void read_slot(struct spool_read *sp, uint64_t off, uint32_t slot_bytes)
{
	const uint8_t *m = sp->m;
	struct tprof_slot_header sh, again;
	memcpy(&sh, m + off, sizeof(sh));
	if (sh.magic != TPROF_SLOT_MAGIC) {
		/* a buffer the process never began (its header not yet written) holds nothing */
		if (!all_zero(&sh, sizeof(sh)))
			tally(&sp->bad_header, off);
		return;
	}
	uint32_t cap = (slot_bytes - TPROF_SLOT_HEADER_SIZE) / TPROF_UNIT;
	if (sh.state == TPROF_SLOT_FREE)
		return;
	if (sh.capacity > cap) {
		tally(&sp->bad_size, off);
		return;
	}
	uint64_t unit0 = off + TPROF_SLOT_HEADER_SIZE;
	const struct tprof_rec *u = (const void *)(m + unit0);
	uint32_t records, n = written_units(u, sh.capacity, &records);
	if (!n)
		return;
	if (sp->copy) {
		/* A running process may add records or hand the buffer on meanwhile: what was
		 * copied is read, and only if the buffer is still the one whose header was read
		 * (a buffer handed on was written to the chunk file first, which the second
		 * pass over the chunk file finds). */
		if (sp->room < n) {
			free(sp->u);
			sp->room = n;
			sp->u = xmalloc((size_t)n * TPROF_UNIT);
		}
		memcpy(sp->u, u, (size_t)n * TPROF_UNIT);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		memcpy(&again, m + off, sizeof(again));
		if (again.state == TPROF_SLOT_FREE || again.seq != sh.seq || again.stream != sh.stream)
			return;
		n = written_units(sp->u, n, &records);
		u = sp->u;
	}
	struct stream *s = n ? proc_stream(sp->p, sh.stream) : NULL;
	if (s)
		fill_gaps(sp, s, sh.seq, u, unit0, n);
}

int spoolfile_index(struct trace *tr, struct proc *p)
{
	(void)tr;
	if (!p->spool_path)
		return 0;
	int fd = fdcache_open(p->spool_path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		diag_unreadable(p->spool_path, "cannot open: %s; its records are left out",
				strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	struct tprof_spool_header h;
	uint64_t size = (uint64_t)st.st_size;
	const char *why = size < TPROF_SPOOL_HEADER_SIZE ? "shorter than its header" : NULL;
	if (!why && pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		why = "cannot read its header";
	if (!why)
		why = tprof_spool_header_check(&h);
	if (why) {
		diag_warn(p->spool_path, 0, "%s; ignored", why);
		close(fd);
		return 0;
	}
	const uint8_t *m = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		diag_unreadable(p->spool_path, "cannot map: %s; its records are left out",
				strerror(errno));
		close(fd);
		return -1;
	}
	if (p->instance && h.instance != p->instance)
		diag_warn(p->spool_path, 0, "belongs to another process image than %s; read anyway",
			  p->trace_path);
	switch (tprof_spool_writer(p->spool_path, h.created_ns, NULL)) {
	case TPROF_WRITER_LIVE:
		p->writer = WRITER_LIVE;
		break;
	case TPROF_WRITER_GONE:
		p->writer = WRITER_GONE;
		break;
	default:
		p->writer = WRITER_UNKNOWN;
		break;
	}
	losses_table(p, m);
	/* A writer on another host may still run, and there is no telling: its records are
	 * copied as a running writer's are. */
	struct spool_read sp = { .p = p, .m = m, .copy = p->writer != WRITER_GONE };
	uint64_t data_end = 0;          /* the written extent the offset is in ends here */
	for (uint64_t off = TPROF_SPOOL_HEADER_SIZE; off + h.slot_bytes <= size; off += h.slot_bytes) {
		if (off >= data_end) {
			/* skip what was never written (holes of a sparse file) without reading it */
			off_t d = lseek(fd, (off_t)off, SEEK_DATA);
			if (d < 0 && errno == ENXIO)
				break;
			if (d < 0) {
				data_end = size;
			} else {
				uint64_t slot = ((uint64_t)d - TPROF_SPOOL_HEADER_SIZE) / h.slot_bytes;
				if ((uint64_t)d > off)
					off = TPROF_SPOOL_HEADER_SIZE + slot * h.slot_bytes;
				off_t e = lseek(fd, d, SEEK_HOLE);
				data_end = e < 0 ? size : (uint64_t)e;
				if (off + h.slot_bytes > size)
					break;
			}
		}
		read_slot(&sp, off, h.slot_bytes);
	}
	close(fd);
	free(sp.u);
	if (sp.mapped) {             /* kept for the pieces that read from it */
		spool_of(p)->map = m;
		p->spool->map_len = (size_t)size;
	} else {
		munmap((void *)m, (size_t)size);
	}
	say(p, &sp.bad_header, "with a damaged header");
	say(p, &sp.bad_size, "larger than the spool's buffers");
	return 0;
}

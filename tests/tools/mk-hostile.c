/* mk-hostile.c — writes small profiles whose fields claim far more than their bytes hold (ids,
 * sizes, ranks, counts), or times at the ends of their range, for the analyzer's tests of
 * bounded memory and time and of its arithmetic.  Every image is written as the recorder
 * writes it (writer.h: same encoder, same headers), so only the values are hostile.
 *
 *   mk-hostile CASE DIR [N]
 *
 *   string-id        a string of id 0xffffffff, and a mark named by it
 *   comms N          N communicators each claiming 2^24 members, each listing 8
 *   comm-first N     N communicators listing 8 members from member 2^24 - 8 on
 *   rank             a process of rank 2^40, MPI_COMM_WORLD claiming 2^24 - 1 members
 *   world-size N     a world size of 2^24 - 1 and N collectives on MPI_COMM_WORLD
 *   streams N        N chunks, each of a stream of its own (ids spread over 32 bits)
 *   asyncs N         N ranges by id begun, then ended in the reverse order
 *   open-calls N     N calls that never returned
 *   deep N           N ranges pushed, none popped
 *   unknown-names N  N marks named by N string ids no record defines
 *   spool-damage N   a killed process's spool: N buffers with damaged headers, then a hole
 *                    of 1 TiB (a sparse file), then one good buffer of 3 marks
 *   times            ticks, clock samples and device times at INT64_MIN, INT64_MAX, 0 and
 *                    UINT64_MAX, with ranges, calls, steps and MPI calls among them
 *   early            a kernel that ran (as its DEVICE record says) before anything else of
 *                    the trace, launched by a call, beside a range and a mark
 *   procs N          N processes of one thread and 3 marks each; every fourth killed before
 *                    its final flush (its marks only in its spool)
 *
 * Prints how many images it wrote: "images=I". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/xalloc.h"
#include "../unit/writer.h"

#define REAL0 1700000000000000000ll
#define CHUNK_UNITS 16384u

/* One process image: its stream 0 and one thread stream, written in chunks. */
struct img {
	struct tw w;
	char base[512];
	struct tprof_rec *u[2];
	uint32_t n[2];
	const char *strs[64];
	uint32_t nstrs;
	uint32_t nstr_records;           /* strings written so far (stream 0 starts with them) */
};

static const char *dir;
static unsigned images;

static uint32_t str(struct img *m, const char *s)
{
	for (uint32_t i = 0; i < m->nstrs; i++)
		if (!strcmp(m->strs[i], s))
			return i + 1;
	m->strs[m->nstrs++] = s;
	return m->nstrs;
}

static void flush_stream(struct img *m, int s)
{
	if (m->n[s])
		tw_chunk(&m->w, (uint32_t)s, m->u[s], m->n[s]);
	m->n[s] = 0;
}

/* Appends a record and its extension units to stream s (0 or 1). */
static void put(struct img *m, int s, struct tprof_rec r, const void *ext, unsigned next)
{
	if (m->n[s] + 1 + next > CHUNK_UNITS) {
		if (s == 0)
			return;          /* stream 0 is written once, at the end */
		flush_stream(m, s);
	}
	r.ext = (uint8_t)next;
	m->u[s][m->n[s]++] = r;
	if (next)
		memcpy(&m->u[s][m->n[s]], ext, next * TPROF_UNIT);
	m->n[s] += next;
}

static void prop_int(struct img *m, const char *key, int64_t v)
{
	struct tprof_rec r = tw_rec(TPROF_K_PROP, str(m, key), 0, 0, (uint64_t)v);
	r.flags = TPROF_PROP_INT;
	put(m, 0, r, NULL, 0);
}

static void prop_str(struct img *m, const char *key, const char *v)
{
	put(m, 0, tw_rec(TPROF_K_PROP, str(m, key), 0, 0, str(m, v)), NULL, 0);
}

/* A process image of pid on host "h", clock CLOCK_MONOTONIC (ticks = ns), samples at ticks
 * 1000 and 1000000, its thread stream 1 named "main". */
static void begin(struct img *m, int64_t pid)
{
	memset(m, 0, sizeof(*m));
	m->u[0] = xcalloc(CHUNK_UNITS, sizeof(struct tprof_rec));
	m->u[1] = xcalloc(CHUNK_UNITS, sizeof(struct tprof_rec));
	snprintf(m->base, sizeof(m->base), "%s/h.%lld.%08x", dir, (long long)pid, (unsigned)pid);
	char path[600];
	snprintf(path, sizeof(path), "%s.tpf", m->base);
	if (tw_open(&m->w, path, (uint64_t)pid) < 0) {
		perror(path);
		exit(2);
	}
	prop_int(m, "clock", TPROF_CLOCKSRC_MONOTONIC);
	prop_str(m, "host", "h");
	prop_int(m, "pid", pid);
	prop_str(m, "arg", "./hostile");
	put(m, 0, tw_rec(TPROF_K_CLOCK, 0, 1000, 1000, (uint64_t)REAL0 + 1000), NULL, 0);
	put(m, 0, tw_rec(TPROF_K_CLOCK, 0, 1000000, 1000000, (uint64_t)REAL0 + 1000000), NULL, 0);
	put(m, 0, tw_rec(TPROF_K_THREAD, str(m, "main"), 1000, (uint64_t)pid, 1), NULL, 0);
	images++;
}

/* Stream 0 (its strings first, then its records, then END unless the process was killed). */
static void end(struct img *m, int ended)
{
	struct tprof_rec *u = xcalloc(CHUNK_UNITS + 64 * 8, sizeof(*u));
	uint32_t n = 0;
	for (uint32_t i = 0; i < m->nstrs; i++)
		n += tw_string(u + n, i + 1, m->strs[i]);
	memcpy(u + n, m->u[0], m->n[0] * sizeof(*u));
	n += m->n[0];
	if (ended)
		u[n++] = tw_rec(TPROF_K_END, 0, 999999, 0, 0);
	flush_stream(m, 1);
	tw_chunk(&m->w, 0, u, n);
	tw_close(&m->w);
	free(u);
	free(m->u[0]);
	free(m->u[1]);
}

static void comm(struct img *m, uint64_t id, uint8_t kind, uint32_t size, uint32_t first,
		 int32_t my_rank)
{
	uint8_t ext[2 * TPROF_UNIT];
	memset(ext, 0, sizeof(ext));
	struct tprof_comm_def d = { .id = id, .size = size, .first = first, .my_rank = my_rank };
	memcpy(ext, &d, sizeof(d));
	for (int32_t i = 0; i < 8; i++)
		memcpy(ext + TPROF_UNIT + 4 * i, &i, 4);
	struct tprof_rec r = tw_rec(TPROF_K_COMM, 0, 1000, 0, id);
	r.flags = kind;
	put(m, 0, r, ext, 2);
}

static void mpi_call(struct img *m, const char *name, uint64_t t0, uint64_t t1,
		     const struct tprof_mpi_args *a)
{
	struct tprof_rec r = tw_rec(TPROF_K_CALL, str(m, name), t0, t1, 1);
	r.flags = TPROF_DOM_MPI;
	put(m, 1, r, a, 1);
}

/* ---- the cases ------------------------------------------------------------------------------ */

static void string_id(void)
{
	struct img m;
	begin(&m, 100);
	end(&m, 0);             /* written below by hand: a stream 0 with the one odd string */
	char path[600];
	snprintf(path, sizeof(path), "%s.tpf", m.base);
	struct tw w;
	tw_open(&w, path, 100);
	struct tprof_rec u[8];
	uint32_t n = tw_string(u, 0xffffffffu, "x");
	u[n++] = tw_rec(TPROF_K_CLOCK, 0, 1000, 1000, (uint64_t)REAL0 + 1000);
	tw_chunk(&w, 0, u, n);
	u[0] = tw_rec(TPROF_K_MARK, 0xffffffffu, 2000, 0, 0);
	tw_chunk(&w, 1, u, 1);
	tw_close(&w);
}

static void comms(unsigned n, int from_end)
{
	struct img m;
	begin(&m, 100);
	prop_int(&m, "rank", 0);
	comm(&m, TPROF_COMM_WORLD, TPROF_COMMK_WORLD, 8, 0, 0);
	for (unsigned i = 0; i < n; i++)
		comm(&m, 0x1000 + i, TPROF_COMMK_INTRA, 1u << 24, from_end ? (1u << 24) - 8 : 0, 0);
	struct tprof_mpi_args a = { .comm = 0x1000, .peer = TPROF_MPI_NONE, .op = TPROF_MPI_COLL };
	for (unsigned i = 0; i < n; i++) {
		a.comm = 0x1000 + i;
		mpi_call(&m, "MPI_Barrier", 2000 + 10 * i, 2005 + 10 * i, &a);
	}
	end(&m, 1);
}

static void rank(void)
{
	struct img m;
	begin(&m, 100);
	prop_int(&m, "rank", 1ll << 40);
	comm(&m, TPROF_COMM_WORLD, TPROF_COMMK_WORLD, (1u << 24) - 1, 0, 0);
	struct tprof_mpi_args a = { .comm = TPROF_COMM_WORLD, .peer = 3, .tag = 1, .bytes = 8,
				    .op = TPROF_MPI_SEND };
	mpi_call(&m, "MPI_Send", 2000, 3000, &a);
	end(&m, 1);
}

static void world_size(unsigned n)
{
	struct img m;
	begin(&m, 100);
	prop_int(&m, "rank", 0);
	prop_int(&m, "world_size", (1 << 24) - 1);
	struct tprof_mpi_args a = { .comm = TPROF_COMM_WORLD, .peer = TPROF_MPI_NONE,
				    .op = TPROF_MPI_COLL };
	for (unsigned i = 0; i < n; i++) {
		a.seq = i + 1;
		mpi_call(&m, "MPI_Barrier", 2000 + 10 * i, 2005 + 10 * i, &a);
	}
	end(&m, 1);
}

static void streams(unsigned n)
{
	struct img m;
	begin(&m, 100);
	for (unsigned i = 0; i < n; i++) {
		struct tprof_rec r = tw_rec(TPROF_K_MARK, str(&m, "mark"), 2000 + i, 0, 0);
		uint32_t id = 2 + (uint32_t)(i * 2654435761u % 0xfffffff0u);
		tw_chunk(&m.w, id, &r, 1);
	}
	end(&m, 1);
}

static void asyncs(unsigned n)
{
	struct img m;
	begin(&m, 100);
	for (unsigned i = 0; i < n; i++)
		put(&m, 1, tw_rec(TPROF_K_ABEGIN, str(&m, "r"), 2000 + i, 0, 1 + (uint64_t)i), NULL, 0);
	for (unsigned i = n; i-- > 0;)
		put(&m, 1, tw_rec(TPROF_K_AEND, 0, 2000 + 2 * (uint64_t)n - i, 0, 1 + (uint64_t)i), NULL, 0);
	end(&m, 1);
}

static void simple(unsigned n, uint16_t kind, int ended)
{
	struct img m;
	begin(&m, 100);
	for (unsigned i = 0; i < n; i++) {
		uint32_t name = kind == TPROF_K_MARK ? 1000 + i : str(&m, "x");
		struct tprof_rec r = tw_rec(kind, name, 2000 + i, 0, 0);
		if (kind == TPROF_K_CALL)
			r.flags = TPROF_DOM_HIP;
		put(&m, 1, r, NULL, 0);
	}
	end(&m, ended);
}

static void spool_damage(unsigned n)
{
	struct img m;
	begin(&m, 100);
	end(&m, 0);
	uint32_t cap = 8, slot = TPROF_SLOT_HEADER_SIZE + cap * TPROF_UNIT;
	char path[600];
	snprintf(path, sizeof(path), "%s.spool", m.base);
	FILE *f = fopen(path, "wb");
	struct tprof_spool_header h;
	static uint8_t page[TPROF_SPOOL_HEADER_SIZE];
	tprof_spool_header_init(&h, 100, 100, slot, (uint64_t)REAL0);
	memcpy(page, &h, sizeof(h));
	fwrite(page, sizeof(page), 1, f);
	uint8_t *buf = xcalloc(1, slot);
	for (unsigned i = 0; i < n; i++) {
		memset(buf, 0x5a, TPROF_SLOT_HEADER_SIZE);   /* neither a header nor never written */
		fwrite(buf, slot, 1, f);
	}
	/* a hole of 1 TiB, then a good buffer: three marks of stream 1 */
	uint64_t at = TPROF_SPOOL_HEADER_SIZE + (uint64_t)n * slot;
	at += ((1ull << 40) / slot) * slot;
	memset(buf, 0, slot);
	struct tprof_slot_header *sh = (void *)buf;
	sh->magic = TPROF_SLOT_MAGIC;
	sh->state = TPROF_SLOT_ACTIVE;
	sh->stream = 1;
	sh->seq = 0;
	sh->capacity = cap;
	struct tprof_rec *u = (void *)(sh + 1);
	for (int i = 0; i < 3; i++)
		u[i] = tw_rec(TPROF_K_MARK, 1, 2000 + (uint64_t)i, 0, 0);
	if (fseeko(f, (off_t)at, SEEK_SET) || fwrite(buf, slot, 1, f) != 1) {
		perror(path);
		exit(2);
	}
	fclose(f);
	free(buf);
}

static void times(void)
{
	static const uint64_t ticks[] = { 0, 1, (uint64_t)INT64_MAX, (uint64_t)INT64_MIN, UINT64_MAX,
					  (uint64_t)INT64_MAX - 1, (uint64_t)INT64_MIN + 1 };
	const unsigned nt = sizeof(ticks) / sizeof(ticks[0]);
	/* one image with a monotonic clock, one with a TSC-like one, one without any sample */
	for (int k = 0; k < 3; k++) {
		struct img m;
		begin(&m, 200 + k);
		m.n[0] = 0;         /* replace begin's clock property and samples */
		prop_int(&m, "clock", k == 1 ? TPROF_CLOCKSRC_TSC : TPROF_CLOCKSRC_MONOTONIC);
		prop_str(&m, "host", k == 2 ? "other" : "h");
		prop_int(&m, "pid", 200 + k);
		prop_int(&m, "rank", k);
		put(&m, 0, tw_rec(TPROF_K_THREAD, str(&m, "main"), 0, 200 + (uint64_t)k, 1), NULL, 0);
		comm(&m, TPROF_COMM_WORLD, TPROF_COMMK_WORLD, 3, 0, k);
		for (unsigned i = 0; k < 2 && i < nt; i++)
			put(&m, 0, tw_rec(TPROF_K_CLOCK, 0, ticks[i], ticks[(i + 1) % nt],
					  ticks[(i + 2) % nt]), NULL, 0);
		struct tprof_csync x = { .ref_pid = 200, .ref_rank = 0, .rank = k, .rounds = 4 };
		for (unsigned i = 0; k > 0 && i < nt; i++)
			put(&m, 0, tw_rec(TPROF_K_CSYNC, str(&m, "h"), ticks[i], ticks[nt - 1 - i],
					  ticks[(i + 3) % nt]), &x, 1);
		for (unsigned i = 0; i < nt; i++) {
			uint64_t t = ticks[i], u = ticks[(i + 1) % nt];
			put(&m, 1, tw_rec(TPROF_K_PUSH, str(&m, "range"), t, 0, 0), NULL, 0);
			put(&m, 1, tw_rec(TPROF_K_MARK, str(&m, "mark"), t, 0, 0), NULL, 0);
			struct tprof_rec c = tw_rec(TPROF_K_CALL, str(&m, "hipLaunchKernel"), t, u, i + 1);
			c.flags = TPROF_DOM_HIP;
			put(&m, 1, c, NULL, 0);
			struct tprof_devop d = { .start_ns = (int64_t)u, .end_ns = (int64_t)t,
						 .stream = 7, .device = 0, .launch_stream = 1,
						 .launch_t0 = t };
			struct tprof_rec dr = tw_rec(TPROF_K_DEVICE, str(&m, "kernel"), t, 0, i + 1);
			dr.flags = TPROF_DEVOP_KERNEL;
			put(&m, 1, dr, &d, 3);
			put(&m, 1, tw_rec(TPROF_K_STEP, 0, t, 0, i), NULL, 0);
			put(&m, 1, tw_rec(TPROF_K_ABEGIN, str(&m, "async"), t, 0, i + 1), NULL, 0);
			put(&m, 1, tw_rec(TPROF_K_AEND, 0, u, 0, i + 1), NULL, 0);
			uint64_t cv;
			double v = (double)(int64_t)t;
			memcpy(&cv, &v, sizeof(cv));
			put(&m, 1, tw_rec(TPROF_K_COUNTER, str(&m, "counter"), t, 0, cv), NULL, 0);
			struct tprof_mpi_args a = { .comm = TPROF_COMM_WORLD, .peer = (k + 1) % 3,
						    .tag = 1, .bytes = 8, .op = TPROF_MPI_SEND };
			mpi_call(&m, "MPI_Send", t, u, &a);
			a.peer = (k + 2) % 3;
			a.op = TPROF_MPI_RECV;
			a.seq = i + 1;
			mpi_call(&m, "MPI_Recv", u, t, &a);
			struct tprof_mpi_args b = { .comm = TPROF_COMM_WORLD, .peer = TPROF_MPI_NONE,
						    .op = TPROF_MPI_COLL, .seq = i + 1 };
			mpi_call(&m, "MPI_Barrier", t, u, &b);
			put(&m, 1, tw_rec(TPROF_K_POP, 0, u, 0, 0), NULL, 0);
		}
		end(&m, k != 1);
	}
}

static void early(void)
{
	struct img m;
	begin(&m, 100);
	put(&m, 1, tw_rec(TPROF_K_PUSH, str(&m, "range"), 2000, 0, 0), NULL, 0);
	struct tprof_rec c = tw_rec(TPROF_K_CALL, str(&m, "hipLaunchKernel"), 3000, 4000, 1);
	c.flags = TPROF_DOM_HIP;
	put(&m, 1, c, NULL, 0);
	put(&m, 1, tw_rec(TPROF_K_MARK, str(&m, "mark"), 5000, 0, 0), NULL, 0);
	struct tprof_devop d = { .start_ns = 10, .end_ns = 500, .stream = 7, .launch_stream = 1 };
	struct tprof_rec dr = tw_rec(TPROF_K_DEVICE, str(&m, "kernel"), 6000, 0, 1);
	dr.flags = TPROF_DEVOP_KERNEL;
	put(&m, 1, dr, &d, 3);
	put(&m, 1, tw_rec(TPROF_K_POP, 0, 7000, 0, 0), NULL, 0);
	end(&m, 1);
}

static void procs(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct img m;
		int killed = i % 4 == 3;
		begin(&m, 1000 + i);
		for (int k = 0; k < 3 && !killed; k++)
			put(&m, 1, tw_rec(TPROF_K_MARK, str(&m, "mark"), 2000 + (uint64_t)k, 0, 0), NULL, 0);
		if (killed)
			str(&m, "mark");
		end(&m, !killed);
		if (killed) {
			char path[600];
			struct tprof_rec u[3];
			for (int k = 0; k < 3; k++)
				u[k] = tw_rec(TPROF_K_MARK, str(&m, "mark"), 2000 + (uint64_t)k, 0, 0);
			snprintf(path, sizeof(path), "%s.spool", m.base);
			tw_spool(path, 1000 + i, 1, 0, u, 3);
		}
	}
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: mk-hostile CASE DIR [N]\n");
		return 2;
	}
	const char *c = argv[1];
	unsigned n = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 1000;
	dir = argv[2];
	mkdir(dir, 0755);
	if (!strcmp(c, "string-id"))
		string_id();
	else if (!strcmp(c, "comms"))
		comms(n, 0);
	else if (!strcmp(c, "comm-first"))
		comms(n, 1);
	else if (!strcmp(c, "rank"))
		rank();
	else if (!strcmp(c, "world-size"))
		world_size(n);
	else if (!strcmp(c, "streams"))
		streams(n);
	else if (!strcmp(c, "asyncs"))
		asyncs(n);
	else if (!strcmp(c, "open-calls"))
		simple(n, TPROF_K_CALL, 0);
	else if (!strcmp(c, "deep"))
		simple(n, TPROF_K_PUSH, 1);
	else if (!strcmp(c, "unknown-names"))
		simple(n, TPROF_K_MARK, 1);
	else if (!strcmp(c, "spool-damage"))
		spool_damage(n);
	else if (!strcmp(c, "times"))
		times();
	else if (!strcmp(c, "early"))
		early();
	else if (!strcmp(c, "procs"))
		procs(n);
	else {
		fprintf(stderr, "mk-hostile: unknown case %s\n", c);
		return 2;
	}
	printf("images=%u\n", images);
	return 0;
}

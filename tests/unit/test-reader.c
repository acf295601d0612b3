/* test-reader.c — the chunk file reader: good chunks are indexed, a damaged payload or header
 * is skipped with the rest still read (the reader resynchronises on the next chunk), a
 * truncated file keeps what precedes the cut, and records come back exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../analyze/read/trace.h"
#include "tap.h"
#include "writer.h"

#define CHUNKS 6
#define PER 500

static char dir[256];
static off_t offsets[CHUNKS + 1];
static int raw_chunks;          /* make_file writes chunks not compressed */

/* Stream 0 with a clock; stream 1 with CHUNKS chunks of PER marks each, mark i at t0 = i. */
static void make_file(const char *path)
{
	struct tw w;
	struct tprof_rec u[PER];
	tw_open(&w, path, 77);
	w.raw = raw_chunks;
	uint32_t n = 0;
	n += tw_string(u + n, 1, "m");
	n += tw_string(u + n, 2, "clock");
	n += tw_string(u + n, 3, "host");
	n += tw_string(u + n, 4, "pid");
	n += tw_string(u + n, 5, "h");
	u[n] = tw_rec(TPROF_K_PROP, 2, 0, 0, TPROF_CLOCKSRC_MONOTONIC);
	u[n++].flags = TPROF_PROP_INT;
	u[n++] = tw_rec(TPROF_K_PROP, 3, 0, 0, 5);
	u[n] = tw_rec(TPROF_K_PROP, 4, 0, 0, 1);
	u[n++].flags = TPROF_PROP_INT;
	u[n] = tw_rec(TPROF_K_CLOCK, 0, 1, 1, 1000);
	u[n++].flags = TPROF_CLOCK_START;
	tw_chunk(&w, 0, u, n);
	for (int c = 0; c < CHUNKS; c++) {
		for (int i = 0; i < PER; i++)
			u[i] = tw_rec(TPROF_K_MARK, 1, (uint64_t)(c * PER + i + 1), 0, (uint64_t)(c * PER + i));
		offsets[c] = tw_chunk(&w, 1, u, PER);
	}
	offsets[CHUNKS] = lseek(w.fd, 0, SEEK_END);
	tw_close(&w);
}

/* Reads stream 1 back; returns the record count and checks each arg follows t0. */
static uint64_t read_back(const char *d, int *intact, int *ok_load)
{
	struct trace tr = { 0 };
	*ok_load = trace_load(&tr, d) == 0 && tr.nprocs == 1;
	uint64_t n = 0;
	*intact = 1;
	if (*ok_load && tr.procs[0]->nstreams > 1 && tr.procs[0]->streams[1]) {
		struct stream *s = tr.procs[0]->streams[1];
		stream_rewind(s);
		while (stream_next(s)) {
			if (s->rec->kind != TPROF_K_MARK || s->rec->arg + 1 != s->rec->t0)
				*intact = 0;
			n++;
		}
	}
	trace_free(&tr);
	return n;
}

static void flip(const char *path, off_t at)
{
	FILE *f = fopen(path, "r+b");
	fseek(f, at, SEEK_SET);
	int c = fgetc(f);
	fseek(f, at, SEEK_SET);
	fputc(c ^ 0x5a, f);
	fclose(f);
}

int main(void)
{
	char path[300];
	snprintf(dir, sizeof(dir), "%s/tprof-reader.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 99;
	snprintf(path, sizeof(path), "%s/h.1.00000001.tpf", dir);
	int intact, loaded;

	make_file(path);
	is_u64(read_back(dir, &intact, &loaded), CHUNKS * PER, "an undamaged file gives every record");
	ok(intact && loaded, "and every record is exact");

	make_file(path);
	flip(path, offsets[2] + TPROF_CHUNK_HEADER_SIZE + 10);
	uint64_t before = diag_warnings;
	is_u64(read_back(dir, &intact, &loaded), (CHUNKS - 1) * PER,
	       "a damaged payload loses that chunk only");
	ok(intact && diag_warnings > before, "the rest is exact and a warning was given");

	make_file(path);
	flip(path, offsets[3] + 20);
	is_u64(read_back(dir, &intact, &loaded), (CHUNKS - 1) * PER,
	       "a damaged chunk header: the reader resynchronises on the next chunk");
	ok(intact, "records after the resynchronisation are exact");

	make_file(path);
	flip(path, offsets[1] + 1);  /* the magic itself */
	flip(path, offsets[4] + TPROF_CHUNK_HEADER_SIZE + 3);
	is_u64(read_back(dir, &intact, &loaded), (CHUNKS - 2) * PER, "two damaged chunks, two lost");

	make_file(path);
	if (truncate(path, offsets[5] + 100) != 0)
		return 99;
	is_u64(read_back(dir, &intact, &loaded), 5 * PER, "a truncated file keeps the chunks before the cut");
	ok(intact, "and they are exact");

	make_file(path);
	flip(path, 3);  /* file header */
	is_u64(read_back(dir, &intact, &loaded), CHUNKS * PER,
	       "a damaged file header does not stop the chunks being read");

	/* Killed in the middle of writing its last chunk: the spool still holds that buffer. */
	make_file(path);
	if (truncate(path, offsets[5] + 100) != 0)
		return 99;
	struct tprof_rec last[PER];
	for (int i = 0; i < PER; i++)
		last[i] = tw_rec(TPROF_K_MARK, 1, (uint64_t)(5 * PER + i + 1), 0, (uint64_t)(5 * PER + i));
	char spool[300];
	snprintf(spool, sizeof(spool), "%s/h.1.00000001.spool", dir);
	tw_spool(spool, 77, 1, 5, last, PER);
	before = diag_warnings;
	uint64_t lost = diag_records_lost;
	is_u64(read_back(dir, &intact, &loaded), CHUNKS * PER,
	       "a chunk cut short by a kill is read from the spool instead");
	ok(intact && diag_warnings == before && diag_records_lost == lost,
	   "exactly, and nothing is reported lost");
	unlink(spool);

	/* Chunks not compressed and without a payload CRC, as an import writes them for itself:
	 * read as they are. */
	raw_chunks = 1;
	make_file(path);
	before = diag_warnings;
	is_u64(read_back(dir, &intact, &loaded), CHUNKS * PER,
	       "chunks not compressed give every record");
	ok(intact && loaded && diag_warnings == before, "and every record is exact, no warning");
	raw_chunks = 0;

	make_file(path);
	snprintf(path, sizeof(path), "%s/garbage.bin", dir);
	FILE *g = fopen(path, "w");
	fputs("this is not a trace\n", g);
	fclose(g);
	before = diag_warnings;
	is_u64(read_back(dir, &intact, &loaded), CHUNKS * PER, "a garbage file beside a trace is ignored");
	ok(diag_warnings == before + 1, "with one warning");
	unlink(path);

	/* A system image says so in its file header, before any record is read. */
	struct tw w;
	uint64_t job, created;
	uint32_t flags = 99;
	snprintf(path, sizeof(path), "%s/h.2.00000002.tpf", dir);
	ok(tw_open_as(&w, path, 2, TPROF_FILE_SYSTEM) == 0 && close(w.fd) == 0 &&
	   tprof_job_of_file(AT_FDCWD, path, &job, &created, &flags) == 1 &&
	   flags == TPROF_FILE_SYSTEM, "a system image's file header has TPROF_FILE_SYSTEM (%u)",
	   flags);
	make_file(path);
	ok(tprof_job_of_file(AT_FDCWD, path, &job, &created, &flags) == 1 && flags == 0,
	   "a recorder's has no flag (%u)", flags);
	flip(path, 20);          /* the instance: the header's CRC no longer holds */
	flags = 99;
	ok(tprof_job_of_file(AT_FDCWD, path, &job, &created, &flags) == 2 && flags == 0,
	   "a damaged header says none (%u)", flags);
	unlink(path);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		return 99;
	return tap_done();
}

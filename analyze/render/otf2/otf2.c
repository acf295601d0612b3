/* render/otf2/otf2.c — OTF2 archives for Vampir, Score-P's tools and otf2-print from the
 * scene: the renderer's life, the top of the OTF2 writer.  It opens the archive, hands each
 * item to the writer of its location (a thread's track in render/otf2/host.c, a device
 * stream's or NeuronCore lane's in render/otf2/device.c, a process's steps, counters and
 * ranges across threads in render/otf2/process.c), and at the end has every location finish
 * what it owes, decides where the locations sit (render/otf2/system.c), closes every event
 * writer and writes the definitions (render/otf2/globaldefs.c).  Below those: the locations
 * (render/otf2/loc.c), their records, written or kept back until a location is worth a writer
 * (render/otf2/records.c), arguments as attributes (render/otf2/attrs.c), the
 * definitions registry (render/otf2/defs.c) and error reporting (render/otf2/error.c).
 * Flows are not written: OTF2 readers match MPI messages themselves.  libotf2 buffers each
 * location's events in chunks and writes a chunk out whenever it is full, so memory does not
 * grow with the trace. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "../../../common/xalloc.h"
#include "config.h"
#include "state.h"
#include "otf2.h"
#include "../../parallel/par.h"
#include "../../util/outname.h"

/* The archive's creator, and how an archive tprof wrote is known. */
#define CREATOR "tprof "

/* ---- the directory ------------------------------------------------------------------------ */

/* An archive tprof wrote holds its anchor file, its definitions and its directory of event
 * files, nothing else, and the anchor names tprof as its creator. */
static const char *foreign(const char *dir)
{
	static const char *const mine[] = { "traces.otf2", "traces.def", "traces" };
	static const char why[] = "is a directory that is not empty and holds no OTF2 archive "
				  "tprof wrote";
	DIR *d = opendir(dir);
	if (!d)
		return why;
	struct dirent *e;
	int other = 0;
	while (!other && (e = readdir(d))) {
		other = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		for (size_t i = 0; other && i < sizeof(mine) / sizeof(mine[0]); i++)
			other = strcmp(e->d_name, mine[i]) != 0;
	}
	closedir(d);
	char path[PATH_MAX], buf[4096];
	snprintf(path, sizeof(path), "%s/traces.otf2", dir);
	FILE *f = other ? NULL : fopen(path, "rb");
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;
	if (f)
		fclose(f);
	return n && memmem(buf, n, CREATOR, sizeof(CREATOR) - 1) ? NULL : why;
}

const struct out_format otf2_format = { "an OTF2 archive", 1, 0, foreign };

/* ---- libotf2's callbacks ------------------------------------------------------------------ */

/* Every full chunk is written out at once: memory stays one chunk per location. */
static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
				bool final)
{
	(void)user, (void)type, (void)loc, (void)caller, (void)final;
	return OTF2_FLUSH;
}

/* No post-flush callback: no BufferFlush records in the trace. */
static OTF2_FlushCallbacks flush_callbacks = { pre_flush, NULL };

/* libotf2 would keep up to 128 MiB of chunks per writer before writing any; refusing a
 * chunk beyond CHUNKS_PER_WRITER makes it flush what it has, free it and ask again.  An
 * event writer's last chunk is cleared whole when written: chunks of libotf2's smallest size
 * (256 KiB) keep that small, where 4 MiB ones made a profile of a few thousand threads take
 * minutes; and a location of few records has no writer of its own until the end, when its
 * chunk is the one the location before gave back (render/otf2/records.c).  Writes go
 * through a buffer of 4 MiB per file, touched as it fills: a location costs at most that and
 * its chunk however long the trace. */
#define CHUNKS_PER_WRITER 1
#define CHUNK_SIZE (256u << 10)

struct chunks {
	void *v[CHUNKS_PER_WRITER];
	uint64_t size[CHUNKS_PER_WRITER];
	size_t n;
};

/* Chunks are mapped and unmapped, never malloc'd: a chunk's pages are touched as it fills
 * and when libotf2 clears it to write it, and must then go back to the system (freed into
 * the heap, the cleared chunks of thousands of locations would all stay).  A few given back
 * are kept for the next writer, their pages already there.  Writers are made and closed on
 * one thread. */
#define SPARE_MAX 16
static void *spare[SPARE_MAX];
static size_t nspare;

static void *chunk_get(uint64_t size)
{
	if (size == CHUNK_SIZE && nspare)
		return spare[--nspare];
	void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

static void chunk_put(void *m, uint64_t size)
{
	if (size == CHUNK_SIZE && nspare < SPARE_MAX)
		spare[nspare++] = m;
	else
		munmap(m, size);
}

static void spares_free(void)
{
	while (nspare)
		munmap(spare[--nspare], CHUNK_SIZE);
}

static void *chunk_alloc(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
			 uint64_t size)
{
	(void)user, (void)type, (void)loc;
	struct chunks *c = *per_buffer;
	if (!c && !(c = *per_buffer = calloc(1, sizeof(*c))))
		return NULL;
	if (c->n == CHUNKS_PER_WRITER)
		return NULL;
	void *m = chunk_get(size);
	if (m) {
		c->size[c->n] = size;
		c->v[c->n++] = m;
	}
	return m;
}

static void chunk_free_all(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
			   bool final)
{
	(void)user, (void)type, (void)loc;
	struct chunks *c = *per_buffer;
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		chunk_put(c->v[i], c->size[i]);
	c->n = 0;
	if (final) {
		free(c);
		*per_buffer = NULL;
	}
}

static OTF2_MemoryCallbacks memory_callbacks = { chunk_alloc, chunk_free_all };

/* ---- the renderer ------------------------------------------------------------------------- */

/* Whether any analysis process failed (each says why itself); every one asks. */
static int any_failed(struct otf2 *o)
{
	int64_t f = o->failed;
	par_max_i64(&f, 1);
	return f != 0;
}

/* The directory under its temporary name: the first analysis process makes it and tells the
 * others where it is (NULL, said, when it could not). */
static char *archive_dir(struct otf2 *o)
{
	int fd;
	uint64_t len = 0;
	if (par_rank() == 0) {
		if ((o->name = outname_begin(o->dir, &otf2_format, &fd)))
			len = strlen(outname_path(o->name)) + 1;
		else
			diag_error("%s", outname_error());
	}
	par_bcast(&len, sizeof(len), 0);
	if (!len)
		return NULL;
	char *path = xmalloc(len);
	if (par_rank() == 0)
		memcpy(path, outname_path(o->name), len);
	par_bcast(path, len, 0);
	return path;
}

static int archive_begin(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct otf2 *o = priv;
	o->tr = tr;
	o->tracks = tracks;
	otf2_errors_catch(o);
	char *path = archive_dir(o);
	if (!path) {
		o->failed = 1;
		return -1;
	}
	otf2_locs_new(o, tr);
	o->defs = otf2_defs_new(tr);
	o->args = otf2_attrs_new();
	o->ar = OTF2_Archive_Open(path, "traces", OTF2_FILEMODE_WRITE, CHUNK_SIZE, CHUNK_SIZE,
				  OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	free(path);
	if (!o->ar) {
		if (!o->failed)
			diag_error("cannot create an OTF2 archive in %s", o->dir);
		o->failed = 1;
	} else {
		otf2_check(o, OTF2_Archive_SetFlushCallbacks(o->ar, &flush_callbacks, o));
		otf2_check(o, OTF2_Archive_SetMemoryCallbacks(o->ar, &memory_callbacks, o));
		otf2_check(o, otf2_collectives_set(o->ar));
		otf2_check(o, OTF2_Archive_SetCreator(o->ar, CREATOR PACKAGE_VERSION));
		otf2_check(o, OTF2_Archive_SetDescription(o->ar, "converted by tprof-analyze"));
		otf2_check(o, OTF2_Archive_OpenEvtFiles(o->ar));
	}
	o->attrs = OTF2_AttributeList_New();
	if (!o->attrs)
		xalloc_failed("an OTF2 attribute list");
	if (any_failed(o))
		o->failed = 1;
	return o->failed ? -1 : 0;
}

static int is_steps(struct otf2 *o, const struct scene_item *it)
{
	struct track s = tracks_steps(o->tracks, it->proc);
	return it->track.pid == s.pid && it->track.tid == s.tid;
}

static void item(void *priv, const struct scene_item *it)
{
	struct otf2 *o = priv;
	if (o->failed)
		return;
	if (it->kind == SI_COUNTER) {
		otf2_counter_item(o, it);
		return;
	}
	if (it->kind == SI_ASYNC) {
		otf2_async_item(o, it);
		return;
	}
	/* most items are on the track of the item before */
	struct loc *l = o->last_loc;
	if (!l || l->track.pid != it->track.pid || l->track.tid != it->track.tid) {
		if (it->kind == SI_SLICE && is_steps(o, it)) {
			otf2_step_item(o, it);
			return;
		}
		if (!(l = otf2_track_loc(o, it)))
			return;
	}
	if (l->kind == LOC_THREAD)
		otf2_host_item(o, l, it);
	else
		otf2_device_item(o, l, it);
}

/* Flow arrows have no place in OTF2: readers match sends and receives themselves. */
static void destroy(struct otf2 *o)
{
	otf2_system_free(o);
	otf2_unify_free(o);
	otf2_locs_free(o);
	if (o->attrs)
		OTF2_AttributeList_Delete(o->attrs);
	otf2_mpi_free(o);
	otf2_io_free(o);
	otf2_rma_free(o);
	otf2_contexts_free(o);
	otf2_attrs_free(o->args);
	otf2_defs_free(o->defs);
	free(o->dir);
	free(o);
}

/* Whatever is still open is closed, every writer is closed with its count of events, and
 * the definitions follow. */
static void finish(struct otf2 *o)
{
	for (size_t i = 0; i < o->nlocs; i++) {
		if (o->locs[i]->kind == LOC_THREAD)
			otf2_host_finish(o, o->locs[i]);
		else
			otf2_device_finish(o, o->locs[i]);
	}
	otf2_system_prepare(o);
	otf2_records_close(o);
	otf2_check(o, OTF2_Archive_CloseEvtFiles(o->ar));
	otf2_locs_name(o);
	if (any_failed(o))
		o->failed = 1;
	else
		otf2_globaldefs_write(o);
}

static OTF2_Archive *abandoned;

static int archive_end(void *priv, const struct trace *tr, struct tracks *tracks)
{
	struct otf2 *o = priv;
	(void)tr, (void)tracks;
	if (o->ar && any_failed(o))
		o->failed = 1;
	if (o->ar && o->failed) {
		/* libotf2 closing an archive after a failed write writes again from a buffer it
		 * has freed (a crash); the archive is removed whole below, so it is left open,
		 * kept reachable until the process ends. */
		abandoned = o->ar;
		o->ar = NULL;
	}
	if (o->ar) {
		finish(o);
		otf2_check(o, OTF2_Archive_Close(o->ar));
		o->ar = NULL;
		if (any_failed(o))       /* every analysis process has closed its files */
			o->failed = 1;
	}
	spares_free();
	uint64_t left_out[2] = { o->mpi_skipped, o->req_unknown };
	par_sum_u64(left_out, 2);
	if (par_rank() != 0)
		left_out[0] = left_out[1] = 0;
	o->mpi_skipped = left_out[0];
	o->req_unknown = left_out[1];
	if (o->mpi_skipped)
		diag_error("warning: OTF2: %llu MPI records left out: their communicator is not "
			   "described in the trace", (unsigned long long)o->mpi_skipped);
	if (o->req_unknown && !o->win->active)
		diag_error("warning: OTF2: %llu MPI request completions left out: the request was "
			   "never seen posted", (unsigned long long)o->req_unknown);
	else if (o->req_unknown)
		diag_note("OTF2: %llu MPI request completions left out: the request was posted outside "
			  "the trace or the window", (unsigned long long)o->req_unknown);
	int rc = o->failed ? -1 : 0;
	if (o->name && outname_end(o->name, !o->failed, 0) < 0) {
		diag_error("the OTF2 archive is incomplete: %s", outname_error());
		rc = -1;
	}
	otf2_errors_release();
	destroy(o);
	return rc;
}

static const struct scene_ops otf2_ops = { .name = "otf2", .begin = archive_begin, .item = item,
					   .end = archive_end };   /* OTF2 has no arrows */

struct scene_renderer render_otf2(const char *dir, const struct window *w)
{
	struct otf2 *o = xcalloc(1, sizeof(*o));
	o->dir = xstrdup(dir);
	o->win = w;
	o->next_req = 1;
	return (struct scene_renderer){ &otf2_ops, o };
}

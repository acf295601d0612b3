/* out-otf2.c — OTF2 archives for Vampir, Score-P's tools and otf2-print: the output's life
 * (open the archive, hand each event to the location it belongs on, close every writer,
 * write the global definitions), the locations, and the simple kinds of event: steps,
 * counters, and ranges that may end on another thread.  Host threads are in
 * out-otf2-host.c, device streams in out-otf2-device.c, MPI in out-otf2-mpi.c and the
 * definitions in out-otf2-defs.c.  libotf2 buffers each location's events in chunks and
 * writes a chunk out whenever it is full, so memory does not grow with the trace. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../config.h"
#include "out-otf2-state.h"
#include "out-otf2.h"

/* ---- the directory ------------------------------------------------------------------------ */

int otf2_check_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		diag_error("-o %s: %m", dir);
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		diag_error("-o %s: exists and is not a directory (an OTF2 archive is a directory)", dir);
		return -1;
	}
	DIR *d = opendir(dir);
	if (!d) {
		diag_error("-o %s: %m", dir);
		return -1;
	}
	struct dirent *e;
	int empty = 1;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	if (!empty) {
		diag_error("-o %s: the directory is not empty; an OTF2 archive is written only into a "
			   "new or empty directory", dir);
		return -1;
	}
	return 0;
}

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
 * chunk beyond CHUNKS_PER_WRITER makes it flush what it has, free it and ask again.  A
 * chunk of 4 MiB is written straight to its file: libotf2 copies smaller writes through a
 * 4 MiB buffer per file first.  So a location costs at most 4 MiB however long the trace
 * (and only what it holds while it holds less: the chunk's pages are touched as it fills). */
#define CHUNKS_PER_WRITER 1
#define CHUNK_SIZE (4u << 20)

struct chunks {
	void *v[CHUNKS_PER_WRITER];
	size_t n;
};

static void *chunk_alloc(void *user, OTF2_FileType type, OTF2_LocationRef loc, void **per_buffer,
			 uint64_t size)
{
	(void)user, (void)type, (void)loc;
	struct chunks *c = *per_buffer;
	if (!c && !(c = *per_buffer = calloc(1, sizeof(*c))))
		return NULL;
	if (c->n == CHUNKS_PER_WRITER)
		return NULL;
	void *m = malloc(size);
	if (m)
		c->v[c->n++] = m;
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
		free(c->v[i]);
	c->n = 0;
	if (final) {
		free(c);
		*per_buffer = NULL;
	}
}

static OTF2_MemoryCallbacks memory_callbacks = { chunk_alloc, chunk_free_all };

static OTF2_ErrorCallback previous_error_callback;

static OTF2_ErrorCode on_error(void *user, const char *file, uint64_t line, const char *func,
			       OTF2_ErrorCode code, const char *fmt, va_list va)
{
	struct otf2 *o = user;
	(void)file, (void)line, (void)func;
	if (o && !o->failed) {
		char msg[512];
		vsnprintf(msg, sizeof(msg), fmt ? fmt : "", va);
		diag_error("writing the OTF2 archive in %s: %s%s%s%s", o->dir,
			   OTF2_Error_GetDescription(code), msg[0] ? " (" : "", msg, msg[0] ? ")" : "");
	}
	if (o)
		o->failed = 1;
	return code;
}

void otf2_check(struct otf2 *o, OTF2_ErrorCode rc)
{
	if (rc != OTF2_SUCCESS && !o->failed) {
		diag_error("writing the OTF2 archive in %s: %s", o->dir, OTF2_Error_GetDescription(rc));
		o->failed = 1;
	}
}

/* ---- locations and records ---------------------------------------------------------------- */

struct loc *otf2_loc_new(struct otf2 *o, enum loc_kind kind, struct proc *p)
{
	struct loc *l = calloc(1, sizeof(*l));
	if (!l)
		abort();
	if (o->nlocs == o->caplocs) {
		o->caplocs = o->caplocs ? o->caplocs * 2 : 64;
		o->locs = realloc(o->locs, o->caplocs * sizeof(*o->locs));
		if (!o->locs)
			abort();
	}
	l->id = o->nlocs;
	o->locs[o->nlocs++] = l;
	l->kind = kind;
	l->proc = p;
	l->w = OTF2_Archive_GetEvtWriter(o->ar, l->id);
	if (!l->w && !o->failed) {
		diag_error("writing the OTF2 archive in %s: no event writer for location %llu", o->dir,
			   (unsigned long long)l->id);
		o->failed = 1;
	}
	return l;
}

/* OTF2 wants each location's times never to go back: a record due before the latest one
 * written there is written at that latest time. */
OTF2_TimeStamp otf2_time(struct otf2 *o, struct loc *l, int64_t t)
{
	if (t < l->last)
		t = l->last;
	l->last = t;
	if (t > o->max_t)
		o->max_t = t;
	return (OTF2_TimeStamp)o->tr->start_ns + (OTF2_TimeStamp)t;
}

void otf2_enter(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r)
{
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_Enter(l->w, o->attrs, otf2_time(o, l, t), r));
}

void otf2_leave(struct otf2 *o, struct loc *l, int64_t t, OTF2_RegionRef r)
{
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_Leave(l->w, o->attrs, otf2_time(o, l, t), r));
}

/* Attributes go with the next record written, which empties the list. */
void otf2_attr_flags(struct otf2 *o, unsigned flags)
{
	if (flags & EVF_UNFINISHED)
		OTF2_AttributeList_AddUint8(o->attrs, otf2_attr(o->defs, A_UNFINISHED), 1);
	if (flags & EVF_CLIPPED)
		OTF2_AttributeList_AddUint8(o->attrs, otf2_attr(o->defs, A_CLIPPED), 1);
}

static const char *const copy_kinds[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default", "peer" };

void otf2_attr_copy(struct otf2 *o, uint64_t bytes, uint32_t kind)
{
	OTF2_AttributeList_AddUint64(o->attrs, otf2_attr(o->defs, A_BYTES), bytes);
	OTF2_AttributeList_AddStringRef(o->attrs, otf2_attr(o->defs, A_COPY_KIND),
					otf2_str(o->defs, copy_kinds[kind < 6 ? kind : 4]));
}

void otf2_attr_dims(struct otf2 *o, const struct tprof_launch_dims *d)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "[%u,%u,%u]", d->grid[0], d->grid[1], d->grid[2]);
	OTF2_AttributeList_AddStringRef(o->attrs, otf2_attr(o->defs, A_GRID), otf2_str(o->defs, buf));
	snprintf(buf, sizeof(buf), "[%u,%u,%u]", d->block[0], d->block[1], d->block[2]);
	OTF2_AttributeList_AddStringRef(o->attrs, otf2_attr(o->defs, A_BLOCK), otf2_str(o->defs, buf));
	OTF2_AttributeList_AddUint64(o->attrs, otf2_attr(o->defs, A_SHMEM), d->shmem);
}

static struct pstate *pstate(struct otf2 *o, const struct proc *p)
{
	return &o->ps[p->index - 1];
}

static struct loc *thread_loc(struct otf2 *o, const struct thread *th)
{
	struct pstate *ps = pstate(o, th->proc);
	if (th->stream >= ps->nthreads)
		return NULL;
	if (!ps->threads[th->stream]) {
		struct loc *l = otf2_loc_new(o, LOC_THREAD, th->proc);
		l->th = th;
		ps->threads[th->stream] = l;
	}
	return ps->threads[th->stream];
}

/* ---- steps, counters, ranges across threads ----------------------------------------------- */

/* A process's steps follow one another on a location of their own: one region "step", the
 * step's number a parameter. */
static void step_event(struct otf2 *o, const struct event *ev)
{
	struct pstate *ps = pstate(o, ev->proc);
	if (!ps->steps)
		ps->steps = otf2_loc_new(o, LOC_STEPS, ev->proc);
	struct loc *l = ps->steps;
	OTF2_RegionRef r = otf2_region(o->defs, 0, RC_STEP);
	otf2_enter(o, l, ev->t0, r);
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_ParameterUnsignedInt(l->w, NULL, otf2_time(o, l, ev->t0),
								  otf2_step_param(o->defs), ev->step));
	otf2_attr_flags(o, ev->flags);
	otf2_leave(o, l, ev->t1, r);
}

/* Counters are asynchronous metrics on a metric location of their process. */
static void counter_event(struct otf2 *o, const struct event *ev)
{
	struct pstate *ps = pstate(o, ev->proc);
	if (!ps->counters)
		ps->counters = otf2_loc_new(o, LOC_COUNTERS, ev->proc);
	struct loc *l = ps->counters;
	OTF2_Type type = OTF2_TYPE_DOUBLE;
	OTF2_MetricValue v = { .floating_point = ev->value };
	if (!o->failed)
		otf2_check(o, OTF2_EvtWriter_Metric(l->w, NULL, otf2_time(o, l, ev->t0),
						    otf2_metric(o->defs, ev->name, l->id), 1, &type, &v));
}

/* Ranges that may end on another thread come at their end, in end order, and may overlap:
 * each goes on the first lane of its process free since its start. */
static void async_event(struct otf2 *o, const struct event *ev)
{
	struct pstate *ps = pstate(o, ev->proc);
	size_t i = 0;
	while (i < ps->nlanes && ps->lanes[i]->last > ev->t0)
		i++;
	if (i == ps->nlanes) {
		ps->lanes = realloc(ps->lanes, (ps->nlanes + 1) * sizeof(*ps->lanes));
		if (!ps->lanes)
			abort();
		ps->lanes[ps->nlanes] = otf2_loc_new(o, LOC_ASYNC, ev->proc);
		ps->lanes[ps->nlanes]->lane = (int)ps->nlanes + 1;
		ps->nlanes++;
	}
	struct loc *l = ps->lanes[i];
	OTF2_RegionRef r = otf2_region(o->defs, ev->name, RC_ROCTX);
	otf2_enter(o, l, ev->t0, r);
	otf2_attr_flags(o, ev->flags);
	otf2_leave(o, l, ev->t1, r);
}

/* ---- the output --------------------------------------------------------------------------- */

static int begin(void *priv, const struct trace *tr)
{
	struct otf2 *o = priv;
	o->tr = tr;
	previous_error_callback = OTF2_Error_RegisterCallback(on_error, o);
	if (mkdir(o->dir, 0777) < 0 && (errno != EEXIST || otf2_check_dir(o->dir) < 0)) {
		if (errno != EEXIST)
			diag_error("cannot create %s: %m", o->dir);
		o->failed = 1;
		return -1;
	}
	o->nprocs = tr->nprocs;
	o->ps = calloc(tr->nprocs ? tr->nprocs : 1, sizeof(*o->ps));
	if (!o->ps)
		abort();
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		struct pstate *ps = pstate(o, p);
		ps->nthreads = p->nstreams;
		ps->threads = calloc(p->nstreams ? p->nstreams : 1, sizeof(*ps->threads));
		if (!ps->threads)
			abort();
	}
	o->defs = otf2_defs_new(tr);
	o->ar = OTF2_Archive_Open(o->dir, "traces", OTF2_FILEMODE_WRITE, CHUNK_SIZE,
				  OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
				  OTF2_COMPRESSION_NONE);
	if (!o->ar) {
		if (!o->failed)
			diag_error("cannot create an OTF2 archive in %s", o->dir);
		o->failed = 1;
		return -1;
	}
	otf2_check(o, OTF2_Archive_SetFlushCallbacks(o->ar, &flush_callbacks, o));
	otf2_check(o, OTF2_Archive_SetMemoryCallbacks(o->ar, &memory_callbacks, o));
	otf2_check(o, OTF2_Archive_SetSerialCollectiveCallbacks(o->ar));
	otf2_check(o, OTF2_Archive_SetCreator(o->ar, "tprof " PACKAGE_VERSION));
	otf2_check(o, OTF2_Archive_SetDescription(o->ar, "converted by tprof-analyze"));
	otf2_check(o, OTF2_Archive_OpenEvtFiles(o->ar));
	o->attrs = OTF2_AttributeList_New();
	if (!o->attrs)
		abort();
	return o->failed ? -1 : 0;
}

static void event(void *priv, const struct event *ev)
{
	struct otf2 *o = priv;
	if (o->failed)
		return;
	switch (ev->kind) {
	case EV_CALL:
	case EV_BEGIN:
	case EV_RANGE:
	case EV_MARK:
	case EV_MPIREQ: {
		struct loc *l = ev->thread ? thread_loc(o, ev->thread) : NULL;
		if (l)
			otf2_host_event(o, l, ev);
		break;
	}
	case EV_DEVICE:
		otf2_device_event(o, ev);
		break;
	case EV_STEP:
		step_event(o, ev);
		break;
	case EV_COUNTER:
		counter_event(o, ev);
		break;
	case EV_ASYNC:
		async_event(o, ev);
		break;
	default:
		/* EV_MESSAGE, EV_COLLECTIVE: OTF2 readers match sends and receives themselves. */
		break;
	}
}

static void loc_free(struct loc *l)
{
	free(l->stack);
	free(l->held);
	free(l->heap);
	free(l);
}

static void destroy(struct otf2 *o)
{
	for (size_t i = 0; i < o->nlocs; i++)
		loc_free(o->locs[i]);
	free(o->locs);
	for (size_t i = 0; i < o->nprocs; i++) {
		free(o->ps[i].threads);
		free(o->ps[i].lanes);
		free(o->ps[i].devs);
	}
	free(o->ps);
	free(o->rank_locs);
	if (o->attrs)
		OTF2_AttributeList_Delete(o->attrs);
	otf2_mpi_free(o);
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
		else if (o->locs[i]->kind == LOC_DEVICE)
			otf2_device_finish(o, o->locs[i]);
	}
	otf2_defs_locations(o);
	for (size_t i = 0; i < o->nlocs; i++) {
		struct loc *l = o->locs[i];
		if (!l->w)
			continue;
		otf2_check(o, OTF2_EvtWriter_GetNumberOfEvents(l->w, &l->events));
		otf2_check(o, OTF2_Archive_CloseEvtWriter(o->ar, l->w));
		l->w = NULL;
	}
	otf2_check(o, OTF2_Archive_CloseEvtFiles(o->ar));
	if (!o->failed)
		otf2_defs_write(o);
}

static int end(void *priv, const struct trace *tr)
{
	struct otf2 *o = priv;
	(void)tr;
	if (o->ar) {
		if (!o->failed)
			finish(o);
		otf2_check(o, OTF2_Archive_Close(o->ar));
		o->ar = NULL;
	}
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
	if (rc < 0 && o->tr)
		diag_error("the OTF2 archive in %s is incomplete", o->dir);
	OTF2_Error_RegisterCallback(previous_error_callback, NULL);
	destroy(o);
	return rc;
}

static const struct output_ops otf2_ops = { "otf2", begin, event, end };

struct output output_otf2(const char *dir, const struct window *w)
{
	struct otf2 *o = calloc(1, sizeof(*o));
	if (!o)
		abort();
	o->dir = strdup(dir);
	o->win = w;
	o->next_req = 1;
	return (struct output){ &otf2_ops, o };
}

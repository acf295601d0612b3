/* procstream.c — reads stream 0 of every process image: its strings (mapped onto the
 * trace-wide table by procstrings.c), properties (host, pid, rank, arguments...), thread
 * names, clock samples, drop counts, MPI communicators (mpi-comms.c), clock offset
 * measurements (clocksync.c) and a system image's tasks, mappings and kernel symbols
 * (system.c).  Runs before any event is looked at. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/grow.h"
#include "import-image.h"
#include "system.h"

static void on_prop(struct proc *p, const struct tprof_rec *r)
{
	const char *key = strings_get(proc_string(p, r->name));
	int64_t v = (int64_t)r->arg;
	if (r->flags & TPROF_PROP_INT) {
		if (!strcmp(key, "clock"))
			p->clock_source = (int)v;
		else if (!strcmp(key, "pid"))
			p->pid = v;
		else if (!strcmp(key, "ppid"))
			p->ppid = v;
		else if (!strcmp(key, "rank"))
			p->rank = v;
		else if (!strcmp(key, "world_size"))
			p->world_size = v;
		else if (!strcmp(key, "local_rank"))
			p->local_rank = v;
		else if (!impimage_prop(p, key, r))
			system_prop(p, key, r);
		return;
	}
	uint32_t val = proc_string(p, (uint32_t)r->arg);
	if (!strcmp(key, "host"))
		p->host = val;
	else if (!strcmp(key, "exe"))
		p->exe = val;
	else if (!strcmp(key, "instance_type"))
		p->instance_type = val;
	else if (!strcmp(key, "nrt_instance"))
		p->nrt_instance = val;
	else if (!strcmp(key, "arg")) {
		p->args = util_grow(p->args, &p->capargs, p->nargs, sizeof(*p->args), 8);
		p->args[p->nargs++] = val;
	} else if (!impimage_prop(p, key, r)) {
		system_prop(p, key, r);
	}
}

struct thread *proc_thread(struct proc *p, size_t i)
{
	if (i >= p->nstreams || !p->streams[i])
		return NULL;
	if (!p->threads[i]) {
		struct thread *t = xcalloc(1, sizeof(*t));
		t->proc = p;
		t->stream = (uint32_t)i;
		t->tid = -1;
		t->first_ns = INT64_MAX;
		t->last_ns = INT64_MIN;
		p->threads[i] = t;
		p->streams[i]->thread = t;
	}
	return p->threads[i];
}

static void on_record(struct trace *tr, struct proc *p, const struct tprof_rec *r)
{
	switch (r->kind) {
	case TPROF_K_STRING:
		proc_string_map(p, r->name, (const char *)(r + 1),
				r->arg <= (uint64_t)r->ext * TPROF_UNIT ? (size_t)r->arg : (size_t)r->ext * TPROF_UNIT);
		break;
	case TPROF_K_PROP:
		on_prop(p, r);
		break;
	case TPROF_K_THREAD: {
		/* made also when its stream holds no record (all lost: its losses are its own); one
		 * per THREAD record at most, so the input's size bounds them, not its ids */
		struct stream *st = r->arg && r->arg <= UINT32_MAX ? proc_stream(p, (uint32_t)r->arg) : NULL;
		struct thread *t = st ? proc_thread(p, st->index) : NULL;
		if (t) {
			t->tid = (int32_t)r->t1;
			t->name = proc_string(p, r->name);
		}
		break;
	}
	case TPROF_K_CLOCK:
		timebase_add(&p->tb, r->t0, (int64_t)r->t1, (int64_t)r->arg);
		break;
	case TPROF_K_DROP: {
		/* a thread's (by its stream), else the process stream's or device work's */
		struct stream *st = r->arg && r->arg <= UINT32_MAX ? proc_stream_find(p, (uint32_t)r->arg) : NULL;
		struct thread *t = st && st->index ? proc_thread(p, st->index) : NULL;
		uint64_t *c = r->flags >= 8 ? NULL
			      : &drops_add(t ? &t->drops_rec : &p->stream0)->count[r->flags];
		if (c)
			*c = sat_add_u64(*c, r->t1);
		break;
	}
	case TPROF_K_END:
		p->ended = 1;
		break;
	case TPROF_K_CAPTURE:
		/* one per record: the input's size bounds them */
		p->captures = util_grow(p->captures, &p->capcaptures, p->ncaptures,
					sizeof(*p->captures), 4);
		p->captures[p->ncaptures++] = (struct capture_mark){
			.ticks = r->t0, .on = r->flags & 1, .at_start = (r->flags & 2) != 0,
			.why = r->arg < 128 ? (uint8_t)r->arg : 0
		};
		break;
	case TPROF_K_COMM:
		mpi_comms_add(tr, p, r);
		break;
	case TPROF_K_CSYNC:
		clocksync_add(tr, p, r);
		break;
	case TPROF_K_TASK:
	case TPROF_K_MAPS:
	case TPROF_K_KSYM:
		system_record(p, r);
		break;
	default:
		break;
	}
}

/* The file name says "<host>.<pid>.<id>": enough to place a process whose stream 0 was lost. */
static void identity_from_name(struct proc *p)
{
	const char *path = p->trace_path ? p->trace_path : p->spool_path;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *id = strrchr(base, '.');          /* suffix */
	const char *dot2 = id ? memrchr(base, '.', (size_t)(id - base)) : NULL;   /* .<id> */
	const char *dot1 = dot2 ? memrchr(base, '.', (size_t)(dot2 - base)) : NULL; /* .<pid> */
	if (!dot1)
		return;
	if (!p->host)
		p->host = strings_add(base, (size_t)(dot1 - base));
	if (p->pid < 0)
		p->pid = strtoll(dot1 + 1, NULL, 10);
}

int procs_load(struct trace *tr)
{
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		struct stream *s = p->nstreams ? p->streams[0] : NULL;
		if (s) {
			stream_rewind(s);
			while (stream_next(s))
				on_record(tr, p, s->rec);
		}
		if ((!s || !p->host || p->pid < 0) && !p->imp) {
			identity_from_name(p);
			diag_warn(p->trace_path ? p->trace_path : p->spool_path, 0,
				  "the process stream is missing or incomplete; names and times are approximate");
		}
		/* Threads named by THREAD records; streams without one still get a thread. */
		for (uint32_t id = 1; id < p->nstreams; id++)
			if (p->streams[id])
				proc_thread(p, id);
	}
	mpi_comms_finish(tr);
	return 0;
}

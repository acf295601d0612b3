/* dump-records.c — every record of every process under an output directory, one JSON object
 * per line, for tests that check exactly what the recorder wrote (independently of what the
 * analyzer makes of it).  Each line names the process (host, pid, rank, and "image": which
 * process image, by its index among them), the stream and the record's fields, the name as a
 * string, and decodes the extension units of MPI and NCCL calls, MPI requests, NRT calls,
 * DEVICE, POLL, COMM, CSYNC, PROP and STRING records, and of the system image's TASK, MAPS
 * and SAMPLE records (SCHED, SYSCTR and KSYM have none: their fields say it all).
 * Usage: dump-records DIR */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../analyze/util/jsonw.h"
#include "../../analyze/util/outname.h"
#include "../../analyze/read/trace.h"
#include "../../common/system-records.h"

static const char *str(const struct proc *p, uint32_t local)
{
	return local ? strings_get(proc_string(p, local)) : NULL;
}

static void put_str(struct json_writer *w, const char *s)
{
	if (s)
		jw_str(w, s, strlen(s));
	else
		jw_lit(w, "null");
}

#define KEY(w, k) jw_lit(w, ",\"" k "\":")

static void mpi_args(struct json_writer *w, const uint8_t *ext)
{
	struct tprof_mpi_args a;
	memcpy(&a, ext, sizeof(a));
	KEY(w, "mpi");
	jw_lit(w, "{\"comm\":");
	jw_u64(w, a.comm);
	KEY(w, "bytes");
	jw_u64(w, a.bytes);
	KEY(w, "peer");
	jw_i64(w, a.peer);
	KEY(w, "tag");
	jw_i64(w, a.tag);
	KEY(w, "seq");
	jw_u64(w, a.seq);
	KEY(w, "op");
	jw_u64(w, a.op);
	KEY(w, "flags");
	jw_u64(w, a.flags);
	KEY(w, "nreq");
	jw_u64(w, a.nreq);
	jw_lit(w, "}");
}

static void mpi_args2(struct json_writer *w, const uint8_t *ext)
{
	struct tprof_mpi_args2 b;
	memcpy(&b, ext, sizeof(b));
	KEY(w, "mpi2");
	jw_lit(w, "{\"req\":");
	jw_u64(w, b.req);
	KEY(w, "bytes");
	jw_u64(w, b.bytes);
	KEY(w, "peer");
	jw_i64(w, b.peer);
	KEY(w, "tag");
	jw_i64(w, b.tag);
	KEY(w, "seq");
	jw_u64(w, b.seq);
	KEY(w, "file");
	jw_u64(w, b.file);
	KEY(w, "group");   /* the same field: MPI_Win_post's and _start's */
	jw_u64(w, b.group);
	jw_lit(w, "}");
}

/* NRT calls: struct tprof_nrt_args (its name as a string), then an execution's
 * struct tprof_nrt_exec. */
static void nrt_args(struct json_writer *w, const struct proc *p, const struct tprof_rec *r)
{
	struct tprof_nrt_args a;
	memcpy(&a, r + 1, sizeof(a));
	KEY(w, "nrt");
	jw_lit(w, "{\"handle\":");
	jw_u64(w, a.handle);
	KEY(w, "bytes");
	jw_u64(w, a.bytes);
	KEY(w, "name");
	put_str(w, str(p, a.name));
	KEY(w, "nc");
	jw_i64(w, a.nc);
	KEY(w, "op");
	jw_u64(w, a.op);
	KEY(w, "placement");
	jw_u64(w, a.placement);
	KEY(w, "flags");
	jw_u64(w, a.flags);
	KEY(w, "extra");
	jw_u64(w, a.extra);
	if (r->ext >= 2) {
		struct tprof_nrt_exec x;
		memcpy(&x, (const uint8_t *)(r + 1) + TPROF_UNIT, sizeof(x));
		KEY(w, "in_bytes");
		jw_u64(w, x.in_bytes);
		KEY(w, "out_bytes");
		jw_u64(w, x.out_bytes);
		KEY(w, "in_tensors");
		jw_u64(w, x.in_tensors);
		KEY(w, "out_tensors");
		jw_u64(w, x.out_tensors);
		KEY(w, "model_nc_count");
		jw_u64(w, x.model_nc_count);
	}
	jw_lit(w, "}");
}

static void comm_def(struct json_writer *w, const struct tprof_rec *r)
{
	struct tprof_comm_def d;
	memcpy(&d, r + 1, sizeof(d));
	KEY(w, "comm");
	jw_lit(w, "{\"id\":");
	jw_u64(w, d.id);
	KEY(w, "parent");
	jw_u64(w, d.parent);
	KEY(w, "size");
	jw_u64(w, d.size);
	KEY(w, "remote_size");
	jw_u64(w, d.remote_size);
	KEY(w, "first");
	jw_u64(w, d.first);
	KEY(w, "my_rank");
	jw_i64(w, d.my_rank);
	KEY(w, "members");
	jw_lit(w, "[");
	const int32_t *m = (const int32_t *)(const void *)((const uint8_t *)(r + 1) + TPROF_UNIT);
	uint64_t total = (uint64_t)d.size + d.remote_size;
	size_t listed = (size_t)(r->ext - 1) * (TPROF_UNIT / sizeof(int32_t));
	for (size_t i = 0; i < listed && d.first + i < total; i++) {
		if (i)
			jw_lit(w, ",");
		jw_i64(w, m[i]);
	}
	jw_lit(w, "]}");
}

static void csync(struct json_writer *w, const struct tprof_rec *r)
{
	struct tprof_csync c;
	memcpy(&c, r + 1, sizeof(c));
	KEY(w, "csync");
	jw_lit(w, "{\"ref_pid\":");
	jw_i64(w, c.ref_pid);
	KEY(w, "ref_rank");
	jw_i64(w, c.ref_rank);
	KEY(w, "rank");
	jw_i64(w, c.rank);
	KEY(w, "rounds");
	jw_u64(w, c.rounds);
	jw_lit(w, "}");
}

static void nccl_args(struct json_writer *w, const uint8_t *ext, unsigned units)
{
	struct tprof_nccl_args a;
	struct tprof_nccl_args2 b;
	memcpy(&a, ext, sizeof(a));
	KEY(w, "nccl");
	jw_lit(w, "{\"comm\":");
	jw_u64(w, a.comm);
	KEY(w, "count");
	jw_u64(w, a.count);
	KEY(w, "bytes");
	jw_u64(w, a.bytes);
	KEY(w, "seq");
	jw_u64(w, a.seq);
	KEY(w, "op");
	jw_u64(w, a.op);
	KEY(w, "dtype");
	jw_u64(w, a.dtype);
	KEY(w, "redop");
	jw_u64(w, a.redop);
	KEY(w, "flags");
	jw_u64(w, a.flags);
	if (units >= 2) {
		memcpy(&b, ext + TPROF_UNIT, sizeof(b));
		KEY(w, "stream");
		jw_u64(w, b.stream);
		KEY(w, "aux");
		jw_u64(w, b.aux);
		KEY(w, "peer");
		jw_i64(w, b.peer);
		KEY(w, "rank");
		jw_i64(w, b.rank);
		KEY(w, "nranks");
		jw_i64(w, b.nranks);
		KEY(w, "device");
		jw_i64(w, b.device);
	}
	jw_lit(w, "}");
}

static void devop(struct json_writer *w, const uint8_t *ext, unsigned flags)
{
	struct tprof_devop d;
	memcpy(&d, ext, sizeof(d));
	KEY(w, "dev");
	jw_lit(w, "{\"start_ns\":");
	jw_i64(w, d.start_ns);
	KEY(w, "end_ns");
	jw_i64(w, d.end_ns);
	KEY(w, "stream");
	jw_u64(w, d.stream);
	KEY(w, "device");
	jw_u64(w, d.device);
	KEY(w, "launch_stream");
	jw_u64(w, d.launch_stream);
	KEY(w, "launch_t0");
	jw_u64(w, d.launch_t0);
	KEY(w, "bytes");
	jw_u64(w, d.bytes);
	if (flags == TPROF_DEVOP_COLLECTIVE) {
		KEY(w, "coll");
		jw_lit(w, "{\"comm\":");
		jw_u64(w, d.coll.comm);
		KEY(w, "seq");
		jw_u64(w, d.coll.seq);
		KEY(w, "op");
		jw_u64(w, d.coll.op);
		KEY(w, "dtype");
		jw_u64(w, d.coll.dtype);
		KEY(w, "nops");
		jw_u64(w, d.coll.nops);
		KEY(w, "rank");
		jw_i64(w, d.coll.rank);
		KEY(w, "nranks");
		jw_i64(w, d.coll.nranks);
		KEY(w, "group");
		jw_u64(w, d.coll.group);
		jw_lit(w, "}");
	}
	jw_lit(w, "}");
}

/* A POLL record's functions: "polls":[{"name","count","busy","min","max","timed"}...] (ticks;
 * timed: the polls the recorder timed, 0 in files written before it timed some alone). */
static void poll_fns(struct json_writer *w, const struct proc *p, const struct tprof_rec *r)
{
	KEY(w, "polls");
	jw_lit(w, "[");
	for (unsigned i = 0; i < r->ext; i++) {
		struct tprof_poll_fn f;
		memcpy(&f, (const uint8_t *)(r + 1) + i * TPROF_UNIT, sizeof(f));
		if (i)
			jw_lit(w, ",");
		jw_lit(w, "{\"name\":");
		put_str(w, str(p, f.name));
		KEY(w, "count");
		jw_u64(w, f.count);
		KEY(w, "busy");
		jw_u64(w, f.busy);
		KEY(w, "min");
		jw_u64(w, f.min);
		KEY(w, "max");
		jw_u64(w, f.max);
		KEY(w, "timed");
		jw_u64(w, f.timed);
		jw_lit(w, "}");
	}
	jw_lit(w, "]");
}

/* TASK: "task":{"pid","tid","ppid","gen","exe"} (exe as a string, null when unknown). */
static void task(struct json_writer *w, const struct proc *p, const struct tprof_rec *r)
{
	struct tprof_task x;
	memcpy(&x, r + 1, sizeof(x));
	KEY(w, "task");
	jw_lit(w, "{\"pid\":");
	jw_u64(w, x.pid);
	KEY(w, "tid");
	jw_u64(w, x.tid);
	KEY(w, "ppid");
	jw_u64(w, x.ppid);
	KEY(w, "gen");
	jw_u64(w, x.gen);
	KEY(w, "exe");
	put_str(w, str(p, x.exe));
	jw_lit(w, "}");
}

/* MAPS: "map":{"start","end","offset","gen"}. */
static void map(struct json_writer *w, const struct tprof_rec *r)
{
	struct tprof_map m;
	memcpy(&m, r + 1, sizeof(m));
	KEY(w, "map");
	jw_lit(w, "{\"start\":");
	jw_u64(w, m.start);
	KEY(w, "end");
	jw_u64(w, m.end);
	KEY(w, "offset");
	jw_u64(w, m.offset);
	KEY(w, "gen");
	jw_u64(w, m.gen);
	jw_lit(w, "}");
}

static void frames(struct json_writer *w, const uint8_t *at, unsigned n)
{
	jw_lit(w, "[");
	for (unsigned i = 0; i < n; i++) {
		uint64_t a;
		memcpy(&a, at + i * sizeof(a), sizeof(a));
		if (i)
			jw_lit(w, ",");
		jw_u64(w, a);
	}
	jw_lit(w, "]");
}

/* SAMPLE: "kernel":[addresses], "user":[addresses], innermost first; frames that would run
 * past the record's extension are left out. */
static void sample(struct json_writer *w, const struct tprof_rec *r)
{
	struct tprof_sample_hdr h;
	const uint8_t *ext = (const uint8_t *)(r + 1);
	size_t room = ((size_t)r->ext * TPROF_UNIT - sizeof(h)) / sizeof(uint64_t);
	memcpy(&h, ext, sizeof(h));
	unsigned nk = h.nkernel < room ? h.nkernel : (unsigned)room;
	unsigned nu = h.nuser < room - nk ? h.nuser : (unsigned)(room - nk);
	KEY(w, "kernel");
	frames(w, ext + sizeof(h), nk);
	KEY(w, "user");
	frames(w, ext + sizeof(h) + nk * sizeof(uint64_t), nu);
}

static void record(struct json_writer *w, const struct proc *p, size_t image, uint32_t stream,
		   const struct tprof_rec *r)
{
	jw_lit(w, "{\"host\":");
	put_str(w, p->host ? strings_get(p->host) : NULL);
	KEY(w, "image");
	jw_u64(w, image);
	KEY(w, "pid");
	jw_i64(w, p->pid);
	KEY(w, "rank");
	jw_i64(w, p->rank);
	KEY(w, "stream");
	jw_u64(w, stream);
	KEY(w, "kind");
	const char *kind = tprof_kind_name(r->kind);
	put_str(w, kind ? kind : "unknown");
	KEY(w, "t0");
	jw_u64(w, r->t0);
	KEY(w, "t1");
	jw_u64(w, r->t1);
	KEY(w, "arg");
	jw_u64(w, r->arg);
	KEY(w, "flags");
	jw_u64(w, r->flags);
	KEY(w, "ext");
	jw_u64(w, r->ext);
	KEY(w, "name");
	put_str(w, r->kind == TPROF_K_STRING ? NULL : str(p, r->name));
	const uint8_t *ext = (const uint8_t *)(r + 1);
	switch (r->kind) {
	case TPROF_K_STRING: {
		size_t n = r->arg <= (uint64_t)r->ext * TPROF_UNIT ? (size_t)r->arg : (size_t)r->ext * TPROF_UNIT;
		KEY(w, "string");
		jw_str(w, (const char *)ext, n);
		break;
	}
	case TPROF_K_PROP:
		KEY(w, "value");
		if (r->flags & TPROF_PROP_INT)
			jw_i64(w, (int64_t)r->arg);
		else
			put_str(w, str(p, (uint32_t)r->arg));
		break;
	case TPROF_K_CALL:
		if (r->flags == TPROF_DOM_NRT && r->ext >= 1)
			nrt_args(w, p, r);
		if (r->flags == TPROF_DOM_NCCL && r->ext >= 1)
			nccl_args(w, ext, r->ext);
		if (r->flags != TPROF_DOM_MPI)
			break;
		/* fall through */
	case TPROF_K_MPIREQ:
		if (r->ext >= 1)
			mpi_args(w, ext);
		if (r->ext >= 2)
			mpi_args2(w, ext + TPROF_UNIT);
		break;
	case TPROF_K_DEVICE:
		if (r->ext >= 3)
			devop(w, ext, r->flags);
		break;
	case TPROF_K_POLL:
		poll_fns(w, p, r);
		break;
	case TPROF_K_COMM:
		if (r->ext >= 1)
			comm_def(w, r);
		break;
	case TPROF_K_CSYNC:
		if (r->ext >= 1)
			csync(w, r);
		break;
	case TPROF_K_TASK:
		if (r->ext >= 1)
			task(w, p, r);
		break;
	case TPROF_K_MAPS:
		if (r->ext >= 1)
			map(w, r);
		break;
	case TPROF_K_SAMPLE:
		if (r->ext >= 1)
			sample(w, r);
		break;
	default:
		break;
	}
	jw_lit(w, "}\n");
}

int main(int argc, char **argv)
{
	struct trace tr = { 0 };
	struct json_writer w;
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	if (trace_load(&tr, argv[1]) < 0) {
		fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
		return 1;
	}
	static const struct out_format stdout_format = { "records", 0, 1, NULL };
	if (jw_open(&w, "-", &stdout_format) < 0)
		return 1;
	for (size_t i = 0; i < tr.nprocs; i++) {
		struct proc *p = tr.procs[i];
		for (uint32_t s = 0; s < p->nstreams; s++) {
			struct stream *st = p->streams[s];
			if (!st)
				continue;
			stream_rewind(st);
			while (stream_next(st))
				record(&w, p, i, st->id, st->rec);
		}
	}
	int rc = jw_close(&w) < 0 ? 1 : 0;
	trace_free(&tr);
	return rc;
}

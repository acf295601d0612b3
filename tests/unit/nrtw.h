/* nrtw.h — writes the trace of one synthetic process that drives the Neuron runtime, as the
 * recorder would (through writer.h): its properties (host, pid, arguments, and the instance
 * type when given), clock samples, threads, and on each thread NRT calls with their extension
 * units (struct tprof_nrt_args, struct tprof_nrt_exec), so that the analyzer's NRT outputs are
 * tested without the recorder.  Times are ticks; the process records in CLOCK_MONOTONIC ns
 * (ticks = ns). */
#ifndef TPROF_TEST_NRTW_H
#define TPROF_TEST_NRTW_H

#include <stdio.h>

#include "writer.h"

#define NW_REAL0 1700000000000000000ll   /* realtime of tick 0 */
#define NW_MAXSTR 128
#define NW_UNITS 65536
#define NW_STREAMS 8

struct nw_proc {
	struct tw w;
	int64_t pid;
	struct tprof_rec *s[NW_STREAMS];   /* stream 0: the process stream */
	uint32_t n[NW_STREAMS];
	const char *strs[NW_MAXSTR];
	uint32_t nstrs;
	uint64_t corr;
};

static inline uint32_t nw_str(struct nw_proc *p, const char *s)
{
	for (uint32_t i = 0; i < p->nstrs; i++)
		if (!strcmp(p->strs[i], s))
			return i + 1;
	p->strs[p->nstrs++] = s;
	return p->nstrs;
}

static inline void nw_put(struct nw_proc *p, uint32_t stream, struct tprof_rec rec, const void *ext,
			  unsigned next)
{
	if (stream && p->n[stream] + 4 > NW_UNITS) {
		tw_chunk(&p->w, stream, p->s[stream], p->n[stream]);
		p->n[stream] = 0;
	}
	rec.ext = (uint8_t)next;
	struct tprof_rec *at = &p->s[stream][p->n[stream]];
	*at = rec;
	if (next)
		memcpy(at + 1, ext, next * TPROF_UNIT);
	p->n[stream] += 1 + next;
}

static inline void nw_prop_str(struct nw_proc *p, const char *key, const char *value)
{
	nw_put(p, 0, tw_rec(TPROF_K_PROP, nw_str(p, key), 0, 0, nw_str(p, value)), NULL, 0);
}

static inline void nw_prop_int(struct nw_proc *p, const char *key, int64_t v)
{
	struct tprof_rec rec = tw_rec(TPROF_K_PROP, nw_str(p, key), 0, 0, (uint64_t)v);
	rec.flags = TPROF_PROP_INT;
	nw_put(p, 0, rec, NULL, 0);
}

/* Starts process `pid` of program `prog` on `host` (instance_type NULL: none recorded), with
 * clock samples at ticks 1000 and end_ticks. */
static inline void nw_begin(struct nw_proc *p, const char *dir, const char *host, int64_t pid,
			    const char *prog, const char *instance_type, uint64_t end_ticks)
{
	char path[512];
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < NW_STREAMS; i++)
		p->s[i] = calloc(NW_UNITS, sizeof(*p->s[i]));
	p->pid = pid;
	snprintf(path, sizeof(path), "%s/%s.%lld.%08x.tpf", dir, host, (long long)pid, (unsigned)pid);
	tw_open(&p->w, path, (uint64_t)pid);
	nw_prop_int(p, "clock", TPROF_CLOCKSRC_MONOTONIC);
	nw_prop_str(p, "host", host);
	nw_prop_int(p, "pid", pid);
	nw_prop_str(p, "arg", prog);
	if (instance_type)
		nw_prop_str(p, "instance_type", instance_type);
	nw_put(p, 0, tw_rec(TPROF_K_CLOCK, 0, 1000, 1000, (uint64_t)(NW_REAL0 + 1000)), NULL, 0);
	nw_put(p, 0, tw_rec(TPROF_K_CLOCK, 0, end_ticks, end_ticks, (uint64_t)(NW_REAL0 + (int64_t)end_ticks)),
	       NULL, 0);
}

/* Thread `tid`, named `name`, records into stream `stream` (1 .. NW_STREAMS - 1). */
static inline void nw_thread(struct nw_proc *p, uint32_t stream, const char *name, int64_t tid)
{
	nw_put(p, 0, tw_rec(TPROF_K_THREAD, nw_str(p, name), 1000, (uint64_t)tid, stream), NULL, 0);
}

/* An NRT call on `stream` returning `status`; x: an execution's second unit (NULL: none).
 * a->name is a string of this process (nw_str).  Returns its correlation id. */
static inline uint64_t nw_call(struct nw_proc *p, uint32_t stream, const char *name, uint64_t t0,
			       uint64_t t1, int status, const struct tprof_nrt_args *a,
			       const struct tprof_nrt_exec *x)
{
	uint8_t ext[2 * TPROF_UNIT];
	memcpy(ext, a, sizeof(*a));
	if (x)
		memcpy(ext + TPROF_UNIT, x, sizeof(*x));
	uint64_t corr = ++p->corr;
	struct tprof_rec rec = tw_rec(TPROF_K_CALL, nw_str(p, name), t0, t1,
				      corr | (uint64_t)(uint16_t)status << TPROF_CALL_RET_SHIFT);
	rec.flags = TPROF_DOM_NRT;
	nw_put(p, stream, rec, ext, x ? 2 : 1);
	return corr;
}

/* A call with no NeuronCore and nothing to say (nrt_init, nrt_close, tensor sets). */
static inline void nw_plain(struct nw_proc *p, uint32_t stream, const char *name, uint16_t op,
			    uint64_t t0, uint64_t t1)
{
	struct tprof_nrt_args a = { .nc = -1, .op = op };
	nw_call(p, stream, name, t0, t1, 0, &a, NULL);
}

static inline void nw_load(struct nw_proc *p, uint32_t stream, uint64_t t0, uint64_t t1,
			   const char *model, uint64_t handle, int32_t nc, uint32_t ncores, uint64_t neff)
{
	struct tprof_nrt_args a = { .handle = handle, .bytes = neff, .name = model ? nw_str(p, model) : 0,
				    .nc = nc, .op = TPROF_NRT_LOAD, .extra = ncores };
	nw_call(p, stream, "nrt_load", t0, t1, 0, &a, NULL);
}

static inline void nw_exec(struct nw_proc *p, uint32_t stream, uint64_t t0, uint64_t t1,
			   const char *model, uint64_t handle, int32_t nc, uint32_t ncores,
			   uint64_t in, uint64_t out, uint32_t repeat, int status)
{
	struct tprof_nrt_args a = { .handle = handle, .bytes = in + out,
				    .name = model ? nw_str(p, model) : 0, .nc = nc,
				    .op = TPROF_NRT_EXECUTE, .extra = repeat };
	struct tprof_nrt_exec x = { .in_bytes = in, .out_bytes = out, .in_tensors = 2,
				    .out_tensors = 1, .model_nc_count = ncores };
	nw_call(p, stream, repeat ? "nrt_execute_repeat" : "nrt_execute", t0, t1, status, &a, &x);
}

/* A tensor call: op TPROF_NRT_TENSOR_*, placement 0 (device), 1 (host), 2 (virtual). */
static inline void nw_tensor(struct nw_proc *p, uint32_t stream, const char *name, uint16_t op,
			     uint64_t t0, uint64_t t1, const char *tensor, uint64_t handle, int32_t nc,
			     uint8_t placement, uint64_t bytes)
{
	struct tprof_nrt_args a = { .handle = handle, .bytes = bytes,
				    .name = tensor ? nw_str(p, tensor) : 0, .nc = nc, .op = op,
				    .placement = placement };
	nw_call(p, stream, name, t0, t1, 0, &a, NULL);
}

static inline void nw_end(struct nw_proc *p)
{
	struct tprof_rec *u = calloc(NW_UNITS, sizeof(*u));
	uint32_t n = 0;
	for (uint32_t i = 0; i < p->nstrs; i++)
		n += tw_string(u + n, i + 1, p->strs[i]);
	memcpy(u + n, p->s[0], p->n[0] * sizeof(*u));
	n += p->n[0];
	u[n++] = tw_rec(TPROF_K_END, 0, 0, 0, 0);
	for (uint32_t s = 1; s < NW_STREAMS; s++)
		if (p->n[s])
			tw_chunk(&p->w, s, p->s[s], p->n[s]);
	tw_chunk(&p->w, 0, u, n);
	tw_close(&p->w);
	free(u);
	for (int i = 0; i < NW_STREAMS; i++)
		free(p->s[i]);
}

#endif

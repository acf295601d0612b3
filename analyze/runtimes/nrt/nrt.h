/* nrt.h — the Neuron runtime (NRT) side of an API call, as the pipeline decodes it from the
 * CALL record's extension units (struct tprof_nrt_args, struct tprof_nrt_exec), and the
 * facts every output needs about it: its status and placement by name, which NeuronCores it
 * occupies, and what kind of tensor traffic it is (nrt.c).  Below its scene and summary parts
 * (runtimes/nrt/scene.c, runtimes/nrt/summary.c) and beside the pipeline. */
#ifndef TPROF_ANALYZE_NRT_H
#define TPROF_ANALYZE_NRT_H

#include <stdint.h>

#include "../../model/output.h"
#include "../../read/trace.h"

/* What an NRT call recorded (struct call_info.info of a call of domain NRT). */
struct nrt_info {
	struct tprof_nrt_args a;         /* as recorded, but a.name is a trace-wide string id */
	struct tprof_nrt_exec x;         /* executions only (has_exec) */
	int has_exec;
	uint32_t model;                  /* load, unload, execute: the model's name (a.name), or
					  * "model 0x<handle>" when the recorder knew none; else 0 */
};

/* What NRT call ev recorded. */
static inline const struct nrt_info *nrt_info_of(const struct event *ev)
{
	return ev->call->info;
}

/* Decodes the ext units (next of them) of an NRT CALL of process p. */
void nrt_decode(const struct proc *p, const uint8_t *ext, unsigned next, struct nrt_info *ni);

/* runtimes/nrt/scene.c: NRT in the scene */
struct event;
struct scene;
struct scene_args;
void nrt_scene_call_args(struct scene_args *a, const struct event *ev);
int nrt_scene_event(struct scene *s, const struct event *ev, unsigned self);

/* The NRT_STATUS enumerator's name ("NRT_EXEC_BAD_INPUT"), or NULL for a value nrt_status.h
 * does not define. */
const char *nrt_status_name(int status);
/* "device", "host", "virtual" (nrt_tensor_placement_t), "?" otherwise. */
const char *nrt_placement_name(unsigned placement);
/* The tensor operation of a traffic-carrying call: "read", "write", "copy", "memset"; NULL
 * for any other op. */
const char *nrt_traffic_name(unsigned op);

/* The NeuronCores the call occupies, [*first, *first + return value): none (0) for calls
 * with no core (nrt_init, host tensors, sets, queries); an execution occupies every core of
 * its model, a load the cores it asked for; the rest the one core they address. */
int nrt_cores(const struct nrt_info *ni, int32_t *first);

/* facts.c: an execution as operations of model/facts.h, one per NeuronCore it occupies */
struct event;
struct facts_sink;
void nrt_facts(const struct event *ev, const struct facts_sink *s);

/* A failed call: a status other than NRT_SUCCESS. */
static inline int nrt_failed(int status)
{
	return status != 0;
}

#endif

/* facts.h — the domain facts of a trace in neutral rows, for outputs that tabulate them (the
 * SQLite output): an operation a device ran, a collective with each member's part.  The
 * model's own events (EV_DEVICE, EV_COLLECTIVE) become rows here (facts.c); what only a
 * runtime can read (an NCCL instance, an NRT execution) that runtime turns into the same rows
 * (runtimes/<name>/facts.c, its struct runtime's facts hook: model/runtime.h), so that such
 * outputs read the model's structs, never a runtime's. */
#ifndef TPROF_ANALYZE_FACTS_H
#define TPROF_ANALYZE_FACTS_H

#include "output.h"

/* One operation a device ran (a GPU's kernel, copy, memset or collective; a NeuronCore's
 * execution: one row per core it occupied); times in ns from the trace start. */
struct fact_devop {
	const char *device_kind;         /* "gpu", "neuroncore" */
	const char *kind;                /* "kernel", "copy", "memset", "graph", "collective",
					  * "execution"... */
	const struct proc *proc;
	int64_t device;                  /* the device, or the NeuronCore */
	int has_stream;
	uint64_t stream;
	uint32_t name;                   /* the kernel, operation or model (string id) */
	int64_t t0, t1;
	int has_bytes;
	uint64_t bytes;
	const char *copy_kind;           /* copies: "HtoD"...; else NULL */
	const struct tprof_launch_dims *dims;   /* kernels; else NULL */
	uint64_t corr;                   /* the launching call's correlation id, 0 when none */
	const struct thread *launcher;   /* the thread of the launching call, when known */
	int64_t launch_ns;               /* its entry */
	uint32_t caller;                 /* the function that launched it (TPROF_CALLSTACK), 0 */
	int failed;
	unsigned flags;                  /* EVF_* */
};

/* One member's part in a collective. */
struct fact_member {
	const struct proc *proc;
	const struct thread *thread;     /* the thread that entered it; NULL when its call was
					  * not seen */
	int32_t rank;                    /* MPI: the world rank; NCCL: its rank in the
					  * communicator */
	uint32_t name;                   /* its call (string id), 0 when unknown */
	int has_call;
	int64_t entry, exit;             /* its call: entry, and exit (or completion) */
	int has_device;
	int64_t dev_t0, dev_t1;          /* its device span(s), first start to last end */
	uint64_t bytes_sent, bytes_recv;
	uint64_t corr;                   /* its launching call's correlation id, 0 when none */
};

/* A collective as all its members ran it (an MPI collective, an NCCL instance). */
struct fact_coll {
	const char *runtime;             /* "mpi", "nccl" */
	uint32_t name;                   /* "MPI_Allreduce", "AllReduce", "ncclGroup (...)" */
	uint64_t comm;
	uint32_t seq;
	int32_t ranks;                   /* the communicator's size */
	int32_t seen;                    /* members found (NCCL: the ranks whose launches are
					  * linked, two for a send and its receive) */
	int32_t root;                    /* a rank, or -1 when none */
	int32_t last_rank;               /* the member that entered last, -1 when unknown */
	int has_times;
	int64_t first_entry, last_entry, first_exit, last_exit;
	uint64_t bytes;                  /* MPI: bytes sent, summed over the members */
	int has_bw;
	double alg_bytes, bus_bytes;     /* NCCL: nccl-tests' S and bus bytes of one rank's part */
	int has_count;
	uint64_t count;                  /* NCCL, one operation: its count and datatype */
	const char *dtype;
	int incomplete;
	const struct fact_member *m;
	uint32_t nm;
};

struct facts_sink {
	void *ctx;
	void (*on_devop)(void *ctx, const struct fact_devop *f);
	void (*on_collective)(void *ctx, const struct fact_coll *f);
};

/* Hands the sink what ev is in these terms (asking the runtimes of rts where the model
 * cannot say); nothing when it is none of them. */
struct runtime_set;
void facts_event(const struct runtime_set *rts, const struct event *ev,
		 const struct facts_sink *s);

#endif

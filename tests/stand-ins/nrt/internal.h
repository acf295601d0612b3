/* internal.h — what the files of the stand-in libnrt.so.1 share: the configuration read from
 * STANDIN_NRT_* and NEURON_RT_VISIBLE_CORES, the runtime's state (initialised or not, the
 * NeuronCores this process sees, their memory), the objects behind the opaque handles
 * (models, tensors, tensor sets), the registry that tells a live handle from a stale one,
 * and the trace file.  Apps never see this header: they include <nrt/nrt.h>. */
#ifndef STANDIN_NRT_INTERNAL_H
#define STANDIN_NRT_INTERNAL_H

/* The library is built with -fvisibility=hidden; the public prototypes are exported (the
 * version script then hides everything else). */
#pragma GCC visibility push(default)
#include "nrt/nrt.h"
#include "nrt/nrt_experimental.h"
#pragma GCC visibility pop

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define SN_EXPORT __attribute__((visibility("default")))
#define SN_MAX_CORES 64
#define SN_MAX_IO 16            /* inputs, and outputs, a stand-in model declares at most */
#define SN_NEFF_HEADER 1024     /* the NEFF header; see models.c for the fields read */

/* ---- configuration (runtime.c), read once at the first call ----------------------------- */
struct sn_rule {
	char *key;                      /* substring of the model name */
	int64_t ns;
};
struct sn_config {
	int cores;                      /* STANDIN_NRT_CORES: NeuronCores of the machine (4) */
	struct sn_rule *exec_rules;     /* STANDIN_NRT_EXEC_US "name:us,..." (NULL-terminated) */
	int64_t exec_default_ns;        /* STANDIN_NRT_EXEC_US as a plain number, or "default:";
					 * -1: the NEFF says */
	uint64_t hbm_bytes;             /* STANDIN_NRT_HBM_MB per NeuronCore (16384) */
	nrt_instance_info_t instance;   /* STANDIN_NRT_INSTANCE "family,size,arch,revision" */
	int verbose;                    /* STANDIN_NRT_VERBOSE: errors explained on stderr */
	char *trace_path;               /* STANDIN_NRT_TRACE_FILE, %p expanded */
};
extern struct sn_config sn_cfg;
void sn_config_once(void);
/* The execution time of a model named `name` whose NEFF says `neff_ns`. */
int64_t sn_exec_ns(const char *name, int64_t neff_ns);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t sn_now_ns(void);
/* Sleeps until the monotonic time `deadline` (the last 50 us busy-waited). */
void sn_wait_until(uint64_t deadline);
/* One line on stderr when STANDIN_NRT_VERBOSE is set; returns `status`. */
NRT_STATUS sn_fail(NRT_STATUS status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends one line (a JSON object, no newline) to the trace file when there is one. */
void sn_trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Writes s as a JSON string (quotes included) into buf; returns buf. */
const char *sn_json_str(const char *s, char *buf, size_t len);

/* ---- the runtime (runtime.c); every field under sn_lock ---------------------------------- */
struct sn_state {
	int initialized;                /* between nrt_init and nrt_close */
	int closed;                     /* nrt_close was called (and no nrt_init since) */
	int nvisible;                   /* NeuronCores this process uses */
	int visible[SN_MAX_CORES];      /* vnc -> physical core */
	uint64_t hbm_used[SN_MAX_CORES];/* device tensor bytes per vnc */
	int models_on[SN_MAX_CORES];    /* models loaded per vnc (auto placement) */
};
extern struct sn_state sn;
extern pthread_mutex_t sn_lock;
/* Under sn_lock: NRT_SUCCESS between nrt_init and nrt_close, else why not. */
NRT_STATUS sn_ready(void);
/* Parses NEURON_RT_VISIBLE_CORES into visible[]; the count, or -1 when invalid. */
int sn_visible_cores(int visible[SN_MAX_CORES]);

/* ---- handles (handles.c), under sn_lock: a live-object registry, so that a freed or
 * made-up handle is NRT_INVALID_HANDLE and never dereferenced ---------------------------- */
enum sn_kind { SN_MODEL = 1, SN_TENSOR = 2, SN_SET = 3 };
int sn_handle_add(const void *p, int kind);     /* 0, or -1 when out of memory */
int sn_handle_is(const void *p, int kind);
void sn_handle_del(const void *p);

/* ---- objects ---------------------------------------------------------------------------- */
struct sn_io {
	char name[NRT_TENSOR_NAME_MAX];
	size_t bytes;
};

struct nrt_model {
	char name[257];                 /* from the NEFF header */
	int vnc, count;                 /* NeuronCores [vnc, vnc + count) */
	int need;                       /* NeuronCores one instance needs (NEFF header) */
	int64_t exec_ns;                /* how long an execution runs */
	float add;                      /* outputs = add + the sum of the inputs, elementwise */
	NRT_STATUS status;              /* what every execution returns (NEFF "status=") */
	int nin, nout;
	struct sn_io in[SN_MAX_IO], out[SN_MAX_IO];
	struct nrt_model *next;         /* the list of loaded models (models.c) */
};

/* Memory a tensor refers to: owned (allocated here) or attached (the caller's). */
struct sn_buffer {
	char *data;
	size_t size;
	int refs;                       /* tensors using it (a tensor and its slices) */
	int owned;
	int vnc;                        /* device memory: the vnc it is charged to, else -1 */
};

struct nrt_tensor {
	nrt_tensor_placement_t placement;
	int vnc;                        /* -1 for host memory */
	size_t size;
	size_t offset;                  /* into buf (slices) */
	struct sn_buffer *buf;          /* NULL for an empty tensor */
	char name[NRT_TENSOR_NAME_MAX];
};

struct sn_set_entry {
	char *name;
	nrt_tensor_t *tensor;
};
struct sn_set {
	size_t n, cap;
	struct sn_set_entry *e;
};

/* Under sn_lock: the tensor named `name` in set s, or NULL. */
nrt_tensor_t *sn_set_find(const struct sn_set *s, const char *name);
/* Under sn_lock: the bytes of tensor t (offset 0). */
static inline char *sn_tensor_data(const nrt_tensor_t *t)
{
	return t->buf ? t->buf->data + t->offset : NULL;
}

/* models.c: frees every model (nrt_close); under sn_lock. */
void sn_models_close(void);

/* execute.c: the lock of each physical NeuronCore, taken while a model runs on it.  Fork
 * waits until no execution is in flight (so no core lock is held when the process forks) and
 * holds new ones back meanwhile. */
extern pthread_mutex_t sn_core_lock[SN_MAX_CORES];
void sn_exec_fork_prepare(void);
void sn_exec_fork_parent(void);
void sn_exec_fork_child(void);

#endif

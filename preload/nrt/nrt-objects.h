/* nrt-objects.h — what the NRT hooks know about the runtime's objects, so that a call can say
 * which model, tensor or set it is about: models (name from the NEFF, NeuronCores), tensors
 * (name, bytes, placement, NeuronCore) and tensor sets (the tensors added to them, and their
 * total bytes, because the runtime cannot list a set).  Three handle tables (core/handles.h)
 * keyed by the runtime's handles: a slot is claimed with one compare-and-swap when an object
 * appears (load, allocate), looked up without a lock, a system call or an allocation
 * (execute), and becomes a tombstone when the object goes.  Names are kept with their string
 * id of the current process image, re-interned after a fork. */
#ifndef TPROF_NRT_OBJECTS_H
#define TPROF_NRT_OBJECTS_H

#include <stdint.h>

#include "../core/core.h"

#define TPROF_NRT_MODEL_SLOTS 1024u
#define TPROF_NRT_TENSOR_SLOTS 16384u
#define TPROF_NRT_SET_SLOTS 4096u
#define TPROF_NRT_TENSOR_NAME 96        /* bytes of a tensor name kept, NUL included */

/* A string id with the image it belongs to. */
struct tprof_nrt_name {
	uint32_t id;
	uint32_t gen;
};

struct tprof_nrt_model {
	const void *key;                /* nrt_model_t *; 0 empty, 1 removed */
	struct tprof_nrt_name id;
	int32_t nc;                     /* first NeuronCore, -1 when unknown */
	uint32_t nc_count;              /* NeuronCores it occupies */
	char name[257];                 /* from the NEFF header */
};

struct tprof_nrt_tensor {
	const void *key;                /* nrt_tensor_t * */
	uint64_t size;                  /* bytes */
	struct tprof_nrt_name id;
	int32_t nc;                     /* device placement: its NeuronCore, else -1 */
	uint8_t placement;              /* nrt_tensor_placement_t */
	char name[TPROF_NRT_TENSOR_NAME];
};

struct tprof_nrt_set_entry;
struct tprof_nrt_set {
	const void *key;                /* nrt_tensor_set_t * */
	uint64_t bytes;                 /* of the tensors in it (atomic) */
	uint32_t count;                 /* tensors in it (atomic) */
	uint32_t n, cap;                /* entries (under the set lock) */
	struct tprof_nrt_set_entry *e;
};

uint32_t tprof_nrt_name_slow(struct tprof_nrt_name *n, const char *s);

/* The string id of `s` in this image; `s` is interned on the first use in each image. */
static inline uint32_t tprof_nrt_name(struct tprof_nrt_name *n, const char *s)
{
	if (TPROF_LIKELY(__atomic_load_n(&n->gen, __ATOMIC_ACQUIRE) == tprof_g.generation))
		return __atomic_load_n(&n->id, __ATOMIC_RELAXED);
	return tprof_nrt_name_slow(n, s);
}

/* Lookups: the entry of a live handle, or NULL.  No lock. */
struct tprof_nrt_model *tprof_nrt_model_find(const void *model);
struct tprof_nrt_tensor *tprof_nrt_tensor_find(const void *tensor);
struct tprof_nrt_set *tprof_nrt_set_find(const void *set);

/* A new object (its handle may be one that was freed before: that entry is replaced).  NULL
 * when its table is full (its calls then record no name). */
struct tprof_nrt_model *tprof_nrt_model_add(const void *model, const char *name, int32_t nc,
					    uint32_t nc_count);
struct tprof_nrt_tensor *tprof_nrt_tensor_add(const void *tensor, const char *name, uint64_t size,
					      int32_t nc, uint8_t placement);
struct tprof_nrt_set *tprof_nrt_set_add(const void *set);

/* The object is gone. */
void tprof_nrt_model_remove(struct tprof_nrt_model *m);
void tprof_nrt_tensor_remove(struct tprof_nrt_tensor *t);
void tprof_nrt_set_remove(struct tprof_nrt_set *s);

/* nrt_add_tensor_to_tensor_set succeeded: `name` now refers to `tensor` of `bytes` (a name
 * already in the set is replaced, as the runtime does). */
void tprof_nrt_set_put(struct tprof_nrt_set *s, const char *name, const void *tensor, uint64_t bytes);

#endif

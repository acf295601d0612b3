/* mpi-comm.h — MPI communicators as the recorder knows them: a stable 64-bit id, the same on
 * every member without any extra communication, the members as world ranks (COMM records in
 * stream 0), and the per-communicator counters the records need (collectives so far, for
 * their seq; communicator-creating calls so far, for the ids of the communicators made).
 * Handle -> entry lookups are lock-free: WORLD and SELF by pointer compare, the others in
 * a handle table (core/handles.h) whose entries are published with a release store of the
 * key once filled. */
#ifndef TPROF_MPI_COMM_H
#define TPROF_MPI_COMM_H

#include <stdint.h>

#include "../core/handles.h"
#include "mpi-abi.h"
#include "mpi-runtime.h"

struct tprof_mpi_comm {
	void *handle;              /* the key: TPROF_HANDLE_EMPTY, _GONE or the handle */
	uint64_t id;
	uint64_t parent;           /* id of the communicator it was made from, 0 when none */
	int32_t size;              /* its (local) group */
	int32_t remote_size;       /* inter-communicators: the remote group */
	int32_t my_rank;
	uint8_t kind;              /* enum tprof_comm_kind */
	uint32_t coll_seq;         /* collectives called on it so far (atomic) */
	uint32_t creations;        /* communicator-creating calls over it so far (atomic) */
	uint32_t windows;          /* windows made over it so far (atomic) */
	int32_t indegree, outdegree; /* its topology's neighbours of this process, once known */
	uint8_t degrees;           /* 1: indegree and outdegree are known (atomic) */
	uint32_t name;             /* string id of its name, 0 = none */
	int32_t *members;          /* world ranks, local group then remote; -1 = not in WORLD */
};

#define TPROF_MPI_COMM_SLOTS 4096u

extern struct tprof_mpi_comm tprof_mpi_world, tprof_mpi_self;
extern struct tprof_mpi_comm tprof_mpi_comms[TPROF_MPI_COMM_SLOTS];
TPROF_HANDLES_CHECK(tprof_mpi_comms, handle);
/* A lookup or an entry may go through the whole table. */
#define TPROF_MPI_COMMS TPROF_HANDLES(tprof_mpi_comms, TPROF_MPI_COMM_SLOTS)

/* Not in the table: a communicator first seen now (described and recorded), or NULL. */
struct tprof_mpi_comm *tprof_mpi_comm_miss(tmpi_Comm c);

/* The entry of a communicator handle, or NULL (MPI_COMM_NULL, or not describable). */
static inline struct tprof_mpi_comm *tprof_mpi_comm(tmpi_Comm c)
{
	if (TPROF_LIKELY(c == tprof_mpi_h.world))
		return &tprof_mpi_world;
	if (c == tprof_mpi_h.self)
		return &tprof_mpi_self;
	struct tprof_mpi_comm *e = tprof_handle_find(TPROF_MPI_COMMS, c);
	return e ? e : tprof_mpi_comm_miss(c);
}

static inline uint64_t tprof_mpi_comm_id(const struct tprof_mpi_comm *e)
{
	return e ? e->id : TPROF_COMM_NONE;
}

/* The collective about to be called on e: its number on e, from 1. */
static inline uint32_t tprof_mpi_coll_seq(struct tprof_mpi_comm *e)
{
	return e ? __atomic_add_fetch(&e->coll_seq, 1, __ATOMIC_RELAXED) : 0;
}

/* A communicator-creating call over parent starts: how many came before it. */
static inline uint32_t tprof_mpi_comm_creation(struct tprof_mpi_comm *parent)
{
	return parent ? __atomic_fetch_add(&parent->creations, 1, __ATOMIC_RELAXED) : 0;
}

/* A window is being made over e: its number over e, from 1. */
static inline uint32_t tprof_mpi_comm_window(struct tprof_mpi_comm *e)
{
	return e ? __atomic_add_fetch(&e->windows, 1, __ATOMIC_RELAXED) : 0;
}

/* The neighbours of this process in e's topology, sources (*in) and destinations (*out), as
 * the neighbourhood collectives count them: 0 and 0 without a topology. */
void tprof_mpi_comm_degrees(struct tprof_mpi_comm *e, int *in, int *out);

/* The world ranks of group g's members as a string interned in the profile ("0-3,7": runs
 * of consecutive ranks as ranges; MPI_Win_post and MPI_Win_start record them), or 0 when it
 * cannot be had or would be longer than TPROF_MPI_GROUP_TEXT. */
#define TPROF_MPI_GROUP_TEXT 4096
uint32_t tprof_mpi_group_text(tmpi_Group g);

/* MPI started: WORLD and SELF described and recorded.  MPI stopping: WORLD's group freed. */
void tprof_mpi_comms_start(void);
void tprof_mpi_comms_stop(void);

/* A communicator made collectively over parent (split, dup, create, topologies, merge...),
 * the count-th such call over it: its id, recorded; TPROF_COMM_NONE for MPI_COMM_NULL. */
uint64_t tprof_mpi_comm_made(uint64_t parent, uint32_t count, tmpi_Comm made);
/* MPI_Comm_create_group over parent with tag. */
uint64_t tprof_mpi_comm_made_group(uint64_t parent, int tag, tmpi_Comm made);
/* MPI_Intercomm_create with tag. */
uint64_t tprof_mpi_comm_made_inter(int tag, tmpi_Comm made);
/* MPI_Comm_free succeeded: the handle may come back for another communicator. */
void tprof_mpi_comm_forget(tmpi_Comm c);
/* MPI_Comm_set_name succeeded: the COMM records again, with the name. */
void tprof_mpi_comm_named(tmpi_Comm c, const char *name);

#endif

/* mpi-runtime.h — the MPI library the program uses, as the MPI hooks see it: whether it is
 * Open MPI (the only ABI whose arguments the hooks interpret), its predefined handles, the
 * PMPI_ entry points the recorder calls itself (never through the wrappers, never recorded),
 * and where the program is in MPI's life (before init, running, finalized). */
#ifndef TPROF_MPI_RUNTIME_H
#define TPROF_MPI_RUNTIME_H

#include <stdint.h>

#include "../spool/buffer.h"
#include "mpi-abi.h"

enum tprof_mpi_state {
	TPROF_MPI_UNKNOWN = 0,   /* no MPI call seen yet */
	TPROF_MPI_PREINIT = 1,   /* Open MPI, not initialized yet (as far as the hooks know) */
	TPROF_MPI_READY = 2,     /* Open MPI, initialized: calls are interpreted and recorded */
	TPROF_MPI_FOREIGN = 3,   /* another MPI (or an incomplete one): calls pass through */
	TPROF_MPI_DONE = 4,      /* finalized: calls pass through */
	TPROF_MPI_READY_MPICH = 5, /* READY, with MPICH's ABI (mpi-abi-mpich.h) */
};

extern int tprof_mpi_state;

/* The ABI of the MPI library found (mpi-abi.h, mpi-abi-mpich.h), once the first MPI call
 * looked (detect): Open MPI's until then. */
enum { TPROF_MPI_ABI_OPENMPI = 0, TPROF_MPI_ABI_MPICH = 1 };
extern int tprof_mpi_abi;

/* The ABI this file is compiled for, and its state READY. */
#ifdef TPROF_MPI_MPICH_SIDE
#define TPROF_MPI_ABI_HERE TPROF_MPI_ABI_MPICH
#define TPROF_MPI_READY_HERE TPROF_MPI_READY_MPICH
#else
#define TPROF_MPI_ABI_HERE TPROF_MPI_ABI_OPENMPI
#define TPROF_MPI_READY_HERE TPROF_MPI_READY
#endif

static inline int tprof_mpi_is_ready(int state)
{
	return state == TPROF_MPI_READY || state == TPROF_MPI_READY_MPICH;
}

/* The PMPI_ functions the recorder itself calls. */
struct tprof_pmpi {
	int (*Initialized)(int *);
	int (*Finalized)(int *);
	int (*Type_size)(tmpi_Datatype, int *);
	int (*Comm_rank)(tmpi_Comm, int *);
	int (*Comm_size)(tmpi_Comm, int *);
	int (*Comm_remote_size)(tmpi_Comm, int *);
	int (*Comm_test_inter)(tmpi_Comm, int *);
	int (*Comm_group)(tmpi_Comm, tmpi_Group *);
	int (*Comm_remote_group)(tmpi_Comm, tmpi_Group *);
	int (*Group_size)(tmpi_Group, int *);
	int (*Group_translate_ranks)(tmpi_Group, int, const int *, tmpi_Group, int *);
	int (*Group_free)(tmpi_Group *);
	int (*Comm_dup)(tmpi_Comm, tmpi_Comm *);
	int (*Comm_free)(tmpi_Comm *);
	int (*Send)(const void *, int, tmpi_Datatype, int, int, tmpi_Comm);
	int (*Recv)(void *, int, tmpi_Datatype, int, int, tmpi_Comm, tmpi_Status *);
	int (*Test_cancelled)(const tmpi_Status *, int *);
	/* the clock measurement at MPI_Finalize, which must not wait for ever (mpi-sync.c) */
	int (*Isend)(const void *, int, tmpi_Datatype, int, int, tmpi_Comm, tmpi_Request *);
	int (*Irecv)(void *, int, tmpi_Datatype, int, int, tmpi_Comm, tmpi_Request *);
	int (*Test)(tmpi_Request *, int *, tmpi_Status *);
	int (*Iprobe)(int, int, tmpi_Comm, int *, tmpi_Status *);
	int (*Cancel)(tmpi_Request *);
	int (*Wait)(tmpi_Request *, tmpi_Status *);
	int (*Request_free)(tmpi_Request *);
	int (*Query_thread)(int *);
	/* a topology's neighbours (neighbourhood collectives) */
	int (*Topo_test)(tmpi_Comm, int *);
	int (*Cartdim_get)(tmpi_Comm, int *);
	int (*Graph_neighbors_count)(tmpi_Comm, int, int *);
	int (*Dist_graph_neighbors_count)(tmpi_Comm, int *, int *, int *);
	/* Fortran handles and statuses as C ones (the Fortran bindings, fortran/) */
	tmpi_Comm (*Comm_f2c)(int);
	tmpi_Datatype (*Type_f2c)(int);
	tmpi_Op (*Op_f2c)(int);
	tmpi_Info (*Info_f2c)(int);
	tmpi_Group (*Group_f2c)(int);
	tmpi_Request (*Request_f2c)(int);
	tmpi_Message (*Message_f2c)(int);
	tmpi_File (*File_f2c)(int);
	tmpi_Win (*Win_f2c)(int);
	int (*Status_f2c)(const int *, tmpi_Status *);
};
extern struct tprof_pmpi tprof_pmpi;

/* Predefined handles: addresses of libmpi's data symbols. */
struct tprof_mpi_handles {
	tmpi_Comm world, self, comm_null;
	tmpi_Request request_null;
	tmpi_Request request_empty;   /* a shared, already completed request (ompi_request_empty) */
	tmpi_Message message_null, message_no_proc;
	tmpi_Datatype byte;
	tmpi_Group world_group;   /* WORLD's group, from init to finalize (mpi-comm.c) */
	int world_rank, world_size;
	int thread_multiple;      /* initialized with MPI_THREAD_MULTIPLE: threads call MPI at once */
	/* Fortran's sentinels: MPI_F_STATUS(ES)_IGNORE (variables holding the addresses a
	 * Fortran program passes), MPI_IN_PLACE and MPI_BOTTOM (objects); NULL when absent. */
	const int *const *f_status_ignore, *const *f_statuses_ignore;
	const void *f_in_place, *f_bottom;
	int f08_indices_from_0;   /* MPICH 4.0's use mpi_f08 bindings: indices counted from 0 */
};
extern struct tprof_mpi_handles tprof_mpi_h;

/* The real definition of an MPI function or object: after this library in the search
 * order, else in a libmpi the program loaded privately (as a Python extension does). */
void *tprof_mpi_lookup(const char *name);

/* Slow side of tprof_mpi_on: finds out which MPI this is (once), and notices an init that
 * happened without the wrappers.  1 when the call is to be recorded by the wrappers of `abi`. */
int tprof_mpi_enter_slow(int abi);

/* The ABI of the MPI library, found out first if need be. */
int tprof_mpi_abi_found(void);

/* True when MPI calls are recorded by this file's wrappers: an initialized (or initializing)
 * MPI the recorder knows, of the ABI they are compiled for. */
static inline int tprof_mpi_ready(void)
{
	if (TPROF_LIKELY(__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE) ==
			 TPROF_MPI_READY_HERE))
		return 1;
	return tprof_mpi_enter_slow(TPROF_MPI_ABI_HERE);
}

/* True when this thread records MPI calls now: recording, not nested in the profiler, and
 * MPI ready. */
static inline int tprof_mpi_on(struct tprof_thread *t)
{
	return tprof_should_record(t) && tprof_mpi_ready();
}

/* Whether MPI_Init/Finalize must do the recorder's collective work (the clock measurements
 * and their private communicator) whatever this process records: it depends only on what
 * every rank has alike (the environment, the library), so no rank waits for another in vain. */
int tprof_mpi_collective_work(void);

/* The slots of MPI's polls with a fast side in a run's `armed` (poll.h; their hooks' `arm` is
 * the slot + 1), TPROF_POLL_ARMS of them.  Under MPI_THREAD_MULTIPLE a Wait or Test looks its
 * requests up before the real call (mpi_lookup_early), which the fast sides of MPI_Test and
 * MPI_Testany leave out: theirs are turned off as MPI starts (tprof_poll_arms_on). */
enum { MPI_ARM_TEST, MPI_ARM_TESTANY, MPI_ARM_IPROBE };

/* After a successful MPI_Init*: rank and size, WORLD and SELF described; state READY. */
void tprof_mpi_started(void);
/* At the start of MPI_Finalize, before the real call: the recorder's own MPI objects are
 * freed; state DONE. */
void tprof_mpi_stopping(void);

/* Receive post numbers: process-wide, in posting order, from 1. */
extern uint32_t tprof_mpi_recv_posts;
static inline uint32_t tprof_mpi_next_recv(void)
{
	return __atomic_add_fetch(&tprof_mpi_recv_posts, 1, __ATOMIC_RELAXED);
}

/* mpi-sync.c: clock offset to rank 0, collective over the job (TPROF_MPI_SYNC_ROUNDS). */
void tprof_mpi_sync_setup(void);          /* after init: the private communicator */
void tprof_mpi_sync(int when);            /* enum tprof_csync_when */
void tprof_mpi_sync_teardown(void);       /* before finalize */

#endif

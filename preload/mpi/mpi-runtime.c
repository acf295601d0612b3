/* mpi-runtime.c — which MPI the program talks to, found at run time so that the recorder
 * never links libmpi (most programs it profiles have no MPI): Open MPI is recognised by its
 * exported MPI_COMM_WORLD object, ompi_mpi_comm_world; any other library gets one warning
 * and calls that pass through untouched.  Also the recorder's PMPI_ entry points, and the
 * moments MPI starts (rank, size, the first communicators) and stops. */
#include <ctype.h>
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../../common/real-libc.h"
#include "../events/api.h"
#include "../events/poll.h"
#include "mpi-comm.h"
#include "mpi-runtime.h"
#include "mpi-abi-mpich.h"
#include "../core/resolve.h"

int tprof_mpi_state;
int tprof_mpi_abi;
struct tprof_pmpi tprof_pmpi;
struct tprof_mpi_handles tprof_mpi_h;
uint32_t tprof_mpi_recv_posts;

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static void *libmpi;    /* a handle on a libmpi loaded outside the global scope */

static int find_libmpi_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	const char *name = info->dlpi_name;
	const char *base = name ? strrchr(name, '/') : NULL;
	base = base ? base + 1 : name;
	if (!base || strncmp(base, "libmpi.so", 9))
		return 0;
	*(const char **)data = name;
	return 1;
}

/* A libmpi the program loaded privately (RTLD_LOCAL, a dependency of a Python extension):
 * only a handle on it finds its symbols. */
static void *private_libmpi(void)
{
	void *h = __atomic_load_n(&libmpi, __ATOMIC_ACQUIRE);
	if (h)
		return h;
	const char *name = NULL;
	dl_iterate_phdr(find_libmpi_cb, &name);
	if (!name)
		return NULL;
	h = tprof_real_dlopen(name, RTLD_LAZY | RTLD_NOLOAD);
	if (h)
		__atomic_store_n(&libmpi, h, __ATOMIC_RELEASE);
	return h;
}

void *tprof_mpi_lookup(const char *name)
{
	TPROF_KEEP_ERRNO;
	void *p = tprof_resolve(name);
	if (p)
		return p;
	void *h = private_libmpi();
	if (!h)
		return NULL;
	return tprof_real_dlsym(h, name);    /* libc's: the definition, never our wrapper */
}

/* A data object of libmpi: the global scope first (a program linked with libmpi), then a
 * privately loaded libmpi. */
static void *lookup_object(const char *name)
{
	void *p = tprof_real_dlsym(RTLD_DEFAULT, name);
	if (!p && private_libmpi())
		p = tprof_real_dlsym(libmpi, name);
	return p;
}

/* The PMPI_ functions the recorder calls, as data without pointers (a table of names and
 * addresses would cost a relocation each as every process starts): each one's offset in
 * struct tprof_pmpi, and its name in one string of names, each ended by a NUL. */
#define PMPI_LIST(X)                                                                       \
	X(Initialized) X(Finalized) X(Type_size) X(Comm_rank) X(Comm_size)                   \
	X(Comm_remote_size) X(Comm_test_inter) X(Comm_group) X(Comm_remote_group)            \
	X(Group_size) X(Group_translate_ranks) X(Group_free) X(Comm_dup) X(Comm_free) X(Send) \
	X(Recv) X(Test_cancelled) X(Isend) X(Irecv) X(Test) X(Iprobe) X(Cancel) X(Wait)      \
	X(Request_free) X(Query_thread) X(Topo_test) X(Cartdim_get)                           \
	X(Graph_neighbors_count) X(Dist_graph_neighbors_count) X(Comm_f2c) X(Type_f2c) X(Op_f2c)          \
	X(Info_f2c) X(Group_f2c) X(Request_f2c) X(Message_f2c) X(Status_f2c) X(File_f2c)   \
	X(Win_f2c)
#define PMPI_OFFSET(field) offsetof(struct tprof_pmpi, field),
#define PMPI_NAME(field) "PMPI_" #field "\0"
static const unsigned short pmpi_offsets[] = { PMPI_LIST(PMPI_OFFSET) };
static const char pmpi_names[] = PMPI_LIST(PMPI_NAME);
#define NPMPI (sizeof(pmpi_offsets) / sizeof(pmpi_offsets[0]))
static uint32_t pmpi_miss[NPMPI];

/* Open MPI: its predefined handles are the addresses of its objects; NULL when one lacks. */
static const char *openmpi_handles(void)
{
	tprof_mpi_h.self = lookup_object("ompi_mpi_comm_self");
	tprof_mpi_h.comm_null = lookup_object("ompi_mpi_comm_null");
	tprof_mpi_h.request_null = lookup_object("ompi_request_null");
	tprof_mpi_h.request_empty = lookup_object("ompi_request_empty");
	tprof_mpi_h.message_null = lookup_object("ompi_message_null");
	tprof_mpi_h.message_no_proc = lookup_object("ompi_message_no_proc");
	tprof_mpi_h.byte = lookup_object("ompi_mpi_byte");
	tprof_mpi_h.f_status_ignore = lookup_object("MPI_F_STATUS_IGNORE");
	tprof_mpi_h.f_statuses_ignore = lookup_object("MPI_F_STATUSES_IGNORE");
	tprof_mpi_h.f_in_place = lookup_object("mpi_fortran_in_place_");
	tprof_mpi_h.f_bottom = lookup_object("mpi_fortran_bottom_");
	return !tprof_mpi_h.self ? "ompi_mpi_comm_self"
	       : !tprof_mpi_h.comm_null ? "ompi_mpi_comm_null"
	       : !tprof_mpi_h.request_null ? "ompi_request_null"
	       : !tprof_mpi_h.byte ? "ompi_mpi_byte" : NULL;
}

/* MPICH (and the MPIs built on it): predefined handles are constants (mpi-abi-mpich.h).  Its
 * Fortran bindings call the C functions, whose wrappers record them, but for those of use
 * mpi_f08 without a buffer: they call PMPI_ functions (fortran-mpich/). */
static void mpich_handles(void)
{
	tprof_mpi_h.world = tmpich_key(TMPICH_COMM_WORLD);
	tprof_mpi_h.self = tmpich_key(TMPICH_COMM_SELF);
	tprof_mpi_h.comm_null = tmpich_key(TMPICH_COMM_NULL);
	tprof_mpi_h.request_null = tmpich_key(TMPICH_REQUEST_NULL);
	tprof_mpi_h.request_empty = NULL;
	tprof_mpi_h.message_null = tmpich_key(TMPICH_MESSAGE_NULL);
	tprof_mpi_h.message_no_proc = tmpich_key(TMPICH_MESSAGE_NO_PROC);
	tprof_mpi_h.byte = tmpich_key(TMPICH_BYTE);
	/* only the use mpi_f08 bindings reach the Fortran entries' conversions (entries.c) */
	tprof_mpi_h.f_status_ignore = lookup_object("MPI_F08_STATUS_IGNORE");
	tprof_mpi_h.f_statuses_ignore = lookup_object("MPI_F08_STATUSES_IGNORE");
}

/* Whether the library is MPICH or built on it (Cray MPICH, MVAPICH, Intel MPI): its version
 * string says so (MPI_Get_library_version, which may be called before MPI_Init). */
static int is_mpich(void)
{
	int (*version)(char *, int *) = (int (*)(char *, int *))lookup_object(
		"PMPI_Get_library_version");
	char v[8192] = "";   /* MPI_MAX_LIBRARY_VERSION_STRING: 8192 in MPICH */
	int len = 0;
	if (!version)
		return 0;
	tprof_tls.guard++;
	int rc = version(v, &len);
	tprof_tls.guard--;
	v[sizeof(v) - 1] = '\0';
	if (rc != 0 || !(strstr(v, "MPICH") || strstr(v, "MVAPICH") || strstr(v, "Intel(R) MPI")))
		return 0;
	/* MPICH 4.0.x's use mpi_f08 bindings return indices counted from 0 (fortran.h) */
	const char *p = strstr(v, "MPICH Version:");
	if (p) {
		p += strlen("MPICH Version:");
		p += strspn(p, " \t");
		tprof_mpi_h.f08_indices_from_0 = strncmp(p, "4.0", 3) == 0 && !isdigit((unsigned char)p[3]);
	}
	return 1;
}

/* Under state_lock: the library's kind, its handles and PMPI_ entry points.  Open MPI is
 * known by its MPI_COMM_WORLD object, ompi_mpi_comm_world; MPICH by its version string. */
static void detect_locked(void)
{
	const char *missing = NULL;
	tprof_mpi_h.world = lookup_object("ompi_mpi_comm_world");
	if (tprof_mpi_h.world) {
		missing = openmpi_handles();
	} else if (is_mpich()) {
		tprof_mpi_abi = TPROF_MPI_ABI_MPICH;
		mpich_handles();
	} else {
		tprof_log_warn("the MPI library is neither Open MPI (no ompi_mpi_comm_world) nor "
			       "MPICH (by its version string): MPI calls pass through unrecorded");
		__atomic_store_n(&tprof_mpi_state, TPROF_MPI_FOREIGN, __ATOMIC_RELEASE);
		return;
	}
	const char *name = pmpi_names;
	for (size_t i = 0; !missing && i < NPMPI; i++, name += strlen(name) + 1) {
		/* the conversions serve the Fortran bindings; MPICH's handles need none, but for
		 * its files (pointers, as in Open MPI) */
		if (tprof_mpi_abi == TPROF_MPI_ABI_MPICH && strstr(name, "_f2c") &&
		    strcmp(name, "PMPI_File_f2c"))
			continue;
		void **where = (void **)((char *)&tprof_pmpi + pmpi_offsets[i]);
		/* an Open MPI built without MPI-IO (or one-sided communication) has no files
		 * (or windows) to convert */
		if (!tprof_real_get(where, &pmpi_miss[i], name, tprof_mpi_lookup) &&
		    strcmp(name, "PMPI_File_f2c") && strcmp(name, "PMPI_Win_f2c"))
			missing = name;
	}
	if (missing) {
		tprof_log_warn("%s without %s: MPI calls pass through unrecorded",
			       tprof_mpi_abi == TPROF_MPI_ABI_MPICH ? "MPICH" : "Open MPI", missing);
		__atomic_store_n(&tprof_mpi_state, TPROF_MPI_FOREIGN, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&tprof_mpi_state, TPROF_MPI_PREINIT, __ATOMIC_RELEASE);
}

static int detect(void)
{
	pthread_mutex_lock(&state_lock);
	if (__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE) == TPROF_MPI_UNKNOWN)
		detect_locked();
	pthread_mutex_unlock(&state_lock);
	return __atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE);
}

/* Under state_lock, MPI initialized: what a process's MPI life starts with. */
static void start_locked(void)
{
	int rank = -1, size = 0;
	tprof_pmpi.Comm_rank(tprof_mpi_h.world, &rank);
	tprof_pmpi.Comm_size(tprof_mpi_h.world, &size);
	tprof_mpi_h.world_rank = rank;
	tprof_mpi_h.world_size = size;
	int level = TMPI_THREAD_MULTIPLE;
	if (tprof_pmpi.Query_thread(&level) != TMPI_SUCCESS)
		level = TMPI_THREAD_MULTIPLE;
	tprof_mpi_h.thread_multiple = level >= TMPI_THREAD_MULTIPLE;
	/* MPICH's polls have no fast side: the exported wrappers' are Open MPI's. */
	if (tprof_mpi_abi == TPROF_MPI_ABI_MPICH)
		__atomic_store_n(&tprof_poll_arms_on,
				 ~(1u << MPI_ARM_TEST | 1u << MPI_ARM_TESTANY | 1u << MPI_ARM_IPROBE),
				 __ATOMIC_RELAXED);
	else if (tprof_mpi_h.thread_multiple)
		__atomic_store_n(&tprof_poll_arms_on, ~(1u << MPI_ARM_TEST | 1u << MPI_ARM_TESTANY),
				 __ATOMIC_RELAXED);
	/* The rank first (the last PROP of a key counts), then the communicators: a reader
	 * needs the rank to place MPI_COMM_SELF. */
	tprof_proc_prop_int("rank", rank);
	tprof_proc_prop_int("world_size", size);
	tprof_mpi_comms_start();
	__atomic_store_n(&tprof_mpi_state,
			 tprof_mpi_abi == TPROF_MPI_ABI_MPICH ? TPROF_MPI_READY_MPICH : TPROF_MPI_READY,
			 __ATOMIC_RELEASE);
}

/* Initialized without our MPI_Init (a Fortran or PMPI_Init caller): noticed late, at the
 * first call after it.  The clock measurements need every rank at once, so there are none. */
static void notice_init(void)
{
	int init = 0, fin = 0;
	if (tprof_pmpi.Initialized(&init) != TMPI_SUCCESS || !init)
		return;
	pthread_mutex_lock(&state_lock);
	if (__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE) == TPROF_MPI_PREINIT) {
		if (tprof_pmpi.Finalized(&fin) == TMPI_SUCCESS && fin)
			__atomic_store_n(&tprof_mpi_state, TPROF_MPI_DONE, __ATOMIC_RELEASE);
		else
			start_locked();
	}
	pthread_mutex_unlock(&state_lock);
}

int tprof_mpi_abi_found(void)
{
	if (__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE) == TPROF_MPI_UNKNOWN) {
		TPROF_KEEP_ERRNO;
		detect();
	}
	return tprof_mpi_abi;
}

int tprof_mpi_enter_slow(int abi)
{
	TPROF_KEEP_ERRNO;
	int s = __atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE);
	if (s == TPROF_MPI_UNKNOWN)
		s = detect();
	if (s == TPROF_MPI_PREINIT) {
		tprof_tls.guard++;
		notice_init();
		tprof_tls.guard--;
		s = __atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE);
	}
	return (s == TPROF_MPI_PREINIT || tprof_mpi_is_ready(s)) && tprof_mpi_abi == abi;
}

int tprof_mpi_collective_work(void)
{
	TPROF_KEEP_ERRNO;
	if (!tprof_g.cfg.enable)
		return 0;
	int s = __atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE);
	if (s == TPROF_MPI_UNKNOWN)
		s = detect();
	return s == TPROF_MPI_PREINIT || tprof_mpi_is_ready(s);
}

void tprof_mpi_started(void)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&state_lock);
	if (__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE) == TPROF_MPI_PREINIT)
		start_locked();
	pthread_mutex_unlock(&state_lock);
}

void tprof_mpi_stopping(void)
{
	TPROF_KEEP_ERRNO;
	pthread_mutex_lock(&state_lock);
	if (tprof_mpi_is_ready(__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE)))
		tprof_mpi_comms_stop();
	if (__atomic_load_n(&tprof_mpi_state, __ATOMIC_ACQUIRE) != TPROF_MPI_FOREIGN)
		__atomic_store_n(&tprof_mpi_state, TPROF_MPI_DONE, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&state_lock);
}

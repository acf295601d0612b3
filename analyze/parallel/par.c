/* parallel/par.c — the analysis processes' MPI (par.h), loaded with dlopen from the library
 * of the launcher that started them.  Two ABIs: Open MPI's, whose handles are the addresses of
 * its predefined objects (symbols such as ompi_mpi_comm_world), and MPICH's (also Intel MPI's,
 * Cray MPICH's), whose handles are ints with fixed values.  Each call is made through a
 * function pointer of the library's own signature, handles passed as pointers or as ints. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "par.h"

enum { H_WORLD, H_BYTE, H_I64, H_U64, H_SUM, H_MIN, H_MAX, NHANDLES };

/* Open MPI: the symbol whose address is the handle.  MPICH: the handle's value. */
static const char *const ompi_sym[NHANDLES] = {
	"ompi_mpi_comm_world", "ompi_mpi_byte", "ompi_mpi_int64_t", "ompi_mpi_uint64_t",
	"ompi_mpi_op_sum", "ompi_mpi_op_min", "ompi_mpi_op_max",
};
static const int mpich_value[NHANDLES] = {
	0x44000000, 0x4c00010d, 0x4c00083a, 0x4c00083e, 0x58000003, 0x58000002, 0x58000001,
};

#define FUNCTIONS(X)                                                                       \
	X(Init) X(Finalize) X(Abort) X(Comm_rank) X(Comm_size) X(Barrier) X(Bcast)        \
	X(Allreduce) X(Allgather) X(Gather) X(Gatherv) X(Allgatherv) X(Alltoall) X(Alltoallv)

static struct {
	int started, ompi, rank, size;
	const char *lib;
	void *dl;
	intptr_t h[NHANDLES];
#define FIELD(f) void *f;
	FUNCTIONS(FIELD)
#undef FIELD
	size_t round_bytes;
	uint64_t sent, received;
} M = { .size = 1, .round_bytes = (size_t)1 << 30 };

/* A handle as the library's functions take it. */
#define P(k) ((void *)M.h[k])
#define I(k) ((int)M.h[k])
/* Calls MPI_f: ptypes/itypes are its parameter lists with handles as void * or as int. */
#define CALL(f, ptypes, itypes, pargs, iargs)                                              \
	(M.ompi ? ((int(*) ptypes)M.f) pargs : ((int(*) itypes)M.f) iargs)

/* The library a launcher's environment names; NULL: no launcher, or one process. */
static const char *launcher_library(void)
{
	const char *lib = getenv("TPROF_MPI_LIB");
	const char *n = getenv("OMPI_COMM_WORLD_SIZE");
	if (!n)
		n = getenv("PMI_SIZE");
	if (n && !strcmp(n, "1"))
		return NULL;   /* mpirun -np 1: the serial analyzer, MPI not loaded */
	if (lib && *lib)
		return lib;
	if (getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK"))
		return "libmpi.so.40";
	if (getenv("PMI_SIZE") || getenv("PMI_RANK"))
		return "libmpich.so.12";
	return NULL;
}

int par_start(int *argc, char ***argv)
{
	const char *lib = launcher_library();
	if (!lib)
		return 0;
	/* global: Open MPI's components, themselves loaded with dlopen, use libmpi's symbols */
	M.dl = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);
	if (!M.dl) {
		fprintf(stderr, "tprof-analyze: --parallel: cannot load the MPI library %s: %s "
				"(TPROF_MPI_LIB names another)\n", lib, dlerror());
		return -1;
	}
	M.ompi = dlsym(M.dl, "ompi_mpi_comm_world") != NULL;
#define LOOKUP(f)                                                                          \
	if (!(M.f = dlsym(M.dl, "MPI_" #f))) {                                             \
		fprintf(stderr, "tprof-analyze: --parallel: %s has no MPI_" #f "\n", lib); \
		return -1;                                                                 \
	}
	FUNCTIONS(LOOKUP)
#undef LOOKUP
	for (int k = 0; k < NHANDLES; k++) {
		if (!M.ompi) {
			M.h[k] = mpich_value[k];
			continue;
		}
		void *sym = dlsym(M.dl, ompi_sym[k]);
		if (!sym) {
			fprintf(stderr, "tprof-analyze: --parallel: %s has no %s\n", lib, ompi_sym[k]);
			return -1;
		}
		M.h[k] = (intptr_t)sym;
	}
	((int (*)(int *, char ***))M.Init)(argc, argv);
	CALL(Comm_rank, (void *, int *), (int, int *), (P(H_WORLD), &M.rank), (I(H_WORLD), &M.rank));
	CALL(Comm_size, (void *, int *), (int, int *), (P(H_WORLD), &M.size), (I(H_WORLD), &M.size));
	M.started = 1;
	M.lib = lib;
	return 0;
}

int par_rank(void)
{
	return M.rank;
}

int par_size(void)
{
	return M.size;
}

const char *par_library(void)
{
	return M.started ? M.lib : NULL;
}

void par_stop(void)
{
	if (M.started)
		((int (*)(void))M.Finalize)();
	M.started = 0;
}

void par_abort(int status)
{
	if (M.started)
		CALL(Abort, (void *, int), (int, int), (P(H_WORLD), status), (I(H_WORLD), status));
	exit(status);
}

void par_set_round_bytes(size_t n)
{
	M.round_bytes = n ? n : 1;
}

void par_traffic(uint64_t *sent, uint64_t *received)
{
	*sent = M.sent;
	*received = M.received;
}

void par_barrier(void)
{
	if (M.started)
		CALL(Barrier, (void *), (int), (P(H_WORLD)), (I(H_WORLD)));
}

/* Counts MPI takes as int: past INT_MAX a call is not made (the data is too big for one). */
static int count_of(size_t n)
{
	if (n > INT_MAX) {
		fprintf(stderr, "tprof-analyze: --parallel: %zu bytes in one message, past MPI's "
				"limit\n", n);
		par_abort(1);
	}
	return (int)n;
}

void par_bcast(void *buf, size_t len, int root)
{
	if (!M.started)
		return;
	int n = count_of(len);
	CALL(Bcast, (void *, int, void *, int, void *), (void *, int, int, int, int),
	     (buf, n, P(H_BYTE), root, P(H_WORLD)), (buf, n, I(H_BYTE), root, I(H_WORLD)));
	if (M.rank == root)
		M.sent += len * (uint64_t)(M.size - 1);
	else
		M.received += len;
}

/* MPI_IN_PLACE: (void *)1 in Open MPI, (void *)-1 in MPICH. */
static void *in_place(void)
{
	return M.ompi ? (void *)1 : (void *)-1;
}

static void reduce_uncounted(void *v, size_t n, int type, int op)
{
	if (!M.started || !n)
		return;
	int c = count_of(n);
	CALL(Allreduce, (const void *, void *, int, void *, void *, void *),
	     (const void *, void *, int, int, int, int),
	     (in_place(), v, c, P(type), P(op), P(H_WORLD)),
	     (in_place(), v, c, I(type), I(op), I(H_WORLD)));
}

static void reduce(void *v, size_t n, int type, int op)
{
	reduce_uncounted(v, n, type, op);
	if (M.started) {
		M.sent += n * 8;
		M.received += n * 8;
	}
}

void par_sum_u64(uint64_t *v, size_t n)
{
	reduce(v, n, H_U64, H_SUM);
}

void par_min_i64(int64_t *v, size_t n)
{
	reduce(v, n, H_I64, H_MIN);
}

void par_max_i64(int64_t *v, size_t n)
{
	reduce(v, n, H_I64, H_MAX);
}

/* Each process's length, to every process (root < 0) or to root. */
static size_t *lengths(size_t len, int root)
{
	uint64_t mine = len;
	uint64_t *all = xmallocarray((size_t)M.size, sizeof(*all));
	if (root < 0)
		CALL(Allgather, (const void *, int, void *, void *, int, void *, void *),
		     (const void *, int, int, void *, int, int, int),
		     (&mine, 8, P(H_BYTE), all, 8, P(H_BYTE), P(H_WORLD)),
		     (&mine, 8, I(H_BYTE), all, 8, I(H_BYTE), I(H_WORLD)));
	else
		CALL(Gather, (const void *, int, void *, void *, int, void *, int, void *),
		     (const void *, int, int, void *, int, int, int, int),
		     (&mine, 8, P(H_BYTE), all, 8, P(H_BYTE), root, P(H_WORLD)),
		     (&mine, 8, I(H_BYTE), all, 8, I(H_BYTE), root, I(H_WORLD)));
	size_t *len_of = xmallocarray((size_t)M.size, sizeof(*len_of));
	for (int p = 0; p < M.size; p++)
		len_of[p] = (size_t)all[p];
	free(all);
	return len_of;
}

/* Gathers to every process (root < 0) or to root. */
static void *gather(const void *mine, size_t len, int root, size_t **len_of)
{
	if (!M.started) {
		*len_of = xmalloc(sizeof(**len_of));
		**len_of = len;
		void *all = xmalloc(len + 1);
		if (len)
			memcpy(all, mine, len);
		return all;
	}
	size_t *lens = lengths(len, root);
	int *counts = NULL, *displs = NULL;
	char *all = NULL;
	if (root < 0 || M.rank == root) {
		counts = xmallocarray((size_t)M.size, sizeof(*counts));
		displs = xmallocarray((size_t)M.size, sizeof(*displs));
		size_t total = 0;
		for (int p = 0; p < M.size; p++) {
			counts[p] = count_of(lens[p]);
			displs[p] = count_of(total);
			total += lens[p];
		}
		count_of(total);
		all = xmalloc(total + 1);
		M.received += total - len;
	}
	int n = count_of(len);
	if (root < 0)
		CALL(Allgatherv, (const void *, int, void *, void *, const int *, const int *, void *,
				  void *),
		     (const void *, int, int, void *, const int *, const int *, int, int),
		     (mine, n, P(H_BYTE), all, counts, displs, P(H_BYTE), P(H_WORLD)),
		     (mine, n, I(H_BYTE), all, counts, displs, I(H_BYTE), I(H_WORLD)));
	else
		CALL(Gatherv, (const void *, int, void *, void *, const int *, const int *, void *,
			       int, void *),
		     (const void *, int, int, void *, const int *, const int *, int, int, int),
		     (mine, n, P(H_BYTE), all, counts, displs, P(H_BYTE), root, P(H_WORLD)),
		     (mine, n, I(H_BYTE), all, counts, displs, I(H_BYTE), root, I(H_WORLD)));
	M.sent += root < 0 ? len * (uint64_t)(M.size - 1) : M.rank == root ? 0 : len;
	free(counts);
	free(displs);
	if (root >= 0 && M.rank != root) {
		free(lens);
		lens = NULL;
	}
	*len_of = lens;
	return all;
}

void *par_allgather_total(const void *mine, size_t len, size_t *total)
{
	size_t *len_of;
	void *all = par_allgather(mine, len, &len_of);
	*total = 0;
	for (int a = 0; a < par_size(); a++)
		*total += len_of[a];
	free(len_of);
	return all;
}

void *par_allgather(const void *mine, size_t len, size_t **len_of)
{
	return gather(mine, len, -1, len_of);
}

void *par_gather(const void *mine, size_t len, int root, size_t **len_of)
{
	return gather(mine, len, root, len_of);
}

/* One MPI_Alltoallv of byte counts and displacements that fit ints. */
static void alltoallv(const void *sbuf, const int *sc, const int *sd, void *rbuf, const int *rc,
		      const int *rd)
{
	CALL(Alltoallv, (const void *, const int *, const int *, void *, void *, const int *,
			 const int *, void *, void *),
	     (const void *, const int *, const int *, int, void *, const int *, const int *, int,
	      int),
	     (sbuf, sc, sd, P(H_BYTE), rbuf, rc, rd, P(H_BYTE), P(H_WORLD)),
	     (sbuf, sc, sd, I(H_BYTE), rbuf, rc, rd, I(H_BYTE), I(H_WORLD)));
}

void *par_exchange(const void *buf, const size_t *out, size_t *in)
{
	size_t k = (size_t)M.size;
	if (!M.started) {
		in[0] = out[0];
		void *all = xmalloc(out[0] + 1);
		if (out[0])
			memcpy(all, buf, out[0]);
		return all;
	}
	uint64_t *o = xmallocarray(k, sizeof(*o)), *i = xmallocarray(k, sizeof(*i));
	for (size_t p = 0; p < k; p++)
		o[p] = out[p];
	CALL(Alltoall, (const void *, int, void *, void *, int, void *, void *),
	     (const void *, int, int, void *, int, int, int),
	     (o, 8, P(H_BYTE), i, 8, P(H_BYTE), P(H_WORLD)),
	     (o, 8, I(H_BYTE), i, 8, I(H_BYTE), I(H_WORLD)));
	/* every process's share of one round: a round's displacements must fit ints too */
	size_t cap = M.round_bytes < INT_MAX / k ? M.round_bytes : INT_MAX / k;
	if (!cap)
		cap = 1;
	size_t *ooff = xmallocarray(k, sizeof(*ooff)), *ioff = xmallocarray(k, sizeof(*ioff));
	size_t tout = 0, tin = 0;
	int64_t rounds = 1;
	for (size_t p = 0; p < k; p++) {
		in[p] = (size_t)i[p];
		ooff[p] = tout;
		ioff[p] = tin;
		tout += out[p];
		tin += in[p];
		size_t most = out[p] > in[p] ? out[p] : in[p];
		if ((int64_t)((most + cap - 1) / cap) > rounds)
			rounds = (int64_t)((most + cap - 1) / cap);
		if (p != (size_t)M.rank) {
			M.sent += out[p];
			M.received += in[p];
		}
	}
	reduce_uncounted(&rounds, 1, H_I64, H_MAX);   /* bookkeeping, not the data */
	char *all = xmalloc(tin + 1);
	int *sc = xmallocarray(k, sizeof(int)), *sd = xmallocarray(k, sizeof(int));
	int *rc = xmallocarray(k, sizeof(int)), *rd = xmallocarray(k, sizeof(int));
	char *sbuf = NULL, *rbuf = NULL;
	if (rounds > 1) {
		sbuf = xmalloc(cap * k + 1);
		rbuf = xmalloc(cap * k + 1);
	}
	for (int64_t r = 0; r < rounds; r++) {
		size_t so = 0, ro = 0;
		for (size_t p = 0; p < k; p++) {
			size_t at = (size_t)r * cap;
			size_t s = rounds == 1 ? out[p] : at < out[p] ? (out[p] - at < cap ? out[p] - at : cap) : 0;
			size_t g = rounds == 1 ? in[p] : at < in[p] ? (in[p] - at < cap ? in[p] - at : cap) : 0;
			if (rounds > 1 && s)
				memcpy(sbuf + so, (const char *)buf + ooff[p] + at, s);
			sc[p] = (int)s;
			sd[p] = (int)(rounds == 1 ? ooff[p] : so);
			rc[p] = (int)g;
			rd[p] = (int)(rounds == 1 ? ioff[p] : ro);
			so += s;
			ro += g;
		}
		if (rounds == 1) {
			count_of(tout);
			count_of(tin);
			alltoallv(buf, sc, sd, all, rc, rd);
			break;
		}
		alltoallv(sbuf, sc, sd, rbuf, rc, rd);
		for (size_t p = 0; p < k; p++)
			memcpy(all + ioff[p] + (size_t)r * cap, rbuf + rd[p], (size_t)rc[p]);
	}
	free(sbuf);
	free(rbuf);
	free(sc);
	free(sd);
	free(rc);
	free(rd);
	free(ooff);
	free(ioff);
	free(o);
	free(i);
	return all;
}

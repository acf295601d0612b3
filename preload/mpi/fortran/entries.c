/* entries.c — the Fortran bindings' entries, made from the MPI call list (hook-mpi.h) with
 * the kinds of fortran.h: for each call, the symbols the Fortran libraries of Open MPI and
 * MPICH export (mpi_send, mpi_send_, mpi_send__, MPI_SEND, Open MPI's mpi_send_f08_,
 * MPI_Send_f08 and MPI_Send_f), each with the real binding it stands for; the entry that
 * hands the call to the C wrapper compiled again (fortran/p2p.c...); and the thunk through
 * which that wrapper calls the real binding. */
#include <stdlib.h>

#include "side.h"
#include "fortran.h"

#define MPI_F_NAME_MAX 256    /* MPI_MAX_OBJECT_NAME is 64 in Open MPI, 128 in MPICH */

/* ---- what the entries need ------------------------------------------------------------- */

/* Arrays of the size a call's count asks for, kept by each thread and grown. */
enum {
	MPI_F_REQUESTS,
	MPI_F_STATUSES,
	MPI_F_OWN_STATUSES,
	MPI_F_INDICES,
	MPI_F_TYPES_stypes,
	MPI_F_TYPES_rtypes,
	MPI_F_SLOTS
};
/* Each thread's: the frame of the Fortran call it is recording (the program's arguments), and
 * its arrays. */
static __thread struct {
	const void *frame;
	void *p[MPI_F_SLOTS];
	size_t cap[MPI_F_SLOTS];
} fortran __attribute__((tls_model("initial-exec")));

/* Room for n items of size bytes in slot k; NULL (and *ok cleared) when out of memory. */
static void *mpi_f_scratch(int k, int n, size_t size, int *ok)
{
	size_t need = (n > 0 ? (size_t)n : 1) * size;
	if (need > fortran.cap[k]) {
		void *p = realloc(fortran.p[k], need);
		if (!p) {
			*ok = 0;
			return NULL;
		}
		fortran.p[k] = p;
		fortran.cap[k] = need;
	}
	return fortran.p[k];
}

static MReq *mpi_f_requests(const MFint *reqs, int n, int *ok)
{
	MReq *c = mpi_f_scratch(MPI_F_REQUESTS, n, sizeof(MReq), ok);
	for (int i = 0; c && i < n; i++)
		c[i] = MPI_F2C(Request, reqs[i]);
	return c;
}

/* A datatype for each process of comm's remote group (an intercommunicator) or group. */
static MType *mpi_f_types(int k, const MFint *types, MFint comm, int *ok)
{
	void *c = MPI_KEY(MPI_F2C(Comm, comm));
	int inter = 0, n = 0;
	if (tprof_pmpi.Comm_test_inter(c, &inter) != TMPI_SUCCESS ||
	    (inter ? tprof_pmpi.Comm_remote_size(c, &n) : tprof_pmpi.Comm_size(c, &n)) !=
		    TMPI_SUCCESS)
		n = 0;
	MType *t = mpi_f_scratch(k, n, sizeof(MType), ok);
	for (int i = 0; t && i < n; i++)
		t[i] = MPI_F2C(Type, types[i]);
	return t;
}

/* A datatype for each source (out: destination) of comm's topology. */
static MType *mpi_f_ntypes(int k, const MFint *types, MFint comm, int out, int *ok)
{
	int in_n = 0, out_n = 0;
	tprof_mpi_comm_degrees(tprof_mpi_comm(MPI_KEY(MPI_F2C(Comm, comm))), &in_n, &out_n);
	int n = out ? out_n : in_n;
	MType *t = mpi_f_scratch(k, n, sizeof(MType), ok);
	for (int i = 0; t && i < n; i++)
		t[i] = MPI_F2C(Type, types[i]);
	return t;
}

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM are its own objects: C's are constants. */
static inline const void *mpi_f_buffer(const void *p)
{
	if (p && p == tprof_mpi_h.f_in_place)
		return TMPI_IN_PLACE;
	if (p && p == tprof_mpi_h.f_bottom)
		return TMPI_BOTTOM;
	return p;
}

static inline int mpi_f_status_ignored(const MFint *st)
{
	const MFint *const *ign = tprof_mpi_h.f_status_ignore;
	return ign && st == *ign;
}

static inline int mpi_f_statuses_ignored(const MFint *st)
{
	const MFint *const *ign = tprof_mpi_h.f_statuses_ignore;
	return ign && st == *ign;
}

/* A Fortran name (blank-padded, len characters) as a C string. */
static void mpi_f_string(char *dst, const char *src, size_t len)
{
	while (len > 0 && src[len - 1] == ' ')
		len--;
	if (len > MPI_F_NAME_MAX - 1)
		len = MPI_F_NAME_MAX - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* ---- the bindings ----------------------------------------------------------------------- */

#define MPI_F_PARAMS(...)                                                                  \
	MPI_EACH(MPI_FPARAM, MPI_NOSEP, __VA_ARGS__)                                       \
	MFint *ierr MPI_EACH(MPI_FHIDDEN, MPI_NOSEP, __VA_ARGS__)
#define MPI_F_ARGS(...)                                                                    \
	MPI_EACH(MPI_FNAME, MPI_NOSEP, __VA_ARGS__) ierr MPI_EACH(MPI_FNAMEH, MPI_NOSEP, __VA_ARGS__)

/* For each call: the real binding's type, its entry and its exported spellings.  The entry of
 * a call recorded by name (Q) or with its communicator (QC) records it around the real
 * binding; that of a call whose arguments are recorded (H, P) hands it to the C wrapper.
 * Compiled for MPICH's ABI (fortran-mpich/entries.c): the entries alone, named for the
 * spellings of use mpi_f08 (mpi_comm_rank_f08_...) to hand MPICH's calls to. */
#ifdef TPROF_MPI_MPICH_SIDE
#define MPI_F_BINDING(kind, name, fname, FNAME, ...)                                      \
	typedef void (*name##_ffn)(MPI_F_PARAMS(__VA_ARGS__));                             \
	MPI_F_ENTRY_##kind(name, __VA_ARGS__)
#else
#define MPI_F_BINDING(kind, name, fname, FNAME, ...)                                      \
	typedef void (*name##_ffn)(MPI_F_PARAMS(__VA_ARGS__));                             \
	MPI_F_ENTRY_##kind(name, __VA_ARGS__)                                              \
	MPI_F_ENTRY_F08(name, __VA_ARGS__)                                                 \
	static void *name##_real[7];                                                       \
	static uint32_t name##_miss[7];                                                    \
	MPI_F_SPELLING(name, fname, 0, name##_entry, __VA_ARGS__)                          \
	MPI_F_SPELLING(name, fname##_, 1, name##_entry, __VA_ARGS__)                       \
	MPI_F_SPELLING(name, fname##__, 2, name##_entry, __VA_ARGS__)                      \
	MPI_F_SPELLING(name, FNAME, 3, name##_entry, __VA_ARGS__)                          \
	MPI_F_SPELLING(name, fname##_f08_, 4, name##_entry_f08, __VA_ARGS__)               \
	MPI_F_SPELLING(name, name##_f08, 5, name##_entry, __VA_ARGS__)                     \
	MPI_F_SPELLING(name, name##_f, 6, name##_entry, __VA_ARGS__)
#endif

/* An entry's linkage: its file's own, or, for MPICH's, hidden and named
 * tprof_mpich_f_entry_<name> for the spellings here to call. */
#ifdef TPROF_MPI_MPICH_SIDE
#define MPI_F_ENTRY_LINK TPROF_HIDDEN __attribute__((noinline))
#define MPI_F_ENTRY_NAME(name) __asm__("tprof_mpich_f_entry_" #name)
#else
#define MPI_F_ENTRY_LINK static __attribute__((noinline))
#define MPI_F_ENTRY_NAME(name)
#endif

/* The start of an entry: its signature, and the error a binding missing in the library
 * answers with (it cannot be, when the program called it); `t`, the calling thread. */
#define MPI_F_ENTRY_BEGIN(name, ...)                                                      \
	MPI_F_ENTRY_LINK void name##_entry(name##_ffn real, MPI_F_PARAMS(__VA_ARGS__))     \
		MPI_F_ENTRY_NAME(name);                                                    \
	MPI_F_ENTRY_LINK void name##_entry(name##_ffn real, MPI_F_PARAMS(__VA_ARGS__))     \
	{                                                                                  \
		if (TPROF_UNLIKELY(!real)) {                                               \
			if (ierr)                                                          \
				*ierr = TMPI_ERR_OTHER;                                    \
			return;                                                            \
		}                                                                          \
		struct tprof_thread *t = &tprof_tls;

/* Q, QC, QF and QW: as the generated C wrappers (hook-mpi-query.c), `more` filling what the call
 * gives beyond its name.  The binding's error code is read from the program's ierr, or from the
 * entry's own where the program gave none (use mpi_f08 makes it optional). */
#define MPI_F_RECORDED(name, ext, op, more, ...)                                          \
	MPI_F_ENTRY_BEGIN(name, __VA_ARGS__)                                               \
		if (!tprof_mpi_on(t)) {                                                    \
			real(MPI_F_ARGS(__VA_ARGS__));                                     \
			return;                                                            \
		}                                                                          \
		MFint own = TMPI_SUCCESS;                                                  \
		if (!ierr)                                                                 \
			ierr = &own;                                                       \
		struct mpi_call c_, *c = &c_;                                              \
		mpi_begin(c, t, MPI_HOOK(name), ext, op);                                  \
		more;                                                                      \
		tprof_call_enter(&c->call);                                                \
		real(MPI_F_ARGS(__VA_ARGS__));                                             \
		tprof_call_leave(&c->call, *ierr);                                         \
	}
#define MPI_F_ENTRY_Q(name, ...) MPI_F_RECORDED(name, 1, TPROF_MPI_OTHER, (void)0, __VA_ARGS__)
#define MPI_F_ENTRY_QC(name, ...)                                                         \
	MPI_F_RECORDED(name, 1, TPROF_MPI_OTHER,                                          \
		       c->a->comm = mpi_comm_id(MPI_F2C(Comm, *comm)), __VA_ARGS__)
#define MPI_F_ENTRY_QW(name, ...)                                                         \
	MPI_F_RECORDED(name, 1, TPROF_MPI_RMA,                                            \
		       mpi_rma_win(c, MPI_KEY(MPI_F2C(Win, *win))), __VA_ARGS__)
#define MPI_F_ENTRY_QF(name, ...)                                                         \
	MPI_F_RECORDED(name, 2, TPROF_MPI_IO, mpi_io_file(c, tprof_pmpi.File_f2c(*fh)),     \
		       __VA_ARGS__)

/* H and P: the frame, the thunk and the entry.  The entry passes the call straight on when
 * this thread does not record it, when it converts handles and MPI is not running, or when
 * it lacks memory for its arrays; and when the library is not of its ABI.  MPICH's bindings
 * of mpif.h and use mpi call the C functions, whose wrappers record the call; so do those of
 * use mpi_f08 with a buffer (mpi_send_f08ts_...), which no spelling here names.  Its other
 * use mpi_f08 bindings (mpi_wait_f08_...) call PMPI_ functions: their spelling hands them to
 * the entry compiled for MPICH (MPI_F_ENTRY_F08). */
#define MPI_F_ENTRY_P MPI_F_ENTRY_H
#define MPI_F_ENTRY_H(name, ...)                                                          \
	struct name##_frame {                                                              \
		name##_ffn real;                                                           \
		MPI_EACH(MPI_FFIELD, MPI_NOSEP, __VA_ARGS__)                               \
	};                                                                                 \
	int mpi_thunk_##name MPI_PARAMS(__VA_ARGS__)                                       \
	{                                                                                  \
		const struct name##_frame *f = fortran.frame;                                  \
		MFint rc = TMPI_SUCCESS, *ierr = &rc;                                      \
		f->real(MPI_EACH(MPI_FTHUNK, MPI_NOSEP, __VA_ARGS__)                       \
			ierr MPI_EACH(MPI_FTHUNKH, MPI_NOSEP, __VA_ARGS__));               \
		if (rc == TMPI_SUCCESS) {                                                  \
			MPI_EACH(MPI_FBACK, MPI_NOSEP, __VA_ARGS__)                        \
		}                                                                          \
		return rc;                                                                 \
	}                                                                                  \
	MPI_F_ENTRY_BEGIN(name, __VA_ARGS__)                                               \
		if (TPROF_UNLIKELY(tprof_mpi_abi_found() != TPROF_MPI_ABI_HERE) ||         \
		    ((0 MPI_EACH(MPI_FMPI, MPI_NOSEP, __VA_ARGS__)) && !tprof_mpi_on(t))) { \
			real(MPI_F_ARGS(__VA_ARGS__));                                     \
			return;                                                            \
		}                                                                          \
		int ok = 1;                                                                \
		MPI_EACH(MPI_FLOCAL, MPI_NOSEP, __VA_ARGS__)                               \
		if (TPROF_UNLIKELY(!ok)) {                                                 \
			real(MPI_F_ARGS(__VA_ARGS__));                                     \
			return;                                                            \
		}                                                                          \
		struct name##_frame fr;                                                    \
		fr.real = real;                                                            \
		MPI_EACH(MPI_FSTORE, MPI_NOSEP, __VA_ARGS__)                               \
		const void *outer = fortran.frame;                                             \
		fortran.frame = &fr;                                                           \
		int rc = name(MPI_EACH(MPI_FCARG, MPI_COMMA, __VA_ARGS__));                \
		fortran.frame = outer;                                                         \
		if (ierr)                                                                  \
			*ierr = rc;                                                        \
	}

/* The entry of a call's use mpi_f08 spelling: MPICH's when the library is MPICH's, else the
 * call's own. */
#ifdef TPROF_MPI_MPICH_SIDE
#define MPI_F_ENTRY_F08(name, ...)
#else
#define MPI_F_ENTRY_F08(name, ...)                                                        \
	TPROF_HIDDEN void name##_entry_mpich(name##_ffn real, MPI_F_PARAMS(__VA_ARGS__))   \
		__asm__("tprof_mpich_f_entry_" #name);                                     \
	static inline void name##_entry_f08(name##_ffn real, MPI_F_PARAMS(__VA_ARGS__))    \
	{                                                                                  \
		if (TPROF_UNLIKELY(tprof_mpi_abi_found() == TPROF_MPI_ABI_MPICH))          \
			name##_entry_mpich(real, MPI_F_ARGS(__VA_ARGS__));                 \
		else                                                                       \
			name##_entry(real, MPI_F_ARGS(__VA_ARGS__));                       \
	}
#endif

/* One exported symbol (side.h made TPROF_EXPORT hidden, for the wrappers): its own real
 * binding, found on first use. */
#define MPI_F_EXPORT __attribute__((visibility("default")))
#define MPI_F_SPELLING(name, sym, i, entry, ...)                                          \
	MPI_F_EXPORT void sym(MPI_F_PARAMS(__VA_ARGS__));                                  \
	MPI_F_EXPORT void sym(MPI_F_PARAMS(__VA_ARGS__))                                   \
	{                                                                                  \
		entry((name##_ffn)tprof_real_get(&name##_real[i], &name##_miss[i], #sym,   \
						 tprof_mpi_lookup),                        \
		      MPI_F_ARGS(__VA_ARGS__));                                            \
	}

MPI_API(MPI_F_BINDING)

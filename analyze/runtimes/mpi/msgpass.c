/* runtimes/mpi/msgpass.c — an MPI call or request as the model's message-passing fact (struct
 * msgpass, model/output.h), for outputs that write message passing in records of their own (OTF2):
 * what the call sent or received, the request it posted, the collective it was, from its recorded
 * op and, where the op does not say, its name (MPI_Allreduce, MPI_Ssend_init); and MPI-IO's opens,
 * closes, reads and writes.  Persistent requests made (MPI_Send_init) post nothing yet: MPI_Start
 * does, in an MPIREQ record. */
#include <ctype.h>
#include <string.h>

#include "mpi.h"

static const struct {
	const char *name;
	uint8_t coll;
} colls[] = {
	{ "Barrier", MPC_BARRIER },
	{ "Bcast", MPC_BCAST },
	{ "Gather", MPC_GATHER },
	{ "Gatherv", MPC_GATHERV },
	{ "Scatter", MPC_SCATTER },
	{ "Scatterv", MPC_SCATTERV },
	{ "Allgather", MPC_ALLGATHER },
	{ "Allgatherv", MPC_ALLGATHERV },
	{ "Alltoall", MPC_ALLTOALL },
	{ "Alltoallv", MPC_ALLTOALLV },
	{ "Alltoallw", MPC_ALLTOALLW },
	{ "Allreduce", MPC_ALLREDUCE },
	{ "Reduce", MPC_REDUCE },
	{ "Reduce_scatter", MPC_REDUCE_SCATTER },
	{ "Reduce_scatter_block", MPC_REDUCE_SCATTER_BLOCK },
	{ "Scan", MPC_SCAN },
	{ "Exscan", MPC_EXSCAN },
};

/* (<strings.h> is shadowed by the analyzer's own strings.h.) */
static int same_nocase(const char *a, const char *b)
{
	while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b))
		a++, b++;
	return !*a && !*b;
}

/* MPI_Allreduce, MPI_Iallreduce and MPI_Allreduce_init: MPC_ALLREDUCE; MPC_NONE for anything
 * else. */
uint8_t mpi_coll_of(const char *name)
{
	if (strncmp(name, "MPI_", 4))
		return MPC_NONE;
	char buf[64];
	size_t n = strlen(name + 4);
	if (n >= sizeof(buf))
		return MPC_NONE;
	memcpy(buf, name + 4, n + 1);
	if (n > 5 && !strcmp(buf + n - 5, "_init"))
		buf[n - 5] = '\0';
	const char *s = buf;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof(colls) / sizeof(colls[0]); i++)
			if (same_nocase(s, colls[i].name))
				return colls[i].coll;
		if (*s != 'I')
			break;
		s++;
	}
	return MPC_NONE;
}

/* A persistent request started sends when it was made by a send (MPI_Send_init...). */
static int sends(const struct mpi_info *mi, uint32_t name)
{
	if (mi->a.op == TPROF_MPI_ISEND)
		return 1;
	if (mi->a.op == TPROF_MPI_IRECV)
		return 0;
	return strcasestr(strings_get(name), "send") != NULL;
}

static int to_proc_null(const struct tprof_mpi_args *a)
{
	return a->peer == TPROF_MPI_PROCNULL || (a->flags & TPROF_MPIF_PROC_NULL);
}

static void common(const struct mpi_info *mi, uint8_t kind, struct msgpass *mp)
{
	const struct tprof_mpi_args *a = &mi->a;
	*mp = (struct msgpass){ .kind = kind, .peer = a->peer, .tag = a->tag, .bytes = a->bytes,
				.peer2 = TPROF_MPI_NONE, .comm = mi->comm, .comm_id = a->comm,
				.req = mi->has_b ? mi->b.req : 0 };
}

/* MPI-IO: a file opened or closed, a read or a write; 0 for the other calls on a file. */
static int io(const struct mpi_info *mi, uint32_t name, struct msgpass *mp)
{
	const struct tprof_mpi_args *a = &mi->a;
	const char *n = strings_get(name);
	uint8_t kind;
	if (!a->seq)
		return 0;        /* a file not seen opened, a delete */
	if (a->flags & (TPROF_MPIF_READ | TPROF_MPIF_WRITE))
		kind = a->flags & TPROF_MPIF_NONBLOCKING ? MP_IIO : MP_IO;
	else if (!strcmp(n, "MPI_File_open"))
		kind = MP_IO_OPEN;
	else if (!strcmp(n, "MPI_File_close"))
		kind = MP_IO_CLOSE;
	else
		return 0;
	common(mi, kind, mp);
	mp->peer = mp->tag = TPROF_MPI_NONE;
	mp->handle = a->seq;
	mp->file = mi->has_b ? mi->b.file : 0;
	if (kind == MP_IO)
		mp->bytes2 = mi->has_b ? mi->b.bytes : 0;   /* asked for */
	mp->flags |= a->flags & TPROF_MPIF_READ ? MPF_IO_READ : 0;
	mp->flags |= a->flags & TPROF_MPIF_WRITE ? MPF_IO_WRITE : 0;
	if (strstr(n, "_all") || strstr(n, "_ordered"))
		mp->flags |= MPF_IO_COLLECTIVE;
	return 1;
}

/* One-sided communication: windows made and freed, fences, locks, the calls that complete
 * operations, and the operations themselves. */
static int rma(const struct mpi_info *mi, uint32_t name, struct msgpass *mp)
{
	const struct tprof_mpi_args *a = &mi->a;
	enum rma_kind k = rma_kind_of(strings_get(name));
	static const uint8_t kind[] = {
		[RK_PUT] = MP_RMA_OP, [RK_GET] = MP_RMA_OP, [RK_ATOMIC] = MP_RMA_OP,
		[RK_FENCE] = MP_RMA_FENCE, [RK_LOCK] = MP_RMA_LOCK, [RK_END] = MP_RMA_CLOSE,
		[RK_MADE] = MP_RMA_WIN, [RK_FREE] = MP_RMA_FREE,
	};
	const char *n = strings_get(name);
	uint8_t mk = k < sizeof(kind) ? kind[k] : 0;
	if (k == RK_END && strstr(n, "unlock"))
		mk = MP_RMA_UNLOCK;
	else if (k == RK_SYNC && strstr(n, "flush"))
		mk = MP_RMA_CLOSE;
	if (!mk || a->tag <= 0)
		return 0;        /* the target's side of PSCW; a window not seen made */
	common(mi, mk, mp);
	mp->window = a->tag;
	mp->tag = TPROF_MPI_NONE;
	if (k == RK_LOCK && (a->flags & TPROF_MPIF_WRITE))
		mp->flags |= MPF_RMA_EXCLUSIVE;
	if (k == RK_PUT || k == RK_GET || k == RK_ATOMIC) {
		mp->flags |= k == RK_PUT ? MPF_RMA_PUT : k == RK_GET ? MPF_RMA_GET : MPF_RMA_ATOMIC;
		mp->bytes2 = mi->has_b ? mi->b.bytes : 0;
		if (a->flags & TPROF_MPIF_PROC_NULL)
			mp->flags |= MPF_NULL;
	}
	return 1;
}

int mpi_msgpass_call(const struct mpi_info *mi, uint32_t name, struct msgpass *mp)
{
	const struct tprof_mpi_args *a = &mi->a;
	const struct tprof_mpi_args2 *b = &mi->b;
	switch (a->op) {
	case TPROF_MPI_SEND:
		common(mi, MP_SEND, mp);
		break;
	case TPROF_MPI_RECV:
		common(mi, MP_RECV, mp);
		break;
	case TPROF_MPI_SENDRECV:
		common(mi, MP_SENDRECV, mp);
		if (mi->has_b) {
			mp->peer2 = b->peer;
			mp->tag2 = b->tag;
			mp->bytes2 = b->bytes;
		}
		break;
	case TPROF_MPI_ISEND:
	case TPROF_MPI_IRECV:
		if (a->flags & TPROF_MPIF_PERSISTENT)
			return 0;        /* MPI_Send_init, MPI_Recv_init: MPI_Start posts */
		common(mi, a->op == TPROF_MPI_ISEND ? MP_ISEND : MP_IRECV, mp);
		/* a send to no one passes nothing; a receive from MPI_PROC_NULL neither */
		if (a->op == TPROF_MPI_ISEND ? a->peer < 0 : to_proc_null(a))
			mp->flags |= MPF_NULL;
		break;
	case TPROF_MPI_COLL:
	case TPROF_MPI_ICOLL:
		common(mi, a->op == TPROF_MPI_COLL ? MP_COLL : MP_ICOLL, mp);
		mp->coll = mpi_coll_of(strings_get(name));
		mp->bytes2 = mi->has_b ? b->bytes : 0;
		break;
	case TPROF_MPI_IO:
		return io(mi, name, mp);
	case TPROF_MPI_RMA:
		return rma(mi, name, mp);
	default:
		return 0;
	}
	return 1;
}

int mpi_msgpass_req(const struct mpi_info *mi, uint32_t name, struct msgpass *mp)
{
	const struct tprof_mpi_args *a = &mi->a;
	if ((a->flags & TPROF_MPIF_STARTED) && a->op == TPROF_MPI_ICOLL) {
		common(mi, MP_ICOLL, mp);   /* a persistent collective started */
		mp->coll = mpi_coll_of(strings_get(name));
		mp->bytes2 = mi->has_b ? mi->b.bytes : 0;
		return 1;
	}
	if (a->flags & TPROF_MPIF_STARTED) {
		common(mi, sends(mi, name) ? MP_ISEND : MP_IRECV, mp);
		if (to_proc_null(a))
			mp->flags |= MPF_NULL;
		return 1;
	}
	common(mi, MP_DONE, mp);
	if (a->flags & TPROF_MPIF_CANCELLED)
		mp->flags |= MPF_CANCELLED;
	if (a->flags & TPROF_MPIF_PROC_NULL)
		mp->flags |= MPF_NULL;
	return 1;
}

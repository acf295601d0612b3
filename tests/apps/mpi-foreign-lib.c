/* mpi-foreign-lib.c — a stand-in for an MPI library that is not Open MPI: MPICH's ABI, whose
 * handles are integers (MPI_COMM_WORLD is 0x44000000, MPI_INT 0x4c000405, MPI_STATUS_IGNORE
 * (MPI_Status *)1) and which exports no ompi_mpi_comm_world.  Each function prints the
 * arguments it was given, so a test sees that the recorder passed them on untouched. */
#include <stdio.h>

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef struct {
	int count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR;
} MPI_Status;

int MPI_Init(int *argc, char ***argv);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	     MPI_Status *status);
int MPI_Barrier(MPI_Comm comm);
int MPI_Finalize(void);

int MPI_Init(int *argc, char ***argv)
{
	printf("MPI_Init(%d)\n", argc ? *argc : -1);
	(void)argv;
	return 0;
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
	printf("MPI_Comm_rank(%#x)\n", (unsigned)comm);
	*rank = 0;
	return 0;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	printf("MPI_Send(\"%s\", %d, %#x, %d, %d, %#x)\n", (const char *)buf, count, (unsigned)type,
	       dest, tag, (unsigned)comm);
	return 0;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	     MPI_Status *status)
{
	printf("MPI_Recv(%d, %#x, %d, %d, %#x, %p)\n", count, (unsigned)type, source, tag,
	       (unsigned)comm, (void *)status);
	(void)buf;
	return 0;
}

int MPI_Barrier(MPI_Comm comm)
{
	printf("MPI_Barrier(%#x)\n", (unsigned)comm);
	return 3;   /* an error code, to see it come back */
}

int MPI_Finalize(void)
{
	printf("MPI_Finalize\n");
	return 0;
}

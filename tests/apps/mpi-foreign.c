/* mpi-foreign.c — calls an MPI library that is not Open MPI (apps/mpi-foreign-lib.c, with
 * MPICH's integer handles) and prints what each call returned. */
#include <stdio.h>

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef struct {
	int count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR;
} MPI_Status;

#define MPI_COMM_WORLD ((MPI_Comm)0x44000000)
#define MPI_CHAR ((MPI_Datatype)0x4c000101)
#define MPI_ANY_SOURCE (-2)
#define MPI_STATUS_IGNORE ((MPI_Status *)1)

int MPI_Init(int *argc, char ***argv);
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	     MPI_Status *status);
int MPI_Barrier(MPI_Comm comm);
int MPI_Finalize(void);

int main(int argc, char **argv)
{
	int rank = -1;
	char buf[8];
	printf("%d\n", MPI_Init(&argc, &argv));
	int rc = MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("%d rank %d\n", rc, rank);
	printf("%d\n", MPI_Send("hello", 6, MPI_CHAR, 1, 7, MPI_COMM_WORLD));
	printf("%d\n", MPI_Recv(buf, 8, MPI_CHAR, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	printf("%d\n", MPI_Barrier(MPI_COMM_WORLD));
	printf("%d\n", MPI_Finalize());
	return 0;
}

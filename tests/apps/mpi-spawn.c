/* mpi-spawn.c — MPI_Comm_spawn, for func/t-mpi-spawn.sh: the processes of the first job spawn
 * CHILDREN more of the same program (MPI_Comm_spawn from rank 0 of MPI_COMM_WORLD), rank 0
 * sends each child one int over the intercommunicator, and both sides disconnect.  Rank 0 of
 * the parents prints, as one JSON line, how many processes there were, parents and
 * children; each child prints what it received (to standard error, whose order varies).
 * Usage: mpirun -np N mpi-spawn */
#include <mpi.h>
#include <stdio.h>

#define CHILDREN 2

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm parent, inter;
	int rank, size, x = 42, bad = 0;
	MPI_Comm_get_parent(&parent);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (parent == MPI_COMM_NULL) {
		MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, CHILDREN, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
			       &inter, MPI_ERRCODES_IGNORE);
		for (int c = 0; rank == 0 && c < CHILDREN; c++)
			MPI_Send(&x, 1, MPI_INT, c, 1, inter);
		MPI_Comm_disconnect(&inter);
		if (rank == 0)
			printf("{\"parents\": %d, \"children\": %d}\n", size, CHILDREN);
	} else {
		MPI_Recv(&x, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
		bad = x != 42;
		fprintf(stderr, "child %d received %d\n", rank, x);
		MPI_Comm_disconnect(&parent);
	}
	MPI_Finalize();
	return bad;
}

/* mpi-persist.c — MPI-4's persistent collectives and partitioned communication, for the tests
 * of how they are recorded (func/t-mpi-persist.sh; MPICH 4 has them, Open MPI 4.1 does not).
 * Every rank makes MPI_Allreduce_init (of AR ints), MPI_Bcast_init (of BC ints from rank 0),
 * MPI_Barrier_init, MPI_Alltoallv_init (AV ints to each rank) and, on a periodic ring,
 * MPI_Neighbor_allgather_init (NB ints) once, and starts them ROUNDS times (MPI_Start and
 * MPI_Wait, the others in pairs with MPI_Startall and MPI_Waitall); ranks 0 and 1 make
 * a partitioned send and receive (MPI_Psend_init, MPI_Precv_init: PARTS parts of PART ints)
 * and start them ROUNDS times, the sender marking each part ready (MPI_Pready), the receiver
 * polling one (MPI_Parrived).  Rank 0 prints, as one JSON line, what the job did: the
 * instances of each collective and their bytes (sent by all ranks), the partitioned
 * messages and their bytes.  A rank that receives other data than was sent says so and fails.
 * Usage: mpirun -np N mpi-persist (N >= 2) */
#include <mpi.h>
#include <stdio.h>

#define AR 64
#define BC 32
#define PARTS 4
#define PART 100
#define ROUNDS 3
#define AV 16
#define NB 8

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size, bad = 0;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	static int ar_in[AR], ar_out[AR], bc[BC], part[PARTS * PART], av_in[64 * AV],
		av_out[64 * AV], nb_in[NB], nb_out[2 * NB], counts[64], displs[64];
	MPI_Request ar, pair[2], more[2], p2p = MPI_REQUEST_NULL;
	MPI_Comm ring;
	int dims[1] = { size }, periods[1] = { 1 };
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	for (int r = 0; r < size && r < 64; r++) {
		counts[r] = AV;
		displs[r] = r * AV;
	}
	MPI_Alltoallv_init(av_in, counts, displs, MPI_INT, av_out, counts, displs, MPI_INT,
			   MPI_COMM_WORLD, MPI_INFO_NULL, &more[0]);
	MPI_Neighbor_allgather_init(nb_in, NB, MPI_INT, nb_out, NB, MPI_INT, ring, MPI_INFO_NULL,
				    &more[1]);
	MPI_Allreduce_init(ar_in, ar_out, AR, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &ar);
	MPI_Bcast_init(bc, BC, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &pair[0]);
	MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &pair[1]);
	if (rank == 0)
		MPI_Psend_init(part, PARTS, PART, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &p2p);
	else if (rank == 1)
		MPI_Precv_init(part, PARTS, PART, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &p2p);
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 0; i < AR; i++)
			ar_in[i] = rank + round;
		MPI_Start(&ar);
		MPI_Wait(&ar, MPI_STATUS_IGNORE);
		for (int i = 0; i < AR; i++)
			bad |= ar_out[i] != size * (size - 1) / 2 + size * round;
		for (int i = 0; rank == 0 && i < BC; i++)
			bc[i] = 100 + round;
		MPI_Startall(2, pair);
		MPI_Waitall(2, pair, MPI_STATUSES_IGNORE);
		for (int i = 0; i < BC; i++)
			bad |= bc[i] != 100 + round;
		for (int i = 0; i < size * AV; i++)
			av_in[i] = rank * 100 + i / AV;
		for (int i = 0; i < NB; i++)
			nb_in[i] = rank + round;
		MPI_Startall(2, more);
		MPI_Waitall(2, more, MPI_STATUSES_IGNORE);
		for (int r = 0; r < size; r++)
			bad |= av_out[r * AV] != r * 100 + rank;
		bad |= nb_out[0] != (rank + size - 1) % size + round;
		if (rank <= 1) {
			MPI_Start(&p2p);
			if (rank == 0) {
				for (int p = 0; p < PARTS; p++) {
					for (int i = 0; i < PART; i++)
						part[p * PART + i] = round * 1000 + p;
					MPI_Pready(p, p2p);
				}
			} else {
				int flag = 0;
				while (!flag)
					MPI_Parrived(p2p, PARTS - 1, &flag);
			}
			MPI_Wait(&p2p, MPI_STATUS_IGNORE);
			for (int p = 0; rank == 1 && p < PARTS; p++)
				bad |= part[p * PART] != round * 1000 + p;
		}
	}
	MPI_Request_free(&ar);
	MPI_Request_free(&pair[0]);
	MPI_Request_free(&pair[1]);
	MPI_Request_free(&more[0]);
	MPI_Request_free(&more[1]);
	MPI_Comm_free(&ring);
	if (rank <= 1)
		MPI_Request_free(&p2p);
	int any_bad = 0;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	if (rank == 0)
		printf("{\"ranks\": %d, \"collectives\": {\"MPI_Allreduce_init\": [%d, %zu], "
		       "\"MPI_Bcast_init\": [%d, %zu], \"MPI_Barrier_init\": [%d, 0], "
		       "\"MPI_Alltoallv_init\": [%d, %zu], \"MPI_Neighbor_allgather_init\": [%d, %zu]}, "
		       "\"messages\": %d, \"message_bytes\": %zu, \"ok\": %s}\n", size, ROUNDS,
		       (size_t)ROUNDS * size * AR * sizeof(int), ROUNDS,
		       (size_t)ROUNDS * BC * sizeof(int), ROUNDS, ROUNDS,
		       (size_t)ROUNDS * size * size * AV * sizeof(int), ROUNDS,
		       (size_t)ROUNDS * size * 2 * NB * sizeof(int), ROUNDS,
		       (size_t)ROUNDS * PARTS * PART * sizeof(int), any_bad ? "false" : "true");
	MPI_Finalize();
	return any_bad ? 1 : 0;
}

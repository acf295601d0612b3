/* mpi-io.c — MPI-IO as real codes use it, with sizes known in advance, for the tests of how
 * MPI-IO is recorded.  Every rank of WORLD opens one shared file (the first argument, a path)
 * and writes its block of B bytes four times: collectively at an explicit offset
 * (MPI_File_write_at_all), individually (MPI_File_write_at), nonblocking
 * (MPI_File_iwrite_at, then MPI_Wait) and as a split collective (MPI_File_write_all_begin and
 * _end, after MPI_File_seek); then reads back: collectively (MPI_File_read_at_all),
 * nonblocking (MPI_File_iread_at, MPI_Wait) and at the end of the file, where it asks for B
 * bytes and gets TAIL (MPI_File_read_at).  Each rank also writes a file of its own, opened
 * over MPI_COMM_SELF (the path with ".R" added), twice with MPI_File_write.  Rank 0 deletes
 * both kinds of file at the end (MPI_File_delete), and prints what every rank did as one JSON
 * line: the files and, for each, the calls and bytes of each rank's reads and writes.  A rank
 * that reads back other bytes than it wrote says so and fails.
 * Usage: mpirun -np N mpi-io PATH */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B 4096          /* bytes of each block */
#define TAIL 100        /* bytes left at the end of the file for the last read */
#define OWN 1000        /* bytes of each write to a rank's own file */

static void fill(unsigned char *p, int n, int rank, int round)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(rank * 31 + round * 7 + i);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2) {
		fprintf(stderr, "usage: mpi-io PATH\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	const char *path = argv[1];
	static unsigned char out[B], in[B];
	MPI_Offset n = size, r = rank;
	MPI_File fh;
	MPI_Status st;
	MPI_Request req;
	int bad = 0, got = 0;

	MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
	MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
	fill(out, B, rank, 0);
	MPI_File_write_at_all(fh, r * B, out, B, MPI_BYTE, MPI_STATUS_IGNORE);
	fill(out, B, rank, 1);
	MPI_File_write_at(fh, (n + r) * B, out, B, MPI_BYTE, &st);
	fill(out, B, rank, 2);
	MPI_File_iwrite_at(fh, (2 * n + r) * B, out, B / 4, MPI_INT, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	fill(out, B, rank, 3);
	MPI_File_seek(fh, (3 * n + r) * B, MPI_SEEK_SET);
	MPI_File_write_all_begin(fh, out, B, MPI_BYTE);
	MPI_File_write_all_end(fh, out, &st);
	MPI_File_sync(fh);
	MPI_Barrier(MPI_COMM_WORLD);

	MPI_File_read_at_all(fh, r * B, in, B, MPI_BYTE, &st);
	fill(out, B, rank, 0);
	bad |= memcmp(in, out, B) != 0;
	MPI_File_iread_at(fh, (n + r) * B, in, B, MPI_BYTE, &req);
	MPI_Wait(&req, &st);
	fill(out, B, rank, 1);
	bad |= memcmp(in, out, B) != 0;
	MPI_File_read_at(fh, 4 * n * B - TAIL, in, B, MPI_BYTE, &st);
	MPI_Get_count(&st, MPI_BYTE, &got);
	bad |= got != TAIL;
	MPI_Offset fsize = 0;
	MPI_File_get_size(fh, &fsize);
	bad |= fsize != 4 * n * B;
	MPI_File_close(&fh);

	char own[4096];
	snprintf(own, sizeof(own), "%s.%d", path, rank);
	MPI_File_open(MPI_COMM_SELF, own, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
	MPI_File_write(fh, out, OWN, MPI_BYTE, MPI_STATUS_IGNORE);
	MPI_File_write(fh, out, OWN, MPI_BYTE, MPI_STATUS_IGNORE);
	MPI_File_close(&fh);

	int any_bad = 0;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	if (rank == 0) {
		MPI_File_delete(path, MPI_INFO_NULL);
		for (int i = 0; i < size; i++) {
			snprintf(own, sizeof(own), "%s.%d", path, i);
			MPI_File_delete(own, MPI_INFO_NULL);
		}
		printf("{\"ranks\": %d, \"files\": {\"%s\": {\"opens\": %d, \"writes\": 4, "
		       "\"write_bytes\": %d, \"reads\": 3, \"read_bytes\": %d, "
		       "\"collective_writes\": 2}, \"%s.R\": {\"opens\": 1, \"writes\": 2, "
		       "\"write_bytes\": %d, \"reads\": 0, \"read_bytes\": 0}}, \"deletes\": %d, "
		       "\"ok\": %s}\n", size, path, 1, 4 * B, 2 * B + TAIL, path, 2 * OWN, size + 1,
		       any_bad ? "false" : "true");
	}
	MPI_Finalize();
	return any_bad ? 1 : 0;
}

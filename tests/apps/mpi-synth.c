/* mpi-synth.c — writes the trace of a synthetic 4-rank MPI job into a directory, for the
 * end-to-end test of tprof-analyze's MPI outputs (func/t-mpi-synth.sh): per iteration a ring
 * of MPI_Isend/MPI_Irecv completed by MPI_Waitall, MPI_ANY_SOURCE receives on rank 0,
 * MPI_Bcast and MPI_Allreduce on MPI_COMM_WORLD, MPI_Barrier and MPI_Allreduce on the two
 * halves of a split communicator.  Rank 2 runs on another host whose clocks are 5 ms ahead,
 * measured at MPI_Init and MPI_Finalize; a process without a rank runs beside them.  Prints
 * the ground truth: messages=N collectives=N (instances, one per communicator).  With
 * "steps", each rank starts training step N at iteration N, 10 ns after the rank before it.
 * Usage: mpi-synth DIR [ITERATIONS [steps]] (default 5). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../unit/mpiw.h"

#define N 4
#define ITERS 5
#define SKEW 5000000ll
#define EVEN 0x51u
#define ODD 0x52u

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4 || (argc == 4 && strcmp(argv[3], "steps"))) {
		fprintf(stderr, "usage: mpi-synth DIR [ITERATIONS [steps]]\n");
		return 2;
	}
	int iters = argc >= 3 ? atoi(argv[2]) : ITERS;
	int steps = argc == 4;
	if (mkdir(argv[1], 0755) < 0 && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	static struct mw_rank r[N + 1];
	static const int32_t even[] = { 0, 2 }, odd[] = { 1, 3 };
	const uint64_t end = 10000 + (uint64_t)iters * 100000;
	for (int i = 0; i < N; i++) {
		mw_begin(&r[i], argv[1], i == 2 ? "hostB" : "hostA", 700 + i, i, N, i == 2 ? SKEW : 0, end);
		mw_world(&r[i], N);
		mw_comm(&r[i], i % 2 ? ODD : EVEN, TPROF_COMMK_INTRA, 2, i / 2, i % 2 ? odd : even,
			i % 2 ? "odd" : "even");
	}
	mw_begin(&r[N], argv[1], "hostA", 650, -1, 0, 0, end);   /* no rank */
	mw_put(r[N].s1, &r[N].n1, tw_rec(TPROF_K_PUSH, mw_str(&r[N], "helper work"), 3000, 0, 0), NULL, 0);
	mw_put(r[N].s1, &r[N].n1, tw_rec(TPROF_K_POP, 0, end - 100000, 0, 0), NULL, 0);
	mw_csync(&r[2], TPROF_CSYNC_INIT, 2000, 2200, 1500, "hostA", 700);
	mw_csync(&r[2], TPROF_CSYNC_FINALIZE, end - 50000, end - 50000 + 200, 1500, "hostA", 700);

	int messages = 0, colls = 0;
	uint32_t wseq = 0, sseq = 0;
	for (int it = 0; it < iters; it++) {
		uint64_t t = 10000 + (uint64_t)it * 100000;
		uint32_t rs[N];
		for (int i = 0; i < N && steps; i++) {
			mw_room(&r[i]);
			mw_put(r[i].s1, &r[i].n1, tw_rec(TPROF_K_STEP, 0, t - 5 + 10 * (uint64_t)i, 0,
							 (uint64_t)it), NULL, 0);
		}
		for (int i = 0; i < N; i++) {
			uint64_t o = t + 10 * (uint64_t)i;
			rs[i] = mw_irecv(&r[i], o, o + 5, (i + N - 1) % N, 10, 0x100 + (uint64_t)i);
			mw_isend(&r[i], o + 100, o + 105, (i + 1) % N, 10, 64, 0x200 + (uint64_t)i);
			uint64_t w = mw_wait(&r[i], "MPI_Waitall", t + 200, t + 1000 + 10 * (uint64_t)i, 2);
			mw_send_done(&r[i], t + 1000 + 10 * (uint64_t)i, w, (i + 1) % N, 10, 64, 0x200 + (uint64_t)i, 0);
			mw_recv_done(&r[i], t + 1000 + 10 * (uint64_t)i, w, rs[i], (i + N - 1) % N, 10, 64,
				     0x100 + (uint64_t)i, 0);
			messages++;
		}
		uint32_t any[3];
		for (int k = 0; k < 3; k++)
			any[k] = mw_irecv(&r[0], t + 2000 + 10 * (uint64_t)k, t + 2005 + 10 * (uint64_t)k,
					  TPROF_MPI_ANY, 20, 0x300 + (uint64_t)k);
		for (int i = 1; i < N; i++)
			mw_send(&r[i], t + 2100 + 10 * (uint64_t)i, t + 2150 + 10 * (uint64_t)i, 0, 20, 8 * (uint64_t)i);
		uint64_t w = mw_wait(&r[0], "MPI_Waitall", t + 2200, t + 3000, 3);
		for (int k = 0; k < 3; k++) {
			int src = (k + 2) % 3 + 1;   /* 3, 1, 2 */
			mw_recv_done(&r[0], t + 3000, w, any[k], src, 20, 8 * (uint64_t)src, 0x300 + (uint64_t)k, 0);
			messages++;
		}
		wseq++;
		for (int i = 0; i < N; i++)
			mw_coll(&r[i], "MPI_Bcast", t + 4000 + 50 * (uint64_t)i, t + 4500 + 10 * (uint64_t)i,
				TPROF_COMM_WORLD, wseq, 0, i ? 0 : 1024, i ? 1024 : 0);
		wseq++;
		for (int i = 0; i < N; i++)
			mw_coll(&r[i], "MPI_Allreduce", t + 5000 + 20 * (uint64_t)i, t + 5600, TPROF_COMM_WORLD, wseq,
				TPROF_MPI_NONE, 8, 8);
		colls += 2;
		sseq++;
		for (int i = 0; i < N; i++)
			mw_coll(&r[i], "MPI_Barrier", t + 6000 + 30 * (uint64_t)i, t + 6400, i % 2 ? ODD : EVEN, sseq,
				TPROF_MPI_NONE, 0, 0);
		sseq++;
		for (int i = 0; i < N; i++)
			mw_coll(&r[i], "MPI_Allreduce", t + 7000, t + 7300 + (uint64_t)i, i % 2 ? ODD : EVEN, sseq,
				TPROF_MPI_NONE, 16, 16);
		colls += 4;
	}
	for (int i = 0; i <= N; i++) {
		if (r[i].w.fd < 0) {
			fprintf(stderr, "mpi-synth: cannot write under %s\n", argv[1]);
			return 1;
		}
		mw_end(&r[i]);
	}
	printf("messages=%d collectives=%d\n", messages, colls);
	return 0;
}

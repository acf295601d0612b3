/* mpi-rma.c — one-sided communication in the epochs real codes use, with sizes known in
 * advance, for the tests of how it is recorded (func/t-mpi-rma.sh).  Every rank allocates one
 * window over MPI_COMM_WORLD and, towards its right neighbour (and from its left one):
 *   fence epoch 1   MPI_Put of PUT bytes to the right, MPI_Get of GET bytes from the left;
 *   fence epoch 2   MPI_Accumulate of ACC bytes to the right (then a fence that closes it);
 *   lock epoch      MPI_Win_lock (exclusive) on the right, MPI_Put of PUT2 bytes and
 *                   MPI_Fetch_and_op of one int, MPI_Win_unlock;
 *   lock_all epoch  MPI_Rput of RPUT bytes to the right (MPI_Wait), MPI_Compare_and_swap of
 *                   one int on the left, MPI_Win_flush_all, MPI_Win_unlock_all;
 *   PSCW epochs     MPI_Win_post to the left, MPI_Win_start towards the right, MPI_Put of
 *                   PUT3 bytes, MPI_Win_complete, MPI_Win_wait; the other way round (post
 *                   to the right, start towards the left, MPI_Put of PUT4 bytes to the left);
 *                   and the first way again (PUT3 bytes to the right, further on): each put
 *                   complete at the target's MPI_Win_wait of the epoch that matches it;
 * then checks what its neighbours wrote into its window and frees it.  Rank 0 prints, as one
 * JSON line, what every rank did: its calls of each kind and their bytes (an atomic
 * operation's sent and fetched), its request-based operations and the locks of one target
 * (MPI_Win_lock), and its transfers with their bytes, by where each is complete at its
 * target (the target's fence or MPI_Win_wait, or the origin's unlock or flush).  A rank that
 * finds other data than its neighbours wrote says so and fails.
 * Usage: mpirun -np N mpi-rma */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define PUT 4096
#define GET 2048
#define ACC 1024
#define PUT2 512
#define RPUT 256
#define PUT3 128
#define PUT4 96
#define WIN (PUT + GET + ACC + PUT2 + RPUT + PUT3 + PUT4 + PUT3 + 64)

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	unsigned char *base, out[PUT], in[GET];
	MPI_Win win;
	MPI_Win_allocate(WIN, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	memset(base, 0, WIN);
	for (int i = 0; i < GET; i++)
		base[PUT + i] = (unsigned char)(3 * rank + i);   /* what the right one gets */
	for (int i = 0; i < PUT; i++)
		out[i] = (unsigned char)(rank + i);
	int bad = 0;

	/* the window: [0, PUT) put by the left neighbour, [PUT, PUT + GET) read by the right one,
	 * then the accumulate, the puts of the other epochs, the atomics' ints at the end */
	MPI_Win_fence(0, win);
	MPI_Put(out, PUT, MPI_BYTE, right, 0, PUT, MPI_BYTE, win);
	MPI_Get(in, GET, MPI_BYTE, left, PUT, GET, MPI_BYTE, win);
	MPI_Win_fence(0, win);
	for (int i = 0; i < PUT; i++)
		bad |= base[i] != (unsigned char)(left + i);
	int ones[ACC / sizeof(int)];
	for (size_t i = 0; i < ACC / sizeof(int); i++)
		ones[i] = 1;
	MPI_Accumulate(ones, ACC / sizeof(int), MPI_INT, right, PUT + GET, ACC / sizeof(int),
		       MPI_INT, MPI_SUM, win);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win);
	MPI_Put(out, PUT2, MPI_BYTE, right, PUT + GET + ACC, PUT2, MPI_BYTE, win);
	int one = 1, old = 0;
	MPI_Fetch_and_op(&one, &old, MPI_INT, right, WIN - 64, MPI_SUM, win);
	MPI_Win_unlock(right, win);

	MPI_Request req;
	MPI_Win_lock_all(0, win);
	MPI_Rput(out, RPUT, MPI_BYTE, right, PUT + GET + ACC + PUT2, RPUT, MPI_BYTE, win, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	int cmp = 0, swap = rank + 1, got = 0;
	MPI_Compare_and_swap(&swap, &cmp, &got, MPI_INT, left, WIN - 32, win);
	MPI_Win_flush_all(win);
	MPI_Win_unlock_all(win);

	MPI_Group world, one_left, one_right;
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 1, &left, &one_left);
	MPI_Group_incl(world, 1, &right, &one_right);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_post(one_left, 0, win);
	MPI_Win_start(one_right, 0, win);
	MPI_Put(out, PUT3, MPI_BYTE, right, PUT + GET + ACC + PUT2 + RPUT, PUT3, MPI_BYTE, win);
	MPI_Win_complete(win);
	MPI_Win_wait(win);
	MPI_Win_post(one_right, 0, win);
	MPI_Win_start(one_left, 0, win);
	MPI_Put(out, PUT4, MPI_BYTE, left, PUT + GET + ACC + PUT2 + RPUT + PUT3, PUT4, MPI_BYTE, win);
	MPI_Win_complete(win);
	MPI_Win_wait(win);
	MPI_Win_post(one_left, 0, win);
	MPI_Win_start(one_right, 0, win);
	MPI_Put(out, PUT3, MPI_BYTE, right, PUT + GET + ACC + PUT2 + RPUT + PUT3 + PUT4, PUT3,
		MPI_BYTE, win);
	MPI_Win_complete(win);
	MPI_Win_wait(win);
	MPI_Group_free(&one_left);
	MPI_Group_free(&one_right);
	MPI_Group_free(&world);

	/* what the left neighbour wrote, and the accumulate */
	const int *acc = (const int *)(void *)(base + PUT + GET);
	for (size_t i = 0; i < ACC / sizeof(int); i++)
		bad |= acc[i] != 1;
	for (int i = 0; i < PUT2; i++)
		bad |= base[PUT + GET + ACC + i] != (unsigned char)(left + i);
	for (int i = 0; i < PUT3; i++)
		bad |= base[PUT + GET + ACC + PUT2 + RPUT + i] != (unsigned char)(left + i) ||
		       base[PUT + GET + ACC + PUT2 + RPUT + PUT3 + PUT4 + i] != (unsigned char)(left + i);
	for (int i = 0; i < PUT4; i++)
		bad |= base[PUT + GET + ACC + PUT2 + RPUT + PUT3 + i] != (unsigned char)(right + i);
	for (int i = 0; i < GET; i++)
		bad |= in[i] != (unsigned char)(3 * left + i);
	MPI_Win_free(&win);

	int any_bad = 0;
	MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	if (rank == 0)
		printf("{\"ranks\": %d, \"window\": \"window 1 of MPI_COMM_WORLD\", \"per_rank\": "
		       "{\"fences\": 3, \"locks\": 2, \"access_epochs\": 3, \"puts\": 6, "
		       "\"put_bytes\": %d, \"gets\": 1, \"get_bytes\": %d, \"atomics\": 3, "
		       "\"atomic_bytes\": %d, \"linked\": 10, \"rputs\": 1, \"target_locks\": 1}, "
		       "\"ends\": {\"MPI_Win_fence\": 3, \"MPI_Win_unlock\": 2, "
		       "\"MPI_Win_flush_all\": 2, \"MPI_Win_wait\": 3}, "
		       "\"linked_bytes\": {\"put\": %d, \"get\": %d, \"atomic\": %d}, \"ok\": %s}\n",
		       size, PUT + PUT2 + RPUT + 2 * PUT3 + PUT4, GET, ACC + 4 + 4 + 4 + 4,
		       PUT + PUT2 + RPUT + 2 * PUT3 + PUT4, GET, ACC + 4 + 4 + 4 + 4,
		       any_bad ? "false" : "true");
	MPI_Finalize();
	return any_bad ? 1 : 0;
}

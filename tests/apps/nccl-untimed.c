/* nccl-untimed.c — NCCL calls on a library whose GPU runtime the profiler cannot reach
 * (apps/libncclhost.so, see nccl-host-lib.c): a one-rank communicator, three all-reduces
 * and a group of two, each result checked.  Prints "untimed: ok" when all went right. */
#include <stdio.h>

typedef struct {
	char internal[128];
} ncclUniqueId;
typedef struct ncclComm *ncclComm_t;
int ncclGetUniqueId(ncclUniqueId *id);
int ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
int ncclCommDestroy(ncclComm_t comm);
int ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count, int datatype, int op,
		  ncclComm_t comm, void *stream);
int ncclGroupStart(void);
int ncclGroupEnd(void);

int main(void)
{
	ncclUniqueId id;
	ncclComm_t comm;
	float a[256], b[256];
	int stream_stand_in, bad = 0;
	for (int i = 0; i < 256; i++)
		a[i] = (float)i;
	bad |= ncclGetUniqueId(&id) || ncclCommInitRank(&comm, 1, id, 0);
	for (int k = 0; k < 3 && !bad; k++)
		bad |= ncclAllReduce(a, b, 256, 7, 0, comm, &stream_stand_in);
	bad |= ncclGroupStart() || ncclAllReduce(a, b, 128, 7, 0, comm, &stream_stand_in) ||
	       ncclAllReduce(b, b, 64, 7, 0, comm, &stream_stand_in) || ncclGroupEnd();
	for (int i = 0; i < 128 && !bad; i++)
		bad |= b[i] != a[i];
	bad |= ncclCommDestroy(comm);
	puts(bad ? "untimed: wrong" : "untimed: ok");
	return bad;
}

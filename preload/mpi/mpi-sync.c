/* mpi-sync.c — how far each rank's clock is from rank 0's, measured right after MPI_Init and
 * at the start of MPI_Finalize on a private duplicate of MPI_COMM_WORLD (so no message of the
 * program's can ever meet one of these).  Rank 0 serves ranks 1..n-1 in turn; each makes
 * TPROF_MPI_SYNC_ROUNDS round trips (send, get rank 0's clock reading back) and keeps the
 * shortest as one CSYNC record: the local middle of that round trip against rank 0's reading.
 * A loaded machine can stretch every one of them; so when the shortest is more than twice
 * the shortest this rank measured before, it goes on, up to ten times as many round trips,
 * until it gets one that short.  Each ping says whether another follows.
 * Rank 0 records nothing for itself.  Every rank of a job takes part or none does: whether
 * one does depends only on the environment, which a job's ranks share. */
#include <string.h>
#include <unistd.h>

#include "../core/clock.h"
#include "../spool/intern.h"
#include "mpi-runtime.h"

#define TAG_INFO 1
#define TAG_PING 2
#define TAG_PONG 3

/* What rank 0 tells every other rank once. */
struct ref_info {
	int64_t pid;
	uint32_t rounds;   /* rank 0's TPROF_MPI_SYNC_ROUNDS: every rank makes as many */
	uint32_t reserved;
	char host[64];
};

static tmpi_Comm sync_comm;
static struct ref_info ref;
static uint64_t best_before = UINT64_MAX;   /* shortest round trip measured so far, ticks */

void tprof_mpi_sync_setup(void)
{
	TPROF_KEEP_ERRNO;
	if (tprof_mpi_h.world_size < 2 || tprof_g.cfg.mpi_sync_rounds == 0 || sync_comm)
		return;
	if (tprof_pmpi.Comm_dup(tprof_mpi_h.world, &sync_comm) != TMPI_SUCCESS) {
		sync_comm = NULL;
		tprof_log_warn("cannot duplicate MPI_COMM_WORLD: no clock offsets measured");
		return;
	}
	if (tprof_mpi_h.world_rank == 0) {
		memset(&ref, 0, sizeof(ref));
		ref.pid = getpid();
		ref.rounds = tprof_g.cfg.mpi_sync_rounds;
		gethostname(ref.host, sizeof(ref.host) - 1);
		for (int r = 1; r < tprof_mpi_h.world_size; r++)
			tprof_pmpi.Send(&ref, (int)sizeof(ref), tprof_mpi_h.byte, r, TAG_INFO, sync_comm);
	} else {
		tmpi_Status st;
		tprof_pmpi.Recv(&ref, (int)sizeof(ref), tprof_mpi_h.byte, 0, TAG_INFO, sync_comm, &st);
		ref.host[sizeof(ref.host) - 1] = 0;
	}
}

/* Rank 0: answers every other rank's round trips, one rank after the other. */
static void serve(void)
{
	tmpi_Status st;
	for (int r = 1; r < tprof_mpi_h.world_size; r++) {
		char more = 1;
		while (more) {
			if (tprof_pmpi.Recv(&more, 1, tprof_mpi_h.byte, r, TAG_PING, sync_comm, &st) !=
			    TMPI_SUCCESS)
				break;
			uint64_t now = tprof_now();
			tprof_pmpi.Send(&now, (int)sizeof(now), tprof_mpi_h.byte, r, TAG_PONG, sync_comm);
		}
	}
}

/* Another rank: the round trips, the shortest kept and recorded. */
static void measure(int when)
{
	tmpi_Status st;
	uint64_t best = UINT64_MAX, mid = 0, theirs = 0;
	uint32_t k = 0, most = ref.rounds * 10;
	if (!ref.rounds)
		return;
	for (char more = 1; more; k++) {
		uint64_t reading = 0;
		/* This round trip is the last unless the ones so far are all too long. */
		more = k + 1 < ref.rounds ||
		       (k + 1 < most && best_before != UINT64_MAX && best > 2 * best_before);
		uint64_t ta = tprof_now();
		if (tprof_pmpi.Send(&more, 1, tprof_mpi_h.byte, 0, TAG_PING, sync_comm) != TMPI_SUCCESS ||
		    tprof_pmpi.Recv(&reading, (int)sizeof(reading), tprof_mpi_h.byte, 0, TAG_PONG,
				    sync_comm, &st) != TMPI_SUCCESS)
			return;
		uint64_t tb = tprof_now();
		if (tb - ta < best) {
			best = tb - ta;
			mid = ta + (tb - ta) / 2;
			theirs = reading;
		}
	}
	if (best < best_before)
		best_before = best;
	struct tprof_csync cs = {
		.ref_pid = ref.pid, .ref_rank = 0, .rank = tprof_mpi_h.world_rank, .rounds = k,
	};
	uint32_t host = tprof_intern(ref.host, strlen(ref.host));
	tprof_proc_record_ext(TPROF_K_CSYNC, (uint8_t)when, host, mid, theirs, best, &cs, 1);
}

void tprof_mpi_sync(int when)
{
	TPROF_KEEP_ERRNO;
	if (!sync_comm)
		return;
	if (tprof_mpi_h.world_rank == 0)
		serve();
	else
		measure(when);
}

void tprof_mpi_sync_teardown(void)
{
	TPROF_KEEP_ERRNO;
	if (sync_comm)
		tprof_pmpi.Comm_free(&sync_comm);
	sync_comm = NULL;
}

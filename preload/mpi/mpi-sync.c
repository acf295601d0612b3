/* mpi-sync.c — how far each rank's clock is from rank 0's, measured right after MPI_Init and
 * at the start of MPI_Finalize on a private duplicate of MPI_COMM_WORLD (so no message of the
 * program's can ever meet one of these).  Each rank but 0 makes TPROF_MPI_SYNC_ROUNDS round
 * trips with rank 0 (send, get rank 0's clock reading back) and keeps the shortest as one
 * CSYNC record: the local middle of that round trip against rank 0's reading.  A loaded
 * machine can stretch every one of them; so when the shortest is more than twice the shortest
 * this rank measured before, it goes on, up to ten times as many round trips, until it gets
 * one that short.  Each ping says whether another follows.  Rank 0 records nothing for itself.
 * Every rank of a job takes part or none does: whether one does depends only on the
 * environment, which a job's ranks share.
 * After MPI_Init every rank is there: rank 0 serves ranks 1..n-1 in turn, with blocking calls.
 * At MPI_Finalize one may never come (it waits for ever in a collective that a rank leaving
 * early skipped), and the profiler must not keep a rank from leaving where the program alone
 * would: every wait is bounded (FINALIZE_PATIENCE_NS), by polling nonblocking calls.  A rank's
 * first ping (TAG_HELLO) is answered as soon as rank 0 sees it; rank 0 then serves the ranks
 * whole, in the order their first pings came.  A rank that gets no answer in time gives up,
 * says so (HELLO_BYE) and keeps the round trips it made; rank 0 stops when every rank was
 * served or gave up, or when for a patience none came and none is waiting. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/clock.h"
#include "../spool/intern.h"
#include "mpi-abi-mpich.h"
#include "mpi-runtime.h"

#define TAG_INFO 1
#define TAG_PING 2
#define TAG_PONG 3
#define TAG_HELLO 4   /* at MPI_Finalize: a rank's first ping, then maybe its goodbye */

/* How long a rank waits at MPI_Finalize, ns, for another that may never come: rank 0 for the
 * next first ping or the next ping of the rank it serves, another rank for an answer. */
#define FINALIZE_PATIENCE_NS 1000000000ull

/* What a TAG_HELLO message says, one byte: a first ping (another follows or not: what a later
 * ping's byte says too), or that the rank gave up (sent after its first ping, so rank 0 sees it
 * after that: same tag). */
enum { HELLO_LAST = 0, HELLO_MORE = 1, HELLO_BYE = 2 };

/* Rank 0's answer at MPI_Finalize. */
struct finalize_pong {
	uint64_t reading;   /* rank 0's clock */
	uint32_t ahead;     /* to a first ping: the ranks rank 0 serves before this one */
	uint32_t reserved;
};

/* A status as the library writes it, in Open MPI's layout or MPICH's (tprof_mpi_abi); the
 * calls are handed its Open MPI side. */
union any_status {
	tmpi_Status ompi;
	tmpich_Status mpich;
};

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

/* Rank 0 after MPI_Init: answers every other rank's round trips, one rank after the other. */
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

/* Whether another round trip follows round trip k (from 0) when the shortest so far took
 * `best` ticks: the last unless the ones so far are all too long. */
static char another_follows(uint32_t k, uint64_t best)
{
	return k + 1 < ref.rounds || (k + 1 < ref.rounds * 10 && best_before != UINT64_MAX &&
				      best > 2 * best_before);
}

/* The shortest of `rounds` round trips as a CSYNC record: it took `best` ticks, its middle
 * was `mid` here and rank 0 read `theirs`. */
static void record(int when, uint32_t rounds, uint64_t best, uint64_t mid, uint64_t theirs)
{
	if (best < best_before)
		best_before = best;
	struct tprof_csync cs = {
		.ref_pid = ref.pid, .ref_rank = 0, .rank = tprof_mpi_h.world_rank, .rounds = rounds,
	};
	uint32_t host = tprof_intern(ref.host, strlen(ref.host));
	tprof_proc_record_ext(TPROF_K_CSYNC, (uint8_t)when, host, mid, theirs, best, &cs, 1);
}

/* Another rank after MPI_Init: the round trips, the shortest kept and recorded. */
static void measure(int when)
{
	tmpi_Status st;
	uint64_t best = UINT64_MAX, mid = 0, theirs = 0;
	uint32_t k = 0;
	if (!ref.rounds)
		return;
	for (char more = 1; more; k++) {
		uint64_t reading = 0;
		more = another_follows(k, best);
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
	record(when, k, best, mid, theirs);
}

/* ---- at MPI_Finalize: every wait bounded ---------------------------------------------------- */

/* MPI_ANY_SOURCE, and the source a status names, in the library's ABI. */
static int any_source(void)
{
	return tprof_mpi_abi == TPROF_MPI_ABI_MPICH ? TMPICH_ANY_SOURCE : TMPI_ANY_SOURCE;
}

static int source_of(const union any_status *st)
{
	return tprof_mpi_abi == TPROF_MPI_ABI_MPICH ? st->mpich.MPI_SOURCE : st->ompi.MPI_SOURCE;
}

/* Rank 0: takes the first one-byte message waiting with `tag` from rank `from` (any_source():
 * any).  1 with its byte and sender, 0 when none waits, -1 on an error. */
static int take(int from, int tag, char *says, int *sender)
{
	union any_status st;
	int flag = 0;
	if (tprof_pmpi.Iprobe(from, tag, sync_comm, &flag, &st.ompi) != TMPI_SUCCESS)
		return -1;
	if (!flag)
		return 0;
	*sender = source_of(&st);
	if (tprof_pmpi.Recv(says, 1, tprof_mpi_h.byte, *sender, tag, sync_comm, &st.ompi) !=
	    TMPI_SUCCESS)
		return -1;
	return 1;
}

/* Rank 0's answer to a ping of rank r: its clock, and how many ranks it serves first. */
static void answer(int r, uint32_t ahead)
{
	struct finalize_pong pong = { .reading = tprof_now(), .ahead = ahead };
	/* 16 bytes go eagerly: the send completes whether r still listens or not */
	tprof_pmpi.Send(&pong, (int)sizeof(pong), tprof_mpi_h.byte, r, TAG_PONG, sync_comm);
}

/* What rank 0 knows of each other rank at MPI_Finalize. */
enum { RANK_UNSEEN = 0, RANK_QUEUED = 1, RANK_SETTLED = 2 };   /* settled: served, or gave up */

struct finalize_service {
	unsigned char *state;   /* world_size of them */
	int *queue;             /* ranks whose first ping came, in that order */
	int head, tail;         /* queue[head..tail) still to serve (but those settled since) */
	int current;            /* the rank served now, -1 none */
	int settled;            /* ranks settled */
	uint64_t last_event;    /* when a first ping came or a rank settled, tprof_mono_ns */
};

static void settle(struct finalize_service *fs, int r)
{
	fs->state[r] = RANK_SETTLED;
	fs->settled++;
	if (fs->current == r)
		fs->current = -1;
	fs->last_event = tprof_mono_ns();
}

/* A TAG_HELLO message from rank r: its first ping, answered at once (a round trip of its
 * own) and r queued if it makes more; or its goodbye. */
static void hello(struct finalize_service *fs, int r, char says)
{
	char bye;
	int from;
	if (fs->state[r] == RANK_SETTLED)
		return;                 /* a goodbye after rank 0 stopped waiting for it */
	if (fs->state[r] == RANK_QUEUED || says == HELLO_BYE) {
		settle(fs, r);          /* it gave up waiting for its turn */
		return;
	}
	/* A goodbye right behind the first ping: r gave up before rank 0 came.  No answer then:
	 * r may be gone. */
	if (take(r, TAG_HELLO, &bye, &from) > 0) {
		settle(fs, r);
		return;
	}
	answer(r, (uint32_t)(fs->tail - fs->head + (fs->current >= 0)));
	fs->last_event = tprof_mono_ns();
	if (says == HELLO_LAST) {
		settle(fs, r);
		return;
	}
	fs->state[r] = RANK_QUEUED;
	fs->queue[fs->tail++] = r;
}

/* Rank 0 at MPI_Finalize: answers the first pings as they come, serves the ranks whole in that
 * order, and stops when all are settled or when, none waiting, no first ping came for a
 * patience.  A rank served that sends no ping for a patience is given up. */
static void serve_finalize(void)
{
	int n = tprof_mpi_h.world_size;
	struct finalize_service fs = {
		.state = calloc((size_t)n, 1), .queue = malloc((size_t)n * sizeof(int)),
		.current = -1, .last_event = tprof_mono_ns(),
	};
	uint64_t round_start = 0;   /* when rank 0 began waiting for the current rank's ping */
	if (!fs.state || !fs.queue) {
		tprof_log_warn("out of memory: no clock offsets measured at MPI_Finalize");
		goto out;
	}
	while (fs.settled < n - 1) {
		char says;
		int r, got = take(any_source(), TAG_HELLO, &says, &r);
		if (got < 0)
			break;
		if (got && r > 0 && r < n)
			hello(&fs, r, says);
		while (fs.current < 0 && fs.head < fs.tail) {
			r = fs.queue[fs.head++];
			if (fs.state[r] == RANK_QUEUED) {
				fs.current = r;
				round_start = tprof_mono_ns();
			}
		}
		uint64_t now = tprof_mono_ns();
		if (fs.current >= 0) {
			int pinged = take(fs.current, TAG_PING, &says, &r);
			if (pinged < 0)
				break;
			if (pinged) {
				answer(r, 0);
				if (says)
					round_start = tprof_mono_ns();
				else
					settle(&fs, r);
				got = 1;
			} else if (now - round_start >= FINALIZE_PATIENCE_NS) {
				settle(&fs, fs.current);
			}
		} else if (now - fs.last_event >= FINALIZE_PATIENCE_NS) {
			break;
		}
		if (!got)
			sched_yield();   /* nothing came: let the ranks on this CPU run */
	}
out:
	free(fs.state);
	free(fs.queue);
}

/* Gives up a receive of ours: cancelled, or complete if its message came meanwhile (then 1).
 * One that cannot be cancelled is left to complete by itself (into a static buffer). */
static int abandon_receive(tmpi_Request *req)
{
	union any_status st;
	int cancelled = 1;
	if (tprof_pmpi.Cancel(req) != TMPI_SUCCESS) {
		tprof_pmpi.Request_free(req);
		return 0;
	}
	/* a cancelled request completes whatever the other ranks do */
	if (tprof_pmpi.Wait(req, &st.ompi) != TMPI_SUCCESS ||
	    tprof_pmpi.Test_cancelled(&st.ompi, &cancelled) != TMPI_SUCCESS)
		return 0;
	return !cancelled;
}

/* Another rank at MPI_Finalize: waits until the ping went and the pong came, or until
 * `deadline` (tprof_mono_ns).  1 when the pong came.  No request of ours is left active but a
 * send given up, freed to complete by itself (its buffer is static, its message small and
 * sent eagerly), or a receive that cannot be cancelled (abandon_receive). */
static int finish_round_trip(tmpi_Request *ping, tmpi_Request *pong, uint64_t deadline)
{
	union any_status st;
	int sent = 0, back = 0;
	for (;;) {
		/* a request that fails is complete, and freed */
		if (!sent && tprof_pmpi.Test(ping, &sent, &st.ompi) != TMPI_SUCCESS)
			sent = 1;
		if (!back && tprof_pmpi.Test(pong, &back, &st.ompi) != TMPI_SUCCESS) {
			back = 0;
			break;
		}
		if (sent && back)
			return 1;
		if (tprof_mono_ns() >= deadline) {
			if (!back)
				back = abandon_receive(pong);
			break;
		}
		if (!back)
			sched_yield();
	}
	if (!sent)
		tprof_pmpi.Request_free(ping);
	return back;
}

/* Another rank at MPI_Finalize: measure()'s round trips, each bounded in time.  The first
 * ping (TAG_HELLO) is answered as soon as rank 0 sees it, which it does within a patience if
 * it is there at all; the second waits for rank 0 to serve the ranks ahead of this one too, a
 * patience for each (far more than it takes); the others a patience each.  A rank that gets no
 * answer in time says goodbye and records the round trips it made, if any. */
static void measure_finalize(int when)
{
	/* static: a request given up may still use its buffer after this returns */
	static char ping;
	static const char bye = HELLO_BYE;
	static struct finalize_pong pong;
	uint64_t best = UINT64_MAX, mid = 0, theirs = 0;
	uint64_t deadline = tprof_mono_ns() + FINALIZE_PATIENCE_NS;
	uint32_t k = 0;
	if (!ref.rounds)
		return;
	for (char more = 1; more; k++) {
		tmpi_Request ping_req = NULL, pong_req = NULL;   /* MPICH writes an int in them */
		more = another_follows(k, best);
		ping = more;   /* the first ping's too: HELLO_MORE or HELLO_LAST */
		memset(&pong, 0, sizeof(pong));
		uint64_t ta = tprof_now();
		if (tprof_pmpi.Irecv(&pong, (int)sizeof(pong), tprof_mpi_h.byte, 0, TAG_PONG,
				     sync_comm, &pong_req) != TMPI_SUCCESS)
			break;
		if (tprof_pmpi.Isend(&ping, 1, tprof_mpi_h.byte, 0, k ? TAG_PING : TAG_HELLO,
				     sync_comm, &ping_req) != TMPI_SUCCESS) {
			abandon_receive(&pong_req);
			break;
		}
		if (!finish_round_trip(&ping_req, &pong_req, deadline)) {
			tmpi_Request bye_req = NULL;
			if (tprof_pmpi.Isend(&bye, 1, tprof_mpi_h.byte, 0, TAG_HELLO, sync_comm,
					     &bye_req) == TMPI_SUCCESS)
				tprof_pmpi.Request_free(&bye_req);
			break;
		}
		uint64_t tb = tprof_now();
		if (tb - ta < best) {
			best = tb - ta;
			mid = ta + (tb - ta) / 2;
			theirs = pong.reading;
		}
		/* the second round trip waits for the ranks served first */
		uint64_t patiences = k ? 1 : 1 + (uint64_t)pong.ahead;
		deadline = tprof_mono_ns() + FINALIZE_PATIENCE_NS * patiences;
	}
	if (k)
		record(when, k, best, mid, theirs);
}

void tprof_mpi_sync(int when)
{
	TPROF_KEEP_ERRNO;
	if (!sync_comm)
		return;
	if (when == TPROF_CSYNC_FINALIZE && tprof_mpi_h.world_rank == 0)
		serve_finalize();
	else if (when == TPROF_CSYNC_FINALIZE)
		measure_finalize(when);
	else if (tprof_mpi_h.world_rank == 0)
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

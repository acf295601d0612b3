/* mpi-polls.c — polling loops of the kinds real MPI codes run, for the tests of how the
 * recorder folds unsuccessful polls into runs.  Rank 0 polls (MPI_Test, MPI_Testany,
 * MPI_Testsome, MPI_Testall, MPI_Iprobe, MPI_Improbe, an MPI_Iprobe/MPI_Test pair taking
 * turns, loops broken by other MPI calls and by a tprof mark, one run of MISSES_LONG
 * unsuccessful tests); rank 1 answers each "go" with the message rank 0 waits for.  With the
 * argument "threads" (MPI_THREAD_MULTIPLE) a second thread of rank 0 polls meanwhile.
 *
 * Rank 0 counts what it did and prints it as one JSON line at the end: per function its calls
 * and its unsuccessful ones, and per thread (by tid) its runs in order: the functions of each
 * (in the order they first appear) and its number of polls.  A run is what the recorder
 * should make of consecutive unsuccessful polls of a thread with nothing else recorded on it
 * in between, at most 4 functions each.  With the argument "forever" rank 0 tests a receive
 * that never comes, says "polling PID N" once it missed N = MISSES_SHORT times, and goes on
 * until it is killed.  With "completions N", rank 0 sends itself N messages, each posted
 * with MPI_Irecv and MPI_Isend and completed by MPI_Waitall (odd ones) or by MPI_Testall
 * called until it completes both (even ones), and prints N.
 * Usage: mpirun -np 2 mpi-polls [threads|forever|completions N] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MISSES_SHORT 2000L      /* unsuccessful polls before rank 0 says "go" */
#define MISSES_LONG 1000000L    /* the long run */
#define TAG_GO 100
#define MAX_RUNS 256

enum fn { TEST, TESTANY, TESTSOME, TESTALL, IPROBE, IMPROBE, NFN };
static const char *const fn_name[NFN] = {
	"MPI_Test", "MPI_Testany", "MPI_Testsome", "MPI_Testall", "MPI_Iprobe", "MPI_Improbe",
};

static long calls[NFN], misses[NFN];
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

struct run {
	int nfn;
	enum fn fn[4];
	long polls;
};

/* Each polling thread's runs, as the recorder should fold them. */
struct runs {
	pid_t tid;
	struct run r[MAX_RUNS];
	int n;
	int open;
};
static __thread struct runs *mine;

static void check(int rc, const char *what)
{
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "mpi-polls: %s failed (%d)\n", what, rc);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

static void count(enum fn f, int missed)
{
	pthread_mutex_lock(&count_lock);
	calls[f]++;
	misses[f] += missed;
	pthread_mutex_unlock(&count_lock);
}

/* Something else was recorded on this thread: the open run (if any) ends. */
static void other(void)
{
	mine->open = 0;
}

/* A poll of f found something, or found nothing. */
static void hit(enum fn f)
{
	count(f, 0);
	other();
}

static void miss(enum fn f)
{
	count(f, 1);
	struct run *r = mine->open ? &mine->r[mine->n - 1] : NULL;
	int k = 0;
	while (r && k < r->nfn && r->fn[k] != f)
		k++;
	if (r && k == r->nfn && r->nfn == 4)
		r = NULL;   /* a fifth function: a new run */
	if (!r) {
		if (mine->n == MAX_RUNS) {
			fprintf(stderr, "mpi-polls: more than %d runs\n", MAX_RUNS);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		r = &mine->r[mine->n++];
		memset(r, 0, sizeof(*r));
		mine->open = 1;
		k = 0;
	}
	if (k == r->nfn)
		r->fn[r->nfn++] = f;
	r->polls++;
}

static void go(int tag)
{
	check(MPI_Send(&tag, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD), "send go");
	other();
}

/* MPI_Test until the receive completes; after `after` misses rank 1 is told to send it, and
 * every `every` misses (0: never) MPI_Comm_rank or a tprof mark breaks the run. */
static void test_loop(int tag, long after, long every, void (*mark)(const char *))
{
	int v, flag = 0, rank;
	long n = 0;
	MPI_Request req;
	check(MPI_Irecv(&v, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, &req), "irecv");
	other();
	while (!flag) {
		check(MPI_Test(&req, &flag, MPI_STATUS_IGNORE), "test");
		if (flag) {
			hit(TEST);
			break;
		}
		miss(TEST);
		if (++n == after)
			go(tag);
		if (every && n % every == 0 && n < after) {
			if (mark && (n / every) % 2) {
				mark("poll break");
			} else {
				check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "comm_rank");
			}
			other();
		}
	}
}

/* MPI_Testany over three receives, each asked for once the one before arrived; then once
 * more with none active (flag set, index MPI_UNDEFINED: not a miss). */
static void testany_loop(void)
{
	int v[3], flag, idx, got = 0;
	long n = 0;
	MPI_Request req[3];
	for (int i = 0; i < 3; i++)
		check(MPI_Irecv(&v[i], 1, MPI_INT, 1, 2 + i, MPI_COMM_WORLD, &req[i]), "irecv");
	other();
	while (got < 3) {
		check(MPI_Testany(3, req, &idx, &flag, MPI_STATUS_IGNORE), "testany");
		if (!flag) {
			miss(TESTANY);
			if (++n == MISSES_SHORT)
				go(2);
			continue;
		}
		hit(TESTANY);
		if (++got < 3)
			go(2 + got);
	}
	check(MPI_Testany(3, req, &idx, &flag, MPI_STATUS_IGNORE), "testany none");
	hit(TESTANY);
}

/* MPI_Testsome over two receives sent together; MPI_Testall over two more. */
static void some_all_loop(void)
{
	int v[2], out, idx[2], flag = 0, got = 0;
	long n = 0;
	MPI_Request req[2];
	for (int i = 0; i < 2; i++)
		check(MPI_Irecv(&v[i], 1, MPI_INT, 1, 5 + i, MPI_COMM_WORLD, &req[i]), "irecv");
	other();
	while (got < 2) {
		check(MPI_Testsome(2, req, &out, idx, MPI_STATUSES_IGNORE), "testsome");
		if (!out) {
			miss(TESTSOME);
			if (++n == MISSES_SHORT)
				go(5);
			continue;
		}
		hit(TESTSOME);
		got += out;
	}
	n = 0;
	for (int i = 0; i < 2; i++)
		check(MPI_Irecv(&v[i], 1, MPI_INT, 1, 7 + i, MPI_COMM_WORLD, &req[i]), "irecv");
	other();
	while (!flag) {
		check(MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE), "testall");
		if (flag) {
			hit(TESTALL);
			break;
		}
		miss(TESTALL);
		if (++n == MISSES_SHORT)
			go(7);
	}
}

/* MPI_Iprobe, then MPI_Improbe, until the message is there; then received. */
static void probe_loops(void)
{
	int v, flag = 0;
	long n = 0;
	MPI_Message msg;
	while (!flag) {
		check(MPI_Iprobe(1, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE), "iprobe");
		if (flag) {
			hit(IPROBE);
			break;
		}
		miss(IPROBE);
		if (++n == MISSES_SHORT)
			go(9);
	}
	check(MPI_Recv(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "recv");
	other();
	flag = 0;
	n = 0;
	while (!flag) {
		check(MPI_Improbe(1, 10, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE), "improbe");
		if (flag) {
			hit(IMPROBE);
			break;
		}
		miss(IMPROBE);
		if (++n == MISSES_SHORT)
			go(10);
	}
	check(MPI_Mrecv(&v, 1, MPI_INT, &msg, MPI_STATUS_IGNORE), "mrecv");
	other();
}

/* MPI_Iprobe (tag 11) and MPI_Test (a receive of tag 12) taking turns: one run of both
 * functions until the receive completes; then MPI_Iprobe alone until tag 11 is there. */
static void turns_loop(void)
{
	int v, w, flag = 0, found = 0;
	long n = 0;
	MPI_Request req;
	check(MPI_Irecv(&v, 1, MPI_INT, 1, 12, MPI_COMM_WORLD, &req), "irecv");
	other();
	for (;;) {
		check(MPI_Iprobe(1, 11, MPI_COMM_WORLD, &found, MPI_STATUS_IGNORE), "iprobe");
		if (found) {
			hit(IPROBE);
			break;
		}
		miss(IPROBE);
		if (!flag) {
			check(MPI_Test(&req, &flag, MPI_STATUS_IGNORE), "test");
			if (flag) {
				hit(TEST);
				go(11);
				continue;
			}
			miss(TEST);
		}
		if (++n == MISSES_SHORT)
			go(12);
	}
	check(MPI_Recv(&w, 1, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "recv");
	other();
}

/* Rank 0's second thread: MPI_Test on its own receive until rank 1 sends it, at the end. */
static struct runs side_runs;
static void *side(void *arg)
{
	int v, flag = 0;
	MPI_Request req;
	(void)arg;
	mine = &side_runs;
	mine->tid = gettid();
	check(MPI_Irecv(&v, 1, MPI_INT, 1, 50, MPI_COMM_WORLD, &req), "irecv");
	other();
	while (!flag) {
		check(MPI_Test(&req, &flag, MPI_STATUS_IGNORE), "test");
		if (flag)
			hit(TEST);
		else
			miss(TEST);
	}
	return NULL;
}

/* Rank 1: each "go" is answered with the message of its tag (and tag 12's turn with 11's
 * later); -1 ends. */
static void serve(int threads)
{
	for (;;) {
		int tag, v = 7;
		check(MPI_Recv(&tag, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "recv go");
		if (tag < 0)
			break;
		int n = tag == 5 || tag == 7 ? 2 : 1;
		for (int i = 0; i < n; i++)
			check(MPI_Send(&v, 1, MPI_INT, 0, tag + i, MPI_COMM_WORLD), "send");
	}
	if (threads) {
		int v = 8;
		check(MPI_Send(&v, 1, MPI_INT, 0, 50, MPI_COMM_WORLD), "send side");
	}
}

/* Rank 0 polls until it is killed. */
static void forever(void)
{
	int v, flag = 0;
	long n = 0;
	MPI_Request req;
	check(MPI_Irecv(&v, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &req), "irecv");
	for (;;) {
		check(MPI_Test(&req, &flag, MPI_STATUS_IGNORE), "test");
		if (++n == MISSES_SHORT) {
			printf("polling %d %ld\n", (int)getpid(), n);
			fflush(stdout);
		}
	}
}

/* Rank 0 completes n pairs of requests to itself. */
static void completions(long n)
{
	for (long i = 0; i < n; i++) {
		MPI_Request r[2];
		int v, w = (int)i, flag = 0;
		check(MPI_Irecv(&v, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, &r[0]), "irecv self");
		check(MPI_Isend(&w, 1, MPI_INT, 0, 60, MPI_COMM_WORLD, &r[1]), "isend self");
		if (i % 2)
			check(MPI_Waitall(2, r, MPI_STATUSES_IGNORE), "waitall");
		while (!(i % 2) && !flag)
			check(MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE), "testall");
	}
	printf("{\"completions\":%ld}\n", n);
}

static void print_runs(const struct runs *t, int first)
{
	printf("%s\"%d\":[", first ? "" : ",", (int)t->tid);
	for (int i = 0; i < t->n; i++) {
		printf("%s[[", i ? "," : "");
		for (int k = 0; k < t->r[i].nfn; k++)
			printf("%s\"%s\"", k ? "," : "", fn_name[t->r[i].fn[k]]);
		printf("],%ld]", t->r[i].polls);
	}
	printf("]");
}

int main(int argc, char **argv)
{
	int threads = argc > 1 && !strcmp(argv[1], "threads"), rank, size, provided;
	static struct runs main_runs;
	check(MPI_Init_thread(&argc, &argv, threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE,
			      &provided), "init");
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2 || (threads && provided < MPI_THREAD_MULTIPLE)) {
		if (rank == 0)
			fprintf(stderr, "mpi-polls: needs 2 ranks (and MPI_THREAD_MULTIPLE for threads)\n");
		MPI_Finalize();
		return 2;
	}
	long pairs = argc > 2 && !strcmp(argv[1], "completions") ? atol(argv[2]) : -1;
	if (pairs >= 0) {
		if (rank == 0)
			completions(pairs);
		MPI_Finalize();
		return 0;
	}
	if (rank == 1) {
		serve(threads);
		MPI_Finalize();
		return 0;
	}
	/* Under the profiler the recorder defines the tprof annotation API. */
	void (*mark)(const char *) = (void (*)(const char *))dlsym(RTLD_DEFAULT, "tprof_mark");
	pthread_t th;
	mine = &main_runs;
	mine->tid = gettid();
	if (argc > 1 && !strcmp(argv[1], "forever"))
		forever();
	if (threads && pthread_create(&th, NULL, side, NULL) != 0)
		return 1;
	test_loop(1, MISSES_SHORT, 0, NULL);
	test_loop(13, MISSES_SHORT, 500, mark);
	testany_loop();
	some_all_loop();
	probe_loops();
	turns_loop();
	test_loop(14, MISSES_LONG, 0, NULL);
	int end = -1;
	check(MPI_Send(&end, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD), "send end");
	if (threads)
		pthread_join(th, NULL);
	printf("{\"marks\":%s,\"calls\":{", mark ? "true" : "false");
	for (int f = 0; f < NFN; f++)
		printf("%s\"%s\":%ld", f ? "," : "", fn_name[f], calls[f]);
	printf("},\"misses\":{");
	for (int f = 0; f < NFN; f++)
		printf("%s\"%s\":%ld", f ? "," : "", fn_name[f], misses[f]);
	printf("},\"runs\":{");
	print_runs(&main_runs, 1);
	if (threads)
		print_runs(&side_runs, 0);
	printf("}}\n");
	fflush(stdout);
	MPI_Finalize();
	return 0;
}

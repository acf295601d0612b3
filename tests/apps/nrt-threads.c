/* nrt-threads.c — a Neuron runtime program for the recorder's tests: loads two models (two
 * NEFF files) on NeuronCores 0 and 1, gives each device tensors for the inputs and outputs
 * its NEFF declares, and runs two threads, each writing its inputs, executing its model on its
 * core and reading the outputs back, N times; the outputs are checked (every element minus
 * the sum of the inputs is the model's constant).  Then it tidies up and closes the runtime.
 *
 * It prints one JSON line of truth: per thread its model, NeuronCore, tid, executions,
 * input/output bytes and tensor counts, and the constant found; the calls that failed on
 * purpose with their statuses; "ok" when every output was right.
 *   -n N      executions per thread (default 5)
 *   -e        also make a few calls that fail (a missing input, a read out of bounds, a load
 *             of a broken NEFF), each once, from the main thread
 *   -f        after the threads, fork: the child executes model 0 once and prints its own
 *             line {"child":PID,"executions":1,"ok":...}; the parent waits for it
 *   -x        at the end, exec itself (same options, without -x): a second process image in
 *             the same process does it all again
 *   -t        each thread's entry of the truth line also says how long each nrt_execute took
 *             as the program timed it ("spans_ns": CLOCK_MONOTONIC ns around the call)
 * Usage: nrt-threads [-n N] [-e] [-f] [-x] [-t] NEFF0 NEFF1 */
#include <nrt/nrt.h>
#include <nrt/nrt_experimental.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct model {
	const char *path;
	char name[257];
	int nc;
	nrt_model_t *m;
	nrt_tensor_set_t *in, *out;
	nrt_tensor_t *tensors[32];
	size_t sizes[32];
	int usage[32];
	int ntensors, nin, nout;
	uint64_t in_bytes, out_bytes;
	int reps, good;
	long long *spans_ns;            /* [reps]: each execution as the program timed it */
	long tid;
	float constant;
};

static void die(const char *what, NRT_STATUS rc)
{
	fprintf(stderr, "nrt-threads: %s: %s\n", what, nrt_get_status_as_str(rc));
	exit(1);
}

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *b = malloc((size_t)n);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	*size = (size_t)n;
	return b;
}

static void setup(struct model *md)
{
	size_t size;
	void *neff = read_file(md->path, &size);
	NRT_STATUS rc = nrt_load(neff, size, md->nc, 1, &md->m);
	free(neff);
	if (rc != NRT_SUCCESS)
		die(md->path, rc);
	nrt_tensor_info_array_t *ti = NULL;
	if ((rc = nrt_get_model_tensor_info(md->m, &ti)) != NRT_SUCCESS)
		die("nrt_get_model_tensor_info", rc);
	if ((rc = nrt_allocate_tensor_set(&md->in)) != NRT_SUCCESS ||
	    (rc = nrt_allocate_tensor_set(&md->out)) != NRT_SUCCESS)
		die("nrt_allocate_tensor_set", rc);
	for (uint64_t i = 0; i < ti->tensor_count && i < 32; i++) {
		const nrt_tensor_info_t *t = &ti->tensor_array[i];
		int input = t->usage == NRT_TENSOR_USAGE_INPUT;
		nrt_tensor_t *x = NULL;
		rc = nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, md->nc, t->size, t->name, &x);
		if (rc != NRT_SUCCESS)
			die("nrt_tensor_allocate", rc);
		rc = nrt_add_tensor_to_tensor_set(input ? md->in : md->out, t->name, x);
		if (rc != NRT_SUCCESS)
			die("nrt_add_tensor_to_tensor_set", rc);
		md->tensors[md->ntensors] = x;
		md->sizes[md->ntensors] = t->size;
		md->usage[md->ntensors++] = input;
		if (input) {
			md->nin++;
			md->in_bytes += t->size;
		} else {
			md->nout++;
			md->out_bytes += t->size;
		}
	}
	nrt_free_model_tensor_info(ti);
}

static long long monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One round: write the inputs (values depending on the round), execute, read and check. */
static int round_trip(struct model *md, int round)
{
	size_t most = 0;
	for (int i = 0; i < md->ntensors; i++)
		if (md->sizes[i] > most)
			most = md->sizes[i];
	size_t n = most / sizeof(float);
	float *buf = malloc(most), *sum = calloc(n ? n : 1, sizeof(float));
	int good = 1;
	for (int i = 0; i < md->ntensors; i++) {
		if (!md->usage[i])
			continue;
		size_t k = md->sizes[i] / sizeof(float);
		for (size_t j = 0; j < k; j++) {
			buf[j] = (float)(round * 7 + i * 3) + (float)j * 0.5f;
			sum[j] += buf[j];
		}
		if (nrt_tensor_write(md->tensors[i], buf, 0, md->sizes[i]) != NRT_SUCCESS)
			good = 0;
	}
	long long t0 = monotonic_ns();
	if (nrt_execute(md->m, md->in, md->out) != NRT_SUCCESS)
		good = 0;
	if (md->spans_ns && round < md->reps)
		md->spans_ns[round] = monotonic_ns() - t0;
	for (int i = 0; i < md->ntensors; i++) {
		if (md->usage[i])
			continue;
		size_t k = md->sizes[i] / sizeof(float);
		if (nrt_tensor_read(md->tensors[i], buf, 0, md->sizes[i]) != NRT_SUCCESS)
			good = 0;
		for (size_t j = 0; j < k; j++)
			if (fabsf(buf[j] - sum[j] - (buf[0] - sum[0])) > 1e-2f)
				good = 0;
		md->constant = buf[0] - sum[0];
	}
	free(buf);
	free(sum);
	return good;
}

static void *thread_main(void *arg)
{
	struct model *md = arg;
	md->tid = (long)syscall(SYS_gettid);
	md->good = 1;
	for (int r = 0; r < md->reps; r++)
		md->good &= round_trip(md, r);
	return NULL;
}

static void teardown(struct model *md)
{
	for (int i = 0; i < md->ntensors; i++)
		nrt_tensor_free(&md->tensors[i]);
	nrt_destroy_tensor_set(&md->in);
	nrt_destroy_tensor_set(&md->out);
	NRT_STATUS rc = nrt_unload(md->m);
	if (rc != NRT_SUCCESS)
		die("nrt_unload", rc);
	free(md->spans_ns);
}

/* Calls that fail on purpose; their statuses go into the truth line. */
static void errors(struct model *md, char *out, size_t len)
{
	nrt_tensor_set_t *empty = NULL;
	float x[4];
	nrt_model_t *m = NULL;
	static const unsigned char junk[2048];
	nrt_allocate_tensor_set(&empty);
	NRT_STATUS e1 = nrt_execute(md->m, empty, md->out);
	NRT_STATUS e2 = nrt_tensor_read(md->tensors[0], x, md->sizes[0], sizeof(x));
	NRT_STATUS e3 = nrt_load(junk, sizeof(junk), 0, 1, &m);
	nrt_destroy_tensor_set(&empty);
	snprintf(out, len, "[{\"call\":\"nrt_execute\",\"status\":%d},{\"call\":\"nrt_tensor_read\",\"status\":%d},"
		 "{\"call\":\"nrt_load\",\"status\":%d}]", (int)e1, (int)e2, (int)e3);
}

int main(int argc, char **argv)
{
	int reps = 5, with_errors = 0, with_fork = 0, with_exec = 0, timed = 0, opt;
	while ((opt = getopt(argc, argv, "n:efxt")) != -1) {
		if (opt == 'n')
			reps = atoi(optarg);
		else if (opt == 'e')
			with_errors = 1;
		else if (opt == 'f')
			with_fork = 1;
		else if (opt == 'x')
			with_exec = 1;
		else if (opt == 't')
			timed = 1;
		else
			return 2;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: %s [-n N] [-e] [-f] [-x] [-t] NEFF0 NEFF1\n", argv[0]);
		return 2;
	}
	NRT_STATUS rc = nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "1.0", "1.0");
	if (rc != NRT_SUCCESS)
		die("nrt_init", rc);
	struct model md[2];
	memset(md, 0, sizeof(md));
	for (int k = 0; k < 2; k++) {
		md[k].path = argv[optind + k];
		md[k].nc = k;
		md[k].reps = reps;
		md[k].spans_ns = calloc(reps > 0 ? (size_t)reps : 1, sizeof(long long));
		setup(&md[k]);
		/* The name as the NEFF has it, for the truth line. */
		size_t size;
		char *neff = read_file(md[k].path, &size);
		snprintf(md[k].name, sizeof(md[k].name), "%.256s", size >= 1024 ? neff + 220 : "");
		free(neff);
	}
	char errs[512] = "[]";
	if (with_errors)
		errors(&md[0], errs, sizeof(errs));
	pthread_t th[2];
	for (int k = 0; k < 2; k++)
		pthread_create(&th[k], NULL, thread_main, &md[k]);
	for (int k = 0; k < 2; k++)
		pthread_join(th[k], NULL);
	if (with_fork) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			int good = round_trip(&md[0], 0);
			printf("{\"child\":%d,\"model\":\"%s\",\"executions\":1,\"ok\":%s}\n", (int)getpid(),
			       md[0].name, good ? "true" : "false");
			fflush(stdout);
			_exit(good ? 0 : 1);
		}
		int st = 0;
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			md[0].good = 0;
	}
	printf("{\"pid\":%d,\"threads\":[", (int)getpid());
	for (int k = 0; k < 2; k++) {
		printf("%s{\"model\":\"%s\",\"nc\":%d,\"tid\":%ld,\"executions\":%d,\"in_bytes\":%llu,"
		       "\"out_bytes\":%llu,\"in_tensors\":%d,\"out_tensors\":%d,\"constant\":%g",
		       k ? "," : "", md[k].name, md[k].nc, md[k].tid, md[k].reps,
		       (unsigned long long)md[k].in_bytes, (unsigned long long)md[k].out_bytes, md[k].nin,
		       md[k].nout, md[k].constant);
		for (int r = 0; timed && r < md[k].reps; r++)
			printf("%s%lld", r ? "," : ",\"spans_ns\":[", md[k].spans_ns[r]);
		printf("%s}", timed && md[k].reps > 0 ? "]" : "");
	}
	printf("],\"errors\":%s,\"ok\":%s}\n", errs, md[0].good && md[1].good ? "true" : "false");
	for (int k = 0; k < 2; k++)
		teardown(&md[k]);
	nrt_close();
	if (with_exec && md[0].good && md[1].good) {
		char n[16];
		char *args[10];
		int k = 0;
		snprintf(n, sizeof(n), "%d", reps);
		args[k++] = argv[0];
		args[k++] = "-n";
		args[k++] = n;
		if (with_errors)
			args[k++] = "-e";
		if (with_fork)
			args[k++] = "-f";
		args[k++] = (char *)md[0].path;
		args[k++] = (char *)md[1].path;
		args[k] = NULL;
		fflush(stdout);
		execv("/proc/self/exe", args);
		perror("execv");
		return 1;
	}
	return md[0].good && md[1].good ? 0 : 1;
}

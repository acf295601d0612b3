/* imp-writer.c — a program that is profiled and writes a framework trace of its own, for the
 * import's tests: for each of STEPS steps it calls tprof_step(n) and writes a ProfilerStep#n
 * slice starting at the same instant, and inside it does OPS operations each recorded twice,
 * as a tprof range "op N" and as an imported slice "aten::op" with the same times (taken from
 * CLOCK_REALTIME around the range).  The trace (Chrome JSON, object form) has
 *   base       ts from baseTimeNanoseconds (Kineto's form),
 *   epoch      epoch timestamps in microseconds,
 *   relative   ts from the first step, no absolute time (steps align it),
 * and "tprof": {host, pid, tid} naming this process and thread.  After each op, a kernel
 * "gpu op N" runs for 20 µs on device 0's stream 7 (Kineto's form: pid 0, tid 7, "device" and
 * "stream" in its args), 10 µs after the op's end, with an ac2g flow from the op to it.
 *
 * Each tprof call is timed from before to after it: the longest, the most by which a twin's
 * time can differ from tprof's own (a thread preempted inside the call), is printed as
 * "slack_ns=N", for the tests to widen their tolerance by what this run measured.
 *
 *   imp-writer OUT MODE STEPS OPS [nostep]     (nostep: no tprof_step call) */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tprof/tprof.h>

static int64_t real_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void spin_us(int64_t us)
{
	int64_t end = real_ns() + us * 1000;
	while (real_ns() < end)
		;
}

/* The longest a tprof call took, from the time read before it to the one after. */
static int64_t slack;

static void timed(int64_t before, int64_t after)
{
	if (after - before > slack)
		slack = after - before;
}

struct slice {
	int64_t t0, t1;
	int step;                /* 0: an op */
};

static void us(FILE *f, int64_t ns)
{
	/* µs with the ns digits, exactly */
	fprintf(f, "%s%lld.%03lld", ns < 0 ? "-" : "", (long long)(llabs(ns) / 1000),
		(long long)(llabs(ns) % 1000));
}

int main(int argc, char **argv)
{
	if (argc != 5 && !(argc == 6 && !strcmp(argv[5], "nostep"))) {
		fprintf(stderr, "usage: imp-writer OUT base|epoch|relative STEPS OPS [nostep]\n");
		return 2;
	}
	int tsteps = argc == 5;
	const char *mode = argv[2];
	int steps = atoi(argv[3]), ops = atoi(argv[4]);
	tprof_mark("start");   /* the recorder's first call sets it up: not inside a step */
	struct slice *v = calloc((size_t)steps * (size_t)(ops + 1), sizeof(*v));
	size_t n = 0;
	for (int s = 1; s <= steps; s++) {
		int64_t before = real_ns();
		if (tsteps)
			tprof_step((uint64_t)s);
		size_t step = n++;
		v[step] = (struct slice){ real_ns(), 0, s };
		timed(before, v[step].t0);
		spin_us(200);
		for (int k = 0; k < ops; k++) {
			char name[32];
			snprintf(name, sizeof(name), "op %d", k);
			before = real_ns();
			tprof_range_push(name);
			int64_t t0 = real_ns();
			timed(before, t0);
			spin_us(300);
			int64_t t1 = real_ns();
			tprof_range_pop();
			timed(t1, real_ns());
			v[n++] = (struct slice){ t0, t1, 0 };
			spin_us(100);
		}
		spin_us(200);
		v[step].t1 = real_ns();
	}
	if (tsteps)
		tprof_step((uint64_t)steps + 1);
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	int64_t base = !strcmp(mode, "base") ? v[0].t0 - 5000000 : 0;
	int64_t zero = !strcmp(mode, "relative") ? v[0].t0 - 1000000 : base;
	int pid = getpid(), tid = gettid();
	fprintf(f, "{\"schemaVersion\": 1, \"tprof\": {\"host\": \"%s\", \"pid\": %d, \"tid\": %d},\n"
		"\"traceEvents\": [\n", host, pid, tid);
	fprintf(f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %d, \"tid\": %d, "
		"\"args\": {\"name\": \"python\"}},\n"
		"{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 0, \"tid\": 0, "
		"\"args\": {\"name\": \"GPU 0\"}}", pid, tid);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, ",\n{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"", v[i].step ?
			"user_annotation" : "cpu_op");
		if (v[i].step)
			fprintf(f, "ProfilerStep#%d", v[i].step);
		else
			fprintf(f, "aten::op");
		fprintf(f, "\", \"pid\": %d, \"tid\": %d, \"ts\": ", pid, tid);
		us(f, v[i].t0 - zero);
		fprintf(f, ", \"dur\": ");
		us(f, v[i].t1 - v[i].t0);
		fprintf(f, ", \"args\": {\"External id\": %zu}}", i);
		if (v[i].step)
			continue;
		int64_t k0 = v[i].t1 + 10000;
		fprintf(f, ",\n{\"ph\": \"s\", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"id\": %zu, "
			"\"pid\": %d, \"tid\": %d, \"ts\": ", i, pid, tid);
		us(f, v[i].t0 + 1000 - zero);
		fprintf(f, "},\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gpu op %zu\", "
			"\"pid\": 0, \"tid\": 7, \"ts\": ", i);
		us(f, k0 - zero);
		fprintf(f, ", \"dur\": 20, \"args\": {\"device\": 0, \"stream\": 7, "
			"\"correlation\": %zu}}", i);
		fprintf(f, ",\n{\"ph\": \"f\", \"bp\": \"e\", \"cat\": \"ac2g\", \"name\": \"ac2g\", "
			"\"id\": %zu, \"pid\": 0, \"tid\": 7, \"ts\": ", i);
		us(f, k0 - zero);
		fprintf(f, "}");
	}
	fprintf(f, "\n], \"traceName\": \"imp-writer\"");
	if (base)
		fprintf(f, ", \"baseTimeNanoseconds\": %lld", (long long)base);
	fprintf(f, "}\n");
	fclose(f);
	free(v);
	printf("slack_ns=%lld\n", (long long)slack);
	return 0;
}

/* mk-chrome-trace.c — a Chrome trace-event JSON file of N events as the frameworks write them,
 * every phase, args of every JSON type, for the import's tests and benchmark; it prints what it
 * wrote as tests/tools/chrome-count prints what it read. */

/*   mk-chrome-trace [-n EVENTS] [-a] [-z] [-e] [-c] [-M] [-s SEED] -o FILE
 *     -a  the bare array form (default: {"traceEvents": [...], ...})
 *     -z  gzip it       -e  epoch timestamps (µs since 1970 with ns digits)
 *     -c  cut short: no closing ']' (nor '}' and the members after traceEvents)
 *     -M  no top-level members but traceEvents
 *
 * Groups of events keep the trace meaningful: B before its E on one thread, b/n/e and s/t/f
 * sharing an id, N/O/D on one object, Kineto's ac2g flow from a launch to its kernel (bp "e"),
 * M events naming every process and thread first.  The group in progress when N is reached is
 * cut off there, so that the file has exactly N events. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define PHASES "XBEiIRCbenstfMONDP"
#define BUF_CAP (1 << 20)

static char buf[BUF_CAP + 65536];
static size_t len;
static FILE *out;
static gzFile gz;

static uint64_t want, written, counts[128], ts_sum, dur_sum, ids;
static uint64_t rng_state = 88172645463325252ull;
static int64_t now;     /* ns */
static int epoch, no_meta, cut_short;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void flush(void)
{
	if (gz ? gzwrite(gz, buf, (unsigned)len) != (int)len : fwrite(buf, 1, len, out) != len) {
		perror("mk-chrome-trace: write");
		exit(1);
	}
	len = 0;
}

static void put(const char *s)
{
	size_t n = strlen(s);
	memcpy(buf + len, s, n);
	len += n;
}

static void put_i64(int64_t v)
{
	char tmp[24];
	int i = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do
		tmp[i++] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		buf[len++] = '-';
	while (i)
		buf[len++] = tmp[--i];
}

/* ns as µs: integer digits, then up to three decimals without trailing zeros. */
static void put_us(int64_t ns)
{
	if (ns < 0) {
		buf[len++] = '-';
		ns = -ns;
	}
	put_i64(ns / 1000);
	int f = (int)(ns % 1000);
	if (!f)
		return;
	buf[len++] = '.';
	buf[len++] = (char)('0' + f / 100);
	if (f % 100) {
		buf[len++] = (char)('0' + f / 10 % 10);
		if (f % 10)
			buf[len++] = (char)('0' + f % 10);
	}
}

/* Opens an event of phase ph; 0 when N events are written already. */
static int begin(char ph, const char *cat, const char *name)
{
	if (written == want)
		return 0;
	if (written)
		put(",\n");
	put("{\"ph\":\"");
	buf[len++] = ph;
	put("\"");
	if (cat) {
		put(",\"cat\":\"");
		put(cat);
		put("\"");
	}
	put(",\"name\":\"");
	put(name);
	put("\"");
	counts[(int)ph]++;
	written++;
	return 1;
}

static void end(void)
{
	put("}");
	if (len >= BUF_CAP)
		flush();
}

static void pid_tid(int pid, int tid)
{
	put(",\"pid\":");
	put_i64(pid);
	put(",\"tid\":");
	put_i64(tid);
}

static void ts(int64_t t)
{
	put(",\"ts\":");
	put_us(t);
	ts_sum += (uint64_t)t;
}

static void dur(int64_t d)
{
	put(",\"dur\":");
	put_us(d);
	dur_sum += (uint64_t)d;
}

static void id_num(uint64_t id)
{
	char tmp[24];
	snprintf(tmp, sizeof(tmp), "%" PRIu64, id);
	put(",\"id\":");
	put(tmp);
	ids++;
}

static void id_str(const char *key, uint64_t id)
{
	char tmp[64];
	snprintf(tmp, sizeof(tmp), ",\"%s\":\"0x%" PRIx64 "\"", key, id);
	put(tmp);
	ids++;
}

static void id2(const char *scope, uint64_t id)
{
	char tmp[80];
	snprintf(tmp, sizeof(tmp), ",\"id2\":{\"%s\":\"0x%" PRIx64 "\"}", scope, id);
	put(tmp);
	ids++;
}

static int64_t step(int64_t max_ns)
{
	now += 1 + (int64_t)(rnd() % (uint64_t)max_ns);
	return now;
}

#define NPROC 2
#define NTHREAD 3
static const int pids[NPROC] = { 4242, 4343 };

static int tid_of(int p, int t)
{
	return pids[p] + 1 + t;
}

/* A string argument that tests a parser: quotes, braces and brackets, escapes, UTF-8. */
static const char *const texts[] = {
	"plain",
	"a \\\"quoted\\\" {brace} [bracket] back\\\\slash",
	"caf\\u00e9 \\u0041 \xe2\x9c\x93 \\ud83d\\ude00",
	"tab\\tnew\\nline } ] , :",
	"}{][\\\"\\\\",
	"",
};

static void some_args(void)
{
	uint64_t r = rnd();
	put(",\"args\":{\"External id\":");
	put_i64((int64_t)(r % 100000));
	switch (r >> 32 & 7) {
	case 0:
		put(",\"Input Dims\":[[8,16],[16,32]],\"Input type\":[\"float\",\"float\"]");
		break;
	case 1:
		put(",\"ratio\":-0.125,\"big\":1.5e300,\"flag\":true,\"none\":null");
		break;
	case 2:
		put(",\"text\":\"");
		put(texts[(r >> 40) % (sizeof(texts) / sizeof(texts[0]))]);
		put("\"");
		break;
	case 3:
		put(",\"nested\":{\"a\":{\"b\":[1,{\"c\":\"}\"}]},\"d\":false}");
		break;
	case 4:
		put(",\"Sequence number\":");
		put_i64((int64_t)(r >> 20 & 0xfff));
		put(",\"Fwd thread id\":0");
		break;
	default:
		break;
	}
	put("}");
}

static void metadata(void)
{
	static const char *const pnames[NPROC] = { "python3", "\\\"worker\\\" {1}" };
	for (int p = 0; p < NPROC; p++) {
		if (begin('M', NULL, "process_name")) {
			pid_tid(pids[p], 0);
			put(",\"args\":{\"name\":\"");
			put(pnames[p]);
			put("\"}");
			end();
		}
		if (begin('M', NULL, "process_sort_index")) {
			pid_tid(pids[p], 0);
			put(",\"args\":{\"sort_index\":");
			put_i64(p);
			put("}");
			end();
		}
		for (int t = 0; t < NTHREAD; t++) {
			if (begin('M', NULL, "thread_name")) {
				pid_tid(pids[p], tid_of(p, t));
				put(",\"args\":{\"name\":\"thread ");
				put_i64(t);
				put("\"}");
				end();
			}
			if (begin('M', NULL, "thread_sort_index")) {
				pid_tid(pids[p], tid_of(p, t));
				put(",\"args\":{\"sort_index\":");
				put_i64(t);
				put("}");
				end();
			}
		}
	}
	/* The device, as Kineto names it: pid 0, threads that are streams ("tid": "stream 7"). */
	if (begin('M', NULL, "process_name")) {
		put(",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"GPU 0\"}");
		end();
	}
	if (begin('M', NULL, "thread_name")) {
		put(",\"pid\":0,\"tid\":\"stream 7\",\"args\":{\"name\":\"stream 7\"}");
		end();
	}
}

static void complete(int p, int t)
{
	static const char *const ops[] = {
		"aten::mm", "aten::add_", "aten::conv2d", "Optimizer.step",
	};
	if (!begin('X', "cpu_op", ops[rnd() % 4]))
		return;
	pid_tid(pids[p], tid_of(p, t));
	ts(step(5000));
	dur((int64_t)(rnd() % 200000));
	some_args();
	end();
}

static void begin_end(int p, int t)
{
	if (begin('B', "user_annotation", "forward {step} \\\"1\\\"")) {
		pid_tid(pids[p], tid_of(p, t));
		ts(step(1000));
		some_args();
		end();
	}
	if (begin('E', "user_annotation", "forward {step} \\\"1\\\"")) {
		pid_tid(pids[p], tid_of(p, t));
		ts(step(100000));
		end();
	}
}

static void instant(int p, int t)
{
	static const char scopes[] = "tpg";
	int big = rnd() % 2;
	if (!begin(big ? 'I' : 'i', "instant", "mark"))
		return;
	pid_tid(pids[p], tid_of(p, t));
	ts(step(1000));
	put(",\"s\":\"");
	buf[len++] = scopes[rnd() % 3];
	put("\"");
	end();
}

static void mark(int p, int t)
{
	if (!begin('R', "blink.user_timing", "navigationStart"))
		return;
	pid_tid(pids[p], tid_of(p, t));
	ts(step(1000));
	end();
}

static void counter(int p)
{
	if (!begin('C', NULL, "Memory"))
		return;
	pid_tid(pids[p], 0);
	ts(step(1000));
	put(",\"args\":{\"allocated\":");
	put_i64((int64_t)(rnd() % 100000000));
	put(",\"reserved\":2.5e6,\"delta\":-");
	put_i64((int64_t)(rnd() % 1000));
	put(".5}");
	end();
}

static void async_span(int p, int t, uint64_t id)
{
	static const char ph[3] = { 'b', 'n', 'e' };
	int style = (int)(id % 3);
	for (int i = 0; i < 3; i++) {
		if (!begin(ph[i], "async", i == 1 ? "progress" : "request"))
			return;
		pid_tid(pids[p], tid_of(p, (t + i) % NTHREAD));
		ts(step(20000));
		if (style == 0)
			id_str("id", id);
		else if (style == 1)
			id2("local", id);
		else
			id2("global", id);
		end();
	}
}

static void flow(int p, uint64_t id)
{
	static const char ph[3] = { 's', 't', 'f' };
	for (int i = 0; i < 3; i++) {
		if (!begin(ph[i], "flow", "pipeline"))
			return;
		pid_tid(pids[p], tid_of(p, i));
		ts(step(5000));
		/* Large numeric ids: a double would not hold them. */
		id_num(id | 0xF000000000000000ull);
		if (i == 2)
			put(",\"bp\":\"e\"");
		end();
	}
}

/* Kineto: a launch on a CPU thread, an ac2g flow from it to the kernel on a stream. */
static void launch(int p, int t, uint64_t corr)
{
	int64_t t0;
	if (!begin('X', "cuda_runtime", "cudaLaunchKernel"))
		return;
	pid_tid(pids[p], tid_of(p, t));
	ts(t0 = step(1000));
	dur(7500);
	put(",\"args\":{\"cbid\":211,\"correlation\":");
	put_i64((int64_t)corr);
	put("}");
	end();
	if (begin('s', "ac2g", "ac2g")) {
		id_num(corr);
		pid_tid(pids[p], tid_of(p, t));
		ts(t0);
		end();
	}
	int64_t k0 = step(3000);
	if (begin('f', "ac2g", "ac2g")) {
		id_num(corr);
		put(",\"pid\":0,\"tid\":\"stream 7\"");
		ts(k0);
		put(",\"bp\":\"e\"");
		end();
	}
	if (begin('X', "kernel", "void gemm<float, 128>(float const*, float*)")) {
		put(",\"pid\":0,\"tid\":\"stream 7\"");
		ts(k0);
		dur((int64_t)(rnd() % 50000) + 1);
		put(",\"args\":{\"device\":0,\"stream\":7,\"correlation\":");
		put_i64((int64_t)corr);
		put(",\"grid\":[128,1,1],\"est. achieved occupancy %\":85}");
		end();
	}
}

static void object(int p, int t, uint64_t id)
{
	static const char ph[3] = { 'N', 'O', 'D' };
	for (int i = 0; i < 3; i++) {
		if (!begin(ph[i], "obj", "Tensor"))
			return;
		pid_tid(pids[p], tid_of(p, t));
		ts(step(2000));
		id_str("id", id);
		if (i == 1)
			put(",\"args\":{\"snapshot\":{\"shape\":[2,3],\"dtype\":\"float32\"}}");
		end();
	}
}

static void sample(int p, int t)
{
	if (!begin('P', NULL, "cpu sample"))
		return;
	pid_tid(pids[p], tid_of(p, t));
	ts(step(1000));
	put(",\"sf\":");
	put_i64((int64_t)(rnd() % 64));
	put(",\"args\":{\"weight\":1}");
	end();
}

/* Legacy profiler style: a string pid. */
static void legacy(int t)
{
	if (!begin('X', NULL, "aten::relu"))
		return;
	put(",\"pid\":\"CPU functions\",\"tid\":");
	put_i64(tid_of(0, t));
	ts(step(2000));
	dur((int64_t)(rnd() % 9000));
	end();
}

static void events(void)
{
	uint64_t next_id = 1;
	metadata();
	while (written < want) {
		uint64_t r = rnd();
		int p = (int)(r % NPROC), t = (int)(r >> 8 & 0xff) % NTHREAD;
		switch (r >> 16 & 31) {
		case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9:
		case 10: case 11: case 12:
			complete(p, t);
			break;
		case 13: case 14:
			begin_end(p, t);
			break;
		case 15: case 16:
			instant(p, t);
			break;
		case 17:
			mark(p, t);
			break;
		case 18: case 19:
			counter(p);
			break;
		case 20: case 21:
			async_span(p, t, next_id++);
			break;
		case 22:
			flow(p, next_id++);
			break;
		case 23: case 24: case 25:
			launch(p, t, next_id++);
			break;
		case 26:
			object(p, t, next_id++);
			break;
		case 27: case 28:
			sample(p, t);
			break;
		default:
			legacy(t);
			break;
		}
	}
}

static void head(int array)
{
	if (array) {
		put("[\n");
		return;
	}
	put("{\n");
	if (!no_meta) {
		put("  \"schemaVersion\": 1,\n");
		put("  \"deviceProperties\": [\n    {\"id\": 0, \"name\": \"Stand-in GPU\", "
		    "\"totalGlobalMem\": 85899345920, \"computeMajor\": 9},\n    {\"id\": 1, "
		    "\"name\": \"Stand-in GPU\", \"totalGlobalMem\": 85899345920, "
		    "\"computeMajor\": 9}\n  ],\n");
		put("  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 1, "
		    "\"world_size\": 4},\n");
		put("  \"displayTimeUnit\": \"ms\",\n");
		put("  \"tprof\": {\"host\": \"gen-host\", \"pid\": 4242, \"tid\": 4243},\n");
		put("  \"otherData\": {\"ignored\": [1, \"]\", {\"}\": 2}]},\n");
	}
	put("  \"traceEvents\": [\n");
}

static void tail(int array)
{
	if (cut_short)
		return;
	if (array) {
		put("\n]\n");
		return;
	}
	put("\n  ]");
	if (!no_meta) {
		put(",\n  \"traceName\": \"gen.pt.trace.json\",\n");
		put("  \"baseTimeNanoseconds\": 1700000000123456789");
	}
	put("\n}\n");
}

static void report(void)
{
	printf("events %" PRIu64 "\n", written);
	for (const char *p = PHASES; *p; p++)
		if (counts[(int)*p])
			printf("ph %c %" PRIu64 "\n", *p, counts[(int)*p]);
	printf("ts_sum %" PRIu64 "\ndur_sum %" PRIu64 "\nids %" PRIu64 "\n", ts_sum, dur_sum, ids);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	int array = 0, gzip = 0, c;

	want = 1000;
	while ((c = getopt(argc, argv, "n:azecMs:o:")) != -1) {
		switch (c) {
		case 'n': want = strtoull(optarg, NULL, 0); break;
		case 'a': array = 1; break;
		case 'z': gzip = 1; break;
		case 'e': epoch = 1; break;
		case 'c': cut_short = 1; break;
		case 'M': no_meta = 1; break;
		case 's': rng_state = strtoull(optarg, NULL, 0) | 1; break;
		case 'o': path = optarg; break;
		default:
			fprintf(stderr, "usage: mk-chrome-trace [-n EVENTS] [-a] [-z] [-e] [-c] "
				"[-M] [-s SEED] -o FILE\n");
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "mk-chrome-trace: -o FILE is needed\n");
		return 2;
	}
	now = epoch ? 1700000000000000000ll : 1000000;
	if (gzip ? !(gz = gzopen(path, "wb1")) : !(out = fopen(path, "wb"))) {
		perror(path);
		return 1;
	}
	if (gz)
		gzbuffer(gz, 1 << 20);
	head(array);
	events();
	tail(array);
	flush();
	if (gz ? gzclose(gz) != Z_OK : fclose(out) != 0) {
		perror(path);
		return 1;
	}
	report();
	return 0;
}

/* mk-chrome-trace.c — a Chrome trace-event JSON file of N events as the frameworks write them,
 * every phase, args of every JSON type, for the import's tests and benchmark; it prints what it
 * wrote as tests/tools/chrome-count prints what it read. */

/*   mk-chrome-trace [-n EVENTS] [-a] [-z] [-e] [-c] [-M] [-t] [-s SEED] -o FILE
 *     -a  the bare array form (default: {"traceEvents": [...], ...})
 *     -z  gzip it       -e  epoch timestamps (µs since 1970 with ns digits)
 *     -c  cut short: no closing ']' (nor '}' and the members after traceEvents)
 *     -M  no top-level members but traceEvents
 *     -t  torch.profiler's shape instead of every phase: Kineto's indented layout, args on
 *         every X event (cpu_op with External id, Record function id, Input Dims...;
 *         python_function with Python id and Python parent id; cuda_runtime and kernel with
 *         their correlation), ac2g flows s/f from each launch to its kernel; about 218 bytes
 *         an event, as the traces torch.profiler writes
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


/* ---- -t: torch.profiler's shape ----------------------------------------------------------
 * As Kineto writes it (output_json.cpp): one event over a few indented lines, ts and dur as
 * µs with three decimals, every member of args on one line. */

static int torch;
static uint64_t ev_idx, ext_id, py_id, corr_id;

/* ns as µs with always three decimals, as Kineto writes them. */
static void put_us3(int64_t ns)
{
	put_i64(ns / 1000);
	int f = (int)(ns % 1000);
	buf[len++] = '.';
	buf[len++] = (char)('0' + f / 100);
	buf[len++] = (char)('0' + f / 10 % 10);
	buf[len++] = (char)('0' + f % 10);
}

/* "pid": P, "tid": T (T as given in tid_str, a string of Kineto's, or the number tid). */
static void put_thread(int pid, const char *tid_str, int tid)
{
	put("\"pid\": ");
	put_i64(pid);
	put(", \"tid\": ");
	if (tid_str)
		put(tid_str);
	else
		put_i64(tid);
}

/* An X event's first lines: phase, category, name, process and thread, ts and dur. */
static int tx(const char *cat, const char *name, int pid, const char *tid_str, int tid,
	      int64_t t, int64_t d)
{
	if (written == want)
		return 0;
	if (written)
		put(",\n");
	put("  {\n    \"ph\": \"X\", \"cat\": \"");
	put(cat);
	put("\", \"name\": \"");
	put(name);
	put("\", ");
	put_thread(pid, tid_str, tid);
	put(",\n    \"ts\": ");
	put_us3(t);
	put(", \"dur\": ");
	put_us3(d);
	put(",\n    \"args\": {\n      ");
	ts_sum += (uint64_t)t;
	dur_sum += (uint64_t)d;
	counts['X']++;
	written++;
	return 1;
}

static void tx_end(void)
{
	put("\n    }\n  }");
	if (len >= BUF_CAP)
		flush();
}

/* A flow end: Kineto's ac2g, s at the launch and f (bp "e") at the kernel; or fwdbwd, from a
 * forward operator to the backward one of the same sequence number. */
static void tflow(const char *cat, char ph, uint64_t id, int pid, const char *tid_str, int tid,
		  int64_t t)
{
	if (written == want)
		return;
	if (written)
		put(",\n");
	put("  {\n    \"ph\": \"");
	buf[len++] = ph;
	put("\", \"id\": ");
	put_i64((int64_t)id);
	put(", ");
	put_thread(pid, tid_str, tid);
	put(", \"ts\": ");
	put_us3(t);
	put(",\n    \"cat\": \"");
	put(cat);
	put("\", \"name\": \"");
	put(cat);
	put("\"");
	if (ph == 'f')
		put(", \"bp\": \"e\"");
	put("\n  }");
	ts_sum += (uint64_t)t;
	ids++;
	counts[(int)ph]++;
	written++;
}

static void t_ev_idx(void)
{
	put(", \"Ev Idx\": ");
	put_i64((int64_t)ev_idx++);
}

static const char *const t_pyfuncs[] = {
	"torch/nn/modules/module.py(1747): _call_impl",
	"nn.Module: Linear_0",
	"torch/nn/modules/linear.py(125): forward",
	"nn.Module: ReLU_1",
	"train.py(88): step",
	"<built-in method linear of type object at 0x7f3a2c1e4b40>",
};

static const struct {
	const char *name, *dims, *types;
} t_ops[] = {
	{ "aten::linear", "[[64, 1024], [4096, 1024], [4096]]", "[\"float\", \"float\", \"float\"]" },
	{ "aten::addmm", "[[4096], [64, 1024], [1024, 4096], [], []]",
	  "[\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\"]" },
	{ "aten::relu", "[[64, 4096]]", "[\"float\"]" },
	{ "aten::empty", "[[], [], [], [], [], []]",
	  "[\"ScalarList\", \"Scalar\", \"\", \"Device\", \"\", \"\"]" },
	{ "aten::t", "[[4096, 1024]]", "[\"float\"]" },
	{ "aten::view", "", "" },
	{ "aten::as_strided", "", "" },
	{ "aten::empty_strided", "", "" },
};

static const char *const t_kernels[] = {
	"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float,"
	" at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>"
	" >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>,"
	" unsigned int, float, 4>)",
	"ampere_sgemm_128x64_tn",
	"void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_tn_align4>(Params)",
	"ampere_sgemm_32x32_sliced1x4_tn",
	"void at::native::vectorized_elementwise_kernel<4,"
	" at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int,"
	" at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
	"ampere_sgemm_128x64_nn",
	"ampere_sgemm_64x32_sliced1x4_nn",
	"void at::native::elementwise_kernel<128, 2>(int, at::native::gpu_kernel_impl)",
};

#define T_PID 2869224

/* One step of a model as torch.profiler records it: a Python call or two, the operator under
 * them and the operators it calls, on the host thread; the launch of a kernel, its ac2g flow
 * and the kernel on stream 7. */
static void torch_group(void)
{
	static int64_t kernel_end;
	uint64_t r = rnd();
	int th = (int)(r % 4 == 0);     /* a quarter on the backward thread */
	int tid = T_PID + th;
	int npy = 1 + !(r >> 8 & 3), nops = (int)(r >> 20 & 3) + 3;
	/* On the host thread the group's slices nest: the Python calls hold the operators, one
	 * after the other, and the runtime calls after them. */
	int64_t t0 = now + 1000 + (int64_t)(rnd() % 3000);
	int64_t span = 2000 + nops * 10000 + 20000, tc = t0 + 1000 + nops * 10000;
	now = t0 + span;

	/* Python: a parent and a child. */
	uint64_t parent = py_id;
	for (int i = 0; i < npy; i++) {
		if (!tx("python_function", t_pyfuncs[(r >> (12 + 3 * i)) % 6], T_PID, NULL, tid,
			t0 + i * 100, span - i * 200))
			return;
		put("\"Python parent id\": ");
		put_i64((int64_t)parent);
		put(", \"Python id\": ");
		put_i64((int64_t)++py_id);
		parent = py_id;
		t_ev_idx();
		tx_end();
	}
	/* The operator and what it calls. */
	for (int i = 0; i < nops; i++) {
		int o = (int)((r >> (24 + 3 * i)) % 8) ^ (i > 1) * 4;
		int64_t tf = t0 + 1000 + i * 10000;
		if (!tx("cpu_op", t_ops[o].name, T_PID, NULL, tid, tf, 1000 + (int64_t)(rnd() % 8000)))
			return;
		put("\"External id\": ");
		put_i64((int64_t)++ext_id);
		put(",\"Record function id\": 0");
		if (i == 0 && o < 3) {     /* shapes recorded for some */
			put(", \"Input Dims\": ");
			put(t_ops[o].dims);
			put(", \"Input type\": ");
			put(t_ops[o].types);
		}
		t_ev_idx();
		if (i == 0 && (r >> 40 & 1)) {
			put(", \"Sequence number\": ");
			put_i64((int64_t)(ext_id / 3));
			put(", \"Fwd thread id\": 0");
		}
		tx_end();
		if (i == 0 && (r >> 40 & 1)) {
			/* torch.profiler links the forward operator to its backward one. */
			tflow("fwdbwd", 's', ext_id, T_PID, NULL, tid, tf);
			tflow("fwdbwd", 'f', ext_id, T_PID, NULL, T_PID + 1, tf + 500000);
		}
	}
	/* A runtime call with no kernel. */
	if (r >> 48 & 1) {
		if (!tx("cuda_runtime", "cudaStreamIsCapturing", T_PID, NULL, tid, tc + 500,
			1000 + (int64_t)(rnd() % 2000)))
			return;
		put("\"External id\": ");
		put_i64((int64_t)ext_id);
		put(", \"cbid\": 317, \"correlation\": ");
		put_i64((int64_t)(++corr_id + 100000));
		tx_end();
	}
	/* The launch, its flow and its kernel, the kernels one after the other on stream 7. */
	uint64_t corr = ++corr_id + 100000;
	int64_t tl = tc + 5000;
	if (!tx("cuda_runtime", "cudaLaunchKernel", T_PID, NULL, tid, tl, 5000 + (int64_t)(rnd() % 3000)))
		return;
	put("\"External id\": ");
	put_i64((int64_t)ext_id);
	put(", \"cbid\": 211, \"correlation\": ");
	put_i64((int64_t)corr);
	tx_end();
	tflow("ac2g", 's', corr, T_PID, NULL, tid, tl);
	int64_t tk = tl + 3000 > kernel_end + 500 ? tl + 3000 : kernel_end + 500;
	int64_t kd = 1000 + (int64_t)(rnd() % 30000);
	kernel_end = tk + kd;
	tflow("ac2g", 'f', corr, 0, NULL, 7, tk);
	if (!tx("kernel", t_kernels[(r >> 44) % 8], 0, NULL, 7, tk, kd))
		return;
	put("\"External id\": ");
	put_i64((int64_t)ext_id);
	put(",\n      \"queued\": 0, \"device\": 0, \"context\": 1,\n      \"stream\": 7, "
	    "\"correlation\": ");
	put_i64((int64_t)corr);
	put(",\n      \"registers per thread\": 32,\n      \"shared memory\": 0,\n      "
	    "\"blocks per SM\": 0.592593,\n      \"warps per SM\": 2.370370,\n      "
	    "\"grid\": [64, 1, 1],\n      \"block\": [128, 1, 1],\n      "
	    "\"est. achieved occupancy %\": 4");
	tx_end();
}

static void torch_metadata(void)
{
	static const struct { int pid, tid; const char *name, *arg, *val; } m[] = {
		{ T_PID, 0, "process_name", "name", "\"python3\"" },
		{ T_PID, 0, "process_labels", "labels", "\"CPU\"" },
		{ T_PID, 0, "process_sort_index", "sort_index", "2869224" },
		{ 0, 0, "process_name", "name", "\"python3\"" },
		{ 0, 0, "process_labels", "labels", "\"GPU 0\"" },
		{ 0, 0, "process_sort_index", "sort_index", "5000000" },
		{ T_PID, T_PID, "thread_name", "name", "\"thread 2869224 (python3)\"" },
		{ T_PID, T_PID + 1, "thread_name", "name", "\"thread 2869225 (pt_autograd_0)\"" },
		{ 0, 7, "thread_name", "name", "\"stream 7 \"" },
		{ 0, 7, "thread_sort_index", "sort_index", "7" },
	};
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (written == want)
			return;
		if (written)
			put(",\n");
		put("  {\n    \"name\": \"");
		put(m[i].name);
		put("\", \"ph\": \"M\", \"ts\": ");
		put_us3(now);
		put(", \"pid\": ");
		put_i64(m[i].pid);
		put(", \"tid\": ");
		put_i64(m[i].tid);
		put(",\n    \"args\": {\n      \"");
		put(m[i].arg);
		put("\": ");
		put(m[i].val);
		put("\n    }\n  }");
		ts_sum += (uint64_t)now;
		counts['M']++;
		written++;
	}
}

static void torch_events(void)
{
	torch_metadata();
	while (written < want)
		torch_group();
	if (len >= BUF_CAP)
		flush();
}

static void events(void)
{
	uint64_t next_id = 1;
	if (torch) {
		torch_events();
		return;
	}
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
	while ((c = getopt(argc, argv, "n:azecMts:o:")) != -1) {
		switch (c) {
		case 'n': want = strtoull(optarg, NULL, 0); break;
		case 'a': array = 1; break;
		case 'z': gzip = 1; break;
		case 'e': epoch = 1; break;
		case 'c': cut_short = 1; break;
		case 'M': no_meta = 1; break;
		case 't': torch = 1; break;
		case 's': rng_state = strtoull(optarg, NULL, 0) | 1; break;
		case 'o': path = optarg; break;
		default:
			fprintf(stderr, "usage: mk-chrome-trace [-n EVENTS] [-a] [-z] [-e] [-c] "
				"[-M] [-t] [-s SEED] -o FILE\n");
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

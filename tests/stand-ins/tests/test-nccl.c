/* test-nccl.c — the stand-in NCCL itself, without the profiler: ranks that are forked
 * processes, threads of one process, or (built with -DWITH_MPI) MPI ranks run one scenario and
 * check what NCCL promises.  Built as test-nccl (libnccl.so.2), test-rccl (librccl.so.1,
 * -DTEST_RCCL) and test-nccl-mpi; t-nccl.sh runs them.
 *
 *   test-nccl fork|threads|mpi N SCENARIO
 *
 * Scenarios: matrix (every collective, datatype and reduction, in and out of place, against
 * values computed here), group (groups mixing collectives and send/recv, across two
 * communicators, nested; "groupend pid= rank= ns=" on stdout as the outermost ncclGroupEnd
 * is called, for the test to check in the trace file that nothing of the group started
 * earlier), async (a call returns before its peers have called: its stream is
 * still busy), errors (invalid arguments and usage, a mismatched collective), timeout (a peer
 * that never calls: the stream is released, ncclSystemError), peer-exit (a peer that exited:
 * ncclRemoteError), abort (a peer's ncclCommAbort), split, nonblocking (ncclInProgress
 * until the ranks have joined), events (runtime events around each of six all-reduces on
 * its stream, as a profiler times them: "event pid= rank= seq= ns=" lines on stdout for the
 * test to compare with the trace file); with N ignored, one process: initall (ncclCommInitAll and
 * ncclCommInitRank inside a group from one thread), init-timeout (a rank alone times out).
 * Prints one line per failed check on stderr and "SCENARIO: N ranks, K checks passed"; exits
 * 1 when a check failed. */
#ifdef WITH_MPI
#include <mpi.h>
#endif
#include <nccl.h>

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXN 8

static int nranks;
#ifdef WITH_MPI
static int mode_mpi;
#endif
static int pipes[MAXN][MAXN][2];
static ncclUniqueId the_id;
static const char *scenario;
static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;

struct rank {
	int rank, n;
	int checks, failed;
	ncclComm_t comm;
	hipStream_t s;
};

static void expect(struct rank *k, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void expect(struct rank *k, int ok, const char *fmt, ...)
{
	va_list ap;
	k->checks++;
	if (ok)
		return;
	if (k->failed++ > 20)
		return;
	pthread_mutex_lock(&out_mu);
	fprintf(stderr, "rank %d: FAIL: ", k->rank);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	pthread_mutex_unlock(&out_mu);
}

#define OK(k, call) expect(k, (call) == ncclSuccess, "%s: %s", #call, ncclGetLastError(NULL))
#define HOK(k, call) expect(k, (call) == hipSuccess, "%s", #call)

/* ------------------------------------------------------------------ signals between ranks */
static void sig_send(int from, int to)
{
#ifdef WITH_MPI
	if (mode_mpi) {
		char b = 1;
		MPI_Send(&b, 1, MPI_CHAR, to, from, MPI_COMM_WORLD);
		return;
	}
#endif
	if (write(pipes[from][to][1], "x", 1) != 1)
		perror("write");
}

static void sig_wait(int from, int to)
{
	char b;
#ifdef WITH_MPI
	if (mode_mpi) {
		MPI_Recv(&b, 1, MPI_CHAR, from, from, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		return;
	}
#endif
	if (read(pipes[from][to][0], &b, 1) != 1)
		perror("read");
}

static void barrier(struct rank *k)
{
	int q;
	if (k->rank == 0) {
		for (q = 1; q < k->n; q++)
			sig_wait(q, 0);
		for (q = 1; q < k->n; q++)
			sig_send(0, q);
	} else {
		sig_send(k->rank, 0);
		sig_wait(0, k->rank);
	}
}

/* ------------------------------------------------------------------ element values */
static const size_t esz[12] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
static const char *const dname[12] = {"int8", "uint8", "int32", "uint32", "int64", "uint64",
				      "float16", "float32", "float64", "bfloat16", "e4m3", "e5m2"};

static double small_decode(int dt, unsigned b)
{
	int e, m, bias, fn = 0;
	unsigned ex, man;
	double v;
	switch (dt) {
	case ncclFloat16: e = 5, m = 10, bias = 15; break;
	case ncclBfloat16: e = 8, m = 7, bias = 127; break;
	case ncclFloat8e4m3: e = 4, m = 3, bias = 7, fn = 1; break;
	default: e = 5, m = 2, bias = 15; break;
	}
	ex = (b >> m) & ((1u << e) - 1);
	man = b & ((1u << m) - 1);
	if (ex == (1u << e) - 1 && (!fn || man == (1u << m) - 1))
		v = NAN;
	else if (ex == 0)
		v = ldexp(man, 1 - bias - m);
	else
		v = ldexp(1.0 + man / (double)(1u << m), (int)ex - bias);
	return (b >> (e + m)) & 1 ? -v : v;
}

static double get(int dt, const void *p, size_t i)
{
	const char *c = (const char *)p + i * esz[dt];
	switch (dt) {
	case ncclInt8: return *(const int8_t *)c;
	case ncclUint8: return *(const uint8_t *)c;
	case ncclInt32: { int32_t x; memcpy(&x, c, 4); return x; }
	case ncclUint32: { uint32_t x; memcpy(&x, c, 4); return x; }
	case ncclInt64: { int64_t x; memcpy(&x, c, 8); return (double)x; }
	case ncclUint64: { uint64_t x; memcpy(&x, c, 8); return (double)x; }
	case ncclFloat32: { float x; memcpy(&x, c, 4); return x; }
	case ncclFloat64: { double x; memcpy(&x, c, 8); return x; }
	case ncclFloat16: case ncclBfloat16: { uint16_t x; memcpy(&x, c, 2); return small_decode(dt, x); }
	default: return small_decode(dt, *(const uint8_t *)c);
	}
}

/* The code of `v` in a small floating-point type, found by search (and remembered). */
static unsigned small_code(int dt, double v)
{
	static _Thread_local struct { int dt; double v; unsigned code; } memo[16];
	static _Thread_local int nmemo;
	unsigned b;
	int i;
	for (i = 0; i < nmemo; i++)
		if (memo[i].dt == dt && memo[i].v == v)
			return memo[i].code;
	for (b = 0; b < (esz[dt] == 2 ? 65536u : 256u); b++)
		if (small_decode(dt, b) == v)
			break;
	memo[nmemo % 16].dt = dt;
	memo[nmemo % 16].v = v;
	memo[nmemo % 16].code = b;
	if (nmemo < 16)
		nmemo++;
	return b;
}

/* Small integral values only (what the checks use). */
static void set(int dt, void *p, size_t i, double v)
{
	char *c = (char *)p + i * esz[dt];
	unsigned b;
	switch (dt) {
	case ncclInt8: *(int8_t *)c = (int8_t)v; return;
	case ncclUint8: *(uint8_t *)c = (uint8_t)v; return;
	case ncclInt32: { int32_t x = (int32_t)v; memcpy(c, &x, 4); return; }
	case ncclUint32: { uint32_t x = (uint32_t)v; memcpy(c, &x, 4); return; }
	case ncclInt64: { int64_t x = (int64_t)v; memcpy(c, &x, 8); return; }
	case ncclUint64: { uint64_t x = (uint64_t)v; memcpy(c, &x, 8); return; }
	case ncclFloat32: { float x = (float)v; memcpy(c, &x, 4); return; }
	case ncclFloat64: memcpy(c, &v, 8); return;
	}
	b = small_code(dt, v);
	if (esz[dt] == 2) {
		uint16_t x = (uint16_t)b;
		memcpy(c, &x, 2);
	} else {
		*(uint8_t *)c = (uint8_t)b;
	}
}

static int is_float(int dt)
{
	return dt >= ncclFloat16;
}

/* ------------------------------------------------------------------ matrix */
static void *dalloc(struct rank *k, size_t bytes)
{
	void *p = NULL;
	HOK(k, hipMalloc(&p, bytes ? bytes : 1));
	return p;
}

static void to_dev(struct rank *k, void *d, const void *h, size_t bytes)
{
	HOK(k, hipMemcpy(d, h, bytes, hipMemcpyHostToDevice));
}

static void from_dev(struct rank *k, void *h, const void *d, size_t bytes)
{
	HOK(k, hipStreamSynchronize(k->s));
	HOK(k, hipMemcpy(h, d, bytes, hipMemcpyDeviceToHost));
}

static double val(int r, size_t i)
{
	return 1 + (double)((r + (int)i) % 2);
}

/* What rank r's element i is for the data-movement checks: distinct bytes per (rank, i). */
static unsigned char pat(int r, size_t i, size_t b)
{
	return (unsigned char)(r * 37 + i * 11 + b * 3 + 1);
}

static void fill_pat(void *h, int r, size_t count, size_t es)
{
	size_t i, b;
	for (i = 0; i < count; i++)
		for (b = 0; b < es; b++)
			((unsigned char *)h)[i * es + b] = pat(r, i, b);
}

static int same_pat(const void *h, int r, size_t first, size_t count, size_t es)
{
	size_t i, b;
	for (i = 0; i < count; i++)
		for (b = 0; b < es; b++)
			if (((const unsigned char *)h)[i * es + b] != pat(r, first + i, b))
				return 0;
	return 1;
}

/* The reduction over ranks of val(q, i) (times `scale` each, for pre-multiplied sums). */
static double reduced(int n, int op, size_t i, int dt, double scale)
{
	double acc = op == ncclProd ? 1 : op == ncclMax ? -1e300 : op == ncclMin ? 1e300 : 0;
	int q;
	for (q = 0; q < n; q++) {
		double v = val(q, i) * scale;
		switch (op) {
		case ncclProd: acc *= v; break;
		case ncclMax: acc = v > acc ? v : acc; break;
		case ncclMin: acc = v < acc ? v : acc; break;
		default: acc += v;
		}
	}
	if (op == ncclAvg)
		acc = is_float(dt) ? acc / n : trunc(acc / n);
	return acc;
}

static int close_enough(int dt, double got, double want, int op)
{
	double tol[12] = {0, 0, 0, 0, 0, 0, 1e-2, 1e-6, 1e-12, 2e-2, 0.13, 0.26};
	if (op != ncclAvg || !is_float(dt))
		return got == want;
	return fabs(got - want) <= tol[dt] * fabs(want);
}

/* An all-reduce (or reduce to `root`, or reduce-scatter) with `op`; `scalar` > 0: a
 * pre-multiplied sum by that scalar, given on the host (HostImmediate) or the device. */
static void check_reduction(struct rank *k, int kind, int dt, int op, size_t count, int inplace,
			    double scalar, int device_scalar)
{
	size_t es = esz[dt], i, total = kind == 2 ? count * (size_t)k->n : count;
	int root = k->n - 1, r = k->rank;
	void *hs = malloc(total * es), *hr = malloc(total * es);
	void *ds = dalloc(k, total * es), *dr = inplace ? ds : dalloc(k, total * es), *dsc = NULL;
	ncclRedOp_t rop = (ncclRedOp_t)op;
	const char *what = kind == 0 ? "allreduce" : kind == 1 ? "reduce" : "reducescatter";
	for (i = 0; i < total; i++)
		set(dt, hs, i, val(r, kind == 2 ? i % count : i)); /* reduce-scatter: each part alike */
	to_dev(k, ds, hs, total * es);
	if (scalar > 0) {
		unsigned char sc[8];
		set(dt, sc, 0, scalar);
		if (device_scalar) {
			dsc = dalloc(k, es);
			to_dev(k, dsc, sc, es);
		}
		OK(k, ncclRedOpCreatePreMulSum(&rop, device_scalar ? dsc : sc, dt,
					       device_scalar ? ncclScalarDevice
							     : ncclScalarHostImmediate, k->comm));
	}
	if (kind == 0)
		OK(k, ncclAllReduce(ds, dr, count, dt, rop, k->comm, k->s));
	else if (kind == 1)
		OK(k, ncclReduce(ds, dr, count, dt, rop, root, k->comm, k->s));
	else
		OK(k, ncclReduceScatter(ds, inplace ? (char *)ds + (size_t)r * count * es : dr, count,
					dt, rop, k->comm, k->s));
	from_dev(k, hr, inplace && kind == 2 ? (char *)ds + (size_t)r * count * es : dr, count * es);
	if (kind != 1 || r == root) {
		int bad = 0;
		for (i = 0; i < count && !bad; i++) {
			double want = reduced(k->n, scalar > 0 ? ncclSum : op, i, dt,
					      scalar > 0 ? scalar : 1);
			double got = get(dt, hr, i);
			bad = !close_enough(dt, got, want, op);
			expect(k, !bad, "%s %s op %d count %zu%s%s: [%zu] = %g, want %g", what,
			       dname[dt], op, count, inplace ? " in place" : "",
			       scalar > 0 ? " premulsum" : "", i, got, want);
		}
	}
	if (scalar > 0)
		OK(k, ncclRedOpDestroy(rop, k->comm));
	HOK(k, hipFree(ds));
	if (!inplace)
		HOK(k, hipFree(dr));
	if (dsc)
		HOK(k, hipFree(dsc));
	free(hs);
	free(hr);
}

typedef ncclResult_t (*a2a_fn)(const void *, void *, size_t, ncclDataType_t, ncclComm_t,
			       hipStream_t);

/* Broadcast, ncclBcast, all-gather (both ways), gather, scatter, all-to-all: bytes only. */
static void check_movement(struct rank *k, int dt, size_t count)
{
	size_t es = esz[dt], n = (size_t)k->n, all = count * n, q;
	int r = k->rank, root = k->n > 1 ? 1 : 0, last = k->n - 1;
	unsigned char *hs = malloc(all * es), *hr = malloc(all * es);
	void *ds = dalloc(k, all * es), *dr = dalloc(k, all * es);
	a2a_fn a2a = (a2a_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "ncclAlltoAll");
	if (!a2a)
		a2a = (a2a_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "ncclAllToAll");

	fill_pat(hs, r, all, es);
	to_dev(k, ds, hs, all * es);
	OK(k, ncclBroadcast(ds, dr, count, dt, root, k->comm, k->s));
	from_dev(k, hr, dr, count * es);
	expect(k, same_pat(hr, root, 0, count, es), "broadcast %s count %zu", dname[dt], count);

	OK(k, ncclBcast(ds, count, dt, last, k->comm, k->s));
	from_dev(k, hr, ds, count * es);
	expect(k, same_pat(hr, last, 0, count, es), "ncclBcast %s count %zu", dname[dt], count);

	to_dev(k, ds, hs, all * es);
	OK(k, ncclAllGather(ds, dr, count, dt, k->comm, k->s));
	from_dev(k, hr, dr, all * es);
	for (q = 0; q < n; q++)
		expect(k, same_pat(hr + q * count * es, (int)q, 0, count, es),
		       "allgather %s count %zu: part of rank %zu", dname[dt], count, q);

	/* in place: my part already sits at my offset of the receive buffer */
	fill_pat(hr + (size_t)r * count * es, r, count, es);
	to_dev(k, dr, hr, all * es);
	OK(k, ncclAllGather((char *)dr + (size_t)r * count * es, dr, count, dt, k->comm, k->s));
	from_dev(k, hr, dr, all * es);
	for (q = 0; q < n; q++)
		expect(k, same_pat(hr + q * count * es, (int)q, 0, count, es),
		       "allgather in place %s count %zu: part of rank %zu", dname[dt], count, q);

	OK(k, ncclGather(ds, r == 0 ? dr : NULL, count, dt, 0, k->comm, k->s));
	from_dev(k, hr, dr, all * es);
	for (q = 0; r == 0 && q < n; q++)
		expect(k, same_pat(hr + q * count * es, (int)q, 0, count, es),
		       "gather %s count %zu: part of rank %zu", dname[dt], count, q);

	OK(k, ncclScatter(r == last ? ds : NULL, dr, count, dt, last, k->comm, k->s));
	from_dev(k, hr, dr, count * es);
	expect(k, same_pat(hr, last, (size_t)r * count, count, es), "scatter %s count %zu",
	       dname[dt], count);

	expect(k, a2a != NULL, "the library has ncclAlltoAll or ncclAllToAll");
	if (a2a) {
		OK(k, a2a(ds, dr, count, dt, k->comm, k->s));
		from_dev(k, hr, dr, all * es);
		for (q = 0; q < n; q++)
			expect(k, same_pat(hr + q * count * es, (int)q, (size_t)r * count, count, es),
			       "alltoall %s count %zu: part from rank %zu", dname[dt], count, q);
	}
	HOK(k, hipFree(ds));
	HOK(k, hipFree(dr));
	free(hs);
	free(hr);
}

#ifdef TEST_RCCL
/* Rank r sends (r + d) % 3 + extra elements to rank d, packed in rank order. */
static void check_alltoallv(struct rank *k, size_t extra)
{
	size_t n = (size_t)k->n, sc[MAXN], sd[MAXN], rc[MAXN], rd[MAXN], q, st = 0, rt = 0, es = 4;
	int r = k->rank;
	unsigned char *hs, *hr;
	void *ds, *dr;
	for (q = 0; q < n; q++) {
		sc[q] = ((size_t)r + q) % 3 + extra;
		rc[q] = (q + (size_t)r) % 3 + extra;
		sd[q] = st;
		rd[q] = rt;
		st += sc[q];
		rt += rc[q];
	}
	hs = malloc(st * es + 1);
	hr = malloc(rt * es + 1);
	ds = dalloc(k, st * es);
	dr = dalloc(k, rt * es);
	fill_pat(hs, r, st, es);
	to_dev(k, ds, hs, st * es);
	OK(k, ncclAllToAllv(ds, sc, sd, dr, rc, rd, ncclFloat32, k->comm, k->s));
	from_dev(k, hr, dr, rt * es);
	for (q = 0; q < n; q++) {
		/* rank q's displacement of its part for me */
		size_t qd = 0, d;
		for (d = 0; d < (size_t)r; d++)
			qd += (q + d) % 3 + extra;
		expect(k, same_pat(hr + rd[q] * es, (int)q, qd, rc[q], es),
		       "alltoallv (+%zu): part from rank %zu", extra, q);
	}
	HOK(k, hipFree(ds));
	HOK(k, hipFree(dr));
	free(hs);
	free(hr);
}
#endif

/* Every rank sends to every rank (itself too) in one group, a different size per pair. */
static void check_all_pairs(struct rank *k, size_t base)
{
	size_t n = (size_t)k->n, q, es = 8;
	int r = k->rank;
	unsigned char *hs[MAXN], *hr[MAXN];
	void *ds[MAXN], *dr[MAXN];
	for (q = 0; q < n; q++) {
		size_t out = base + (size_t)r * 3 + q, in = base + q * 3 + (size_t)r;
		hs[q] = malloc(out * es + 1);
		hr[q] = malloc(in * es + 1);
		ds[q] = dalloc(k, out * es);
		dr[q] = dalloc(k, in * es);
		fill_pat(hs[q], r * 8 + (int)q, out, es);
		to_dev(k, ds[q], hs[q], out * es);
	}
	OK(k, ncclGroupStart());
	for (q = 0; q < n; q++) {
		OK(k, ncclSend(ds[q], base + (size_t)r * 3 + q, ncclUint64, (int)q, k->comm, k->s));
		OK(k, ncclRecv(dr[q], base + q * 3 + (size_t)r, ncclUint64, (int)q, k->comm, k->s));
	}
	OK(k, ncclGroupEnd());
	for (q = 0; q < n; q++) {
		size_t in = base + q * 3 + (size_t)r;
		from_dev(k, hr[q], dr[q], in * es);
		expect(k, same_pat(hr[q], (int)q * 8 + r, 0, in, es),
		       "send/recv of %zu elements from rank %zu", in, q);
		HOK(k, hipFree(ds[q]));
		HOK(k, hipFree(dr[q]));
		free(hs[q]);
		free(hr[q]);
	}
}

static void matrix(struct rank *k)
{
	static const size_t counts[] = {7, 3000};
	int dt, op, c, ndt = 12;
	int vers = 0;
	OK(k, ncclGetVersion(&vers));
#ifdef TEST_RCCL
	ndt = 10;
	expect(k, vers == 22105, "RCCL reports version %d, want 22105 (2.21.5)", vers);
#else
	expect(k, vers == 22803, "NCCL reports version %d, want 22803 (2.28.3)", vers);
#endif
	for (c = 0; c < 2; c++) {
		size_t count = counts[c];
		for (dt = 0; dt < ndt; dt++) {
			for (op = 0; op < ncclNumOps; op++)
				check_reduction(k, 0, dt, op, count, 0, 0, 0);
			check_reduction(k, 0, dt, ncclSum, count, 1, 0, 0);
			check_reduction(k, 0, dt, ncclSum, count, 0, 2, 0);
			/* 3 x {1, 2} summed is not exact in e5m2 (two mantissa bits) */
			check_reduction(k, 0, dt, ncclSum, count, 0, dt == ncclFloat8e5m2 ? 1 : 3, 1);
			check_reduction(k, 1, dt, ncclSum, count, 0, 0, 0);
			check_reduction(k, 1, dt, ncclMax, count, 0, 0, 0);
			check_reduction(k, 2, dt, ncclSum, count, 0, 0, 0);
			check_reduction(k, 2, dt, ncclAvg, count, 0, 0, 0);
			check_reduction(k, 2, dt, ncclMin, count, 1, 0, 0);
			check_movement(k, dt, count);
		}
		check_all_pairs(k, count);
#ifdef TEST_RCCL
		check_alltoallv(k, count);
#endif
	}
	check_reduction(k, 0, ncclFloat32, ncclSum, 0, 0, 0, 0); /* nothing to move */
}

/* ------------------------------------------------------------------ group */
/* "groupend pid=P rank=R ns=NOW" on stdout: CLOCK_MONOTONIC, the trace file's clock. */
static void group_end_line(const struct rank *k)
{
	struct timespec ts;
	char line[96];
	int n;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	n = snprintf(line, sizeof(line), "groupend pid=%d rank=%d ns=%lld\n", (int)getpid(), k->rank,
		     (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec);
	if (write(1, line, (size_t)n) != n)
		perror("write");
}

static void group(struct rank *k)
{
	ncclComm_t other;
	hipStream_t s2;
	size_t count = 5000, i;
	int r = k->rank, n = k->n, next = (r + 1) % n, prev = (r + n - 1) % n;
	float *h = malloc(count * 4 * 4);
	float *d = dalloc(k, count * 4 * 4);
	HOK(k, hipStreamCreate(&s2));
	OK(k, ncclCommSplit(k->comm, 0, n - r, &other, NULL)); /* same ranks, reversed */
	for (i = 0; i < count * 4; i++)
		h[i] = (float)(r + 1);
	to_dev(k, d, h, count * 4 * 4);
	/* Nested groups, a send/recv ring around an all-reduce on one communicator and an
	 * all-reduce on another communicator on a second stream.  Without everything of the
	 * group progressing together the odd ranks (which post the ring last) would deadlock
	 * with the even ones. */
	OK(k, ncclGroupStart());
	if (r % 2 == 0) {
		OK(k, ncclSend(d, count, ncclFloat32, next, k->comm, k->s));
		OK(k, ncclRecv(d + count, count, ncclFloat32, prev, k->comm, k->s));
	}
	OK(k, ncclGroupStart());
	OK(k, ncclAllReduce(d + 2 * count, d + 2 * count, count, ncclFloat32, ncclSum, k->comm,
			    k->s));
	OK(k, ncclAllReduce(d + 3 * count, d + 3 * count, count, ncclFloat32, ncclMax, other, s2));
	OK(k, ncclGroupEnd());
	if (r % 2 == 1) {
		OK(k, ncclRecv(d + count, count, ncclFloat32, prev, k->comm, k->s));
		OK(k, ncclSend(d, count, ncclFloat32, next, k->comm, k->s));
	}
	/* Nothing of the group may start before its outermost ncclGroupEnd: the test compares
	 * the operations' starts in the trace file with this time. */
	usleep(20000);
	group_end_line(k);
	OK(k, ncclGroupEnd());
	HOK(k, hipStreamSynchronize(s2));
	from_dev(k, h, d, count * 4 * 4);
	for (i = 0; i < count; i++) {
		if (h[count + i] != (float)(prev + 1) || h[2 * count + i] != (float)(n * (n + 1) / 2) ||
		    h[3 * count + i] != (float)n)
			break;
	}
	expect(k, i == count, "group: ring %g (want %d), allreduce %g (want %d), other comm %g "
	       "(want %d) at %zu", h[count + i % count], prev + 1, h[2 * count + i % count],
	       n * (n + 1) / 2, h[3 * count + i % count], n, i);
	expect(k, ncclGroupEnd() == ncclInvalidUsage, "ncclGroupEnd outside a group is invalid usage");
	OK(k, ncclCommDestroy(other));
	HOK(k, hipStreamDestroy(s2));
	HOK(k, hipFree(d));
	free(h);
}

/* ------------------------------------------------------------------ async */
static void async_call(struct rank *k)
{
	size_t count = 1000, i;
	float *h = malloc(count * 4), *d = dalloc(k, count * 4);
	int q;
	for (i = 0; i < count; i++)
		h[i] = 1;
	to_dev(k, d, h, count * 4);
	if (k->rank == 1)
		sig_wait(0, 1); /* rank 1 calls only once rank 0's call has returned */
	OK(k, ncclAllReduce(d, d, count, ncclFloat32, ncclSum, k->comm, k->s));
	if (k->rank == 0) {
		expect(k, hipStreamQuery(k->s) == hipErrorNotReady,
		       "right after ncclAllReduce returned (rank 1 not there yet) the stream is busy");
		sig_send(0, 1);
	}
	from_dev(k, h, d, count * 4);
	for (i = 0; i < count && h[i] == (float)k->n; i++)
		;
	expect(k, i == count, "async allreduce result %g, want %d", h[i % count], k->n);
	q = hipStreamQuery(k->s);
	expect(k, q == hipSuccess, "after synchronising the stream is idle (%d)", q);
	HOK(k, hipFree(d));
	free(h);
}

/* ------------------------------------------------------------------ errors */
static void errors(struct rank *k)
{
	float *d = dalloc(k, 4096);
	ncclResult_t r, a = ncclSuccess;
	ncclComm_t c = NULL;
	ncclUniqueId id;
	ncclRedOp_t op;
	int n = k->n;
#define BAD(call, want, what)                                                                \
	do {                                                                                 \
		r = (call);                                                                  \
		expect(k, r == (want), "%s: %s returns %d, want %d", what, #call, r, want);  \
		expect(k, r == ncclSuccess || ncclGetLastError(NULL)[0],                     \
		       "%s: ncclGetLastError says why", what);                               \
	} while (0)
	BAD(ncclAllReduce(d, d, 4, ncclFloat32, ncclSum, NULL, k->s), ncclInvalidArgument, "NULL comm");
	BAD(ncclAllReduce(d, d, 4, (ncclDataType_t)42, ncclSum, k->comm, k->s), ncclInvalidArgument,
	    "bad datatype");
#ifdef TEST_RCCL
	BAD(ncclAllReduce(d, d, 4, ncclFloat8e4m3, ncclSum, k->comm, k->s), ncclInvalidArgument,
	    "fp8 in an RCCL built without it");
#endif
	BAD(ncclAllReduce(d, d, 4, ncclFloat32, (ncclRedOp_t)9, k->comm, k->s), ncclInvalidArgument,
	    "bad reduction");
	BAD(ncclReduce(d, d, 4, ncclFloat32, ncclSum, n, k->comm, k->s), ncclInvalidArgument,
	    "root out of range");
	BAD(ncclBroadcast(d, d, 4, ncclFloat32, -1, k->comm, k->s), ncclInvalidArgument,
	    "negative root");
	BAD(ncclSend(d, 4, ncclFloat32, n, k->comm, k->s), ncclInvalidArgument, "peer out of range");
	BAD(ncclAllReduce(NULL, d, 4, ncclFloat32, ncclSum, k->comm, k->s), ncclInvalidArgument,
	    "NULL sendbuff");
	BAD(ncclRecv(NULL, 4, ncclFloat32, 0, k->comm, k->s), ncclInvalidArgument, "NULL recvbuff");
	BAD(ncclAllGather(d, d, (size_t)-1 / 2, ncclFloat32, k->comm, k->s), ncclInvalidArgument,
	    "count overflow");
	BAD(ncclGroupEnd(), ncclInvalidUsage, "ncclGroupEnd without ncclGroupStart");
	BAD(ncclRedOpDestroy(ncclSum, k->comm), ncclInvalidArgument, "destroying ncclSum");
	BAD(ncclCommInitRank(&c, 0, the_id, 0), ncclInvalidArgument, "nranks 0");
	BAD(ncclCommInitRank(&c, 2, the_id, 2), ncclInvalidArgument, "rank >= nranks");
	BAD(ncclCommCount(k->comm, NULL), ncclInvalidArgument, "NULL count");
	BAD(ncclGetUniqueId(NULL), ncclInvalidArgument, "NULL id");
	expect(k, !strcmp(ncclGetErrorString(ncclRemoteError),
			  "remote process exited or there was a network error"),
	       "ncclGetErrorString(ncclRemoteError)");
	/* an invalid call in a group: ncclGroupEnd fails and launches nothing ... */
	OK(k, ncclGroupStart());
	OK(k, ncclAllReduce(d, d, 4, ncclFloat32, ncclSum, k->comm, k->s));
	BAD(ncclAllReduce(d, d, 4, ncclFloat32, (ncclRedOp_t)77, k->comm, k->s), ncclInvalidArgument,
	    "bad reduction in a group");
	BAD(ncclGroupEnd(), ncclInvalidArgument, "ncclGroupEnd of a group with an invalid call");
	/* ... so the communicator is still in step on every rank */
	OK(k, ncclAllReduce(d, d, 4, ncclFloat32, ncclSum, k->comm, k->s));
	HOK(k, hipStreamSynchronize(k->s));
	OK(k, ncclCommGetAsyncError(k->comm, &a));
	expect(k, a == ncclSuccess, "no asynchronous error after valid calls (%d)", a);
	/* a user op for another type */
	{
		float two = 2;
		OK(k, ncclRedOpCreatePreMulSum(&op, &two, ncclFloat32, ncclScalarHostImmediate, k->comm));
		BAD(ncclAllReduce(d, d, 4, ncclFloat64, op, k->comm, k->s), ncclInvalidArgument,
		    "premulsum made for float32 used with float64");
		OK(k, ncclRedOpDestroy(op, k->comm));
	}
	/* a collective the ranks disagree on: an asynchronous ncclInvalidUsage everywhere */
	OK(k, ncclAllReduce(d, d, 4 + (size_t)(k->rank == 0), ncclFloat32, ncclSum, k->comm, k->s));
	HOK(k, hipStreamSynchronize(k->s));
	OK(k, ncclCommGetAsyncError(k->comm, &a));
	expect(k, a == ncclInvalidUsage, "mismatched counts: asynchronous error %d, want %d", a,
	       ncclInvalidUsage);
	BAD(ncclAllReduce(d, d, 4, ncclFloat32, ncclSum, k->comm, k->s), ncclInvalidUsage,
	    "a communicator with an error");
	/* a destroyed communicator is recognised */
	OK(k, ncclGetUniqueId(&id));
	OK(k, ncclCommInitRank(&c, 1, id, 0));
	OK(k, ncclCommDestroy(c));
	BAD(ncclAllReduce(d, d, 4, ncclFloat32, ncclSum, c, k->s), ncclInvalidArgument,
	    "a destroyed communicator");
	OK(k, ncclCommDestroy(NULL));
	HOK(k, hipFree(d));
#undef BAD
}

/* ------------------------------------------------------------------ failures of peers */
static void stuck(struct rank *k, const char *how)
{
	float *d = dalloc(k, 64);
	ncclResult_t a = ncclSuccess;
	if (k->rank == 0) {
		if (!strcmp(how, "peer-exit"))
			sig_wait(1, 0); /* rank 1 is about to exit */
		OK(k, ncclAllReduce(d, d, 16, ncclFloat32, ncclSum, k->comm, k->s));
		HOK(k, hipStreamSynchronize(k->s)); /* the stream is released, with an error */
		OK(k, ncclCommGetAsyncError(k->comm, &a));
		if (!strcmp(how, "timeout"))
			expect(k, a == ncclSystemError, "a peer that never calls: asynchronous "
			       "error %d, want ncclSystemError", a);
		else
			expect(k, a == ncclRemoteError, "%s: asynchronous error %d, want "
			       "ncclRemoteError", how, a);
		if (strcmp(how, "peer-exit"))
			sig_send(0, 1);
	} else if (k->rank == 1) {
		if (!strcmp(how, "peer-exit")) {
			sig_send(1, 0);
			_exit(0); /* leaves no word */
		}
		if (!strcmp(how, "abort")) {
			usleep(200000); /* rank 0 is waiting in its all-reduce */
			OK(k, ncclCommAbort(k->comm));
			k->comm = NULL;
		}
		sig_wait(0, 1);
	}
	HOK(k, hipFree(d));
}

/* ------------------------------------------------------------------ split */
static void split(struct rank *k)
{
	ncclComm_t c = NULL;
	int r = k->rank, n = k->n, color = r == n - 1 && n > 2 ? NCCL_SPLIT_NOCOLOR : r % 2;
	int got = -1, size = -1, want_size = 0, want_rank = 0, q, dev = -1, mydev = -1;
	float *d = dalloc(k, 64), h[16];
	for (q = 0; q < n; q++) {
		int qc = q == n - 1 && n > 2 ? NCCL_SPLIT_NOCOLOR : q % 2;
		if (qc != color)
			continue;
		want_size++;
		if (q > r)
			want_rank++; /* key = n - rank: reversed order */
	}
	OK(k, ncclCommSplit(k->comm, color, n - r, &c, NULL));
	if (color == NCCL_SPLIT_NOCOLOR) {
		expect(k, c == NULL, "NCCL_SPLIT_NOCOLOR gets no communicator");
	} else {
		OK(k, ncclCommUserRank(c, &got));
		OK(k, ncclCommCount(c, &size));
		OK(k, ncclCommCuDevice(c, &dev));
		HOK(k, hipGetDevice(&mydev));
		expect(k, got == want_rank && size == want_size && dev == mydev,
		       "split color %d: rank %d of %d on device %d, want %d of %d on %d", color, got,
		       size, dev, want_rank, want_size, mydev);
		for (q = 0; q < 16; q++)
			h[q] = (float)(r + 1);
		to_dev(k, d, h, sizeof(h));
		OK(k, ncclAllReduce(d, d, 16, ncclFloat32, ncclMax, c, k->s));
		from_dev(k, h, d, sizeof(h));
		for (q = n - 1; q >= 0; q--)
			if ((q == n - 1 && n > 2 ? NCCL_SPLIT_NOCOLOR : q % 2) == color)
				break;
		expect(k, h[0] == (float)(q + 1), "max over the split: %g, want %d", h[0], q + 1);
		OK(k, ncclCommDestroy(c));
	}
	/* the parent still works after the split */
	OK(k, ncclAllReduce(d, d, 16, ncclFloat32, ncclSum, k->comm, k->s));
	HOK(k, hipStreamSynchronize(k->s));
	HOK(k, hipFree(d));
}

/* No segment of the communicator of `id` is left in /dev/shm (its name: FNV-1a of the id). */
static void expect_no_segment(struct rank *k, const ncclUniqueId *id)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char path[64];
	size_t i;
	for (i = 0; i < sizeof(id->internal); i++) {
		h ^= (unsigned char)id->internal[i];
		h *= 0x100000001b3ull;
	}
	snprintf(path, sizeof(path), "/dev/shm/standin-nccl-%016llx", (unsigned long long)h);
	expect(k, access(path, F_OK) != 0, "%s is left behind", path);
}

/* ------------------------------------------------------------------ events */
/* Runtime events around each all-reduce on its stream, as a profiler times it: prints
 * "event pid=P rank=R seq=N ns=ELAPSED" for the test to compare with the trace file. */
static void events(struct rank *k)
{
	enum { NOPS = 6 };
	hipEvent_t e[NOPS][2];
	size_t count = (size_t)1 << 20;
	float *d = dalloc(k, count * 4);
	int j;
	for (j = 0; j < NOPS; j++) {
		HOK(k, hipEventCreate(&e[j][0]));
		HOK(k, hipEventCreate(&e[j][1]));
	}
	for (j = 0; j < NOPS; j++) {
		HOK(k, hipEventRecord(e[j][0], k->s));
		OK(k, ncclAllReduce(d, d, count >> (2 * j), ncclFloat32, ncclSum, k->comm, k->s));
		HOK(k, hipEventRecord(e[j][1], k->s));
		if (j == 2 && k->rank == 0)
			usleep(30000); /* the others wait for rank 0: a skewed collective */
	}
	HOK(k, hipStreamSynchronize(k->s));
	for (j = 0; j < NOPS; j++) {
		float ms = -1;
		char line[128];
		int n;
		HOK(k, hipEventElapsedTime(&ms, e[j][0], e[j][1]));
		n = snprintf(line, sizeof(line), "event pid=%d rank=%d seq=%d ns=%.0f\n", (int)getpid(),
			     k->rank, j + 1, ms * 1e6);
		if (write(1, line, (size_t)n) != n)
			perror("write");
		HOK(k, hipEventDestroy(e[j][0]));
		HOK(k, hipEventDestroy(e[j][1]));
	}
	HOK(k, hipFree(d));
}

/* ------------------------------------------------------------------ ranks */
static void run_scenario(struct rank *k)
{
	if (!strcmp(scenario, "matrix"))
		matrix(k);
	else if (!strcmp(scenario, "group"))
		group(k);
	else if (!strcmp(scenario, "async"))
		async_call(k);
	else if (!strcmp(scenario, "errors"))
		errors(k);
	else if (!strcmp(scenario, "timeout") || !strcmp(scenario, "peer-exit") ||
		 !strcmp(scenario, "abort"))
		stuck(k, scenario);
	else if (!strcmp(scenario, "split"))
		split(k);
	else if (!strcmp(scenario, "events"))
		events(k);
}

static int rank_main(int rank)
{
	struct rank k = {.rank = rank, .n = nranks};
	int ndev = 1;
	ncclResult_t r;
	HOK(&k, hipGetDeviceCount(&ndev));
	HOK(&k, hipSetDevice(rank % ndev));
	HOK(&k, hipStreamCreate(&k.s));
	if (!strcmp(scenario, "nonblocking")) {
		ncclConfig_t cfg = NCCL_CONFIG_INITIALIZER;
		ncclResult_t a = ncclInProgress;
		cfg.blocking = 0;
		if (rank == 1)
			usleep(100000);
		r = ncclCommInitRankConfig(&k.comm, nranks, the_id, rank, &cfg);
		expect(&k, r == ncclInProgress || r == ncclSuccess,
		       "non-blocking ncclCommInitRankConfig returns %d", r);
		while (a == ncclInProgress && ncclCommGetAsyncError(k.comm, &a) == ncclSuccess)
			usleep(1000);
		expect(&k, a == ncclSuccess, "non-blocking initialisation ends with %d", a);
		if (rank == 0 && nranks > 1)
			expect(&k, r == ncclInProgress, "rank 0 returns ncclInProgress before rank 1 "
			       "joins (%d)", r);
	} else {
		OK(&k, ncclCommInitRank(&k.comm, nranks, the_id, rank));
	}
	run_scenario(&k);
	if (strcmp(scenario, "peer-exit"))
		barrier(&k);
	if (k.comm)
		OK(&k, ncclCommDestroy(k.comm));
	expect_no_segment(&k, &the_id);
	HOK(&k, hipStreamDestroy(k.s));
	if (k.failed) {
		fprintf(stderr, "rank %d: %d of %d checks failed\n", rank, k.failed, k.checks);
		return -1;
	}
	return k.checks;
}

static void *thread_main(void *arg)
{
	return (void *)(intptr_t)rank_main((int)(intptr_t)arg);
}

/* ------------------------------------------------------------------ one process */
static int initall(void)
{
	struct rank k = {.rank = 0, .n = 1};
	int ndev = 0, i;
	ncclComm_t comms[MAXN], again[MAXN];
	hipStream_t s[MAXN];
	float *d[MAXN], h[256];
	HOK(&k, hipGetDeviceCount(&ndev));
	if (ndev > MAXN)
		ndev = MAXN;
	OK(&k, ncclCommInitAll(comms, ndev, NULL));
	for (i = 0; i < ndev; i++) {
		int j;
		HOK(&k, hipSetDevice(i));
		HOK(&k, hipStreamCreate(&s[i]));
		d[i] = dalloc(&k, sizeof(h));
		for (j = 0; j < 256; j++)
			h[j] = (float)(i + 1);
		to_dev(&k, d[i], h, sizeof(h));
	}
	/* one thread drives every device: the classic single-process pattern */
	OK(&k, ncclGroupStart());
	for (i = 0; i < ndev; i++)
		OK(&k, ncclAllReduce(d[i], d[i], 256, ncclFloat32, ncclSum, comms[i], s[i]));
	OK(&k, ncclGroupEnd());
	for (i = 0; i < ndev; i++) {
		HOK(&k, hipStreamSynchronize(s[i]));
		HOK(&k, hipMemcpy(h, d[i], sizeof(h), hipMemcpyDeviceToHost));
		expect(&k, h[0] == (float)(ndev * (ndev + 1) / 2) && h[255] == h[0],
		       "ncclCommInitAll: device %d has %g, want %d", i, h[0], ndev * (ndev + 1) / 2);
	}
	/* ncclCommInitRank for every device inside one group, then a broadcast from the last */
	for (i = 0; i < ndev; i++) {
		int j;
		for (j = 0; j < 256; j++)
			h[j] = (float)(10 * (i + 1));
		to_dev(&k, d[i], h, sizeof(h));
	}
	{
		ncclUniqueId id;
		OK(&k, ncclGetUniqueId(&id));
		OK(&k, ncclGroupStart());
		for (i = 0; i < ndev; i++) {
			HOK(&k, hipSetDevice(i));
			OK(&k, ncclCommInitRank(&again[i], ndev, id, i));
		}
		for (i = 0; i < ndev; i++)
			OK(&k, ncclBroadcast(d[i], d[i], 256, ncclFloat32, ndev - 1, again[i], s[i]));
		OK(&k, ncclGroupEnd());
	}
	for (i = 0; i < ndev; i++) {
		int dev = -1;
		HOK(&k, hipStreamSynchronize(s[i]));
		HOK(&k, hipMemcpy(h, d[i], sizeof(h), hipMemcpyDeviceToHost));
		expect(&k, h[7] == (float)(10 * ndev), "group init + broadcast: %g, want %d", h[7],
		       10 * ndev);
		OK(&k, ncclCommCuDevice(again[i], &dev));
		expect(&k, dev == i, "the communicator made on device %d says device %d", i, dev);
		OK(&k, ncclCommDestroy(again[i]));
		OK(&k, ncclCommDestroy(comms[i]));
		HOK(&k, hipFree(d[i]));
		HOK(&k, hipStreamDestroy(s[i]));
	}
	return k.failed ? -1 : k.checks;
}

static int init_timeout(void)
{
	struct rank k = {.rank = 0, .n = 1};
	ncclComm_t c = (ncclComm_t)&k;
	ncclUniqueId id;
	ncclResult_t r;
	OK(&k, ncclGetUniqueId(&id));
	r = ncclCommInitRank(&c, 2, id, 0);
	expect(&k, r == ncclSystemError, "a rank alone: ncclCommInitRank returns %d, want %d", r,
	       ncclSystemError);
	expect(&k, strstr(ncclGetLastError(NULL), "timed out") != NULL,
	       "ncclGetLastError says it timed out: %s", ncclGetLastError(NULL));
	expect(&k, c == NULL, "no communicator after a failed ncclCommInitRank");
	expect_no_segment(&k, &id);
	return k.failed ? -1 : k.checks;
}

static int launch(const char *mode)
{
	pid_t kids[MAXN];
	pthread_t th[MAXN];
	int i, st, total = 0, failed = 0, q;
	for (i = 0; i < nranks; i++)
		for (q = 0; q < nranks; q++)
			if (pipe(pipes[i][q]) != 0)
				return -1;
	if (ncclGetUniqueId(&the_id) != ncclSuccess)
		return -1;
	if (!strcmp(mode, "threads")) {
		int ndev = 0;
		/* Two ranks of one process on one device would deadlock in hipMemcpy and hipFree,
		 * which wait for every blocking stream of the device, as on a real GPU. */
		if (hipGetDeviceCount(&ndev) != hipSuccess || ndev < nranks) {
			fprintf(stderr, "test-nccl: threads mode needs a device per rank "
				"(STANDIN_HIP_DEVICES=%d)\n", nranks);
			return -1;
		}
		for (i = 0; i < nranks; i++)
			pthread_create(&th[i], NULL, thread_main, (void *)(intptr_t)i);
		for (i = 0; i < nranks; i++) {
			void *ret;
			pthread_join(th[i], &ret);
			if ((intptr_t)ret < 0)
				failed = 1;
			else
				total += (int)(intptr_t)ret;
		}
		return failed ? -1 : total;
	}
	for (i = 1; i < nranks; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			int c = rank_main(i);
			_exit(c < 0 ? 1 : 0);
		}
	}
	total = rank_main(0);
	for (i = 1; i < nranks; i++)
		if (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	return failed || total < 0 ? -1 : total;
}

int main(int argc, char **argv)
{
	int checks;
	if (argc != 4 || (nranks = atoi(argv[2])) < 1 || nranks > MAXN) {
		fprintf(stderr, "usage: test-nccl fork|threads|mpi N SCENARIO (1 <= N <= %d)\n", MAXN);
		return 2;
	}
	scenario = argv[3];
	if (!strcmp(scenario, "initall")) {
		checks = initall();
	} else if (!strcmp(scenario, "init-timeout")) {
		checks = init_timeout();
	} else if (!strcmp(argv[1], "mpi")) {
#ifdef WITH_MPI
		int rank, all, mine;
		mode_mpi = 1;
		MPI_Init(&argc, &argv);
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
		MPI_Comm_size(MPI_COMM_WORLD, &nranks);
		if (rank == 0)
			ncclGetUniqueId(&the_id);
		MPI_Bcast(&the_id, sizeof(the_id), MPI_BYTE, 0, MPI_COMM_WORLD);
		checks = rank_main(rank);
		mine = checks < 0 ? -1 : checks;
		MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		MPI_Allreduce(&mine, &checks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		if (all < 0)
			checks = -1;
		MPI_Finalize();
		if (rank != 0)
			return checks < 0;
#else
		fprintf(stderr, "test-nccl: built without MPI\n");
		return 2;
#endif
	} else {
		checks = launch(argv[1]);
	}
	if (checks < 0) {
		printf("%s: FAILED\n", scenario);
		return 1;
	}
	printf("%s: %d ranks, %d checks passed\n", scenario, nranks, checks);
	return 0;
}

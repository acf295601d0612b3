/* test-nrt.c — checks the stand-in libnrt.so.1 through the Neuron runtime's C API: the
 * statuses before nrt_init, after nrt_close and on misuse, the NeuronCores a process sees,
 * NEFF parsing and model placement, tensors that hold data, tensor sets, executions that
 * compute their outputs and last their run time, and executions from several threads (on one
 * NeuronCore they queue, on two they overlap: t-nrt.sh checks that in the trace file).
 * Run by t-nrt.sh with STANDIN_NRT_CORES=4 and NEURON_RT_VISIBLE_CORES=1-3 (three cores). */
#include <nrt/nrt.h>
#include <nrt/nrt_experimental.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define EXEC_MS 20.0     /* "alpha" runs this long */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* NEFF bytes: the header, then `text` as data.  Free with free(). */
static void *neff(const char *name, uint64_t major, uint32_t ncs, const char *build, const char *text,
		  size_t *size)
{
	size_t data = text ? strlen(text) + 1 : 0;
	unsigned char *p = calloc(1, 1024 + data);
	uint64_t header = 1024;
	memcpy(p + 8, &header, 8);
	memcpy(p + 16, &data, 8);
	memcpy(p + 24, &major, 8);
	snprintf((char *)p + 40, 128, "%s", build ? build : "standin");
	snprintf((char *)p + 220, 256, "%s", name);
	memcpy(p + 476, &ncs, 4);
	if (text)
		memcpy(p + 1024, text, data);
	*size = 1024 + data;
	return p;
}

static nrt_model_t *load(const char *name, uint32_t ncs, const char *build, const char *text, int vnc,
			 int count, NRT_STATUS *rc)
{
	size_t n;
	void *b = neff(name, 2, ncs, build, text, &n);
	nrt_model_t *m = NULL;
	*rc = nrt_load(b, n, vnc, count, &m);
	free(b);
	return m;
}

static nrt_tensor_t *tensor(nrt_tensor_placement_t pl, int vnc, size_t size, const char *name)
{
	nrt_tensor_t *t = NULL;
	NRT_STATUS rc = nrt_tensor_allocate(pl, vnc, size, name, &t);
	return rc == NRT_SUCCESS ? t : NULL;
}

static void fill(nrt_tensor_t *t, size_t n, float base)
{
	float *v = malloc(n * sizeof(float));
	for (size_t i = 0; i < n; i++)
		v[i] = base + (float)i;
	nrt_tensor_write(t, v, 0, n * sizeof(float));
	free(v);
}

/* ---- threads: one model each, executed `reps` times --------------------------------------- */
struct job {
	nrt_model_t *model;
	nrt_tensor_set_t *in, *out;
	int reps, failures;
	pthread_barrier_t *go;
};

static void *run_job(void *arg)
{
	struct job *j = arg;
	pthread_barrier_wait(j->go);
	for (int i = 0; i < j->reps; i++)
		if (nrt_execute(j->model, j->in, j->out) != NRT_SUCCESS)
			j->failures++;
	return NULL;
}

/* A model on `vnc` with its own input and output tensors and sets. */
static void job_setup(struct job *j, const char *name, int vnc, const char *build)
{
	NRT_STATUS rc;
	memset(j, 0, sizeof(*j));
	j->model = load(name, 1, build, "in=input:64 out=output:64", vnc, 1, &rc);
	nrt_allocate_tensor_set(&j->in);
	nrt_allocate_tensor_set(&j->out);
	nrt_add_tensor_to_tensor_set(j->in, "input", tensor(NRT_TENSOR_PLACEMENT_DEVICE, vnc, 64, "input"));
	nrt_add_tensor_to_tensor_set(j->out, "output", tensor(NRT_TENSOR_PLACEMENT_DEVICE, vnc, 64, "output"));
}

static void job_free(struct job *j)
{
	nrt_tensor_t *t = NULL;
	nrt_get_tensor_from_tensor_set(j->in, "input", &t);
	nrt_tensor_free(&t);
	nrt_get_tensor_from_tensor_set(j->out, "output", &t);
	nrt_tensor_free(&t);
	nrt_destroy_tensor_set(&j->in);
	nrt_destroy_tensor_set(&j->out);
	nrt_unload(j->model);
}

/* Two threads, each executing its model `reps` times, started together; wall time in ms. */
static double pair(struct job *a, struct job *b, int reps)
{
	pthread_barrier_t go;
	pthread_t ta, tb;
	pthread_barrier_init(&go, NULL, 3);
	a->reps = b->reps = reps;
	a->go = b->go = &go;
	pthread_create(&ta, NULL, run_job, a);
	pthread_create(&tb, NULL, run_job, b);
	double t0 = now_ms();
	pthread_barrier_wait(&go);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&go);
	return now_ms() - t0;
}

int main(void)
{
	NRT_STATUS rc;
	uint32_t n = 0;
	nrt_model_t *m = NULL;

	/* ---- before nrt_init ---- */
	ok(nrt_get_total_nc_count(&n) == NRT_SUCCESS && n == 4, "4 NeuronCores in all before init (%u)", n);
	ok(nrt_get_visible_nc_count(&n) == NRT_SUCCESS && n == 3,
	   "NEURON_RT_VISIBLE_CORES=1-3: 3 visible before init (%u)", n);
	m = load("early", 1, NULL, NULL, 0, 1, &rc);
	is_u64(rc, NRT_UNINITIALIZED, "nrt_load before nrt_init is NRT_UNINITIALIZED");
	is_u64(nrt_init(NRT_FRAMEWORK_TYPE_INVALID, "", ""), NRT_INVALID, "nrt_init of an invalid framework");
	is_u64(nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "1.0", "1.0"), NRT_SUCCESS, "nrt_init");
	is_u64(nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "1.0", "1.0"), NRT_INVALID, "a second nrt_init is refused");
	ok(nrt_get_visible_vnc_count(&n) == NRT_SUCCESS && n == 3, "3 visible after init (%u)", n);

	nrt_version_t ver;
	ok(nrt_get_version(&ver, sizeof(ver)) == NRT_SUCCESS && ver.rt_major == 2 && ver.rt_minor == 28,
	   "version 2.28 (%llu.%llu)", (unsigned long long)ver.rt_major, (unsigned long long)ver.rt_minor);
	is_u64(nrt_get_version(&ver, 8), NRT_INVALID, "nrt_get_version with a short size");
	nrt_instance_info_t ii;
	ok(nrt_get_instance_info(&ii, sizeof(ii)) == NRT_SUCCESS && ii.family == NRT_INSTANCE_TRN1 &&
	   !strcmp(ii.arch_name, "NCv2"), "instance info: family %u, arch %s", ii.family, ii.arch_name);
	ok(!strcmp(nrt_get_status_as_str(NRT_EXEC_BAD_INPUT), "NRT_EXEC_BAD_INPUT"), "status names");

	/* ---- NEFFs and loading ---- */
	size_t sz;
	void *b = neff("short", 2, 1, NULL, NULL, &sz);
	is_u64(nrt_load(b, 1000, 0, 1, &m), NRT_INVALID, "a NEFF shorter than its header is NRT_INVALID");
	free(b);
	b = neff("future", 7, 1, NULL, NULL, &sz);
	is_u64(nrt_load(b, sz, 0, 1, &m), NRT_UNSUPPORTED_NEFF_VERSION, "NEFF version 7 is unsupported");
	free(b);
	load("bad", 1, NULL, "colour=blue", 0, 1, &rc);
	is_u64(rc, NRT_INVALID, "an unknown key in the NEFF is NRT_INVALID");
	load("far", 1, NULL, NULL, 3, 1, &rc);
	is_u64(rc, NRT_LOAD_NOT_ENOUGH_NC, "vnc 3 of 3 visible cores");
	load("wide", 2, NULL, NULL, 0, 1, &rc);
	is_u64(rc, NRT_LOAD_NOT_ENOUGH_NC, "a model needing 2 cores given 1");
	nrt_model_t *wide = load("wide", 2, NULL, NULL, 1, -1, &rc);
	ok(rc == NRT_SUCCESS && nrt_get_model_nc_count(wide, &n) == NRT_SUCCESS && n == 2,
	   "a 2-core model on vnc 1 with vnc_count -1 takes 2 cores (%u)", n);
	nrt_model_t *alpha = load("alpha", 1, "standin exec_us=20000", "add=2.5 in=a:4096 in=b:4096 out=y:4096",
				  0, 1, &rc);
	is_u64(rc, NRT_SUCCESS, "alpha loads on vnc 0");
	nrt_unload(wide);
	nrt_model_t *autom = load("auto", 1, NULL, NULL, -1, 1, &rc);
	nrt_model_info_t mi = { 99 };
	size_t mi_out = 0;
	ok(rc == NRT_SUCCESS && nrt_get_model_info(autom, &mi, sizeof(mi), &mi_out) == NRT_SUCCESS &&
	   mi.vnc == 1 && mi_out == sizeof(mi), "vnc -1 picks the first least-loaded core, 1 (%u)", mi.vnc);
	nrt_unload(autom);
	is_u64(nrt_unload(autom), NRT_INVALID_HANDLE, "unloading twice is NRT_INVALID_HANDLE");
	nrt_tensor_info_array_t *ti = NULL;
	ok(nrt_get_model_tensor_info(alpha, &ti) == NRT_SUCCESS && ti->tensor_count == 3 &&
	   !strcmp(ti->tensor_array[1].name, "b") && ti->tensor_array[1].usage == NRT_TENSOR_USAGE_INPUT &&
	   !strcmp(ti->tensor_array[2].name, "y") && ti->tensor_array[2].usage == NRT_TENSOR_USAGE_OUTPUT &&
	   ti->tensor_array[2].size == 4096 && ti->tensor_array[2].shape[0] == 1024,
	   "tensor info: a, b in; y out, 4096 bytes");
	nrt_free_model_tensor_info(ti);

	/* ---- tensors ---- */
	nrt_tensor_t *ta = tensor(NRT_TENSOR_PLACEMENT_DEVICE, 0, 4096, "a");
	nrt_tensor_t *tb = tensor(NRT_TENSOR_PLACEMENT_VIRTUAL, -1, 4096, "b");
	nrt_tensor_t *ty = tensor(NRT_TENSOR_PLACEMENT_DEVICE, 0, 4096, "y");
	ok(ta && tb && ty && nrt_tensor_get_size(ta) == 4096, "tensors allocate (device and virtual)");
	fill(ta, 1024, 0);
	fill(tb, 1024, 100);
	float v[4] = { 0 };
	ok(nrt_tensor_read(ta, v, 8 * sizeof(float), sizeof(v)) == NRT_SUCCESS && v[0] == 8 && v[3] == 11,
	   "a write then a read at an offset");
	is_u64(nrt_tensor_read(ta, v, 4090, 16), NRT_INVALID, "a read past the end is NRT_INVALID");
	nrt_tensor_t *tx = NULL;
	is_u64(nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 7, 64, "x", &tx), NRT_INVALID,
	       "a device tensor on a core that is not there");
	is_u64(nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 1, (size_t)1 << 40, "x", &tx), NRT_RESOURCE,
	       "more device memory than the core has is NRT_RESOURCE");
	nrt_tensor_t *t1 = tensor(NRT_TENSOR_PLACEMENT_DEVICE, 1, 64, "on1");
	is_u64(nrt_tensor_copy(ta, 0, t1, 0, 64), NRT_INVALID, "a copy between two cores' memory");
	nrt_tensor_t *h = tensor(NRT_TENSOR_PLACEMENT_HOST, -1, 64, "h");
	ok(nrt_tensor_copy(ta, 16, h, 0, 16) == NRT_SUCCESS && nrt_tensor_read(h, v, 0, 16) == NRT_SUCCESS &&
	   v[0] == 4 && v[3] == 7, "a copy from device to host memory");
	ok(nrt_tensor_memset(h, 4, 0, 8) == NRT_SUCCESS && nrt_tensor_read(h, v, 0, 16) == NRT_SUCCESS &&
	   v[0] == 4 && v[1] == 0 && v[2] == 0 && v[3] == 7, "memset");
	nrt_tensor_t *sl = NULL;
	ok(nrt_tensor_allocate_slice(ta, 40, 8, "slice", &sl) == NRT_SUCCESS && nrt_tensor_get_size(sl) == 8 &&
	   nrt_tensor_read(sl, v, 0, 8) == NRT_SUCCESS && v[0] == 10 && v[1] == 11,
	   "a slice reads its parent's memory");
	float seven = 7;
	nrt_tensor_write(sl, &seven, 0, 4);
	ok(nrt_tensor_read(ta, v, 40, 4) == NRT_SUCCESS && v[0] == 7, "and writes it");
	float mine[4] = { 1, 2, 3, 4 };
	nrt_tensor_t *e = NULL;
	ok(nrt_tensor_allocate_empty("mine", &e) == NRT_SUCCESS && nrt_tensor_get_size(e) == 0 &&
	   nrt_tensor_attach_buffer(e, mine, sizeof(mine)) == NRT_SUCCESS && nrt_tensor_get_va(e) == mine &&
	   nrt_tensor_read(e, v, 0, 16) == NRT_SUCCESS && v[2] == 3, "an empty tensor with a buffer attached");
	is_u64(nrt_tensor_attach_buffer(e, mine, sizeof(mine)), NRT_INVALID, "attaching twice");
	nrt_tensor_batch_op_t ops[2] = { { 0, 4, &v[0] }, { 8, 4, &v[1] } };
	nrt_tensor_batch_t bt = { ta, ops, 2 };
	ok(nrt_tensor_read_batch(&bt, 1, false) == NRT_SUCCESS && v[0] == 0 && v[1] == 2, "a batch read");
	nrt_vnc_memory_stats_t ms;
	size_t ms_out = 0;
	ok(nrt_get_vnc_memory_stats(0, &ms, sizeof(ms), &ms_out) == NRT_SUCCESS && ms.bytes_used == 8192,
	   "NeuronCore 0 has 8192 bytes of tensors (%zu)", ms.bytes_used);
	nrt_tensor_free(&sl);
	nrt_tensor_free(&e);
	nrt_tensor_free(&t1);
	nrt_tensor_t *dead = h;
	nrt_tensor_free(&h);
	ok(h == NULL, "nrt_tensor_free clears the pointer");
	is_u64(nrt_tensor_read(dead, v, 0, 4), NRT_INVALID_HANDLE, "a freed tensor is NRT_INVALID_HANDLE");

	/* ---- sets and executions ---- */
	nrt_tensor_set_t *in = NULL, *out = NULL;
	ok(nrt_allocate_tensor_set(&in) == NRT_SUCCESS && nrt_allocate_tensor_set(&out) == NRT_SUCCESS,
	   "tensor sets");
	nrt_add_tensor_to_tensor_set(in, "a", ta);
	nrt_add_tensor_to_tensor_set(out, "y", ty);
	is_u64(nrt_execute(alpha, in, out), NRT_EXEC_BAD_INPUT, "an execution missing input b");
	nrt_add_tensor_to_tensor_set(in, "b", tb);
	nrt_tensor_t *got = NULL;
	ok(nrt_get_tensor_from_tensor_set(in, "b", &got) == NRT_SUCCESS && got == tb, "a set gives back b");
	is_u64(nrt_get_tensor_from_tensor_set(in, "c", &got), NRT_FAILURE, "a name not in the set");
	is_u64(nrt_execute(alpha, in, NULL), NRT_INVALID, "an execution without an output set");
	double t0 = now_ms();
	rc = nrt_execute(alpha, in, out);
	double took = now_ms() - t0;
	ok(rc == NRT_SUCCESS && took >= EXEC_MS, "alpha executes in %.1f ms (>= %.0f)", took, EXEC_MS);
	float y[1024], a[1024], bb[1024];
	nrt_tensor_read(ty, y, 0, sizeof(y));
	nrt_tensor_read(ta, a, 0, sizeof(a));
	nrt_tensor_read(tb, bb, 0, sizeof(bb));
	int right = 1;
	for (int i = 0; i < 1024; i++)
		right &= fabsf(y[i] - (2.5f + a[i] + bb[i])) < 1e-3f;
	ok(right, "y = 2.5 + a + b elementwise (y[10] = %g)", y[10]);
	t0 = now_ms();
	rc = nrt_execute_repeat(alpha, in, out, 3);
	took = now_ms() - t0;
	ok(rc == NRT_SUCCESS && took >= 3 * EXEC_MS, "nrt_execute_repeat x3 takes %.1f ms", took);
	is_u64(nrt_execute_repeat(alpha, in, out, 0), NRT_INVALID, "a repeat count of 0");
	nrt_model_t *nan = load("nan", 1, NULL, "status=1003 in=a:16 out=y:16", 0, 1, &rc);
	is_u64(nrt_execute(nan, in, out), NRT_EXEC_COMPLETED_WITH_NUM_ERR,
	       "a model whose NEFF says status=1003 completes with NRT_EXEC_COMPLETED_WITH_NUM_ERR");
	nrt_unload(nan);
	is_u64(nrt_execute(nan, in, out), NRT_INVALID_HANDLE, "an unloaded model is NRT_INVALID_HANDLE");
	nrt_destroy_tensor_set(&out);
	ok(out == NULL, "nrt_destroy_tensor_set clears the pointer");

	/* ---- threads: one core, then two ---- */
	struct job s0, s1, p0, p1;
	job_setup(&s0, "same0", 1, "standin exec_us=10000");
	job_setup(&s1, "same1", 1, "standin exec_us=10000");
	double wall = pair(&s0, &s1, 3);
	ok(!s0.failures && !s1.failures && wall >= 60, "two threads on one core queue: 6 x 10 ms in %.1f ms", wall);
	job_setup(&p0, "par0", 1, "standin exec_us=200000");
	job_setup(&p1, "par1", 2, "standin exec_us=200000");
	wall = pair(&p0, &p1, 1);
	ok(!p0.failures && !p1.failures, "two threads on two cores execute (%.1f ms)", wall);
	job_free(&s0);
	job_free(&s1);
	job_free(&p0);
	job_free(&p1);

	/* ---- fork: the child uses what its parent loaded ---- */
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		nrt_tensor_set_t *o = NULL;
		nrt_allocate_tensor_set(&o);
		nrt_add_tensor_to_tensor_set(o, "y", ty);
		_exit(nrt_execute(alpha, in, o) == NRT_SUCCESS ? 0 : 1);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a forked child executes its parent's model");

	/* ---- collectives and close ---- */
	is_u64(nrt_barrier(0, 0, 1), NRT_SUCCESS, "a barrier of one");
	is_u64(nrt_barrier(0, 0, 2), NRT_FAILURE, "a barrier of two has no peer");
	int gi = 42, go = 0;
	ok(nrt_all_gather(0, 0, 1, sizeof(gi), &gi, &go) == NRT_SUCCESS && go == 42, "an all-gather of one");
	nrt_destroy_tensor_set(&in);
	nrt_tensor_free(&ta);
	nrt_tensor_free(&tb);
	nrt_close();
	m = load("late", 1, NULL, NULL, 0, 1, &rc);
	is_u64(rc, NRT_CLOSED, "nrt_load after nrt_close is NRT_CLOSED");
	is_u64(nrt_execute(alpha, NULL, NULL), NRT_CLOSED, "and so is an execution");
	nrt_tensor_free(&ty);
	return tap_done();
}

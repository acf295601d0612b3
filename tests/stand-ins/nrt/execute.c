/* execute.c — running a model: nrt_execute and nrt_execute_repeat block until the outputs are
 * written, as the real calls do.  An execution takes its NeuronCores' locks (so two threads on
 * one core queue, two on different cores run at once), computes every output element as the
 * model's constant plus the sum of the inputs' elements (float32), lasts the model's run time
 * from when it got its cores, and writes one line to the trace file saying what ran when. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

pthread_mutex_t sn_core_lock[SN_MAX_CORES] = { [0 ... SN_MAX_CORES - 1] = PTHREAD_MUTEX_INITIALIZER };
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int running, forking;

static void gate_enter(void)
{
	pthread_mutex_lock(&gate_lock);
	while (forking)
		pthread_cond_wait(&gate_cv, &gate_lock);
	running++;
	pthread_mutex_unlock(&gate_lock);
}

static void gate_leave(void)
{
	pthread_mutex_lock(&gate_lock);
	if (--running == 0)
		pthread_cond_broadcast(&gate_cv);
	pthread_mutex_unlock(&gate_lock);
}

void sn_exec_fork_prepare(void)
{
	pthread_mutex_lock(&gate_lock);
	forking = 1;
	while (running)
		pthread_cond_wait(&gate_cv, &gate_lock);
}

void sn_exec_fork_parent(void)
{
	forking = 0;
	pthread_cond_broadcast(&gate_cv);
	pthread_mutex_unlock(&gate_lock);
}

void sn_exec_fork_child(void)
{
	forking = 0;
	pthread_mutex_init(&gate_lock, NULL);
	pthread_cond_init(&gate_cv, NULL);
}

/* What an execution needs once its arguments are checked (copied out of sn_lock). */
struct run {
	char name[257];
	int vnc, count, cores[SN_MAX_CORES];
	int64_t exec_ns;
	float add;
	NRT_STATUS status;
	int nin, nout;
	const char *in[SN_MAX_IO];
	size_t in_elems[SN_MAX_IO];
	char *out[SN_MAX_IO];
	size_t out_elems[SN_MAX_IO];
};

/* Under sn_lock: the tensor `io` names in set s, checked against the model's NeuronCores. */
static NRT_STATUS io_tensor(const char *what, const nrt_model_t *m, const struct sn_set *s,
			    const struct sn_io *io, char **data)
{
	nrt_tensor_t *t = sn_set_find(s, io->name);
	if (!t)
		return sn_fail(NRT_EXEC_BAD_INPUT, "%s: %s: no tensor \"%s\" in the set", what, m->name,
			       io->name);
	if (!sn_handle_is(t, SN_TENSOR))
		return sn_fail(NRT_EXEC_BAD_INPUT, "%s: %s: tensor \"%s\" was freed", what, m->name, io->name);
	if (!t->buf || t->size < io->bytes)
		return sn_fail(NRT_EXEC_BAD_INPUT, "%s: %s: tensor \"%s\" has %zu bytes, %zu needed", what,
			       m->name, io->name, t->buf ? t->size : 0, io->bytes);
	if (t->placement == NRT_TENSOR_PLACEMENT_DEVICE && (t->vnc < m->vnc || t->vnc >= m->vnc + m->count))
		return sn_fail(NRT_EXEC_BAD_INPUT, "%s: %s: tensor \"%s\" is on NeuronCore %d", what,
			       m->name, io->name, t->vnc);
	*data = sn_tensor_data(t);
	return NRT_SUCCESS;
}

static NRT_STATUS prepare(const char *what, nrt_model_t *m, const struct sn_set *in,
			  const struct sn_set *out, struct run *r)
{
	NRT_STATUS rc = sn_ready();
	if (rc != NRT_SUCCESS)
		return rc;
	if (!sn_handle_is(m, SN_MODEL))
		return sn_fail(NRT_INVALID_HANDLE, "%s: %p is no model", what, (void *)m);
	memcpy(r->name, m->name, sizeof(r->name));
	r->vnc = m->vnc;
	r->count = m->count;
	/* Physical cores, locked in ascending order. */
	for (int k = 0; k < r->count; k++) {
		int c = sn.visible[r->vnc + k], j = k;
		for (; j > 0 && r->cores[j - 1] > c; j--)
			r->cores[j] = r->cores[j - 1];
		r->cores[j] = c;
	}
	if (!in || !out)
		return sn_fail(NRT_INVALID, "%s: %s: no %s set", what, m->name, in ? "output" : "input");
	if (!sn_handle_is(in, SN_SET) || !sn_handle_is(out, SN_SET))
		return sn_fail(NRT_INVALID_HANDLE, "%s: %s: not a tensor set", what, m->name);
	r->exec_ns = m->exec_ns;
	r->add = m->add;
	r->status = m->status;
	r->nin = m->nin;
	r->nout = m->nout;
	for (int i = 0; i < m->nin && rc == NRT_SUCCESS; i++) {
		char *d = NULL;
		rc = io_tensor(what, m, in, &m->in[i], &d);
		r->in[i] = d;
		r->in_elems[i] = m->in[i].bytes / sizeof(float);
	}
	for (int i = 0; i < m->nout && rc == NRT_SUCCESS; i++) {
		rc = io_tensor(what, m, out, &m->out[i], &r->out[i]);
		r->out_elems[i] = m->out[i].bytes / sizeof(float);
	}
	return rc;
}

static void compute(const struct run *r)
{
	size_t n = 0;
	for (int k = 0; k < r->nout; k++)
		if (r->out_elems[k] > n)
			n = r->out_elems[k];
	for (size_t i = 0; i < n; i++) {
		float s = r->add, x;
		for (int j = 0; j < r->nin; j++)
			if (i < r->in_elems[j]) {
				memcpy(&x, r->in[j] + i * sizeof(float), sizeof(x));
				s += x;
			}
		for (int k = 0; k < r->nout; k++)
			if (i < r->out_elems[k])
				memcpy(r->out[k] + i * sizeof(float), &s, sizeof(s));
	}
}

static NRT_STATUS execute(const char *what, nrt_model_t *model, const nrt_tensor_set_t *input_set,
			  nrt_tensor_set_t *output_set, int repeat)
{
	uint64_t entry = sn_now_ns(), start = 0, end = 0;
	struct run r;
	NRT_STATUS rc;
	memset(&r, 0, sizeof(r));
	r.vnc = -1;
	sn_config_once();
	if (repeat < 1) {
		rc = sn_fail(NRT_INVALID, "%s: repeat count %d", what, repeat);
	} else {
		pthread_mutex_lock(&sn_lock);
		rc = prepare(what, model, input_set, output_set, &r);
		pthread_mutex_unlock(&sn_lock);
	}
	if (rc == NRT_SUCCESS) {
		gate_enter();
		for (int k = 0; k < r.count; k++)
			pthread_mutex_lock(&sn_core_lock[r.cores[k]]);
		start = sn_now_ns();
		uint64_t t = start;
		for (int i = 0; i < repeat; i++) {
			compute(&r);
			t += (uint64_t)r.exec_ns;
			sn_wait_until(t);
		}
		end = sn_now_ns();
		for (int k = r.count - 1; k >= 0; k--)
			pthread_mutex_unlock(&sn_core_lock[r.cores[k]]);
		gate_leave();
		rc = r.status;
	}
	char name[600];
	if (sn_cfg.trace_path)
		sn_trace("{\"event\":\"exec\",\"call\":\"%s\",\"pid\":%d,\"tid\":%ld,\"model\":%s,"
			 "\"nc\":%d,\"ncs\":%d,\"core\":%d,\"repeat\":%d,\"entry_ns\":%llu,"
			 "\"start_ns\":%llu,\"end_ns\":%llu,\"return_ns\":%llu,\"status\":%d,\"ran\":%s}",
			 what, (int)getpid(), (long)syscall(SYS_gettid),
			 sn_json_str(r.name, name, sizeof(name)), r.vnc, r.count,
			 r.count ? r.cores[0] : -1, repeat, (unsigned long long)entry,
			 (unsigned long long)start, (unsigned long long)end,
			 (unsigned long long)sn_now_ns(), (int)rc, start ? "true" : "false");
	return rc;
}

SN_EXPORT NRT_STATUS nrt_execute(nrt_model_t *model, const nrt_tensor_set_t *input_set,
				 nrt_tensor_set_t *output_set)
{
	return execute("nrt_execute", model, input_set, output_set, 1);
}

SN_EXPORT NRT_STATUS nrt_execute_repeat(nrt_model_t *model, const nrt_tensor_set_t *input_set,
					nrt_tensor_set_t *output_set, int repeat_count)
{
	return execute("nrt_execute_repeat", model, input_set, output_set, repeat_count);
}

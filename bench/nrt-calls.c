/* nrt-calls.c — the host cost of Neuron runtime calls, for the overhead the profiler adds to
 * them: nrt_execute of a model whose run time is 0 (one 64-byte input, one output, on
 * NeuronCore 0), and nrt_tensor_read of 64 bytes.  The NEFF is made here (the stand-in's
 * header and text, tests/stand-ins/nrt/models.c).  Runs against the stand-in libnrt.so.1;
 * prints ns per call (median of batches), KEY=VALUE.
 * Usage: nrt-calls execute|read COUNT */
#include <nrt/nrt.h>

#include "bench.h"

#define BATCH 1000

static void *make_neff(size_t *size)
{
	static const char text[] = "standin in=input:64 out=output:64";
	unsigned char *p = calloc(1, 1024 + sizeof(text));
	uint64_t header = 1024, data = sizeof(text), major = 2;
	uint32_t ncs = 1;
	memcpy(p + 8, &header, 8);
	memcpy(p + 16, &data, 8);
	memcpy(p + 24, &major, 8);
	snprintf((char *)p + 40, 128, "standin exec_us=0");
	snprintf((char *)p + 220, 256, "bench-model");
	memcpy(p + 476, &ncs, 4);
	memcpy(p + 1024, text, sizeof(text));
	*size = 1024 + sizeof(text);
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "execute") && strcmp(argv[1], "read"))) {
		fprintf(stderr, "usage: %s execute|read COUNT\n", argv[0]);
		return 2;
	}
	int execute = !strcmp(argv[1], "execute");
	uint64_t n = bench_count(argv[2], "count");
	size_t batches = (size_t)(n / BATCH), size;
	double *ns = calloc(batches ? batches : 1, sizeof(double));
	void *neff = make_neff(&size);
	nrt_model_t *model = NULL;
	nrt_tensor_t *in = NULL, *out = NULL;
	nrt_tensor_set_t *ins = NULL, *outs = NULL;
	char buf[64];
	if (nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", "") != NRT_SUCCESS ||
	    nrt_load(neff, size, 0, 1, &model) != NRT_SUCCESS ||
	    nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, 64, "input", &in) != NRT_SUCCESS ||
	    nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, 64, "output", &out) != NRT_SUCCESS ||
	    nrt_allocate_tensor_set(&ins) != NRT_SUCCESS || nrt_allocate_tensor_set(&outs) != NRT_SUCCESS ||
	    nrt_add_tensor_to_tensor_set(ins, "input", in) != NRT_SUCCESS ||
	    nrt_add_tensor_to_tensor_set(outs, "output", out) != NRT_SUCCESS) {
		fprintf(stderr, "no Neuron runtime to run on\n");
		return 1;
	}
	free(neff);
	for (size_t b = 0; b < batches; b++) {
		uint64_t t0 = bench_now_ns();
		if (execute)
			for (int i = 0; i < BATCH; i++)
				nrt_execute(model, ins, outs);
		else
			for (int i = 0; i < BATCH; i++)
				nrt_tensor_read(out, buf, 0, sizeof(buf));
		ns[b] = (double)(bench_now_ns() - t0) / BATCH;
	}
	nrt_destroy_tensor_set(&ins);
	nrt_destroy_tensor_set(&outs);
	nrt_tensor_free(&in);
	nrt_tensor_free(&out);
	nrt_unload(model);
	nrt_close();
	printf("call=%s\ncalls=%llu\nns=%.3f\n", argv[1], (unsigned long long)(batches * BATCH),
	       bench_median(ns, batches));
	free(ns);
	return 0;
}

/* nrt-synth.c — writes the trace of a synthetic job driving the Neuron runtime into a
 * directory, record by record as the recorder would (tests/unit/nrtw.h), for the end-to-end
 * test of tprof-analyze's NRT outputs (func/t-nrt-synth.sh):
 *   process A (host trn-a, instance type trn1.32xlarge): its main thread loads model "mlp" on
 *     NeuronCore 0 and runs it every iteration between a tensor write and a tensor read (one
 *     execution fails with NRT_EXEC_BAD_INPUT, the last is an nrt_execute_repeat); a worker
 *     thread loads "bert" on cores 1-2 and runs it, reads a host tensor, sets a device tensor
 *     once and writes a tensor on core 0 while "mlp" runs there;
 *   process B (host trn-b, no instance type): runs "mlp" on its core 0 and an unnamed model
 *     on its core 1.
 * Prints the ground truth as one JSON line: every execution and tensor call (pid, tid, call,
 * model or tensor, cores, start and duration in ns, bytes, status), which the test compares
 * with what tprof-analyze makes of the trace.  Usage: nrt-synth DIR [ITERATIONS] (default 8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "../unit/nrtw.h"

#define ITERS 8
#define MLP 0xa000u
#define BERT 0xb000u
#define ANON 0xc000u

static int first = 1;

/* One line of the truth: an NRT call that went on NeuronCores (ncores of them from nc). */
static void truth(int64_t pid, int64_t tid, const char *call, const char *what, int32_t nc,
		  int ncores, uint64_t t0, uint64_t t1, uint64_t in, uint64_t out, uint64_t bytes,
		  int status)
{
	printf("%s{\"pid\":%lld,\"tid\":%lld,\"call\":\"%s\",\"name\":\"%s\",\"nc\":[", first ? "" : ",",
	       (long long)pid, (long long)tid, call, what);
	for (int k = 0; k < ncores; k++)
		printf("%s%d", k ? "," : "", nc + k);
	printf("],\"t0\":%llu,\"dur\":%llu,\"in\":%llu,\"out\":%llu,\"bytes\":%llu,\"status\":%d}",
	       (unsigned long long)t0, (unsigned long long)(t1 - t0), (unsigned long long)in,
	       (unsigned long long)out, (unsigned long long)bytes, status);
	first = 0;
}

static void exec(struct nw_proc *p, uint32_t st, int64_t tid, uint64_t t0, uint64_t t1,
		 const char *model, uint64_t handle, int32_t nc, uint32_t ncores, uint64_t in,
		 uint64_t out, uint32_t repeat, int status)
{
	nw_exec(p, st, t0, t1, model, handle, nc, ncores, in, out, repeat, status);
	char anon[32];
	if (!model) {
		snprintf(anon, sizeof(anon), "model 0x%llx", (unsigned long long)handle);
		model = anon;
	}
	truth(p->pid, tid, repeat ? "nrt_execute_repeat" : "nrt_execute", model, nc, (int)ncores, t0, t1,
	      in, out, in + out, status);
}

static void tensor(struct nw_proc *p, uint32_t st, int64_t tid, const char *call, uint16_t op,
		   uint64_t t0, uint64_t t1, const char *name, int32_t nc, uint8_t placement,
		   uint64_t bytes)
{
	nw_tensor(p, st, call, op, t0, t1, name, 0x7000 + (uint64_t)nw_str(p, name), nc, placement, bytes);
	truth(p->pid, tid, call, name, placement == 0 ? nc : -1, placement == 0 ? 1 : 0, t0, t1, 0, 0,
	      bytes, 0);
}

int main(int argc, char **argv)
{
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: nrt-synth DIR [ITERATIONS]\n");
		return 2;
	}
	int iters = argc == 3 ? atoi(argv[2]) : ITERS;
	if (iters < 8) {
		fprintf(stderr, "nrt-synth: at least 8 iterations\n");
		return 2;
	}
	if (mkdir(argv[1], 0755) < 0 && errno != EEXIST) {
		perror(argv[1]);
		return 1;
	}
	static struct nw_proc a, b;
	const uint64_t end = 400000 + (uint64_t)iters * 100000 + 100000;
	printf("{\"calls\":[");

	nw_begin(&a, argv[1], "trn-a", 900, "./nrt-app", "trn1.32xlarge", end);
	nw_thread(&a, 1, "nrt-app", 900);
	nw_thread(&a, 2, "worker", 901);
	nw_plain(&a, 1, "nrt_init", TPROF_NRT_INIT, 2000, 52000);
	nw_load(&a, 1, 60000, 160000, "mlp", MLP, 0, 1, 1048576);
	truth(900, 900, "nrt_load", "nrt_load", 0, 1, 60000, 160000, 0, 0, 1048576, 0);
	nw_load(&a, 2, 170000, 300000, "bert", BERT, 1, 2, 2097152);
	truth(900, 901, "nrt_load", "nrt_load", 1, 2, 170000, 300000, 0, 0, 2097152, 0);
	nw_plain(&a, 1, "nrt_allocate_tensor_set", TPROF_NRT_SET, 310000, 311000);
	for (int it = 0; it < iters; it++) {
		uint64_t base = 400000 + (uint64_t)it * 100000;
		uint64_t d = 20000 + (uint64_t)it * 1000;
		int failed = it == 5;
		tensor(&a, 1, 900, "nrt_tensor_write", TPROF_NRT_TENSOR_WRITE, base, base + 2000, "input0", 0, 0, 65536);
		if (failed)
			d = 5000;
		exec(&a, 1, 900, base + 3000, base + 3000 + d, "mlp", MLP, 0, 1, 65536, 16384,
		     it == iters - 1 ? 3 : 0, failed ? 1002 : 0);
		if (!failed)
			tensor(&a, 1, 900, "nrt_tensor_read", TPROF_NRT_TENSOR_READ, base + 4000 + d,
			       base + 6000 + d, "output0", 0, 0, 16384);
		if (it == 3)
			tensor(&a, 1, 900, "nrt_tensor_copy", TPROF_NRT_TENSOR_COPY, base + 40000, base + 41000,
			       "output0", 0, 0, 16384);
		if (it == 0)
			tensor(&a, 2, 901, "nrt_tensor_memset", TPROF_NRT_TENSOR_MEMSET, base + 2000, base + 6000,
			       "scratch", 1, 0, 1000000);
		if (it == 2)   /* on core 0 while mlp runs there: a second lane */
			tensor(&a, 2, 901, "nrt_tensor_write", TPROF_NRT_TENSOR_WRITE, base + 5000, base + 8000,
			       "shared", 0, 0, 8192);
		exec(&a, 2, 901, base + 10000, base + 40000 + (uint64_t)it * 500, "bert", BERT, 1, 2, 131072,
		     131072, 0, 0);
		tensor(&a, 2, 901, "nrt_tensor_read", TPROF_NRT_TENSOR_READ, base + 45000, base + 46000,
		       "host_buf", -1, 1, 4096);
	}
	uint64_t t = 400000 + (uint64_t)iters * 100000;
	nw_call(&a, 1, "nrt_unload", t, t + 5000, 0,
		&(struct tprof_nrt_args){ .handle = MLP, .name = nw_str(&a, "mlp"), .nc = 0, .op = TPROF_NRT_UNLOAD },
		NULL);
	truth(900, 900, "nrt_unload", "nrt_unload", 0, 1, t, t + 5000, 0, 0, 0, 0);
	nw_plain(&a, 1, "nrt_close", TPROF_NRT_CLOSE, t + 10000, t + 20000);
	nw_end(&a);

	nw_begin(&b, argv[1], "trn-b", 950, "./nrt-app", NULL, end);
	nw_thread(&b, 1, "nrt-app", 950);
	nw_plain(&b, 1, "nrt_init", TPROF_NRT_INIT, 3000, 40000);
	nw_load(&b, 1, 50000, 150000, "mlp", MLP, 0, 1, 1048576);
	truth(950, 950, "nrt_load", "nrt_load", 0, 1, 50000, 150000, 0, 0, 1048576, 0);
	nw_load(&b, 1, 160000, 200000, NULL, ANON, 1, 1, 4096);
	truth(950, 950, "nrt_load", "nrt_load", 1, 1, 160000, 200000, 0, 0, 4096, 0);
	for (int k = 0; k < 3; k++) {
		uint64_t t0 = 400000 + (uint64_t)k * 50000;
		exec(&b, 1, 950, t0, t0 + 15000, "mlp", MLP, 0, 1, 65536, 16384, 0, 0);
	}
	exec(&b, 1, 950, 600000, 612000, NULL, ANON, 1, 1, 1024, 1024, 0, 0);
	nw_plain(&b, 1, "nrt_close", TPROF_NRT_CLOSE, 700000, 710000);
	nw_end(&b);
	printf("]}\n");
	return 0;
}

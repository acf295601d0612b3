/* empty.c — a shared library with nothing in it: preloaded, it gives the floor of what any
 * preloaded library costs a process start (the loader's own work). */
int tprof_bench_empty;

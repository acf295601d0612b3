/* tprof-api.c — libtprof.so: the annotation API for programs run without the profiler.
 * Every function does nothing.  libtrace_preload.so defines the same symbols and, loaded
 * first, takes their place when the program runs under the profiler. */
#include <tprof/tprof.h>

#define API __attribute__((visibility("default")))

API int tprof_range_push(const char *name)
{
	(void)name;
	return -1;
}

API int tprof_range_pop(void)
{
	return -1;
}

API void tprof_mark(const char *name)
{
	(void)name;
}

API void tprof_step(uint64_t step)
{
	(void)step;
}

API void tprof_counter(const char *name, double value)
{
	(void)name;
	(void)value;
}

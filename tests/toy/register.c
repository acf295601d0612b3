/* register.c — links the toy runtime (runtime.c) into tprof-analyze: registered before main
 * runs, after the runtimes of analyze/runtimes/registry.c. */
#include "../../analyze/runtimes/registry.h"
#include "toy.h"

__attribute__((constructor)) static void toy_register(void)
{
	runtimes_add(&runtime_toy);
}

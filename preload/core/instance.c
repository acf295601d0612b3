/* instance.c — the process image's instance id: a random number drawn at its first use (its
 * files, as a rule, or a loss counted before them), that tells this image from any other of the
 * same pid (a fork child, an exec) in the output directory and in the job. */
#include <sys/random.h>
#include <unistd.h>

#include "clock.h"
#include "core.h"

static uint64_t new_instance(void)
{
	uint64_t x;
	if (getrandom(&x, sizeof(x), GRND_NONBLOCK) != sizeof(x))
		x = tprof_real_ns() ^ ((uint64_t)getpid() << 32) ^ tprof_now();
	return x ? x : 1;
}

/* This image's instance id, drawn at its first use (its files, as a rule). */
uint64_t tprof_image_instance(void)
{
	uint64_t x = __atomic_load_n(&tprof_g.instance, __ATOMIC_ACQUIRE);
	if (!x) {
		uint64_t mine = new_instance();
		if (__atomic_compare_exchange_n(&tprof_g.instance, &x, mine, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			x = mine;
	}
	return x;
}

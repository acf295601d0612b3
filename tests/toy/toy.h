/* toy.h — "toy", a runtime added to tprof from outside (tests/toy/): one function,
 * toyMake(widgets, gadget), in a library of its own (libtoy.c); its hooks in the recorder
 * (hook-toy.c), which record each call with one extension unit; its analysis in the analyzer
 * (runtime.c).  Nothing outside this folder names it: its calls carry a domain number of
 * their own, outside the list of common/domains.h. */
#ifndef TPROF_TEST_TOY_H
#define TPROF_TEST_TOY_H

#include <stdint.h>

#include "../../common/format.h"

#define TOY_DOMAIN 200

/* Makes `widgets` widgets of the gadget named; 0, or -1 when asked for none.  Exported by
 * the library, and by the recorder's hooks. */
__attribute__((visibility("default"))) int toyMake(uint64_t widgets, const char *gadget);

/* What a toy call records in its extension unit (TPROF_UNIT bytes). */
struct toy_unit {
	uint64_t widgets;
	uint32_t gadget;       /* a string of the process */
	uint8_t pad[TPROF_UNIT - 12];
};

/* The analyzer's toy runtime (runtime.c), for runtimes_add. */
struct runtime;
extern const struct runtime runtime_toy;

#endif

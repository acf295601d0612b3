/* kernels.h — names of device functions by their host-side handle: filled from the runtime's
 * registration calls (even before the process image exists), read on every launch. */
#ifndef TPROF_KERNELS_H
#define TPROF_KERNELS_H

#include "../core/core.h"

/* Remembers `fn` -> `name` (a mangled name is demangled).  Any thread, any time. */
void tprof_kernel_register(const void *fn, const char *name);
/* The name's string id, or 0 when fn was never registered. */
uint32_t tprof_kernel_name(const void *fn);
/* Demangles a C++ name into buf (or copies it), with the C++ runtime's own demangler. */
const char *tprof_demangle(const char *name, char *buf, size_t len);
void tprof_kernels_reset_child(void);

#endif

/* ksyms.h — the kernel addresses of the CPU samples (ksyms.c), and at the end a KSYM record
 * for each kernel symbol one of them falls in, from /proc/kallsyms. */
#ifndef TPROF_SAMPLE_KSYMS_H
#define TPROF_SAMPLE_KSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "image.h"

struct tprof_ksyms {
	uint64_t *set;                  /* open addressing, 0 = empty */
	size_t cap, count;
};

void tprof_ksyms_add(struct tprof_ksyms *k, uint64_t addr);
/* Resolves the addresses against kallsyms (the text of /proc/kallsyms) and writes one KSYM
 * record per symbol hit.  Returns the number written. */
size_t tprof_ksyms_write(struct tprof_ksyms *k, struct tprof_sysimg *im, const char *kallsyms,
			 uint64_t now);
/* The same with /proc/kallsyms read now. */
size_t tprof_ksyms_finish(struct tprof_ksyms *k, struct tprof_sysimg *im, uint64_t now);
void tprof_ksyms_free(struct tprof_ksyms *k);

#endif

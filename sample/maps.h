/* maps.h — the executable file mappings of followed processes (maps.c), as MAPS records, for
 * resolving the user frames of CPU samples. */
#ifndef TPROF_SAMPLE_MAPS_H
#define TPROF_SAMPLE_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "tasks.h"

/* One line of /proc/PID/maps, when it maps a file executable: 1, with path pointing into
 * the line (up to its end, not NUL-terminated: path_len bytes).  0 for other lines. */
int tprof_maps_parse_line(const char *line, size_t len, struct tprof_map_range *r,
			  uint64_t *offset, const char **path, size_t *path_len);

/* Reads /proc/PID/maps of p and writes a MAPS record for each executable mapping not
 * written yet for its pid and gen (after an exec: all of them). */
void tprof_maps_read(struct tprof_tasks *t, struct tprof_sproc *p, uint64_t now);

/* A sampled user address of p: reads the mappings again when the process exec'ed since they
 * were read, or when addr lies outside all of them, at most once per 100 ms. */
void tprof_maps_check(struct tprof_tasks *t, struct tprof_sproc *p, uint64_t addr,
		      uint64_t now);

#endif

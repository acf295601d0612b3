/* strings.h — the trace-wide string table (strings.c). */
#ifndef TPROF_ANALYZE_STRINGS_H
#define TPROF_ANALYZE_STRINGS_H

#include <stddef.h>
#include <stdint.h>

uint32_t strings_add(const char *s, size_t len);
const char *strings_get(uint32_t id);
size_t strings_len(uint32_t id);
uint32_t strings_count(void);
void strings_free(void);

#endif

/* roctx.h — the roctx annotation API (ROCm roctracer, libroctx64.so.4), for test programs:
 * Debian ships no roctx header.  Same prototypes as roctracer's <roctracer/roctx.h>, written
 * to compile as C and C++.  The un-suffixed names are macros, as there: the library exports
 * only the ...A functions.  Symbols are versioned ROCTX_4.1. */
#ifndef STANDIN_ROCTRACER_ROCTX_H
#define STANDIN_ROCTRACER_ROCTX_H

#include <stdint.h>

#define ROCTX_VERSION_MAJOR 4
#define ROCTX_VERSION_MINOR 1

#ifdef __cplusplus
extern "C" {
#endif

/* Library version: 4 and 1. */
uint32_t roctx_version_major(void);
uint32_t roctx_version_minor(void);

/* A mark: an instant with a message. */
void roctxMarkA(const char *message);
#define roctxMark(message) roctxMarkA(message)

/* Thread-local nested ranges.  Push returns the 0-based level the new range opens at; pop
 * returns the level of the range it closes, or a negative value if none was open. */
int roctxRangePushA(const char *message);
#define roctxRangePush(message) roctxRangePushA(message)
int roctxRangePop(void);

/* Process-wide ranges, which may be stopped on any thread. */
typedef uint64_t roctx_range_id_t;
roctx_range_id_t roctxRangeStartA(const char *message);
#define roctxRangeStart(message) roctxRangeStartA(message)
void roctxRangeStop(roctx_range_id_t id);

#ifdef __cplusplus
}
#endif

#endif

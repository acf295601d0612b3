/* recorder-api.h — the table through which libtprof.so hands annotation calls to the
 * recorder: libtrace_preload.so exports one under TPROF_RECORDER_API_SYMBOL, and libtprof
 * looks it up when a call reaches its own definitions while the recorder is loaded (a
 * lookup in libtprof's handle rather than the global scope).  Fields are only ever added at
 * the end; `size` says how many the recorder has. */
#ifndef TPROF_COMMON_RECORDER_API_H
#define TPROF_COMMON_RECORDER_API_H

#include <stdint.h>

#define TPROF_RECORDER_API_SYMBOL "tprof_recorder_api"

struct tprof_recorder_api {
	uint32_t size;                   /* sizeof the recorder's table */
	int (*range_push)(const char *name);
	int (*range_pop)(void);
	void (*mark)(const char *name);
	void (*step)(uint64_t step);
	void (*counter)(const char *name, double value);
	void (*step_end)(void);
	void (*start)(void);             /* from TPROF_API_VERSION 3 */
	void (*stop)(void);
};

#endif

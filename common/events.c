/* events.c — names of record kinds and drop reasons, for messages and dumps. */
#include "events.h"

const char *tprof_kind_name(unsigned kind)
{
	switch (kind) {
#define TPROF_KIND_CASE(sym, num, str) case num: return str;
		TPROF_KINDS(TPROF_KIND_CASE)
#undef TPROF_KIND_CASE
	}
	return "unknown";
}

const char *tprof_drop_reason_name(unsigned reason)
{
	switch (reason) {
	case TPROF_DROP_MAX_EVENTS: return "TPROF_MAX_EVENTS reached";
	case TPROF_DROP_NO_BUFFER: return "no free buffer (the flusher fell behind)";
	case TPROF_DROP_STOPPED: return "recording stopped after an output error";
	case TPROF_DROP_DEVICE: return "device operations left untimed";
	case TPROF_DROP_SAMPLES: return "system samples lost (the kernel's ring buffer was full)";
	case TPROF_DROP_REENTERED: return "made inside the recorder (a signal handler)";
	case TPROF_DROP_NO_FILES: return "the process could not create its files";
	}
	return "unknown reason";
}

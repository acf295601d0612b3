/* writer-live.h — whether the process that writes a spool is still running: tprof-inspect
 * leaves the spools of running processes in place, and the analyzer reads them as a live
 * process's (still being written) rather than as a killed one's. */
#ifndef TPROF_WRITER_LIVE_H
#define TPROF_WRITER_LIVE_H

#include <stdint.h>
#include <sys/types.h>

enum tprof_writer_state {
	TPROF_WRITER_UNKNOWN = -1,      /* another host, or a name that does not say */
	TPROF_WRITER_GONE = 0,          /* no such process on this host (or its pid was reused) */
	TPROF_WRITER_LIVE = 1,
};

/* name: the spool's file name or path, "<host>.<pid>.<id>.spool" as the recorder makes it.
 * created_ns: the spool header's creation time (CLOCK_REALTIME), or 0 when not known; with
 * it, a process holding the pid that started after the spool was made is another one.
 * pid: when not NULL and the writer is live, its pid. */
enum tprof_writer_state tprof_spool_writer(const char *name, uint64_t created_ns, pid_t *pid);
/* The same for process pid of host (host_len bytes, as the recorder writes it in names). */
enum tprof_writer_state tprof_process_state(const char *host, size_t host_len, long pid,
					     uint64_t created_ns, pid_t *out);

#endif

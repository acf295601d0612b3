/* read/remote.h — stand-ins for the processes and threads another analysis process of the
 * parallel analyzer reads (read/remote.c): their number, rank and thread id, for the runtimes'
 * analyses that receive their events. */
#ifndef TPROF_ANALYZE_REMOTE_H
#define TPROF_ANALYZE_REMOTE_H

#include <stdint.h>

struct proc;
struct thread;
struct remotes;
struct remotes *remotes_new(void);
/* Process number index (rank: its rank, -1 when none), made at first. */
struct proc *remote_proc(struct remotes *r, int64_t index, int64_t rank);
/* The thread tid of process number index (rank: its rank, -1 when none), made at first. */
struct thread *remote_thread(struct remotes *r, int64_t index, int64_t rank, int32_t tid);
void remotes_free(struct remotes *r);

#endif

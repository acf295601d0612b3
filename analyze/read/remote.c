/* read/remote.c — the processes other analysis processes of the parallel analyzer read, as
 * the runtimes' analyses meet them in what those send here (the ends of MPI messages, the
 * members of collectives, the ranks of NCCL launches): a process with its number and rank,
 * and a thread with its id, made once each and freed at the end. */
#include <stdlib.h>

#include "../../common/xalloc.h"
#include "../util/u64map.h"
#include "remote.h"
#include "trace.h"

struct remotes {
	struct u64map proc_of;          /* number -> index in procs */
	struct u64map thread_of;        /* (number, tid) -> index in threads */
	struct proc **procs;
	struct thread **threads;
	size_t nprocs, nthreads;
};

struct remotes *remotes_new(void)
{
	return xcalloc(1, sizeof(struct remotes));
}

struct proc *remote_proc(struct remotes *r, int64_t index, int64_t rank)
{
	uint32_t *at = u64map_get(&r->proc_of, (uint64_t)index);
	if (at)
		return r->procs[*at];
	struct proc *p = xcalloc(1, sizeof(*p));
	p->index = (int)index;
	p->rank = rank;
	p->remote = 1;
	p->pid = p->ppid = p->world_size = p->local_rank = -1;
	r->procs = xreallocarray(r->procs, r->nprocs + 1, sizeof(*r->procs));
	u64map_put(&r->proc_of, (uint64_t)index, (uint32_t)r->nprocs);
	r->procs[r->nprocs++] = p;
	return p;
}

struct thread *remote_thread(struct remotes *r, int64_t index, int64_t rank, int32_t tid)
{
	uint64_t key = (uint64_t)(uint32_t)index << 32 | (uint32_t)tid;
	uint32_t *at = u64map_get(&r->thread_of, key);
	if (at)
		return r->threads[*at];
	struct thread *t = xcalloc(1, sizeof(*t));
	t->proc = remote_proc(r, index, rank);
	t->tid = tid;
	r->threads = xreallocarray(r->threads, r->nthreads + 1, sizeof(*r->threads));
	u64map_put(&r->thread_of, key, (uint32_t)r->nthreads);
	r->threads[r->nthreads++] = t;
	return t;
}

void remotes_free(struct remotes *r)
{
	for (size_t i = 0; i < r->nprocs; i++)
		free(r->procs[i]);
	for (size_t i = 0; i < r->nthreads; i++)
		free(r->threads[i]);
	free(r->procs);
	free(r->threads);
	u64map_free(&r->proc_of);
	u64map_free(&r->thread_of);
	free(r);
}

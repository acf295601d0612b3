/* proc.c — the end of one process image: its streams and threads, its tables, its descriptor
 * and its spool mapping, released together.  The loader frees every image with the trace; the
 * job selection frees the images of the jobs it leaves out. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "impimage.h"
#include "trace.h"

void proc_free(struct proc *p)
{
	for (size_t s = 0; s < p->nstreams; s++) {
		if (p->streams[s]) {
			stream_close(p->streams[s]);
			free(p->streams[s]->pieces);
			free(p->streams[s]);
		}
		if (p->threads[s]) {
			free(p->threads[s]->open_calls);
			free(p->threads[s]->stack);
			free(p->threads[s]);
		}
	}
	free(p->streams);
	free(p->threads);
	free(p->strmap);
	free(p->args);
	free(p->damage);
	free(p->asyncs);
	free(p->unreg);
	free(p->csync);
	free(p->tb.pts);
	free(p->tb.slope);
	free(p->tb.mul);
	if (p->imp)
		free(p->imp->gpu);
	free(p->imp);
	if (p->fd >= 0)
		close(p->fd);
	if (p->spool)
		munmap((void *)p->spool, p->spool_len);
	free(p->trace_path);
	free(p->spool_path);
	free(p);
}

/* proc.c — the size of one process image's files, what reading it reads; and its end: its
 * streams and threads, its tables, its chunk file and its spool mapping or copy, released
 * together.  The loader frees every image with the trace; the job selection frees the images
 * of the jobs it leaves out, the parallel analyzer those of the other analysis processes. */
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util/u64map.h"
#include "import-image.h"
#include "trace.h"

/* What reading a process image reads: its chunk file, its spool's blocks (not its holes). */
uint64_t proc_file_bytes(const struct proc *p)
{
	struct stat st;
	uint64_t n = 0, size;
	if (p->trace_path && cfile_size(&p->file, p->trace_path, &size) == 0)
		n += size;
	if (p->spool_path && stat(p->spool_path, &st) == 0) {
		uint64_t blocks = (uint64_t)st.st_blocks * 512;
		n += blocks < (uint64_t)st.st_size ? blocks : (uint64_t)st.st_size;
	}
	return n;
}

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
			free(p->threads[s]->frames);
			free(p->threads[s]->drops);
			free(p->threads[s]->drops_rec);
			free(p->threads[s]);
		}
	}
	free(p->streams);
	free(p->threads);
	u64map_free(&p->stream_of);
	free(p->strmap);
	if (p->strsparse)
		u64map_free(p->strsparse);
	free(p->strsparse);
	free(p->args);
	free(p->damage);
	free(p->drops);
	free(p->stream0);
	free(p->unattributed);
	if (p->asyncs) {
		free(p->asyncs->v);
		u64map_free(&p->asyncs->of);
		free(p->asyncs);
	}
	free(p->unreg);
	free((void *)p->losses);
	free(p->csync);
	free(p->captures);
	free(p->tb.pts);
	free(p->tb.slope);
	free(p->tb.mul);
	if (p->imp)
		free(p->imp->gpu);
	free(p->imp);
	cfile_close(&p->file);
	if (p->spool) {
		if (p->spool->map)
			munmap((void *)p->spool->map, p->spool->map_len);
		free(p->spool->copy);
		free(p->spool);
	}
	if (!p->file.whole)
		free(p->trace_path);
	free(p->spool_path);
	free(p);
}

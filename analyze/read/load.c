/* load.c — from a directory to a trace ready to merge (find the files, index chunks and
 * spools, read every process stream, calibrate clocks, order the processes), and back. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../parallel/par.h"
#include "../util/progress.h"
#include "share.h"
#include "system.h"

static void sort_pieces(struct proc *p)
{
	for (size_t s = 0; s < p->nstreams; s++)
		if (p->streams[s])
			stream_sort_pieces(p->streams[s]);
}

/* Finds, indexes and calibrates everything under dir (NULL: nothing but what the hooks add),
 * and gives the system images' tasks their processes and threads; the trace is then ready to
 * merge.  The hooks, when given, add images after the scan (framework traces rewritten as
 * imported images) and put them on the time axis once the recorded ones are. */
int trace_load_with(struct trace *tr, const char *dir, const struct load_hooks *h)
{
	/* every analysis process of the parallel analyzer finds the same files: the first says
	 * what it finds, then each what it reads */
	int mute = par_rank() != 0;
	diag_muted += mute;
	int rc = dir && scan_dir(tr, dir) < 0 ? -1
		 : dir && jobs_select(tr, h ? h->job : NULL, dir) < 0 ? -2 : 0;
	diag_muted -= mute;
	if (rc < 0)
		return rc;
	share_select(tr, h && h->imports && (tr->nfound || h->imports(h->ctx)));
	if (h && h->add && h->add(tr, h->ctx) < 0)
		return -1;
	uint64_t total = 0, upto = 0;
	for (size_t i = 0; i < tr->nprocs; i++)
		total += proc_file_bytes(tr->procs[i]);
	progress_begin("reading", total, PROGRESS_BYTES);
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		/* The chunk file, the spool's records no chunk holds, then what a running process
		 * flushed to the chunk file meanwhile (a buffer it reused since was written there
		 * first).  Pieces of one buffer that overlap keep the longest. */
		tracefile_index(tr, p);
		sort_pieces(p);
		spoolfile_index(tr, p);
		if (p->writer == WRITER_LIVE)
			tracefile_index(tr, p);
		sort_pieces(p);
		proc_streams_order(p);
		tracefile_report_damage(tr, p);
		upto += proc_file_bytes(p);
		progress_at(upto);      /* the chunks counted themselves; the spool is added here */
	}
	procs_load(tr);
	jobs_describe(tr);
	share_jobs(tr);
	losses_apply(tr);
	timebase_align(tr);
	share_references(tr);
	clocksync_apply(tr);
	if (h && h->align)
		h->align(tr, h->ctx);
	trace_span(tr);
	capture_place(tr);
	system_attach(tr);
	trace_order(tr);
	share_order(tr);
	share_ranks(tr);
	progress_end();
	return 0;
}

int trace_load(struct trace *tr, const char *dir)
{
	return trace_load_with(tr, dir, NULL);
}

/* Something was read when at least one process has a stream with a record in it. */
int trace_has_data(const struct trace *tr)
{
	for (size_t i = 0; i < tr->nprocs; i++)
		for (size_t s = 0; s < tr->procs[i]->nstreams; s++)
			if (tr->procs[i]->streams[s] && tr->procs[i]->streams[s]->npieces)
				return 1;
	return 0;
}

void trace_free(struct trace *tr)
{
	system_free(tr);
	losses_free(tr);
	for (size_t i = 0; i < tr->nprocs; i++)
		proc_free(tr->procs[i]);
	free(tr->procs);
	tr->procs = NULL;
	tr->nprocs = 0;
	for (size_t i = 0; i < tr->nrefs; i++)
		proc_free(tr->refs[i]);
	free(tr->refs);
	tr->refs = NULL;
	tr->nrefs = 0;
	free(tr->homes);
	tr->homes = NULL;
	tr->nhomes = 0;
	free(tr->reader_of);
	tr->reader_of = NULL;
	tr->nreader_of = 0;
	for (size_t i = 0; i < tr->nfound; i++)
		free(tr->found[i]);
	free(tr->found);
	tr->found = NULL;
	tr->nfound = 0;
	mpi_comms_free(tr);
	jobs_free(tr);
	strings_free();
}

/* test-share.c — the parallel analyzer's loading (analyze/read/share.c), run by
 * func/t-share.sh alone and under mpirun: each analysis process loads its share of DIR, and
 * the first prints every process as the whole job sees it (number, rank, pid, host, span,
 * clock correction), the trace's span, its jobs' commands and the MPI communicators.  The
 * listing must not depend on how many processes loaded the profile.  Usage: test-share DIR */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/parallel/par.h"
#include "../../analyze/read/trace.h"

/* Lines begin with their process's number, right-aligned: in text order, in number order. */
static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	if (par_start(&argc, &argv) != 0 || argc != 2)
		return 2;
	struct trace tr = { 0 };
	if (trace_load(&tr, argv[1]) < 0)
		par_abort(1);
	char *mine = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mine, &len);
	for (size_t i = 0; i < tr.nprocs; i++) {
		const struct proc *p = tr.procs[i];
		fprintf(f, "%6d rank %5d pid %6" PRId64 " %s %" PRId64 "..%" PRId64
			   " csync %zu verdict %d corrected %d by %" PRId64 "\n",
			p->index, (int)p->rank, (int64_t)p->pid, p->host ? strings_get(p->host) : "?",
			p->start_ns - tr.start_ns, p->end_ns - tr.start_ns, p->ncsync,
			p->ncsync ? (int)p->csync_verdict : -1, p->tb.corrected,
			p->tb.corrected ? p->tb.corr.d0 : 0);
	}
	fclose(f);
	size_t *lens;
	char *all = par_gather(mine, len, 0, &lens);
	if (par_rank() == 0) {
		/* each analysis process's lines are in order; together, sorted by number */
		size_t total = 0;
		for (int a = 0; a < par_size(); a++)
			total += lens[a];
		size_t nlines = 0;
		for (size_t i = 0; i < total; i++)
			nlines += all[i] == '\n';
		char **line = calloc(nlines + 1, sizeof(*line));
		size_t n = 0;
		for (char *s = all, *end = all + total; s < end; n++) {
			char *nl = memchr(s, '\n', (size_t)(end - s));
			*nl = 0;
			line[n] = s;
			s = nl + 1;
		}
		qsort(line, n, sizeof(*line), by_text);
		printf("trace %" PRId64 "..%" PRId64 ", %zu processes\n", tr.start_ns, tr.end_ns, n);
		for (size_t j = 0; j < tr.njobs; j++)
			printf("job %zu: %u processes, %s\n", j, tr.jobs[j].procs,
			       tr.jobs[j].command ? tr.jobs[j].command : "(no command)");
		for (size_t i = 0; i < n; i++)
			puts(line[i]);
		free(line);
		/* the communicators, as every analysis process has them */
		for (size_t i = 0; i < tr.ncomms; i++) {
			const struct mpi_comm *c = tr.comms[i];
			printf("comm %#" PRIx64 " self %d kind %u size %u+%u parent %#" PRIx64
			       " name '%s' recorded %u members", c->id, c->self_rank, c->kind, c->size,
			       c->remote_size, c->parent, c->name ? strings_get(c->name) : "",
			       c->recorded);
			for (uint32_t k = 0; k < c->known; k++)
				printf(" %d", c->members[k]);
			putchar('\n');
		}
	}
	free(all);
	free(lens);
	free(mine);
	trace_free(&tr);
	par_stop();
	return 0;
}

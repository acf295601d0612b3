/* procorder.c — what a process is called and where it stands: its label in every output
 * ("rank 3 (host, pid 123) app", "system (host)", "pid 7 (imported from trace.json)"), its
 * command line, whether its rows fold into another's (an imported process placed in a
 * recorded one, a process the sampler saw but the recorder did not); the serial analyzer's
 * order of processes, which every output and every analysis process shares; and finding one
 * by rank or by number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import-image.h"
#include "system.h"
#include "trace.h"

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* "rank 3 (host, pid 123)" for ranked processes, "app (host, pid 123)" otherwise; an
 * interpreter is named with its script ("python3 train.py"); a system image is the host's
 * "system (host)", or "system (host, pid 123)" when process 123 sampled itself. */
const char *proc_label(const struct proc *p, char *buf, size_t len)
{
	const char *host = p->host ? strings_get(p->host) : "?";
	char prog[256] = "?";
	if (p->imp) {
		const struct import_image *im = p->imp;
		const char *src = im->source ? base_name(strings_get(im->source)) : "?";
		if (im->process_name || im->pid_name)
			snprintf(buf, len, "%s (imported from %s)",
				 strings_get(im->process_name ? im->process_name : im->pid_name), src);
		else
			snprintf(buf, len, "pid %lld (imported from %s)", (long long)p->pid, src);
		return buf;
	}
	if (p->sys && p->sys->target >= 0 && p->sys->target == p->pid) {
		snprintf(buf, len, "system (%s, pid %lld)", host, (long long)p->pid);
		return buf;
	}
	if (p->sys) {
		snprintf(buf, len, "system (%s)", host);
		return buf;
	}
	if (p->nargs) {
		const char *a0 = base_name(strings_get(p->args[0]));
		snprintf(prog, sizeof(prog), "%s", a0);
		if ((!strncmp(a0, "python", 6) || !strcmp(a0, "perl") || !strcmp(a0, "ruby") ||
		     !strcmp(a0, "node")) && p->nargs > 1) {
			for (size_t i = 1; i < p->nargs; i++) {
				const char *a = strings_get(p->args[i]);
				if (a[0] == '-')
					continue;
				snprintf(prog, sizeof(prog), "%s %s", a0, base_name(a));
				break;
			}
		}
	} else if (p->exe) {
		snprintf(prog, sizeof(prog), "%s", base_name(strings_get(p->exe)));
	}
	if (p->rank >= 0)
		snprintf(buf, len, "rank %lld (%s, pid %lld) %s", (long long)p->rank, host,
			 (long long)p->pid, prog);
	else
		snprintf(buf, len, "%s (%s, pid %lld%s)", prog, host, (long long)p->pid,
			 p->before_exec ? ", before exec" : "");
	return buf;
}

char *proc_command(const struct proc *p, size_t max)
{
	char *out = malloc(max + 4);
	if (!out)
		return NULL;
	size_t n = 0;
	out[0] = 0;
	for (size_t i = 0; i < p->nargs && n < max; i++) {
		int k = snprintf(out + n, max + 1 - n, "%s%s", i ? " " : "", strings_get(p->args[i]));
		if (k < 0)
			break;
		n += (size_t)k;
	}
	if (n >= max) {
		n = max;
		memcpy(out + n, "...", 4);
	}
	return out;
}

int proc_folded(const struct proc *p)
{
	return (p->imp && p->imp->home) || p->unsampled;
}

struct proc_key proc_key_of(const struct proc *p)
{
	struct proc_key k;
	memset(&k, 0, sizeof(k));
	k.folded = proc_folded(p);
	k.sys = p->sys != NULL;
	k.rank = p->rank;
	k.start_ns = p->start_ns;
	k.pid = p->pid;
	return k;
}

int proc_key_cmp(const struct proc_key *x, const struct proc_key *y)
{
	if (x->folded != y->folded)
		return x->folded ? 1 : -1;
	if (x->sys != y->sys)
		return x->sys ? 1 : -1;
	if ((x->rank >= 0) != (y->rank >= 0))
		return x->rank >= 0 ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int proc_cmp(const void *a, const void *b)
{
	struct proc_key x = proc_key_of(*(struct proc *const *)a);
	struct proc_key y = proc_key_of(*(struct proc *const *)b);
	return proc_key_cmp(&x, &y);
}

/* Ranked processes first, by rank; the rest by start time; then system images; folded
 * processes last, so that those shown are numbered 1, 2, ... without a gap. */
void trace_order(struct trace *tr)
{
	if (tr->nprocs > 1)
		qsort(tr->procs, tr->nprocs, sizeof(*tr->procs), proc_cmp);
	for (size_t i = 0; i < tr->nprocs; i++)
		tr->procs[i]->index = (int)i + 1;
}

const struct rank_home *trace_rank_home(const struct trace *tr, int64_t rank)
{
	size_t lo = 0, hi = tr->nhomes;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->homes[mid].rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < tr->nhomes && tr->homes[lo].rank == rank ? &tr->homes[lo] : NULL;
}

const struct proc *trace_proc_at(const struct trace *tr, int64_t index)
{
	if (index >= 1 && (uint64_t)index <= tr->nprocs && tr->procs[index - 1]->index == index)
		return tr->procs[index - 1];
	/* a share of the job's processes, in order of their numbers */
	size_t lo = 0, hi = tr->nprocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (tr->procs[mid]->index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < tr->nprocs && tr->procs[lo]->index == index)
		return tr->procs[lo];
	for (size_t i = 0; i < tr->nprocs; i++)   /* before trace_order numbered them */
		if (tr->procs[i]->index == index)
			return tr->procs[i];
	return NULL;
}

int trace_reader_of(const struct trace *tr, int64_t index)
{
	if (!tr->reader_of)
		return trace_proc_at(tr, index) ? 0 : -1;
	return index >= 1 && (uint64_t)index <= tr->nreader_of ? tr->reader_of[index - 1] : -1;
}

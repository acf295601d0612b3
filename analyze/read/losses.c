/* losses.c — what every process image and thread lost, by reason, from the two places the
 * recorder counts it: DROP records in the process stream (complete when the image ended
 * cleanly) and the loss table of the spool's header page (complete whatever happened, the
 * records themselves aside: a full disk, SIGKILL).  Per thread and reason the larger of the two
 * holds (the table counts every loss as it happens; DROP records report some of them later).
 * A process image that could not create its files is known from the table of an ancestor that
 * counted for it, or from its marker file "<host>.<pid>.<id>[.<count>].lost". */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../parallel/par.h"
#include "../util/satarith.h"
#include "share.h"
#include "trace.h"

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The table of a spool whose header checked out, if it has one that is well formed. */
void losses_table(struct proc *p, const uint8_t *header_page)
{
	const struct tprof_loss_table *tab = (const void *)(header_page + TPROF_LOSS_OFFSET);
	if (tab->magic != TPROF_LOSS_MAGIC)
		return;                 /* an older recorder's spool */
	if (tab->header_size != sizeof(*tab) || tab->entry_size != sizeof(struct tprof_loss_entry) ||
	    tab->capacity > TPROF_LOSS_CAPACITY) {
		diag_warn(p->spool_path, TPROF_LOSS_OFFSET, "loss table damaged; ignored");
		return;
	}
	/* a copy: the spool's mapping may be given back once it is indexed, and a running
	 * writer's table goes on changing (what it said when read is what is counted) */
	size_t bytes = tab->header_size + (size_t)tab->capacity * tab->entry_size;
	struct tprof_loss_table *copy = xmalloc(bytes);
	memcpy(copy, tab, bytes);
	p->losses = copy;
}

static const struct tprof_loss_entry *entry(const struct tprof_loss_table *tab, uint32_t i)
{
	return (const struct tprof_loss_entry *)((const char *)tab + tab->header_size) + i;
}


static struct tid_loss *tid_loss(struct tid_loss **v, size_t *n, int32_t tid)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].tid == tid)
			return &(*v)[i];
	struct tid_loss *nv = xreallocarray(*v, *n + 1, sizeof(*nv));
	*v = nv;
	memset(&nv[*n], 0, sizeof(nv[*n]));
	nv[*n].tid = tid;
	return &nv[(*n)++];
}

static struct lost_proc *lost_add(struct trace *tr)
{
	struct lost_proc *nl = xreallocarray(tr->lost, tr->nlost + 1, sizeof(*nl));
	tr->lost = nl;
	struct lost_proc *l = &nl[tr->nlost++];
	memset(l, 0, sizeof(*l));
	return l;
}

/* "<host>.<pid>.<id>.lost" (its image did not exit yet, or was killed) or
 * "<host>.<pid>.<id>.lost-<count>" (renamed at its exit): 1 when path is one. */
int losses_marker(struct trace *tr, const char *path)
{
	const char *name = strrchr(path, '/');
	name = name ? name + 1 : path;
	const char *suffix = strstr(name, TPROF_LOST_SUFFIX);
	while (suffix && strstr(suffix + 1, TPROF_LOST_SUFFIX))
		suffix = strstr(suffix + 1, TPROF_LOST_SUFFIX);
	if (!suffix)
		return 0;
	const char *after = suffix + strlen(TPROF_LOST_SUFFIX);
	int known = *after == '-';
	if (*after && !(known && after[1] && strspn(after + 1, "0123456789") == strlen(after + 1)))
		return 0;
	/* host.pid.id before the suffix */
	const char *id = memrchr(name, '.', (size_t)(suffix - name));
	const char *pid = id ? memrchr(name, '.', (size_t)(id - name)) : NULL;
	if (!pid || pid == name || suffix - id - 1 != 8 || id - pid - 1 < 1 ||
	    strspn(id + 1, "0123456789abcdef") < 8 || strspn(pid + 1, "0123456789") < (size_t)(id - pid - 1))
		return 0;
	struct lost_proc *l = lost_add(tr);
	l->pid = strtoll(pid + 1, NULL, 10);
	l->ppid = -1;
	l->host = strings_add(name, (size_t)(pid - name));
	l->instance = (uint32_t)strtoul(id + 1, NULL, 16);
	l->known = known;
	if (known)
		l->drops.count[TPROF_DROP_NO_FILES] = strtoull(after + 1, NULL, 10);
	l->marker = xstrdup(path);
	return 1;
}

/* The descendants that counted in p's table, each a process image without files. */
static void descendants(struct trace *tr, const struct proc *p)
{
	const struct tprof_loss_table *tab = p->losses;
	for (uint32_t i = 0; i < tab->capacity; i++) {
		const struct tprof_loss_entry *e = entry(tab, i);
		if (e->kind != TPROF_LOSS_DESCENDANT || e->reason >= TPROF_DROP_REASONS)
			continue;
		struct lost_proc *l = NULL;
		for (size_t k = 0; k < tr->nlost && !l; k++)
			if (tr->lost[k].ancestor == p && tr->lost[k].pid == e->pid &&
			    tr->lost[k].instance == e->instance)
				l = &tr->lost[k];
		if (!l) {
			l = lost_add(tr);
			l->pid = e->pid;
			l->ppid = e->ppid;
			l->host = p->host;
			l->instance = e->instance;
			l->ancestor = p;
			l->known = 1;
		}
		l->drops.count[e->reason] = sat_add_u64(l->drops.count[e->reason], e->count);
		struct tid_loss *tl = tid_loss(&l->threads, &l->nthreads, e->tid);
		tl->drops.count[e->reason] = sat_add_u64(tl->drops.count[e->reason], e->count);
	}
}

static const struct drop_count none;

const struct drop_count *drops_of(const struct drop_count *d)
{
	return d ? d : &none;
}

struct drop_count *drops_add(struct drop_count **d)
{
	if (!*d)
		*d = xcalloc(1, sizeof(**d));
	return *d;
}

/* *d = v, made only when v counts something (or *d was made already). */
static void set_counts(struct drop_count **d, const struct drop_count *v)
{
	if (*d || memcmp(v, &none, sizeof(none)))
		*drops_add(d) = *v;
}

/* Puts p's losses together: each thread's, its process stream's, those of threads without a
 * stream, and the total. */
static void proc_losses(struct trace *tr, struct proc *p)
{
	struct drop_count tab0 = { { 0 } }, owed = { { 0 } };
	for (size_t s = 1; s < p->nstreams; s++)
		if (p->threads[s] && (p->threads[s]->drops_rec || p->threads[s]->drops))
			*drops_add(&p->threads[s]->drops) = *drops_of(p->threads[s]->drops_rec);
	if (p->losses) {
		const struct tprof_loss_table *tab = p->losses;
		/* Per thread and reason the larger count holds; entries of one thread add up. */
		struct drop_count *from_tab = xcalloc(p->nstreams ? p->nstreams : 1, sizeof(*from_tab));
		for (uint32_t i = 0; i < tab->capacity; i++) {
			const struct tprof_loss_entry *e = entry(tab, i);
			if (e->kind != TPROF_LOSS_THREAD || e->reason >= TPROF_DROP_REASONS)
				continue;
			/* the stream the table names, when it was read (found, never made) */
			const struct stream *st = e->stream ? proc_stream_find(p, e->stream) : NULL;
			size_t si = st ? st->index : 0;
			if (e->stream == 0 && e->tid == 0)
				tab0.count[e->reason] = sat_add_u64(tab0.count[e->reason], e->count);
			else if (!si || !p->threads[si]) {
				/* no stream, or none read: by its tid (the table's stream id drives
				 * no allocation) */
				struct tid_loss *tl = tid_loss(&p->unreg, &p->nunreg, e->tid);
				tl->drops.count[e->reason] = sat_add_u64(tl->drops.count[e->reason], e->count);
			} else {
				struct thread *t = p->threads[si];
				if (t->tid < 0 && e->tid > 0)
					t->tid = e->tid;
				from_tab[si].count[e->reason] = sat_add_u64(from_tab[si].count[e->reason], e->count);
			}
		}
		for (int r = 0; r < 8; r++)
			owed.count[r] = tab->overflow[r];
		for (size_t s = 1; s < p->nstreams; s++) {
			struct thread *t = p->threads[s];
			if (!t)
				continue;
			for (int r = 0; r < 8; r++) {
				uint64_t rec = drops_of(t->drops_rec)->count[r], got = from_tab[s].count[r];
				if (got)
					drops_add(&t->drops)->count[r] = max_u64(rec, got);
				else    /* no entry: its DROP records are part of the overflow */
					owed.count[r] = owed.count[r] > rec ? owed.count[r] - rec : 0;
			}
		}
		free(from_tab);
		set_counts(&p->unattributed, &owed);
		descendants(tr, p);
	}
	struct drop_count total = { { 0 } }, s0 = *drops_of(p->stream0);
	for (int r = 0; r < 8; r++) {
		s0.count[r] = max_u64(s0.count[r], tab0.count[r]);
		total.count[r] = sat_add_u64(s0.count[r], drops_of(p->unattributed)->count[r]);
	}
	set_counts(&p->stream0, &s0);
	for (size_t s = 1; s < p->nstreams; s++)
		for (int r = 0; p->threads[s] && r < 8; r++)
			total.count[r] = sat_add_u64(total.count[r],
						     drops_of(p->threads[s]->drops)->count[r]);
	for (size_t i = 0; i < p->nunreg; i++)
		for (int r = 0; r < 8; r++)
			total.count[r] = sat_add_u64(total.count[r], p->unreg[i].drops.count[r]);
	set_counts(&p->drops, &total);
}

/* A process image: its pid and the low 32 bits of its instance. */
struct image_key {
	int64_t pid;
	uint64_t instance;
};

static int key_cmp(const void *a, const void *b)
{
	const struct image_key *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->instance < y->instance ? -1 : x->instance > y->instance;
}

/* The process images that left files, every analysis process's, sorted: *n of them. */
static struct image_key *with_files(const struct trace *tr, size_t *n)
{
	struct image_key *mine = xmallocarray(tr->nprocs + 1, sizeof(*mine));
	for (size_t i = 0; i < tr->nprocs; i++)
		mine[i] = (struct image_key){ tr->procs[i]->pid, (uint32_t)tr->procs[i]->instance };
	struct image_key *all = share_all(mine, tr->nprocs, sizeof(*mine), n);
	free(mine);
	if (*n > 1)
		qsort(all, *n, sizeof(*all), key_cmp);
	return all;
}

/* One process image known twice (its entries in an ancestor's table and its marker, made when
 * the table had no room for one of its reasons) is one, its counts added; one that left files
 * after all is not a lost one. */
static void merge_duplicates(struct trace *tr)
{
	size_t k = 0, nfiles;
	struct image_key *files_of = with_files(tr, &nfiles);
	for (size_t i = 0; i < tr->nlost; i++) {
		struct lost_proc *l = &tr->lost[i];
		struct image_key key = { l->pid, l->instance };
		int files = nfiles && bsearch(&key, files_of, nfiles, sizeof(key), key_cmp);
		struct lost_proc *same = NULL;
		for (size_t j = 0; j < k && !same; j++)
			if (tr->lost[j].pid == l->pid && tr->lost[j].instance == l->instance)
				same = &tr->lost[j];
		if (files || same) {
			if (same) {
				for (int r = 0; r < 8; r++)
					same->drops.count[r] = sat_add_u64(same->drops.count[r], l->drops.count[r]);
				same->known = same->known && l->known;
				if (!same->ancestor)
					same->ancestor = l->ancestor;
				if (!same->marker) {
					same->marker = l->marker;
					l->marker = NULL;
				}
			}
			free(l->threads);
			free(l->marker);
			continue;
		}
		tr->lost[k++] = *l;
	}
	tr->nlost = k;
	free(files_of);
}

void losses_apply(struct trace *tr)
{
	for (size_t i = 0; i < tr->nprocs; i++)
		proc_losses(tr, tr->procs[i]);
	share_lost(tr);
	merge_duplicates(tr);
}

static uint64_t sum(const struct drop_count *d)
{
	uint64_t n = 0;
	for (int r = 1; r < 8; r++)
		n = sat_add_u64(n, d->count[r]);
	return n;
}

static void reasons(char *buf, size_t len, const struct drop_count *d)
{
	size_t at = 0;
	buf[0] = 0;
	for (int r = 1; r < 8 && at < len; r++)
		if (d->count[r])
			at += (size_t)snprintf(buf + at, len - at, "%s%" PRIu64 " %s", at ? ", " : "",
					       d->count[r], tprof_drop_reason_name((unsigned)r));
}

/* -v: what each process and thread lost, and why. */
void losses_report(const struct trace *tr)
{
	char why[512], label[512];
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		if (!sum(drops_of(p->drops)))
			continue;
		reasons(why, sizeof(why), drops_of(p->drops));
		diag_note("lost by %s: %" PRIu64 " records (%s)", proc_label(p, label, sizeof(label)),
			  sum(drops_of(p->drops)), why);
		for (size_t s = 1; s < p->nstreams; s++) {
			const struct thread *t = p->threads[s];
			if (!t || !sum(drops_of(t->drops)))
				continue;
			reasons(why, sizeof(why), drops_of(t->drops));
			diag_note("  thread %s (tid %d): %s", t->name ? strings_get(t->name) : "?",
				  (int)t->tid, why);
		}
		for (size_t k = 0; k < p->nunreg; k++) {
			reasons(why, sizeof(why), &p->unreg[k].drops);
			diag_note("  thread tid %d (no stream): %s", (int)p->unreg[k].tid, why);
		}
		if (sum(drops_of(p->stream0))) {
			reasons(why, sizeof(why), drops_of(p->stream0));
			diag_note("  process stream and device work: %s", why);
		}
		if (sum(drops_of(p->unattributed))) {
			reasons(why, sizeof(why), drops_of(p->unattributed));
			diag_note("  threads its loss table had no room to name: %s", why);
		}
	}
	for (size_t i = 0; i < tr->nlost && par_rank() == 0; i++) {   /* every one has them */
		const struct lost_proc *l = &tr->lost[i];
		reasons(why, sizeof(why), &l->drops);
		const char *host = l->host ? strings_get(l->host) : "?";
		if (!l->known)
			diag_note("pid %lld of %s could not create its files: its marker %s was not "
				  "renamed at exit (killed?): how much it lost is not known",
				  (long long)l->pid, host, l->marker);
		else
			diag_note("pid %lld of %s could not create its files: %" PRIu64 " records "
				  "lost (%s)", (long long)l->pid, host, sum(&l->drops), why[0] ? why : "none");
		for (size_t k = 0; k < l->nthreads; k++) {
			reasons(why, sizeof(why), &l->threads[k].drops);
			diag_note("  thread tid %d: %s", (int)l->threads[k].tid, why);
		}
	}
}

void losses_free(struct trace *tr)
{
	for (size_t i = 0; i < tr->nlost; i++) {
		free(tr->lost[i].threads);
		free(tr->lost[i].marker);
	}
	free(tr->lost);
	tr->lost = NULL;
	tr->nlost = 0;
}

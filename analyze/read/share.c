/* read/share.c — loading in the parallel analyzer (share.h): this analysis process's share of
 * the profile, and what the analysis processes exchange while loading. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../parallel/par.h"
#include "../parallel/partition.h"
#include "../../common/file-names.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "../util/u64map.h"
#include "share.h"
#include "../../common/hash.h"
#include "trace.h"

static const char *path_of(const struct proc *p)
{
	return p->trace_path ? p->trace_path : p->spool_path ? p->spool_path : "";
}

static int by_path(const void *a, const void *b)
{
	return strcmp(path_of(*(struct proc *const *)a), path_of(*(struct proc *const *)b));
}

/* The host and pid a file's name gives ("<host>.<pid>.<rest>"): the length of the host in
 * *name (0: none) and the pid. */
static size_t name_parts(const struct proc *p, const char **name, int64_t *pid)
{
	const char *path = path_of(p), *slash = strrchr(path, '/');
	*name = slash ? slash + 1 : path;
	*pid = -1;
	size_t n = tprof_host_pid_prefix(*name);
	if (n < 3)
		return 0;
	n -= 2;                          /* the pid's last digit */
	while (n > 0 && (*name)[n] != '.')
		n--;
	if (n)
		*pid = strtoll(*name + n + 1, NULL, 10);
	return n;
}

/* The hash of the host a file's name gives, 0 when it gives none. */
static uint64_t name_host(const struct proc *p)
{
	const char *name;
	int64_t pid;
	size_t n = name_parts(p, &name, &pid);
	return n ? tprof_hash_bytes(name, n) | 1 : 0;
}

/* The key of a host and pid: a pid's images (before and after an exec) go together. */
static uint64_t host_pid_key(uint64_t host, int64_t pid)
{
	return tprof_hash_more(host, &pid, sizeof(pid)) | 1;
}

static uint64_t name_host_pid(const struct proc *p)
{
	const char *name;
	int64_t pid;
	size_t n = name_parts(p, &name, &pid);
	return n ? host_pid_key(tprof_hash_bytes(name, n) | 1, pid) : 0;
}

/* Which analysis process reads the files of each host and pid (share_reader_of). */
static struct u64map home_readers;       /* host_pid_key -> analysis process + 1 */
static uint64_t one_host;                /* the host of every file, when they have one */

/* Each process's unit of the partition, unit[i] (units numbered in the order of their first
 * process): a process alone, but the processes of a host that has a system image together
 * (its records name them all: runtimes/sys), and with by_pid the images of one host and pid
 * together (an imported trace is placed on its process's last image).  The host is the
 * files' names'; main.c checks against the records that no analysis process lacks one of
 * them.  Returns the units. */
static size_t units_of(const struct trace *tr, size_t *unit, int by_pid)
{
	struct u64map hosts = { 0 };         /* a system image's host -> its unit + 1 */
	for (size_t i = 0; i < tr->nprocs; i++) {
		uint64_t h = tr->procs[i]->system_file ? name_host(tr->procs[i]) : 0;
		if (h && !u64map_get(&hosts, h))
			u64map_put(&hosts, h, 0);
	}
	struct u64map pids = { 0 };          /* a host and pid -> its unit + 1 */
	size_t n = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		uint64_t h = hosts.n ? name_host(tr->procs[i]) : 0;
		uint32_t *u = h ? u64map_get(&hosts, h) : NULL;
		uint64_t hp = !u && by_pid ? name_host_pid(tr->procs[i]) : 0;
		if (hp && !(u = u64map_get(&pids, hp)))
			u = u64map_put(&pids, hp, 0);
		if (u && !*u)
			*u = (uint32_t)++n;
		unit[i] = u ? *u - 1 : n++;
	}
	u64map_free(&hosts);
	u64map_free(&pids);
	return n;
}

/* Who reads each host and pid, and the one host of every file's name (when so). */
static void note_readers(const struct trace *tr, const size_t *unit, const size_t *first,
			 size_t k)
{
	u64map_free(&home_readers);
	one_host = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		size_t lo = 0, hi = k;             /* the run that holds unit[i] */
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (first[mid] <= unit[i])
				lo = mid;
			else
				hi = mid;
		}
		size_t r = lo;
		uint64_t host = name_host(tr->procs[i]), key = name_host_pid(tr->procs[i]);
		if (key && !u64map_get(&home_readers, key))
			u64map_put(&home_readers, key, (uint32_t)r + 1);
		one_host = !i || one_host == host ? host : 0;
	}
}

int share_reader_of(const char *host, int64_t pid)
{
	if (par_size() < 2)
		return 0;
	uint64_t h = host ? tprof_hash_bytes(host, strlen(host)) | 1 : one_host;
	uint32_t *r = h ? u64map_get(&home_readers, host_pid_key(h, pid)) : NULL;
	return r ? (int)*r - 1 : -1;
}

void share_select(struct trace *tr, int by_pid)
{
	size_t k = (size_t)par_size(), me = (size_t)par_rank();
	if (k < 2)
		return;
	/* every analysis process found the same files: in the order of their names, in units
	 * (units_of), cut by bytes */
	if (tr->nprocs > 1)
		qsort(tr->procs, tr->nprocs, sizeof(*tr->procs), by_path);
	size_t *unit = xmallocarray(tr->nprocs + 1, sizeof(*unit));
	size_t nunits = units_of(tr, unit, by_pid);
	uint64_t *size = xcalloc(nunits + 1, sizeof(*size));
	for (size_t i = 0; i < tr->nprocs; i++)
		size[unit[i]] += proc_file_bytes(tr->procs[i]);
	size_t *first = xmallocarray(k + 1, sizeof(*first));
	partition_runs(size, nunits, k, first);
	note_readers(tr, unit, first, k);
	size_t n = 0;
	for (size_t i = 0; i < tr->nprocs; i++) {
		if (unit[i] >= first[me] && unit[i] < first[me + 1]) {
			tr->procs[n++] = tr->procs[i];
			continue;
		}
		for (size_t j = 0; j < tr->njobs; j++)   /* its command comes from another one */
			if (tr->jobs[j].first == tr->procs[i])
				tr->jobs[j].first = NULL;
		proc_free(tr->procs[i]);
	}
	tr->nprocs = n;
	free(unit);
	free(size);
	free(first);
}

/* ---- a host's processes with its system images ------------------------------------------- */

struct host_at {
	uint32_t host;
	uint32_t reader;                 /* the analysis process */
	int sys;                         /* of a system image */
};

static int host_at_cmp(const void *a, const void *b)
{
	const struct host_at *x = a, *y = b;
	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	return x->reader < y->reader ? -1 : x->reader > y->reader;
}

static char *everyone(const struct pack *mine, size_t *total);

const char *share_system_split(const struct trace *tr)
{
	if (par_size() < 2)
		return NULL;
	struct pack mine = { 0 };
	pack_u64(&mine, (uint64_t)par_rank());
	pack_u64(&mine, tr->nprocs);
	for (size_t i = 0; i < tr->nprocs; i++) {
		pack_name(&mine, tr->procs[i]->host);
		pack_u64(&mine, tr->procs[i]->sys != NULL);
	}
	size_t total;
	char *all = everyone(&mine, &total);
	pack_free(&mine);
	struct host_at *v = NULL;
	size_t n = 0, cap = 0;
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		uint32_t reader = (uint32_t)unpack_u64(&u);
		size_t m = unpack_count(&u, 2);
		for (size_t i = 0; i < m; i++) {
			v = util_grow(v, &cap, n, sizeof(*v), 64);
			v[n].host = unpack_name(&u);
			v[n].sys = unpack_u64(&u) != 0;
			v[n++].reader = reader;
		}
	}
	free(all);
	if (n > 1)
		qsort(v, n, sizeof(*v), host_at_cmp);
	const char *split = NULL;
	for (size_t i = 0, j; i < n && !split; i = j) {
		int sys = 0, readers = 0;
		for (j = i; j < n && v[j].host == v[i].host; j++) {
			sys |= v[j].sys;
			readers += j == i || v[j].reader != v[j - 1].reader;
		}
		if (sys && readers > 1)
			split = v[i].host ? strings_get(v[i].host) : "(a host not named)";
	}
	free(v);
	return split;
}

/* ---- jobs' commands ------------------------------------------------------------------------ */

void share_jobs(struct trace *tr)
{
	if (par_size() < 2)
		return;
	struct pack mine = { 0 };
	for (size_t j = 0; j < tr->njobs; j++)
		if (tr->jobs[j].command) {
			pack_u64(&mine, j);
			pack_str(&mine, tr->jobs[j].command);
		}
	size_t *len_of;
	char *all = par_allgather(mine.v, mine.n, &len_of);
	size_t total = 0;
	for (int a = 0; a < par_size(); a++)
		total += len_of[a];
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		uint64_t k = unpack_u64(&u);
		char *command = unpack_strdup(&u);
		if (k < tr->njobs && !tr->jobs[k].command)
			tr->jobs[k].command = command;
		else
			free(command);
	}
	free(all);
	free(len_of);
	pack_free(&mine);
}

/* ---- process images without files ------------------------------------------------------- */

void share_lost(struct trace *tr)
{
	if (par_size() < 2)
		return;
	/* the markers (every analysis process found them all) stay first; the images the
	 * loss tables of this one's processes counted are sent to every one */
	struct pack mine = { 0 };
	size_t markers = 0;
	for (size_t i = 0; i < tr->nlost; i++) {
		struct lost_proc *l = &tr->lost[i];
		if (!l->ancestor) {
			tr->lost[markers++] = *l;
			continue;
		}
		pack_i64(&mine, l->pid);
		pack_i64(&mine, l->ppid);
		pack_name(&mine, l->host);
		pack_u64(&mine, l->instance);
		pack_bytes(&mine, &l->drops, sizeof(l->drops));
		pack_u64(&mine, l->nthreads);
		pack_bytes(&mine, l->threads, l->nthreads * sizeof(*l->threads));
		free(l->threads);
	}
	tr->nlost = markers;
	size_t total;
	char *all = everyone(&mine, &total);
	pack_free(&mine);
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		struct lost_proc l = { .known = 1 };
		l.pid = unpack_i64(&u);
		l.ppid = unpack_i64(&u);
		l.host = unpack_name(&u);
		l.instance = (uint32_t)unpack_u64(&u);
		unpack_bytes(&u, &l.drops, sizeof(l.drops));
		l.nthreads = unpack_count(&u, sizeof(*l.threads));
		l.threads = xmallocarray(l.nthreads + 1, sizeof(*l.threads));
		unpack_bytes(&u, l.threads, l.nthreads * sizeof(*l.threads));
		if (u.short_read) {
			free(l.threads);
			break;
		}
		tr->lost = xreallocarray(tr->lost, tr->nlost + 1, sizeof(*tr->lost));
		tr->lost[tr->nlost++] = l;
	}
	free(all);
}

/* ---- the references of clock offsets ---------------------------------------------------- */

/* The process a measurement names (host, pid) among this analysis process's. */
static const struct proc *local_named(const struct trace *tr, uint32_t host, int64_t pid)
{
	for (size_t i = 0; i < tr->nprocs; i++)
		if (tr->procs[i]->pid == pid && tr->procs[i]->host == host)
			return tr->procs[i];
	return NULL;
}

static void put_timebase(struct pack *b, const struct proc *p)
{
	const struct timebase *tb = &p->tb;
	uint64_t n = tb->n, nseg = tb->slope ? (tb->n > 1 ? tb->n - 1 : 1) : 0;
	pack_name(b, p->host);
	pack_i64(b, p->pid);
	pack_i64(b, p->rank);
	pack_i64(b, tb->identity);
	pack_i64(b, tb->mono_shift);
	pack_i64(b, tb->offset);
	pack_u64(b, n);
	pack_bytes(b, tb->pts, n * sizeof(*tb->pts));
	pack_u64(b, nseg);
	pack_bytes(b, tb->slope, nseg * sizeof(*tb->slope));
	pack_bytes(b, tb->mul, nseg * sizeof(*tb->mul));
}

/* One process's timebase from another analysis process, as a reference; NULL when the
 * bytes end early. */
static struct proc *take_timebase(struct unpack *u)
{
	struct proc *p = xcalloc(1, sizeof(*p));
	struct timebase *tb = &p->tb;
	p->host = unpack_name(u);
	p->pid = unpack_i64(u);
	p->rank = (int)unpack_i64(u);
	tb->identity = (int)unpack_i64(u);
	tb->mono_shift = unpack_i64(u);
	tb->offset = unpack_i64(u);
	tb->n = tb->cap = unpack_count(u, sizeof(*tb->pts));
	tb->pts = xmallocarray(tb->n + 1, sizeof(*tb->pts));
	unpack_bytes(u, tb->pts, tb->n * sizeof(*tb->pts));
	size_t nseg = unpack_count(u, sizeof(*tb->slope) + sizeof(*tb->mul));
	if (nseg) {
		tb->slope = xmallocarray(nseg, sizeof(*tb->slope));
		tb->mul = xmallocarray(nseg, sizeof(*tb->mul));
		unpack_bytes(u, tb->slope, nseg * sizeof(*tb->slope));
		unpack_bytes(u, tb->mul, nseg * sizeof(*tb->mul));
	}
	if (!u->short_read)
		return p;
	proc_free(p);
	return NULL;
}

void share_references(struct trace *tr)
{
	if (par_size() < 2)
		return;
	/* what this analysis process's measurements were made against, and it has not */
	struct pack want = { 0 };
	for (size_t i = 0; i < tr->nprocs; i++)
		for (size_t k = 0; k < tr->procs[i]->ncsync; k++) {
			const struct csync *m = &tr->procs[i]->csync[k];
			if (local_named(tr, m->ref_host, m->ref_pid))
				continue;
			pack_name(&want, m->ref_host);
			pack_i64(&want, m->ref_pid);
		}
	size_t *len_of;
	char *wanted = par_allgather(want.v, want.n, &len_of);
	size_t total = 0;
	for (int a = 0; a < par_size(); a++)
		total += len_of[a];
	/* the timebases of those this one has, once each */
	struct pack give = { 0 };
	const struct proc **given = NULL;
	size_t ngiven = 0;
	for (struct unpack u = unpack_of(wanted, total); unpack_more(&u);) {
		uint32_t host = unpack_name(&u);
		int64_t pid = unpack_i64(&u);
		const struct proc *p = local_named(tr, host, pid);
		int done = !p || u.short_read;
		for (size_t g = 0; g < ngiven && !done; g++)
			done = given[g] == p;
		if (done)
			continue;
		given = xreallocarray(given, ngiven + 1, sizeof(*given));
		given[ngiven++] = p;
		put_timebase(&give, p);
	}
	free(given);
	free(wanted);
	free(len_of);
	pack_free(&want);
	char *got = par_allgather(give.v, give.n, &len_of);
	size_t off = 0;
	for (int a = 0; a < par_size(); a++) {
		struct unpack u = unpack_of(got + off, len_of[a]);
		off += len_of[a];
		if (a == par_rank())
			continue;
		while (unpack_more(&u)) {
			struct proc *p = take_timebase(&u);
			if (!p)
				break;
			tr->refs = xreallocarray(tr->refs, tr->nrefs + 1, sizeof(*tr->refs));
			tr->refs[tr->nrefs++] = p;
		}
	}
	free(got);
	free(len_of);
	pack_free(&give);
}

void *share_all(const void *mine, size_t n, size_t size, size_t *total)
{
	if (par_size() < 2) {
		void *copy = xmallocarray(n + 1, size);
		if (n)
			memcpy(copy, mine, n * size);
		*total = n;
		return copy;
	}
	size_t *len_of;
	char *all = par_allgather(mine, n * size, &len_of);
	size_t bytes = 0;
	for (int a = 0; a < par_size(); a++)
		bytes += len_of[a];
	free(len_of);
	*total = size ? bytes / size : 0;
	return all;
}

void share_or(uint32_t *bits, size_t n)
{
	size_t total;
	uint32_t *all = share_all(bits, n, sizeof(*bits), &total);
	for (size_t i = n; i < total; i++)
		bits[i % n] |= all[i];
	free(all);
}

/* ---- the hosts' clocks --------------------------------------------------------------------- */

/* Index of host (string id) in hosts[0..n), or n. */
static size_t host_at(const uint32_t *hosts, size_t n, uint32_t host)
{
	size_t i = 0;
	while (i < n && hosts[i] != host)
		i++;
	return i;
}

/* Everything every analysis process packed, concatenated in their order (malloc'd). */
static char *everyone(const struct pack *mine, size_t *total)
{
	return par_allgather_total(mine->v, mine->n, total);
}

static struct timebase *borrowed;      /* the others' rates, copied */
static size_t nborrowed;

void share_host_rates(const uint32_t *hosts, const struct timebase **rates, size_t n)
{
	if (par_size() < 2)
		return;
	struct pack mine = { 0 };
	for (size_t i = 0; i < n; i++)
		if (rates[i]) {
			pack_name(&mine, hosts[i]);
			pack_u64(&mine, rates[i]->n);
			pack_bytes(&mine, rates[i]->pts, rates[i]->n * sizeof(*rates[i]->pts));
		}
	size_t total;
	char *all = everyone(&mine, &total);
	pack_free(&mine);
	int *chosen = xcalloc(n + 1, sizeof(*chosen));
	borrowed = xcalloc(n + 1, sizeof(*borrowed));
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		size_t i = host_at(hosts, n, unpack_name(&u));
		size_t np = unpack_count(&u, sizeof(struct clock_point));
		struct clock_point *pts = xmallocarray(np + 1, sizeof(*pts));
		unpack_bytes(&u, pts, np * sizeof(*pts));
		if (u.short_read || i == n || chosen[i]) {
			free(pts);
			continue;
		}
		chosen[i] = 1;
		struct timebase *tb = &borrowed[nborrowed++];
		tb->pts = pts;
		tb->n = tb->cap = np;
		rates[i] = tb;
	}
	free(chosen);
	free(all);
}

void share_rates_free(void)
{
	for (size_t i = 0; i < nborrowed; i++)
		free(borrowed[i].pts);
	free(borrowed);
	borrowed = NULL;
	nborrowed = 0;
}

void share_host_earliest(const uint32_t *hosts, struct clock_point *earliest, int *has, size_t n)
{
	if (par_size() < 2)
		return;
	struct pack mine = { 0 };
	for (size_t i = 0; i < n; i++)
		if (has[i]) {
			pack_name(&mine, hosts[i]);
			pack_bytes(&mine, &earliest[i], sizeof(earliest[i]));
		}
	size_t total;
	char *all = everyone(&mine, &total);
	pack_free(&mine);
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		size_t i = host_at(hosts, n, unpack_name(&u));
		struct clock_point c;
		if (!unpack_bytes(&u, &c, sizeof(c)) || i == n)
			continue;
		if (!has[i] || c.mono < earliest[i].mono ||
		    (c.mono == earliest[i].mono && c.real < earliest[i].real))
			earliest[i] = c;
		has[i] = 1;
	}
	free(all);
}

/* ---- the MPI communicators ------------------------------------------------------------------ */

struct mpi_comm *share_comms(const struct trace *tr, size_t *n)
{
	struct pack mine = { 0 };
	for (size_t i = 0; i < tr->ncomms; i++) {
		const struct mpi_comm *c = tr->comms[i];
		pack_u64(&mine, c->id);
		pack_u64(&mine, c->parent);
		pack_u64(&mine, c->kind);
		pack_u64(&mine, c->size);
		pack_u64(&mine, c->remote_size);
		pack_i64(&mine, c->self_rank);
		pack_name(&mine, c->name);
		pack_u64(&mine, c->known);
		pack_bytes(&mine, c->members, c->known * sizeof(*c->members));
	}
	size_t total;
	char *all = everyone(&mine, &total);
	pack_free(&mine);
	struct mpi_comm *comms = NULL;
	size_t cap = 0;
	*n = 0;
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		struct mpi_comm c = { 0 };
		c.id = unpack_u64(&u);
		c.parent = unpack_u64(&u);
		c.kind = (uint8_t)unpack_u64(&u);
		c.size = (uint32_t)unpack_u64(&u);
		c.remote_size = (uint32_t)unpack_u64(&u);
		c.self_rank = (int32_t)unpack_i64(&u);
		c.name = unpack_name(&u);
		c.known = (uint32_t)unpack_count(&u, sizeof(*c.members));
		c.members = xmallocarray((size_t)c.known + 1, sizeof(*c.members));
		unpack_bytes(&u, c.members, c.known * sizeof(*c.members));
		if (u.short_read || c.size > (1u << 24) || c.remote_size > (1u << 24)) {
			free(c.members);
			continue;
		}
		comms = util_grow(comms, &cap, *n, sizeof(*comms), 16);
		comms[(*n)++] = c;
	}
	free(all);
	return comms;
}

void share_span(int64_t *start_ns, int64_t *end_ns)
{
	par_min_i64(start_ns, 1);
	par_max_i64(end_ns, 1);
}

/* ---- every rank's process ------------------------------------------------------------------ */

static int by_rank(const void *a, const void *b)
{
	const struct rank_home *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void share_ranks(struct trace *tr)
{
	struct rank_home *mine = xmallocarray(tr->nprocs + 1, sizeof(*mine));
	size_t n = 0;
	tr->world_size = -1;
	memset(mine, 0, (tr->nprocs + 1) * sizeof(*mine));   /* the padding is sent too */
	for (size_t i = 0; i < tr->nprocs; i++) {
		const struct proc *p = tr->procs[i];
		if (p->world_size > tr->world_size && p->world_size < (1 << 24))
			tr->world_size = p->world_size;
		if (p->rank < 0 || p->rank >= INT32_MAX)
			continue;
		mine[n].rank = (int32_t)p->rank;
		mine[n].from = par_rank();
		mine[n++].index = p->index;
	}
	free(tr->homes);
	tr->homes = share_all(mine, n, sizeof(*mine), &tr->nhomes);
	free(mine);
	if (tr->nhomes > 1)
		qsort(tr->homes, tr->nhomes, sizeof(*tr->homes), by_rank);
	par_max_i64(&tr->world_size, 1);
}

/* ---- every process's number -------------------------------------------------------------- */

/* A process as numbering sees it, and where it is read. */
struct keyed {
	struct proc_key key;
	uint64_t host;                  /* its host name's hash: the references are found by it */
	int32_t from;                   /* the analysis process */
	uint32_t at;                    /* its place in that one's tr->procs */
};

static uint64_t host_hash(const struct proc *p)
{
	const char *h = p->host ? strings_get(p->host) : "";
	return tprof_hash_bytes(h, strlen(h));
}

/* The numbers of the reference processes other analysis processes gave the timebase of
 * (share_references): by host, pid and rank, as clock alignment found them. */
static void number_references(struct trace *tr, const struct keyed *all, size_t n)
{
	for (size_t r = 0; r < tr->nrefs; r++) {
		struct proc *q = tr->refs[r];
		uint64_t h = host_hash(q);
		for (size_t i = 0; i < n; i++)
			if (all[i].host == h && all[i].key.pid == q->pid && all[i].key.rank == q->rank)
				q->index = (int)i + 1;
	}
}

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = proc_key_cmp(&x->key, &y->key);
	if (c)
		return c;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

static int by_index(const void *a, const void *b)
{
	const struct proc *x = *(struct proc *const *)a, *y = *(struct proc *const *)b;
	return x->index < y->index ? -1 : x->index > y->index;
}

void share_order(struct trace *tr)
{
	if (par_size() < 2)
		return;
	struct keyed *mine = xmallocarray(tr->nprocs + 1, sizeof(*mine));
	memset(mine, 0, (tr->nprocs + 1) * sizeof(*mine));   /* the padding is sent too */
	for (size_t i = 0; i < tr->nprocs; i++) {
		mine[i].key = proc_key_of(tr->procs[i]);
		mine[i].host = host_hash(tr->procs[i]);
		mine[i].from = par_rank();
		mine[i].at = (uint32_t)i;
	}
	size_t *len_of;
	struct keyed *all = par_allgather(mine, tr->nprocs * sizeof(*mine), &len_of);
	size_t n = 0;
	for (int a = 0; a < par_size(); a++)
		n += len_of[a] / sizeof(*all);
	if (n > 1)
		qsort(all, n, sizeof(*all), by_key);
	free(tr->reader_of);
	tr->reader_of = xmallocarray(n + 1, sizeof(*tr->reader_of));
	tr->nreader_of = n;
	for (size_t i = 0; i < n; i++) {
		tr->reader_of[i] = all[i].from;
		if (all[i].from == par_rank() && all[i].at < tr->nprocs)
			tr->procs[all[i].at]->index = (int)i + 1;
	}
	number_references(tr, all, n);
	if (tr->nprocs > 1)
		qsort(tr->procs, tr->nprocs, sizeof(*tr->procs), by_index);
	free(all);
	free(len_of);
	free(mine);
}

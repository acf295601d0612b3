/* placement.c — where an imported file's times go on the profile's axis, once the recorded
 * processes are there.  In this order: a file with absolute times (baseTimeNanoseconds, or
 * epoch timestamps) goes through the realtime clock of its host as the recorders sampled it;
 * else its steps (ProfilerStep#N) are matched to the profile's steps of the same numbers (its
 * own process's when it has one) and the offset is the median of the differences (robust to
 * a step that started late), with its residual; else --import-offset puts its first event that far after
 * the profile's start; else the realtime its writer gave for its time 0 (tprof.base_us, the
 * PyTorch helper's) places it as an absolute time would; else its first event is put at the
 * start, with a warning.  Each image
 * then gets a clock of two points with that map, and the recorded process of its (host, pid)
 * as its home.  The file's times come from the file: every sum and difference of them is held
 * at the ends of the range (util/satarith.h) rather than overflow. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/events.h"
#include "../../common/import-records.h"
#include "../../common/xalloc.h"
#include "../read/import-image.h"
#include "../parallel/par.h"
#include "../util/grow.h"
#include "../util/pack.h"
#include "../util/satarith.h"
#include "../util/strings.h"
#include "import.h"
#include "jobview.h"

/* The recorded processes (neither imported nor system images). */
static int recorded(const struct proc *p)
{
	return !p->imp && !p->sys;
}

/* The host a file names, or the profile's one host when it names none (0: none). */
static uint32_t host_of(const struct job_view *v, const char *host)
{
	return host ? strings_add(host, strlen(host)) : v->one_host;
}

/* The recorded process of the file's main (host, pid): the host it names, or the profile's
 * one host when it names none.  Under --parallel the file came to the analysis process
 * that reads it (import.c). */
static struct proc *home_of(const struct trace *tr, const struct job_view *v,
			    const struct imp_file *f, int64_t pid)
{
	uint32_t host = host_of(v, f->host);
	if (!host)
		return NULL;
	struct proc *best = NULL;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		if (recorded(p) && p->host == host && p->pid == pid && p->tb.n &&
		    (!best || p->tb.pts[0].mono > best->tb.pts[0].mono))
			best = p;   /* the last image of the pid: after any exec */
	}
	return best;
}

/* A process's clock, as a host's. */
static struct host_clock clock_of(const struct proc *p)
{
	return (struct host_clock){ .host = p->host, .order = p->scan_order,
				    .real_mono = p->tb.pts[0].real - p->tb.pts[0].mono,
				    .offset = p->tb.offset, .corrected = p->tb.corrected,
				    .corr = p->tb.corr };
}

/* ---- the profile's steps ------------------------------------------------------------------ */

struct step_at {
	uint64_t n;
	int64_t ns;                      /* its first start, on the axis */
};

static int by_step(const void *a, const void *b)
{
	const struct step_at *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* The first start of each step number in p's STEP records (one pass over its records). */
static struct step_at *proc_steps(struct proc *p, size_t *n)
{
	struct step_at *v = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t s = 1; s < p->nstreams; s++) {
		struct stream *st = p->streams[s];
		size_t cursor = 0;
		if (!st || stream_rewind(st) < 0)
			continue;
		while (stream_next(st)) {
			if (st->rec->kind != TPROF_K_STEP || (st->rec->flags & TPROF_STEP_END))
				continue;
			v = util_grow(v, &cap, *n, sizeof(*v), 64);
			v[(*n)++] = (struct step_at){ st->rec->arg,
						      timebase_global(&p->tb, st->rec->t0, &cursor) };
		}
		stream_rewind(st);
	}
	if (*n > 1)
		qsort(v, *n, sizeof(*v), by_step);
	size_t k = 0;
	for (size_t i = 0; i < *n; i++)
		if (!k || v[k - 1].n != v[i].n)
			v[k++] = v[i];
	*n = k;
	return v;
}

static const struct step_at *find_step(const struct step_at *v, size_t n, uint64_t step)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].n < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].n == step ? &v[lo] : NULL;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The offset that puts the file's steps on the profile's: a pure shift, the median of the
 * differences, which one step started late on either side (a preempted thread, a slow first
 * step) does not move, as it would a mean; 0 when no step number is in both.  The residual
 * is of every matched step, outliers included. */
static int fit_steps(struct import_done *d, const struct step_at *rec, size_t nrec)
{
	const struct imp_file *f = &d->file;
	size_t n = 0, cap = 0;
	double *diff = NULL;
	for (size_t i = 0; i < f->nimages; i++)
		for (size_t k = 0; k < f->images[i].nsteps; k++) {
			const struct imp_step *s = &f->images[i].steps[k];
			const struct step_at *r = find_step(rec, nrec, s->n);
			if (!r)
				continue;
			diff = util_grow(diff, &cap, n, sizeof(*diff), 64);
			diff[n++] = (double)r->ns - (double)s->t0;
		}
	if (!n) {
		free(diff);
		return 0;
	}
	qsort(diff, n, sizeof(*diff), by_double);
	double mid = n % 2 ? diff[n / 2] : diff[n / 2 - 1] / 2 + diff[n / 2] / 2;
	double sq = 0, worst = 0;
	for (size_t i = 0; i < n; i++) {
		double e = diff[i] - mid;
		sq += e * e;
		if (fabs(e) > worst)
			worst = fabs(e);
	}
	free(diff);
	d->shift_ns = sat_from_double(round(mid));
	d->steps_matched = n;
	d->residual_rms_ns = sqrt(sq / (double)n);
	d->residual_max_ns = worst;
	return 1;
}

/* The best fit of a file's steps to a recorded process's: its home's when it has one, else
 * that of the process with the most step numbers in common (the first found of those). */
struct fit {
	int found;
	uint32_t order;                  /* the process's scan order */
	size_t matched;
	int64_t shift;
	double rms, max;
};

static size_t file_steps(const struct imp_file *f)
{
	size_t n = 0;
	for (size_t i = 0; i < f->nimages; i++)
		n += f->images[i].nsteps;
	return n;
}

/* Over this analysis process's recorded processes. */
static struct fit local_fit(struct trace *tr, const struct import_done *d)
{
	struct fit best = { 0 };
	if (!file_steps(&d->file))
		return best;
	for (size_t i = 0; i < tr->nprocs; i++) {
		struct proc *p = tr->procs[i];
		if (!recorded(p) || (d->home && p != d->home))
			continue;
		size_t n;
		struct step_at *v = proc_steps(p, &n);
		struct import_done t = *d;
		if (n && fit_steps(&t, v, n) &&
		    (!best.found || t.steps_matched > best.matched ||
		     (t.steps_matched == best.matched && p->scan_order < best.order)))
			best = (struct fit){ 1, p->scan_order, t.steps_matched, t.shift_ns,
					     t.residual_rms_ns, t.residual_max_ns };
		free(v);
	}
	return best;
}

/* Under --parallel: the fits of the files that no recorded process homes (they are the first
 * analysis process's: import.c), over every analysis process's processes.  Each sends the
 * steps of its files; every one fits them to its processes; the best of all is kept. */
static void share_fits(struct trace *tr, struct import_set *set, struct fit *fits)
{
	struct pack mine = { 0 };
	for (size_t i = 0; i < set->ndone; i++) {
		const struct import_done *d = &set->done[i];
		if (d->home || d->file.time != IMP_TIME_RELATIVE || !file_steps(&d->file))
			continue;
		pack_u64(&mine, i);
		pack_u64(&mine, d->file.nimages);
		for (size_t k = 0; k < d->file.nimages; k++) {
			const struct imp_image *im = &d->file.images[k];
			pack_u64(&mine, im->nsteps);
			pack_bytes(&mine, im->steps, im->nsteps * sizeof(*im->steps));
		}
	}
	size_t *len_of;
	char *all = par_allgather(mine.v, mine.n, &len_of);
	pack_free(&mine);
	struct pack out = { 0 };
	size_t at = 0;
	for (int a = 0; a < par_size(); a++) {
		for (struct unpack u = unpack_of(all + at, len_of[a]); unpack_more(&u);) {
			struct import_done d = { 0 };
			size_t i = (size_t)unpack_u64(&u);
			d.file.nimages = unpack_count(&u, sizeof(uint64_t));
			d.file.images = xcalloc(d.file.nimages + 1, sizeof(*d.file.images));
			for (size_t k = 0; k < d.file.nimages; k++) {
				struct imp_image *im = &d.file.images[k];
				im->nsteps = unpack_count(&u, sizeof(*im->steps));
				im->steps = xcalloc(im->nsteps + 1, sizeof(*im->steps));
				unpack_bytes(&u, im->steps, im->nsteps * sizeof(*im->steps));
			}
			struct fit f = local_fit(tr, &d);
			pack_u64(&out, (uint64_t)a);
			pack_u64(&out, i);
			pack_u64(&out, (uint64_t)f.found);
			pack_u64(&out, f.order);
			pack_u64(&out, f.matched);
			pack_i64(&out, f.shift);
			pack_f64(&out, f.rms);
			pack_f64(&out, f.max);
			for (size_t k = 0; k < d.file.nimages; k++)
				free(d.file.images[k].steps);
			free(d.file.images);
		}
		at += len_of[a];
	}
	free(all);
	free(len_of);
	size_t total;
	char *fitted = par_allgather_total(out.v, out.n, &total);
	pack_free(&out);
	for (struct unpack u = unpack_of(fitted, total); unpack_more(&u);) {
		int whose = (int)unpack_u64(&u);
		size_t i = (size_t)unpack_u64(&u);
		struct fit f;
		f.found = unpack_u64(&u) != 0;
		f.order = (uint32_t)unpack_u64(&u);
		f.matched = (size_t)unpack_u64(&u);
		f.shift = unpack_i64(&u);
		f.rms = unpack_f64(&u);
		f.max = unpack_f64(&u);
		if (whose != par_rank() || i >= set->ndone || !f.found)
			continue;
		struct fit *b = &fits[i];
		if (!b->found || f.matched > b->matched ||
		    (f.matched == b->matched && f.order < b->order))
			*b = f;
	}
	free(fitted);
}

/* ---- clocks ------------------------------------------------------------------------------- */

/* Gives p a clock that maps the file's ns x to the axis as mono(x) + offset: two points of
 * slope one, the file's first and last times.  real_off: realtime minus the axis at the same
 * instant (0 but for absolute time).  A file's times lie within +-2^61 ns of its zero
 * (transcode.c), a span that fits on the axis (+-(2^62 - 1) ns): a shift that would put them
 * past it (a far base time or --import-offset) is held so that they all land on it, and every
 * duration stays as the file says. */
static void set_clock(struct proc *p, struct import_done *d, int64_t shift, int64_t offset,
		      int64_t real_shift)
{
	const struct imp_file *f = &d->file;
	int64_t x0 = f->first_ns == INT64_MAX ? 0 : f->first_ns;
	int64_t x1 = f->last_ns > x0 ? f->last_ns : x0 + 1;
	int64_t lo = sat_sub(sat_sub(TIME_AXIS_MIN, x0), offset);
	int64_t hi = sat_sub(sat_sub(TIME_AXIS_MAX, x1), offset);
	if (shift < lo || shift > hi) {
		int64_t held = shift < lo ? lo : hi;
		if (!d->moved++)
			diag_warn(f->source, 0, "its times would lie beyond the analyzer's range "
				  "(+-2^62 ns): moved by %" PRId64 " ns to lie within it",
				  sat_sub(held, shift));
		real_shift = sat_add(real_shift, sat_sub(held, shift));
		shift = held;
	}
	p->tb.n = 0;
	timebase_add(&p->tb, (uint64_t)x0 + TPROF_IMP_TICK_BIAS, sat_add(x0, shift),
		     sat_add(x0, real_shift));
	timebase_add(&p->tb, (uint64_t)x1 + TPROF_IMP_TICK_BIAS, sat_add(x1, shift),
		     sat_add(x1, real_shift));
	timebase_finish(&p->tb, 0, NULL);
	p->tb.offset = offset;
}

static void place(struct trace *tr, struct import_set *set, const struct job_view *v,
		  struct import_done *d, const struct fit *fit)
{
	const struct imp_file *f = &d->file;
	int64_t first = f->first_ns == INT64_MAX ? 0 : f->first_ns;
	if (f->time != IMP_TIME_RELATIVE) {
		d->how = IMPORT_BY_TIME;
		d->shift_ns = f->time == IMP_TIME_BASE ? f->base_ns : 0;
	} else if (fit->found) {
		d->how = IMPORT_BY_STEPS;
		d->shift_ns = fit->shift;
		d->steps_matched = fit->matched;
		d->residual_rms_ns = fit->rms;
		d->residual_max_ns = fit->max;
	} else if (set->req->has_offset) {
		d->how = IMPORT_BY_OFFSET;
		d->shift_ns = sat_sub(sat_add(v->start, set->req->offset_ns), first);
	} else if (f->has_hint) {
		d->how = IMPORT_BY_HINT;
		d->shift_ns = f->hint_ns;
	} else {
		d->how = IMPORT_AT_START;
		d->shift_ns = sat_sub(v->start, first);
		tr->undated = v->start == 0 && tr->nprocs == f->nimages;
		if (!tr->undated)
			diag_warn(f->source, 0, "no absolute time and no step in common with the "
				  "profile: its first event is put at the profile's start (give "
				  "--import-offset or --import-steps)");
	}
}

/* Under --parallel: whether a file without a home here has one where another analysis process
 * reads (the files' names did not say which: renamed files); the first such, by its place
 * among the files to import, named in set->home_elsewhere (every analysis process alike). */
static void homes_elsewhere(struct trace *tr, struct import_set *set, const struct job_view *v)
{
	struct pack mine = { 0 };
	for (size_t i = 0; i < set->ndone; i++) {
		const struct import_done *d = &set->done[i];
		const struct imp_file *f = &d->file;
		int64_t pid = f->tprof_pid >= 0 ? f->tprof_pid : f->nimages ? f->images[0].pid : -1;
		if (d->home || pid < 0)
			continue;
		pack_u64(&mine, d->order);
		pack_str(&mine, f->source);
		pack_u64(&mine, f->host != NULL);
		pack_str(&mine, f->host);
		pack_i64(&mine, pid);
	}
	size_t total;
	char *all = par_allgather_total(mine.v, mine.n, &total);
	pack_free(&mine);
	int64_t first = INT64_MAX;
	for (struct unpack u = unpack_of(all, total); unpack_more(&u);) {
		int64_t order = (int64_t)unpack_u64(&u);
		size_t len;
		unpack_str(&u, &len);
		int has_host = unpack_u64(&u) != 0;
		char *host = unpack_strdup(&u);
		struct imp_file f = { .host = has_host ? host : NULL };
		int64_t pid = unpack_i64(&u);
		if (home_of(tr, v, &f, pid) && order < first)
			first = order;
		free(host);
	}
	par_min_i64(&first, 1);
	for (struct unpack u = unpack_of(all, total); unpack_more(&u) && first != INT64_MAX;) {
		int64_t order = (int64_t)unpack_u64(&u);
		char *source = unpack_strdup(&u);
		unpack_u64(&u);
		free(unpack_strdup(&u));
		unpack_i64(&u);
		if (order == first && !set->home_elsewhere) {
			set->home_elsewhere = source;
			continue;
		}
		free(source);
	}
	free(all);
}

void import_align(struct trace *tr, void *ctx)
{
	struct import_set *set = ctx;
	if (!set->req->nfiles && !tr->nfound)
		return;                  /* every analysis process alike */
	struct job_view v;
	job_view_make(tr, &v);
	struct fit *fits = xcalloc(set->ndone + 1, sizeof(*fits));
	for (size_t i = 0; i < set->ndone; i++) {
		struct import_done *d = &set->done[i];
		const struct imp_file *f = &d->file;
		int64_t pid = f->tprof_pid >= 0 ? f->tprof_pid : f->nimages ? f->images[0].pid : -1;
		d->home = pid >= 0 ? home_of(tr, &v, f, pid) : NULL;
		if (f->time == IMP_TIME_RELATIVE)
			fits[i] = local_fit(tr, d);
	}
	if (par_size() > 1) {
		homes_elsewhere(tr, set, &v);
		share_fits(tr, set, fits);     /* the files no process here homes, over all */
	}
	for (size_t i = 0; i < set->ndone; i++)
		place(tr, set, &v, &set->done[i], &fits[i]);
	for (size_t i = 0; i < set->ndone; i++)
		for (size_t k = 0; k < set->done[i].file.nimages; k++) {
			struct import_done *d = &set->done[i];
			struct proc *p = d->file.images[k].proc;
			if (!p || !p->imp)
				continue;
			if (d->how == IMPORT_BY_TIME || d->how == IMPORT_BY_HINT) {
				/* realtime r = x + shift; on the host's axis: r - (real - mono) + offset */
				struct host_clock own;
				const struct host_clock *h = job_view_clock(&v, host_of(&v, d->file.host));
				if (d->home) {
					own = clock_of(d->home);
					h = &own;
				}
				set_clock(p, d, sat_sub(d->shift_ns, h ? h->real_mono : 0),
					  h ? h->offset : 0, d->shift_ns);
				if (h && h->corrected) {
					p->tb.corrected = 1;
					p->tb.corr = h->corr;
				}
			} else {
				set_clock(p, d, d->shift_ns, 0, d->shift_ns);
			}
			if (d->home && d->file.images[k].pid == d->home->pid)
				p->imp->home = d->home;
			p->imp->file_home = d->home;
		}
	free(fits);
	job_view_free(&v);
}

/* import.c — the files to import (--import, and those found in the directory) rewritten as
 * imported images in a scratch directory (each file's images one after another in one file,
 * read through one descriptor), which are then read as part of the profile; the
 * report -v gives of each; the scratch directory's end.  The scratch directory is a
 * temporary of util/outname.h, $TMPDIR/tprof-import.tprof-tmp-HOST-PID-XXXXXX: removed at the
 * end, on SIGINT, SIGTERM and SIGHUP, and, if a run was killed, by the next import once that
 * run's process is gone. */
#include "import.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/xalloc.h"
#include "../parallel/mail.h"
#include "../parallel/par.h"
#include "../parallel/partition.h"
#include "../read/import-image.h"
#include "../read/share.h"
#include "../util/outname.h"
#include "../util/pack.h"
#include "send.h"

/* Never put in place: only its temporary is used, and removed. */
static const struct out_format scratch_format = { "the import's scratch directory", 1, 0, NULL };

static int seen(const struct import_set *set, const char *path)
{
	struct stat a, b;
	if (stat(path, &a) < 0)
		return 0;
	for (size_t i = 0; i < set->ndone; i++)
		if (stat(set->done[i].file.source, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return 1;
	return 0;
}

static void one(struct import_set *set, const char *path, size_t order)
{
	struct imp_opts o = { .scratch = set->scratch, .step_pattern = set->req->step_pattern,
			      .run_bytes = set->req->run_bytes };
	/* for the tests: runs this small go to disk and are merged back */
	const char *kb = getenv("TPROF_TEST_IMPORT_RUN_KB");
	if (kb && atol(kb) > 0)
		o.run_bytes = (size_t)atol(kb) << 10;
	struct import_done d = { .order = order };
	if (seen(set, path))
		return;
	if (imp_transcode(path, &o, &d.file) < 0) {
		imp_file_free(&d.file);         /* what it had made of a file it could not read */
		return;
	}
	set->done = xreallocarray(set->done, set->ndone + 1, sizeof(*set->done));
	set->done[set->ndone++] = d;
}

/* ---- under --parallel ------------------------------------------------------------------- */

/* The files to import as every analysis process lists them (--import's, then those found;
 * one name of a file twice: the first), and their sizes. */
static size_t list_files(const struct trace *tr, const struct import_req *req, char ***paths,
			 uint64_t **sizes)
{
	size_t n = 0, total = req->nfiles + tr->nfound;
	*paths = xcalloc(total + 1, sizeof(**paths));
	*sizes = xcalloc(total + 1, sizeof(**sizes));
	struct stat *st = xcalloc(total + 1, sizeof(*st));
	for (size_t i = 0; i < total; i++) {
		const char *path = i < req->nfiles ? req->files[i] : tr->found[i - req->nfiles];
		int ok = stat(path, &st[n]) == 0, again = 0;
		for (size_t j = 0; ok && j < n && !again; j++)
			again = st[j].st_dev == st[n].st_dev && st[j].st_ino == st[n].st_ino;
		if (again)
			continue;
		if (!ok)
			memset(&st[n], 0, sizeof(st[n]));
		(*paths)[n] = (char *)path;
		(*sizes)[n] = ok && st[n].st_size > 0 ? (uint64_t)st[n].st_size : 0;
		n++;
	}
	free(st);
	return n;
}

/* The analysis process a file read here goes to: the one that reads its home process (by
 * the files' names), else the first. */
static int destination(const struct imp_file *f)
{
	int64_t pid = f->tprof_pid >= 0 ? f->tprof_pid : f->nimages ? f->images[0].pid : -1;
	int to = pid >= 0 ? share_reader_of(f->host, pid) : -1;
	return to < 0 ? 0 : to;
}

static int by_order(const void *a, const void *b)
{
	const struct import_done *x = a, *y = b;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Each file read by one analysis process (cut by bytes) and sent to the one that reads its
 * home process, which places it and reads its images. */
static int shared(struct trace *tr, struct import_set *set)
{
	char **paths;
	uint64_t *sizes;
	size_t n = list_files(tr, set->req, &paths, &sizes);
	size_t k = (size_t)par_size(), me = (size_t)par_rank();
	size_t *first = xcalloc(k + 1, sizeof(*first));
	partition_runs(sizes, n, k, first);
	for (size_t i = first[me]; i < first[me + 1]; i++)
		one(set, paths[i], i);
	/* what goes elsewhere, packed by destination */
	struct mail *m = mail_new();
	size_t kept = 0;
	int rc = 0;
	for (size_t i = 0; i < set->ndone; i++) {
		struct import_done *d = &set->done[i];
		int dest = destination(&d->file);
		if ((size_t)dest == me) {
			set->done[kept++] = *d;
			continue;
		}
		if (imp_send_pack(&m->to[dest], d->order, &d->file) < 0) {
			diag_error("%s: cannot read back its images (%s): %s", d->file.source,
				   d->file.pack, strerror(errno));
			rc = -1;
		}
		imp_file_free(&d->file);
	}
	set->ndone = kept;
	mail_exchange(m);
	for (struct unpack u = mail_all(m); unpack_more(&u) && !rc;) {
		struct import_done d = { 0 };
		if (imp_send_unpack(&u, set->scratch, &d.order, &d.file) < 0) {
			diag_error("an imported file sent by another analysis process could not be "
				   "written to %s", set->scratch);
			imp_file_free(&d.file);
			rc = -1;
			break;
		}
		set->done = xreallocarray(set->done, set->ndone + 1, sizeof(*set->done));
		set->done[set->ndone++] = d;
	}
	if (set->ndone > 1)
		qsort(set->done, set->ndone, sizeof(*set->done), by_order);
	mail_free(m);
	free(first);
	free(paths);
	free(sizes);
	int64_t failed = rc != 0;
	par_max_i64(&failed, 1);
	return failed ? -1 : 0;
}

static int add_images(struct trace *tr, void *ctx)
{
	struct import_set *set = ctx;
	const struct import_req *req = set->req;
	if (!req->nfiles && !tr->nfound)
		return 0;
	const char *tmp = getenv("TMPDIR");
	char *base = xasprintf("%s/tprof-import", tmp && *tmp ? tmp : "/tmp");
	int fd;
	set->scratch_out = outname_begin(base, &scratch_format, &fd);
	free(base);
	if (!set->scratch_out) {
		diag_error("cannot make a scratch directory for the import: %s", outname_error());
		return -1;
	}
	set->scratch = xstrdup(outname_path(set->scratch_out));
	chmod(set->scratch, 0700);      /* the imported traces are the user's alone */
	size_t nall = req->nfiles + tr->nfound;
	uint32_t *ids = xcalloc(nall + 1, sizeof(*ids));
	for (size_t i = 0; i < nall; i++) {
		const char *path = i < req->nfiles ? req->files[i] : tr->found[i - req->nfiles];
		ids[i] = strings_add(path, strlen(path));
	}
	imp_fixes_order(ids, nall);     /* a cause's first place: the earliest, by file order */
	free(ids);
	if (par_size() > 1) {
		if (shared(tr, set) < 0)
			return -1;
	} else {
		for (size_t i = 0; i < req->nfiles; i++)
			one(set, req->files[i], i);
		for (size_t i = 0; i < tr->nfound; i++)
			one(set, tr->found[i], req->nfiles + i);
	}
	for (size_t i = 0; i < set->ndone; i++)
		imp_fixes_add(&set->fixes, &set->done[i].file.fixes);
	if (set->ndone)
		tr->imp_fixes = &set->fixes;
	for (size_t i = 0; i < set->ndone; i++) {
		struct import_done *d = &set->done[i];
		struct imp_file *f = &d->file;
		if (!f->nimages)
			continue;
		/* the images' file, opened once for all of them */
		int images_fd = fdcache_open(f->pack, O_RDONLY);
		if (images_fd < 0) {
			diag_error("%s: cannot open %s: %s", f->source, f->pack, strerror(errno));
			return -1;
		}
		d->images = xmalloc(sizeof(*d->images));
		cfile_init(d->images, f->pack);
		cfile_adopt(d->images, images_fd);
		for (size_t k = 0; k < f->nimages; k++) {
			struct imp_image *im = &f->images[k];
			if (!im->size)
				continue;            /* nothing was written */
			im->proc = scan_add_part(tr, d->images, im->offset, im->size);
			im->proc->scratch = 1;       /* written just now: trusted */
		}
	}
	return 0;
}

static int imports_given(void *ctx)
{
	const struct import_set *set = ctx;
	return set->req->nfiles > 0;
}

struct load_hooks import_hooks(struct import_set *set)
{
	return (struct load_hooks){ .add = add_images, .align = import_align,
				    .imports = imports_given, .ctx = set };
}

static const char *how_text(int how)
{
	switch (how) {
	case IMPORT_BY_TIME: return "by its absolute time";
	case IMPORT_BY_STEPS: return "by its steps";
	case IMPORT_BY_OFFSET: return "by --import-offset";
	case IMPORT_BY_HINT: return "by the realtime its writer gave (tprof.base_us)";
	default: return "its first event at the start of the profile (nothing to align it by)";
	}
}

void import_report(const struct import_set *set, const struct trace *tr)
{
	for (size_t i = 0; i < set->ndone; i++) {
		const struct import_done *d = &set->done[i];
		const struct imp_file *f = &d->file;
		uint64_t skipped = imp_fixes_class(&f->fixes, IMP_SKIP);
		diag_note("imported %s: %llu events in %zu process(es)%s%s; placed %s",
			  f->source, (unsigned long long)f->events, f->nimages,
			  skipped ? ", some skipped" : "", f->failed ? ", read cut short" : "",
			  how_text(d->how));
		if (d->how == IMPORT_BY_STEPS)
			diag_note("  %zu steps matched; the file's time 0 at %.3f us of the profile "
				  "(the median of the steps' offsets), residual %.3f us RMS, %.3f us at "
				  "most", d->steps_matched,
				  (double)(d->shift_ns - tr->start_ns) / 1e3,
				  d->residual_rms_ns / 1e3, d->residual_max_ns / 1e3);
		if (d->home) {
			char label[256];
			diag_note("  its process %lld is %s", (long long)d->home->pid,
				  proc_label(d->home, label, sizeof(label)));
		}
	}
}

void import_report_fixes(const struct import_set *set)
{
	if (set->ndone)
		imp_fixes_report(&set->fixes);
}

/* The scratch directory, with what it holds. */
static void scratch_remove(struct import_set *set)
{
	if (set->scratch_out)
		outname_end(set->scratch_out, 0, 0);
	set->scratch_out = NULL;
	free(set->scratch);
	set->scratch = NULL;
}

void import_end(struct import_set *set)
{
	for (size_t i = 0; i < set->ndone; i++) {
		if (set->done[i].images)
			cfile_close(set->done[i].images);
		free(set->done[i].images);
		imp_file_free(&set->done[i].file);
	}
	scratch_remove(set);
	free(set->home_elsewhere);
	set->home_elsewhere = NULL;
	free(set->done);
	set->done = NULL;
	set->ndone = 0;
}

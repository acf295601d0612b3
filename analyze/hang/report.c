/* hang/report.c — the hang analysis written (text, or JSON under "live", through the summary's
 * writer): a headline saying whether the job gets on, the findings in sentences (the oldest
 * wait first), then what each process is in, the newest collective each rank entered and left
 * on each communicator, the messages without their other end (those alike as one) and the
 * device work not seen to end.  Times are said as the wall clock and as how long before the moment looked at. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../summary/write.h"
#include "../../common/xalloc.h"
#include "../util/fmt.h"
#include "ends.h"
#include "findings.h"

#define LINE 1024

struct line {
	char s[LINE];
	size_t n;
};

static void say(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct line *l, const char *fmt, ...)
{
	if (l->n >= sizeof(l->s) - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(l->s + l->n, sizeof(l->s) - l->n, fmt, ap);
	va_end(ap);
	if (k > 0)
		l->n = l->n + (size_t)k < sizeof(l->s) ? l->n + (size_t)k : sizeof(l->s) - 1;
}

static const char *who(const struct proc *p, char *buf, size_t len)
{
	if (!p)
		snprintf(buf, len, "?");
	else if (p->rank >= 0)
		snprintf(buf, len, "rank %lld", (long long)p->rank);
	else
		snprintf(buf, len, "pid %lld", (long long)p->pid);
	return buf;
}

/* The wall clock at t (ns from the trace start), HH:MM:SS. */
static const char *clock_at(const struct hang *h, int64_t t, char *buf, size_t len)
{
	time_t s = (time_t)((h->tr->start_ns + t) / 1000000000);
	struct tm tm;
	if (!localtime_r(&s, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
	return buf;
}

static const char *ago(const struct hang *h, int64_t t, char *buf, size_t len)
{
	return fmt_dur(h->now > t ? h->now - t : 0, buf, len);
}

static const char *name_of(uint32_t id)
{
	return id ? strings_get(id) : "?";
}

static void comm_words(const struct hang *h, uint64_t comm, uint32_t name, struct line *l)
{
	(void)h;
	if (name)
		say(l, "%s", strings_get(name));
	else
		say(l, "comm %016" PRIx64, comm);
}

/* What process hp is doing: the call it is in and the device work that call waits for, or
 * that it is gone, or that it makes no call. */
static void doing(const struct hang *h, const struct hproc *hp, struct line *l)
{
	char a[64], b[64], c[32];
	const struct proc *p = hp->p;
	if (p->ended) {
		say(l, "%s exited at %s", who(p, a, sizeof(a)), clock_at(h, p->end_ns - h->tr->start_ns,
									  b, sizeof(b)));
		return;
	}
	if (hp->alive == 0) {
		say(l, "%s is gone (its data ends at %s)", who(p, a, sizeof(a)),
		    clock_at(h, p->end_ns - h->tr->start_ns, b, sizeof(b)));
		return;
	}
	if (!hp->ncalls) {
		say(l, "%s is in no call", who(p, a, sizeof(a)));
		if (hp->progress != INT64_MIN)
			say(l, " (its last, %s, returned %s ago)", name_of(hp->last_name),
			    ago(h, hp->progress, b, sizeof(b)));
		return;
	}
	const struct hcall *k = &hp->calls[0];
	say(l, "%s is in %s for %s", who(p, a, sizeof(a)), name_of(k->name),
	    ago(h, k->t0, b, sizeof(b)));
	const struct hstream *s = hang_call_stream(hp, k);
	const struct hwork *w = hang_stuck_work(hp, s);
	const struct hcoll *dc = k->waits_device ? hang_device_coll(h, hp) : NULL;
	if (w) {
		say(l, "; stream %u has %s launched %s ago and not finished", s->ordinal,
		    name_of(w->name), ago(h, w->t0, c, sizeof(c)));
		if (s->nheld > 1 || s->more)
			say(l, " (%" PRIu64 " more after it)", s->nheld - 1 + s->more);
	} else if (dc) {
		for (size_t i = 0; i < dc->nm; i++)
			if (dc->m[i].proc == p) {
				say(l, "; its device has not finished %s #%u on ", name_of(dc->m[i].name),
				    dc->seq);
				comm_words(h, dc->comm, dc->comm_name, l);
				break;
			}
	}
	for (size_t i = 1; i < hp->ncalls && i < 3; i++)
		say(l, "; another thread is in %s for %s", name_of(hp->calls[i].name),
		    ago(h, hp->calls[i].t0, b, sizeof(b)));
}

static void edge_words(const struct hang *h, const struct hedge *e, struct line *l)
{
	char a[64], b[64], c[32];
	if (!e->name && e->how == HE_RECV) {   /* a receive posted earlier, not its call */
		say(l, "%s waits for a message from %s (its receive posted %s ago is not complete)",
		    who(e->from->p, a, sizeof(a)), who(e->to->p, b, sizeof(b)),
		    ago(h, e->since, c, sizeof(c)));
		return;
	}
	say(l, "%s waits in %s ", who(e->from->p, a, sizeof(a)), name_of(e->name));
	switch (e->how) {
	case HE_RECV:
		say(l, "for a message from %s", who(e->to->p, b, sizeof(b)));
		break;
	case HE_SEND:
		say(l, "to send to %s", who(e->to->p, b, sizeof(b)));
		break;
	default:
		say(l, "#%u on ", e->seq);
		comm_words(h, e->comm, e->comm_name, l);
		say(l, " for %s", who(e->to->p, b, sizeof(b)));
		break;
	}
}

static void members_words(const struct hfinding *f, struct line *l)
{
	char a[64];
	int ranks = 1;   /* all of them processes with a rank: "ranks 0, 1 and 3" */
	for (uint32_t i = 0; i < f->nmissing && i < MISSING_MAX; i++)
		ranks &= f->missing[i] && f->missing[i]->p->rank >= 0;
	if (ranks && f->nmissing > 1)
		say(l, "ranks ");
	for (uint32_t i = 0; i < f->nmissing && i < MISSING_MAX; i++) {
		say(l, "%s", i ? (i + 1 == f->nmissing ? " and " : ", ") : "");
		if (ranks && f->nmissing > 1)
			say(l, "%lld", (long long)f->missing[i]->p->rank);
		else if (f->missing[i])
			say(l, "%s", who(f->missing[i]->p, a, sizeof(a)));
		else
			say(l, "its rank %d", f->missing_rank[i]);
	}
	if (f->nmissing > MISSING_MAX)
		say(l, " and %u more", f->nmissing - MISSING_MAX);
}

static void finding_words(const struct hang *h, const struct hfinding *f, struct line *l)
{
	char a[64], b[64], c[64];
	switch (f->kind) {
	case HF_NOT_ENTERED:
		members_words(f, l);
		say(l, " %s not entered %s #%u on ", f->nmissing == 1 ? "has" : "have",
		    name_of(f->name), f->coll->seq);
		comm_words(h, f->coll->comm, f->coll->comm_name, l);
		say(l, " (%u %s waiting since %s, %s)", f->waiters, f->waiters == 1 ? "rank" : "ranks",
		    clock_at(h, f->since, a, sizeof(a)), ago(h, f->since, b, sizeof(b)));
		for (uint32_t i = 0; i < f->nmissing && i < MISSING_MAX && i < 3; i++)
			if (f->missing[i]) {
				say(l, "; ");
				doing(h, f->missing[i], l);
			}
		break;
	case HF_NONE_LEFT:
		say(l, "all %u ranks entered %s #%u on ", f->waiters, name_of(f->name), f->coll->seq);
		comm_words(h, f->coll->comm, f->coll->comm_name, l);
		say(l, " and none has %s it (the last entered at %s, %s ago)",
		    f->coll->on_device ? "finished" : "left", clock_at(h, f->since, a, sizeof(a)),
		    ago(h, f->since, b, sizeof(b)));
		break;
	case HF_CYCLE:
		say(l, "deadlock since %s (%s): ", clock_at(h, f->since, a, sizeof(a)),
		    ago(h, f->since, b, sizeof(b)));
		for (uint32_t i = 0; i < f->ncycle; i++) {
			if (i)
				say(l, ", ");
			edge_words(h, &f->cycle[i], l);
		}
		break;
	case HF_WAITS_PEER:
	case HF_GONE:
		edge_words(h, &f->cycle[0], l);
		say(l, " since %s (%s); ", clock_at(h, f->since, a, sizeof(a)),
		    ago(h, f->since, b, sizeof(b)));
		doing(h, f->cycle[0].to, l);
		break;
	case HF_MISMATCH: {
		const struct hmismatch *m = f->mismatch;
		say(l, "mismatched collective #%u on ", m->seq);
		comm_words(h, m->comm, m->comm_name, l);
		say(l, ": %s called %s", who(m->a.proc, a, sizeof(a)), name_of(m->a.name));
		if (m->a.size)
			say(l, " of %" PRIu64 " %s", m->a.size, m->a.unit);
		say(l, ", %s %s", who(m->b.proc, c, sizeof(c)), name_of(m->b.name));
		if (m->b.size)
			say(l, " of %" PRIu64 " %s", m->b.size, m->b.unit);
		if (m->differ > 1)
			say(l, " (%u of its %u members differ from %s)", m->differ, m->members, a);
		break;
	}
	case HF_DEVICE: {
		const struct hwork *w = hang_stuck_work(f->who, f->stream);
		say(l, "%s waits in %s for its device since %s (%s): stream %u has %s launched and "
		       "not finished", who(f->who->p, a, sizeof(a)), name_of(f->call->name),
		    clock_at(h, f->call->t0, b, sizeof(b)), ago(h, f->call->t0, c, sizeof(c)),
		    f->stream->ordinal, w ? name_of(w->name) : "work");
		break;
	}
	default:
		break;
	}
}

static const char *kind_key(unsigned kind)
{
	static const char *const keys[] = { "", "not_entered", "none_left", "cycle",
					     "waits_for_peer", "mismatch", "peer_gone", "device" };
	return kind < sizeof(keys) / sizeof(*keys) ? keys[kind] : "";
}

static const char *state_of(const struct hproc *hp)
{
	if (hp->p->ended)
		return "exited";
	if (hp->alive == 0)
		return "gone";
	return hp->ncalls ? "in a call" : "running";
}

/* The process that got on last, and when. */
static const struct hproc *last_progress(const struct hang *h)
{
	const struct hproc *best = NULL;
	for (size_t i = 0; i < h->nprocs; i++) {
		const struct hproc *hp = &h->procs[i];
		if (hp->p && !hang_gone(hp) && hp->progress != INT64_MIN &&
		    (!best || hp->progress > best->progress))
			best = hp;
	}
	return best;
}

static void headline(const struct hang *h, struct sumw *w, const char *dir)
{
	char a[64], b[64], c[64];
	size_t running = 0, gone = 0;
	for (size_t i = 0; i < h->nprocs; i++)
		if (h->procs[i].p)
			*(hang_gone(&h->procs[i]) ? &gone : &running) += 1;
	const struct hproc *last = last_progress(h);
	sw_str(w, "%s", "profile", dir ? dir : "");
	sw_i64(w, NULL, "now_ns", h->now);
	sw_str(w, NULL, "time", clock_at(h, h->now, a, sizeof(a)));
	sw_u64(w, NULL, "processes", running + gone);
	sw_u64(w, NULL, "running", running);
	sw_text(w, h->live ? " at %s: " : " where its data ends (%s): ", a);
	if (!running) {
		sw_text(w, "every process has ended\n");
	} else if (!last) {
		sw_text(w, "%zu of %zu processes still run, none has got on yet\n", running,
			running + gone);
	} else {
		sw_text(w, "%zu of %zu processes %s; the last to get on was %s, %s ago (%s%s)\n",
			running, running + gone, h->live ? "run" : "were running",
			who(last->p, b, sizeof(b)), ago(h, last->progress, c, sizeof(c)),
			last->last_name ? name_of(last->last_name) : "its work",
			last->last_name ? " returned" : "");
	}
	if (last) {
		sw_i64(w, NULL, "last_progress_ns", last->progress);
		sw_i64(w, NULL, "stalled_ns", h->now - last->progress);
		sw_i64(w, NULL, "last_progress_rank", last->p->rank);
	}
}

static void findings(const struct hang *h, struct sumw *w)
{
	sw_arr(w, "findings");
	sw_text(w, "\nFindings (causes first, then what follows from them; the oldest wait first):\n");
	if (!h->nfindings)
		sw_text(w, "  none: nothing waits for anything that has not come\n");
	for (size_t i = 0; i < h->nfindings; i++) {
		const struct hfinding *f = &h->findings[i];
		struct line l = { .n = 0 };
		l.s[0] = '\0';
		finding_words(h, f, &l);
		sw_obj(w, NULL);
		sw_str(w, NULL, "kind", kind_key(f->kind));
		sw_i64(w, NULL, "since_ns", f->since);
		sw_bool(w, "follows", f->follows);
		sw_text(w, "  %zu. ", i + 1);
		sw_str(w, "%s\n", "text", l.s);
		if (f->coll) {
			sw_u64(w, NULL, "seq", f->coll->seq);
			char id[24];
			snprintf(id, sizeof(id), "%016" PRIx64, f->coll->comm);
			sw_str(w, NULL, "comm", id);
			sw_str(w, NULL, "call", name_of(f->name));
			sw_u64(w, NULL, "waiting", f->waiters);
		}
		if (f->kind == HF_NOT_ENTERED) {
			sw_arr(w, "missing_ranks");
			for (uint32_t k = 0; k < f->nmissing && k < MISSING_MAX; k++)
				sw_elem(w, f->missing[k] ? f->missing[k]->p->rank : f->missing_rank[k]);
			sw_close(w);
		}
		if (f->ncycle) {
			sw_arr(w, "waits");
			for (uint32_t k = 0; k < f->ncycle; k++) {
				sw_obj(w, NULL);
				sw_i64(w, NULL, "rank", f->cycle[k].from->p->rank);
				sw_i64(w, NULL, "for_rank", f->cycle[k].to->p->rank);
				sw_str(w, NULL, "call", name_of(f->cycle[k].name));
				sw_close(w);
			}
			sw_close(w);
		}
		if (f->mismatch) {
			sw_u64(w, NULL, "seq", f->mismatch->seq);
			sw_i64(w, NULL, "rank", f->mismatch->a.proc ? f->mismatch->a.proc->rank : -1);
			sw_i64(w, NULL, "other_rank",
			       f->mismatch->b.proc ? f->mismatch->b.proc->rank : -1);
			sw_u64(w, NULL, "size", f->mismatch->a.size);
			sw_u64(w, NULL, "other_size", f->mismatch->b.size);
		}
		if (f->who)
			sw_i64(w, NULL, "rank", f->who->p->rank);
		sw_close(w);
	}
	sw_close(w);
}

static void processes(const struct hang *h, struct sumw *w)
{
	char a[64], b[64];
	sw_arr(w, "processes");
	sw_text(w, "\nProcesses:\n");
	for (size_t i = 0; i < h->nprocs; i++) {
		const struct hproc *hp = &h->procs[i];
		if (!hp->p || hp->p->sys || hp->p->imp)
			continue;
		sw_obj(w, NULL);
		sw_text(w, "  %-10s ", who(hp->p, a, sizeof(a)));
		sw_i64(w, NULL, "rank", hp->p->rank);
		sw_i64(w, "pid %-8" PRId64 " ", "pid", hp->p->pid);
		sw_str(w, "%-10s", "state", state_of(hp));
		if (hp->has_step)
			sw_u64(w, " step %-6" PRIu64, "step", hp->step);
		else
			sw_text(w, " %-11s", "");
		if (hp->progress != INT64_MIN)
			sw_i64(w, NULL, "progress_ns", hp->progress);
		sw_arr(w, "calls");
		for (size_t k = 0; k < hp->ncalls; k++) {
			const struct hcall *c = &hp->calls[k];
			sw_obj(w, NULL);
			sw_text(w, "%s", k ? ", " : " ");
			sw_i64(w, NULL, "tid", c->thread ? c->thread->tid : 0);
			sw_str(w, "%s", "call", name_of(c->name));
			sw_i64(w, NULL, "since_ns", c->t0);
			sw_text(w, " for %s", ago(h, c->t0, b, sizeof(b)));
			if (c->thread && hp->ncalls > 1)
				sw_text(w, " (thread %d)", c->thread->tid);
			sw_close(w);
		}
		sw_close(w);
		sw_arr(w, "device_not_finished");
		for (size_t k = 0; k < hp->nstreams; k++) {
			const struct hstream *s = &hp->streams[k];
			const struct hwork *wk = hang_stuck_work(hp, s);
			if (!wk)
				continue;
			sw_obj(w, NULL);
			sw_u64(w, "; stream %u:", "stream", s->ordinal);
			sw_str(w, " %s", "name", name_of(wk->name));
			sw_i64(w, NULL, "launched_ns", wk->t0);
			sw_text(w, " launched %s ago", ago(h, wk->t0, b, sizeof(b)));
			sw_u64(w, NULL, "more", s->nheld - 1 + s->more);
			if (s->nheld > 1 || s->more)
				sw_text(w, " (+%" PRIu64 ")", s->nheld - 1 + s->more);
			sw_close(w);
		}
		sw_close(w);
		sw_text(w, "\n");
		sw_close(w);
	}
	sw_close(w);
}

static int member_order(const void *a, const void *b)
{
	const struct hmember *x = *(const struct hmember *const *)a;
	const struct hmember *y = *(const struct hmember *const *)b;
	int64_t rx = x->proc ? x->proc->index : INT64_MAX, ry = y->proc ? y->proc->index : INT64_MAX;
	return (rx > ry) - (rx < ry);
}

static void communicators(const struct hang *h, struct sumw *w)
{
	char a[64];
	for (size_t i = 0; i < h->ncomms; i++)
		if (h->comms[i].nm > 1)
			qsort(h->comms[i].m, h->comms[i].nm, sizeof(*h->comms[i].m), member_order);
	sw_arr(w, "communicators");
	sw_if(w, h->ncomms > 0);
	sw_text(w, "\nCollectives (the newest each rank entered, and left):\n");
	for (size_t i = 0; i < h->ncomms; i++) {
		const struct hcomm *c = &h->comms[i];
		struct line l = { .n = 0 };
		l.s[0] = '\0';
		comm_words(h, c->comm, c->name, &l);
		sw_obj(w, NULL);
		char id[24];
		snprintf(id, sizeof(id), "%016" PRIx64, c->comm);
		sw_str(w, NULL, "comm", id);
		sw_str(w, "  %s", "name", l.s);
		sw_u64(w, " (%u ranks):", "size", c->size);
		sw_arr(w, "members");
		for (size_t k = 0; k < c->nm; k++) {
			const struct hmember *m = c->m[k];
			sw_obj(w, NULL);
			sw_text(w, "%s %s ", k ? ";" : "", who(m->proc, a, sizeof(a)));
			sw_i64(w, NULL, "rank", m->proc ? m->proc->rank : -1);
			sw_u64(w, "#%u", "entered", m->entered);
			sw_str(w, NULL, "call", name_of(m->entered_name));
			if (m->left == m->entered)
				sw_text(w, " (left)");
			else if (m->left)
				sw_text(w, " (left #%u)", m->left);
			else
				sw_text(w, " (not left)");
			sw_u64(w, NULL, "left", m->left);
			sw_close(w);
		}
		sw_close(w);
		sw_text(w, "\n");
		sw_close(w);
	}
	sw_endif(w);
	sw_close(w);
}

/* By process, kind, peer, tag, communicator and the call waited in (none last), the oldest
 * first: the operations alike are neighbours, said as one. */
static int message_order(const void *a, const void *b)
{
	const struct hang_p2p *x = *(const struct hang_p2p *const *)a;
	const struct hang_p2p *y = *(const struct hang_p2p *const *)b;
	int64_t rx = x->proc ? x->proc->rank : -1, ry = y->proc ? y->proc->rank : -1;
	if (rx != ry)
		return rx < ry ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->name != y->name)
		return x->name && y->name ? (x->name < y->name ? -1 : 1) : x->name ? -1 : 1;
	return (x->t0 > y->t0) - (x->t0 < y->t0);
}

static int alike(const struct hang_p2p *x, const struct hang_p2p *y)
{
	return x->proc == y->proc && x->kind == y->kind && x->peer == y->peer && x->tag == y->tag &&
	       x->comm == y->comm && x->name == y->name;
}

/* The operations without their other end (those whose other end is on its way are in flight,
 * not said), those alike as one line with their number and the oldest. */
static void messages(const struct hang *h, struct sumw *w)
{
	char a[64], b[64], c[64];
	const struct hang_p2p **v = xcalloc(h->np2p ? h->np2p : 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < h->np2p; i++)
		if (!h->ends || !hang_ends_paired(h->ends, &h->p2p[i]))
			v[n++] = &h->p2p[i];
	if (n > 1)
		qsort(v, n, sizeof(*v), message_order);
	sw_arr(w, "messages");
	sw_if(w, n > 0);
	sw_text(w, "\nMessages without their other end:\n");
	for (size_t i = 0, j; i < n; i = j) {
		const struct hang_p2p *p = v[i];
		for (j = i + 1; j < n && alike(v[j], p); j++)
			;
		uint64_t count = j - i;
		sw_obj(w, NULL);
		sw_str(w, NULL, "kind", p->kind == HANG_RECV ? "receive" : "send");
		sw_i64(w, NULL, "rank", p->proc ? p->proc->rank : -1);
		sw_i64(w, NULL, "peer", p->peer);
		sw_i64(w, NULL, "tag", p->tag);
		sw_i64(w, NULL, "since_ns", p->t0);
		sw_u64(w, NULL, "count", count);
		if (p->kind == HANG_RECV)
			snprintf(c, sizeof(c), "%s", p->peer >= 0 ? "from" : "from any rank");
		else
			snprintf(c, sizeof(c), "to");
		sw_text(w, "  %s: ", who(p->proc, a, sizeof(a)));
		if (count > 1)
			sw_text(w, "%s %ss %s", fmt_count(count, b, sizeof(b)),
				p->kind == HANG_RECV ? "receive" : "send", c);
		else
			sw_text(w, "%s %s", p->kind == HANG_RECV ? "receive" : "send", c);
		if (p->peer >= 0)
			sw_text(w, " rank %d", p->peer);
		if (p->tag >= 0)
			sw_text(w, " (tag %d)", p->tag);
		sw_text(w, " posted %s ago%s%s%s\n", ago(h, p->t0, b, sizeof(b)),
			count > 1 ? ", the oldest" : "", p->name ? " in " : "",
			p->name ? name_of(p->name) : "");
		sw_close(w);
	}
	sw_endif(w);
	sw_close(w);
	free(v);
}

void hang_write(struct hang *h, struct sumw *w, const char *dir)
{
	sw_obj(w, "live");
	sw_text(w, "%s", h->live ? "Live view of " : "Hang report of ");
	headline(h, w, dir);
	findings(h, w);
	processes(h, w);
	communicators(h, w);
	messages(h, w);
	sw_close(w);
}

/* model/scene-halves.c — the halves of arrows that another analysis process draws
 * (scene-halves.h): packed per analysis process as they come, exchanged once at the end
 * (parallel/mail.h), drawn where their thread is read.  An arrow whose two ends both belong
 * to others (a collective lined up by a third) sends both halves. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../parallel/mail.h"
#include "../parallel/par.h"
#include "../util/pack.h"
#include "output.h"

#include "scene-halves.h"

enum { END_THREAD = 1, END_STREAM };   /* where an end lies: struct flow_end */

struct halves {
	struct mail *mail;              /* what goes to each analysis process */
};

/* A string with its terminating NUL, so that the receiver may point into the bytes. */
static void pack_cstr(struct pack *b, const char *s)
{
	uint64_t n = s ? strlen(s) + 1 : 0;
	pack_u64(b, n);
	if (n)
		pack_bytes(b, s, (size_t)n);
}

static const char *unpack_cstr(struct unpack *u)
{
	size_t n;
	const char *s = unpack_str(u, &n);
	return n && s[n - 1] == 0 ? s : NULL;
}

static void pack_args(struct pack *b, const struct scene_args *a)
{
	unsigned n = a ? a->n : 0;
	pack_u64(b, n);
	for (unsigned i = 0; i < n; i++) {
		const struct scene_arg *x = &a->a[i];
		pack_u64(b, x->type);
		pack_cstr(b, x->key ? x->key : x->key_name ? strings_get(x->key_name) : NULL);
		switch (x->type) {
		case SA_DOUBLE:
			pack_f64(b, x->v.d);
			break;
		case SA_STR:
			pack_cstr(b, x->v.s ? x->v.s : "");
			break;
		case SA_NAME:
			pack_cstr(b, strings_get(x->v.name));
			break;
		case SA_OBJ:
		case SA_ARR:
		case SA_END:
			break;
		default:
			pack_u64(b, x->v.u);
			break;
		}
	}
}

/* Arguments as packed, pointing into the bytes (SA_NAME comes back as SA_STR: the text). */
static void unpack_args(struct unpack *u, struct scene_args *a)
{
	size_t n = unpack_count(u, 2 * sizeof(uint64_t));
	a->n = 0;
	for (size_t i = 0; i < n && !u->short_read; i++) {
		uint8_t type = (uint8_t)unpack_u64(u);
		const char *key = unpack_cstr(u);
		struct scene_arg *x = sa_add(a, key, type == SA_NAME ? SA_STR : type);
		switch (type) {
		case SA_DOUBLE:
			x->v.d = unpack_f64(u);
			break;
		case SA_STR:
		case SA_NAME:
			x->v.s = unpack_cstr(u);
			if (!x->v.s)
				x->v.s = "";
			break;
		case SA_OBJ:
		case SA_ARR:
		case SA_END:
			break;
		default:
			x->v.u = unpack_u64(u);
			break;
		}
	}
}

void halves_add(struct halves **hp, int reader, int end, const struct flow_end *e,
		const struct scene_flow *f)
{
	if (reader < 0 || reader >= par_size())
		return;
	struct halves *h = *hp;
	if (!h) {
		h = *hp = xcalloc(1, sizeof(*h));
		h->mail = mail_new();
	}
	struct pack *b = &h->mail->to[reader];
	pack_u64(b, (uint64_t)end);
	pack_u64(b, f->id);
	pack_cstr(b, f->key);
	pack_cstr(b, f->cat);
	pack_cstr(b, f->name);
	pack_i64(b, e->proc->index);
	pack_u64(b, e->thread ? END_THREAD : END_STREAM);
	pack_i64(b, e->thread ? e->thread->tid : 0);
	pack_u64(b, e->device);
	pack_u64(b, e->stream);
	pack_i64(b, end == SF_FROM ? f->from_ts : f->to_ts);
	pack_i64(b, f->to_t0);
	pack_i64(b, f->to_t1);
	pack_args(b, end == SF_FROM ? f->args : NULL);
}

/* The thread of process number `index` read here whose id is tid, or NULL. */
static struct thread *thread_of(const struct trace *tr, int64_t index, int64_t tid)
{
	struct proc *p = (struct proc *)trace_proc_at(tr, index);
	for (size_t i = 0; p && i < p->nstreams; i++)
		if (p->threads[i] && p->threads[i]->tid == tid)
			return p->threads[i];
	return NULL;
}

static void draw(struct unpack *u, const struct trace *tr, struct tracks *tk,
		 struct scene_renderer r, uint64_t *lost)
{
	struct scene_flow f = { 0 };
	struct scene_args a;
	int end = (int)unpack_u64(u);
	f.half = end;
	f.id = unpack_u64(u);
	f.key = unpack_cstr(u);
	f.cat = unpack_cstr(u);
	f.name = unpack_cstr(u);
	int64_t index = unpack_i64(u);
	uint64_t where = unpack_u64(u);
	int64_t tid = unpack_i64(u);
	uint32_t device = (uint32_t)unpack_u64(u);
	uint64_t stream = unpack_u64(u);
	int64_t ts = unpack_i64(u);
	f.to_t0 = unpack_i64(u);
	f.to_t1 = unpack_i64(u);
	unpack_args(u, &a);
	f.args = a.n ? &a : NULL;
	if (u->short_read)
		return;
	const struct proc *p = trace_proc_at(tr, index);
	struct thread *th = where == END_THREAD ? thread_of(tr, index, tid) : NULL;
	if (!p || (where == END_THREAD && !th) || (where != END_THREAD && where != END_STREAM) ||
	    (end != SF_FROM && end != SF_TO)) {
		++*lost;
		return;
	}
	if (!f.cat)
		f.cat = "";
	if (!f.name)
		f.name = "";
	struct track t = th ? tracks_thread(tk, th, 1) : tracks_device(tk, p, device, stream, 0);
	if (end == SF_FROM) {
		f.from = t;
		f.from_ts = ts;
	} else {
		f.to = t;
		f.to_ts = ts;
	}
	r.ops->flow(r.priv, &f);
}

void halves_exchange(struct halves *h, const struct trace *tr, struct tracks *tk,
		     struct scene_renderer r)
{
	struct mail *m = h ? h->mail : mail_new();
	free(h);
	mail_exchange(m);
	uint64_t lost = 0;
	for (struct unpack u = mail_all(m); unpack_more(&u);)
		draw(&u, tr, tk, r, &lost);
	if (lost)
		diag_note("%" PRIu64 " arrow ends sent by the other analysis processes name a process "
			  "or thread not read here; not drawn", lost);
	mail_free(m);
}

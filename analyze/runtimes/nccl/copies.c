/* runtimes/nccl/copies.c — under `mpirun -np K tprof-analyze --parallel`, an NCCL instance
 * goes back to every analysis process that read one of its launches.  The matching
 * (runtimes/nccl/coll.c) sends each launch to the analysis process its tied set hashes to,
 * which lines the set up and emits it as one EV_NCCL; the device spans of the launches read
 * elsewhere are held in those processes' scenes until their instance comes (nccl/scene.c).
 * So the emitting process packs the instance for each of them, and each emits the copies it
 * receives, marked as copies: drawn with the spans it holds, never counted (the summary's
 * tables and the facts take the instance where it was matched).  A launch read here is
 * this process's own in the copy; the others are stand-ins (read/remote.c). */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "../../model/emit.h"
#include "../../parallel/mail.h"
#include "../../parallel/par.h"
#include "../../read/remote.h"
#include "../../read/trace.h"
#include "../../util/pack.h"
#include "../../util/u64map.h"
#include "nccl.h"

struct nccl_copies {
	size_t k;
	struct mail *mail;              /* what goes to each analysis process */
	uint32_t *mark, stamp;          /* the analysis processes an instance went to */
	struct u64map from_of;          /* process number -> the analysis process that read it
					 * + 1 (the launches sent here) */
};

struct nccl_copies *nccl_copies_new(void)
{
	struct nccl_copies *c = xcalloc(1, sizeof(*c));
	c->k = (size_t)par_size();
	c->mail = mail_new();
	c->mark = xcalloc(c->k, sizeof(*c->mark));
	return c;
}

void nccl_copies_read_by(struct nccl_copies *c, int64_t index, int from)
{
	u64map_put(&c->from_of, (uint64_t)index, (uint32_t)from + 1);
}

static void pack_launch(struct pack *b, const struct nccl_launch *l)
{
	pack_i64(b, l->proc->index);
	pack_i64(b, l->proc->rank);
	pack_i64(b, l->thread ? l->thread->tid : INT64_MIN);
	pack_u64(b, l->corr);
	pack_u64(b, l->group);
	pack_i64(b, l->t0);
	pack_i64(b, l->t1);
	pack_u64(b, (uint64_t)l->call_kept);
	pack_i64(b, l->rank);
	pack_i64(b, l->nranks);
	pack_u64(b, l->comm);
	nccl_ops_pack(b, l->ops, l->nops);
	nccl_spans_pack(b, l->spans, l->nspans);
	pack_u64(b, l->spans_expected);
	pack_i64(b, l->dev_t0);
	pack_i64(b, l->dev_t1);
	pack_f64(b, l->algbytes);
	pack_f64(b, l->busbytes);
	pack_name(b, l->label);
	pack_u64(b, (uint64_t)l->complete);
}

static void pack_inst(struct pack *b, const struct event *ev)
{
	const struct nccl_inst *in = nccl_inst_of(ev);
	pack_u64(b, in->id);
	pack_u64(b, in->ranks_expected);
	pack_u64(b, in->unmatched);
	pack_u64(b, (uint64_t)in->incomplete);
	pack_i64(b, in->first_entry);
	pack_i64(b, in->last_entry);
	pack_i64(b, in->last_rank);
	pack_i64(b, in->first_start);
	pack_i64(b, in->last_start);
	pack_i64(b, in->last_start_rank);
	pack_u64(b, in->timed);
	pack_i64(b, ev->t0);
	pack_i64(b, ev->t1);
	pack_u64(b, ev->flags);
	pack_name(b, ev->name);
	uint32_t who = 0;
	for (uint32_t i = 0; i < in->nl; i++)
		if (in->l[i].proc == ev->proc)
			who = i;
	pack_u64(b, who);
	pack_u64(b, in->nl);
	for (uint32_t i = 0; i < in->nl; i++)
		pack_launch(b, &in->l[i]);
	pack_u64(b, in->nlinks);
	for (uint32_t i = 0; i < in->nlinks; i++) {
		const struct nccl_link *lk = &in->links[i];
		pack_u64(b, lk->from);
		pack_u64(b, lk->to);
		pack_u64(b, lk->from_stream);
		pack_u64(b, lk->to_stream);
		pack_u64(b, lk->comm);
		pack_u64(b, lk->bytes);
		pack_i64(b, lk->src);
		pack_i64(b, lk->dst);
		pack_u64(b, lk->seq);
	}
}

void nccl_copies_add(struct nccl_copies *c, const struct event *ev)
{
	const struct nccl_inst *in = nccl_inst_of(ev);
	c->stamp++;
	for (uint32_t i = 0; i < in->nl; i++) {
		if (!in->l[i].proc->remote)
			continue;
		uint32_t *from = u64map_get(&c->from_of, (uint64_t)in->l[i].proc->index);
		if (!from || *from > c->k || c->mark[*from - 1] == c->stamp)
			continue;
		c->mark[*from - 1] = c->stamp;
		pack_inst(&c->mail->to[*from - 1], ev);
	}
}

/* Process number index: this analysis process's own, or a stand-in. */
static struct proc *proc_of(struct u64map *mine, struct trace *tr, struct remotes *r,
			    int64_t index, int64_t rank)
{
	uint32_t *at = u64map_get(mine, (uint64_t)index);
	return at ? tr->procs[*at] : remote_proc(r, index, rank);
}

/* One copy read back and emitted; -1 when the bytes end early. */
static int emit_copy(struct pipeline *pl, struct unpack *u, struct u64map *mine,
		     struct remotes *r)
{
	struct nccl_inst in = { .copy = 1 };
	in.id = unpack_u64(u);
	in.ranks_expected = (uint32_t)unpack_u64(u);
	in.unmatched = (uint32_t)unpack_u64(u);
	in.incomplete = (int)unpack_u64(u);
	in.first_entry = unpack_i64(u);
	in.last_entry = unpack_i64(u);
	in.last_rank = (int32_t)unpack_i64(u);
	in.first_start = unpack_i64(u);
	in.last_start = unpack_i64(u);
	in.last_start_rank = (int32_t)unpack_i64(u);
	in.timed = (uint32_t)unpack_u64(u);
	struct event ev = { .kind = EV_NCCL, .info = &in };
	ev.t0 = unpack_i64(u);
	ev.t1 = unpack_i64(u);
	ev.flags = (uint32_t)unpack_u64(u);
	ev.name = unpack_name(u);
	uint64_t who = unpack_u64(u);
	in.nl = (uint32_t)unpack_count(u, 20 * sizeof(uint64_t));
	struct nccl_launch *L = xcalloc(in.nl ? in.nl : 1, sizeof(*L));
	for (uint32_t i = 0; i < in.nl; i++) {
		struct nccl_launch *l = &L[i];
		int64_t index = unpack_i64(u), rank = unpack_i64(u), tid = unpack_i64(u);
		l->proc = proc_of(mine, pl->tr, r, index, rank);
		if (tid != INT64_MIN)
			l->thread = remote_thread(r, index, rank, (int32_t)tid);
		l->corr = unpack_u64(u);
		l->group = unpack_u64(u);
		l->t0 = unpack_i64(u);
		l->t1 = unpack_i64(u);
		l->call_kept = unpack_u64(u) != 0;
		l->rank = (int32_t)unpack_i64(u);
		l->nranks = (int32_t)unpack_i64(u);
		l->comm = unpack_u64(u);
		l->ops = nccl_ops_unpack(u, &l->nops);
		l->spans = nccl_spans_unpack(u, &l->nspans);
		l->spans_expected = (uint32_t)unpack_u64(u);
		l->dev_t0 = unpack_i64(u);
		l->dev_t1 = unpack_i64(u);
		l->algbytes = unpack_f64(u);
		l->busbytes = unpack_f64(u);
		l->label = unpack_name(u);
		l->complete = (int)unpack_u64(u);
	}
	in.l = L;
	in.nlinks = (uint32_t)unpack_count(u, 9 * sizeof(uint64_t));
	struct nccl_link *links = xcalloc(in.nlinks ? in.nlinks : 1, sizeof(*links));
	for (uint32_t i = 0; i < in.nlinks; i++) {
		struct nccl_link *lk = &links[i];
		lk->from = (uint32_t)unpack_u64(u);
		lk->to = (uint32_t)unpack_u64(u);
		lk->from_stream = unpack_u64(u);
		lk->to_stream = unpack_u64(u);
		lk->comm = unpack_u64(u);
		lk->bytes = unpack_u64(u);
		lk->src = (int32_t)unpack_i64(u);
		lk->dst = (int32_t)unpack_i64(u);
		lk->seq = (uint32_t)unpack_u64(u);
		if (lk->from >= in.nl || lk->to >= in.nl)
			u->short_read = 1;
	}
	in.links = links;
	int ok = !u->short_read && in.nl && who < in.nl;
	if (ok) {
		ev.proc = L[who].proc;
		ev.thread = L[who].thread;
		emit_derived(pl, &ev);
	}
	for (uint32_t i = 0; i < in.nl; i++) {
		free((void *)L[i].ops);
		free((void *)L[i].spans);
	}
	free(L);
	free(links);
	return ok ? 0 : -1;
}

void nccl_copies_send(struct nccl_copies *c, struct pipeline *pl)
{
	mail_exchange(c->mail);
	struct u64map mine = { 0 };
	for (size_t i = 0; i < pl->tr->nprocs; i++)
		u64map_put(&mine, (uint64_t)pl->tr->procs[i]->index, (uint32_t)i);
	struct remotes *r = remotes_new();
	for (struct unpack u = mail_all(c->mail); unpack_more(&u);)
		if (emit_copy(pl, &u, &mine, r) < 0)
			break;
	remotes_free(r);
	u64map_free(&mine);
}

void nccl_copies_free(struct nccl_copies *c)
{
	if (!c)
		return;
	mail_free(c->mail);
	free(c->mark);
	u64map_free(&c->from_of);
	free(c);
}

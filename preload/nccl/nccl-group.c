/* nccl-group.c — the calling thread's NCCL group and its device timing (nccl-group.h).  The
 * streams a group used live in a per-thread array allocated at the thread's first group
 * (freed when the thread exits); each holds the runtime and device that time it, the devtime
 * slot its start event was recorded in at the outermost ncclGroupEnd, and what its
 * operations were: how many, their bytes, the first one's communicator, number, kind and
 * datatype, which the group's DEVICE record carries. */
#include <stdlib.h>
#include <string.h>

#include "nccl-group.h"

#define GROUP_STREAMS 64            /* streams one group may time; more go untimed */

struct gstream {
	uint64_t stream;
	const struct tprof_devrt *rt;   /* NULL: not timed */
	int device;
	struct tprof_devpend *p;        /* from the outermost ncclGroupEnd on; NULL: not timed */
	uint64_t bytes;
	uint64_t comm;
	uint32_t seq, name;
	int32_t rank, nranks;
	uint16_t nops;
	uint8_t op, dtype;
};

struct tprof_nccl_gstreams {
	int n;
	struct gstream s[GROUP_STREAMS];
};

__thread struct tprof_nccl_gstate tprof_nccl_gs __attribute__((tls_model("initial-exec")));

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void streams_free(void *p)
{
	tprof_nccl_gs.s = NULL;
	free(p);
}

static void key_make(void)
{
	pthread_key_create(&key, streams_free);
}

/* The thread's stream array, allocated at its first group (and freed at its exit). */
static struct tprof_nccl_gstreams *streams(void)
{
	struct tprof_nccl_gstreams *s = tprof_nccl_gs.s;
	if (TPROF_LIKELY(s != NULL))
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	pthread_once(&key_once, key_make);
	pthread_setspecific(key, s);
	tprof_nccl_gs.s = s;
	return s;
}

void tprof_nccl_group_start(uint64_t corr)
{
	if (tprof_nccl_gs.depth++ > 0)
		return;
	tprof_nccl_gs.id = corr;
	struct tprof_nccl_gstreams *s = tprof_nccl_gs.s;
	if (s)
		s->n = 0;
}

int tprof_nccl_group_add(const struct tprof_nccl_gop *op)
{
	struct tprof_nccl_gstreams *s = streams();
	if (!s)
		return -1;
	int i = 0;
	while (i < s->n && s->s[i].stream != op->stream)
		i++;
	if (i == s->n) {
		if (s->n == GROUP_STREAMS) {
			tprof_dev_untimed();
			return -1;
		}
		struct gstream *g = &s->s[s->n++];
		memset(g, 0, sizeof(*g));
		g->stream = op->stream;
		const struct tprof_nccl_comm *c = op->comm;
		if (c && c->rt) {
			g->rt = c->rt;
			g->device = c->device >= 0 ? c->device
						   : c->rt->device_of_stream(op->stream);
		} else if (c) {
			tprof_dev_untimed();
		}
	}
	return s->s[i].rt ? i : -1;
}

void tprof_nccl_group_added(int place, const struct tprof_nccl_gop *op, int ok)
{
	struct tprof_nccl_gstreams *s = tprof_nccl_gs.s;
	if (!ok || place < 0 || !s || place >= s->n)
		return;
	struct gstream *g = &s->s[place];
	if (!g->nops++) {
		g->comm = op->comm ? op->comm->id : 0;
		g->rank = op->comm ? op->comm->rank : -1;
		g->nranks = op->comm ? op->comm->nranks : 0;
		g->seq = op->seq;
		g->name = op->name;
		g->op = op->op;
		g->dtype = op->dtype;
	}
	g->bytes += op->bytes;
}

void tprof_nccl_group_launch(struct tprof_thread *t)
{
	struct tprof_nccl_gstreams *s = tprof_nccl_gs.s;
	if (tprof_nccl_gs.depth != 1 || !s)
		return;
	for (int i = 0; i < s->n; i++) {
		struct gstream *g = &s->s[i];
		if (g->rt && g->nops)
			g->p = tprof_dev_begin(t, g->rt, g->device, g->stream);
	}
}

void tprof_nccl_group_end(struct tprof_thread *t, uint64_t corr, uint64_t t0, uint32_t name,
			  int ok)
{
	if (tprof_nccl_gs.depth <= 0 || --tprof_nccl_gs.depth > 0)
		return;
	uint64_t id = tprof_nccl_gs.id;
	tprof_nccl_gs.id = 0;
	struct tprof_nccl_gstreams *s = tprof_nccl_gs.s;
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		struct gstream *g = &s->s[i];
		struct tprof_devpend *p = g->p;
		if (!p)
			continue;
		g->p = NULL;
		p->corr = corr;
		p->kind = TPROF_DEVOP_COLLECTIVE;
		p->name = g->nops == 1 ? g->name : name;
		p->op.launch_t0 = t0;
		p->op.bytes = g->bytes;
		p->op.coll = (struct tprof_devop_coll){
			.comm = g->comm,
			.seq = g->seq,
			.op = g->nops == 1 ? g->op : TPROF_NCCL_GROUP_END,
			.dtype = g->dtype,
			.nops = g->nops,
			.rank = g->rank,
			.nranks = g->nranks,
			.group = id,
		};
		tprof_dev_end(t, p, ok);
	}
	s->n = 0;
}

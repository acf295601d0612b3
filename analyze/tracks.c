/* tracks.c — where each event goes in a Chrome trace: the (pid, tid) of its track, and the
 * names and order of every track used.  Grouped by process (each profiled process with its
 * threads, its steps and one track per device stream), or by domain (all processes' API
 * calls together, all kernels together, all copies together; the rest stays by process). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracks.h"

#define STEPS_TID 2147483000
#define DEVICE_TID 2000000000     /* + track number, per process */
#define PID_DOMAIN 1000000        /* + group, in --group-by domain */

enum group { G_THREAD, G_DEVICE, G_API, G_GPU, G_COPIES };

struct key {
	int group;
	int proc;
	uint64_t a, b;            /* thread: tid; device track: device, stream */
};

struct entry {
	struct key key;
	struct track track;
	const struct proc *p;
	int32_t tid;              /* threads: the real tid */
	uint32_t name;            /* threads: name id */
	int device, stream_no;    /* device tracks */
	int used;
};

struct tracks {
	int by_domain;
	struct entry *v;
	size_t n, cap;
	int next_tid[8];          /* per domain group */
	uint8_t domains_used[8];
};

struct tracks *tracks_new(int by_domain)
{
	struct tracks *t = calloc(1, sizeof(*t));
	if (!t)
		abort();
	t->by_domain = by_domain;
	return t;
}

void tracks_free(struct tracks *t)
{
	free(t->v);
	free(t);
}

static uint64_t key_hash(const struct key *k)
{
	uint64_t h = (uint64_t)k->group * 0x9e3779b97f4a7c15ull ^ (uint64_t)k->proc * 0xc2b2ae3d27d4eb4full;
	h ^= k->a * 0x165667b19e3779f9ull;
	h ^= k->b + 0x27d4eb2f165667c5ull + (h << 6) + (h >> 2);
	return h ^ (h >> 29);
}

static int rehash(struct tracks *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	struct entry *nv = calloc(cap, sizeof(*nv));
	if (!nv)
		abort();
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->v[i].used)
			continue;
		size_t j = key_hash(&t->v[i].key) & (cap - 1);
		while (nv[j].used)
			j = (j + 1) & (cap - 1);
		nv[j] = t->v[i];
	}
	free(t->v);
	t->v = nv;
	t->cap = cap;
	return 0;
}

/* The entry for k, new (with used = 1, track unset) if there was none; *fresh says which. */
static struct entry *find(struct tracks *t, const struct key *k, int *fresh)
{
	if ((t->n + 1) * 2 > t->cap)
		rehash(t);
	size_t j = key_hash(k) & (t->cap - 1);
	for (; t->v[j].used; j = (j + 1) & (t->cap - 1))
		if (!memcmp(&t->v[j].key, k, sizeof(*k))) {
			*fresh = 0;
			return &t->v[j];
		}
	t->v[j].used = 1;
	t->v[j].key = *k;
	t->n++;
	*fresh = 1;
	return &t->v[j];
}

static int32_t thread_tid(const struct thread *th)
{
	return th->tid >= 0 ? th->tid : (int32_t)(1000000 + th->stream);
}

struct track tracks_thread(struct tracks *t, const struct thread *th, int api_call)
{
	int group = t->by_domain && api_call ? G_API : G_THREAD;
	struct key k = { group, th->proc->index, (uint64_t)thread_tid(th), 0 };
	int fresh;
	struct entry *e = find(t, &k, &fresh);
	if (fresh) {
		e->p = th->proc;
		e->tid = thread_tid(th);
		e->name = th->name;
		if (group == G_API)
			e->track = (struct track){ PID_DOMAIN + G_API, ++t->next_tid[G_API] };
		else
			e->track = (struct track){ th->proc->index, e->tid };
	}
	return e->track;
}

struct track tracks_device(struct tracks *t, const struct proc *p, uint32_t device, uint64_t stream,
			   int copy)
{
	int group = !t->by_domain ? G_DEVICE : copy ? G_COPIES : G_GPU;
	struct key k = { group, p->index, device, stream };
	int fresh;
	struct entry *e = find(t, &k, &fresh);
	if (fresh) {
		e->p = p;
		e->device = (int)device;
		/* Streams are numbered per device in the order they first appear. */
		int n = 0;
		for (size_t i = 0; i < t->cap; i++)
			if (t->v[i].used && &t->v[i] != e && t->v[i].key.group == group &&
			    t->v[i].key.proc == p->index && t->v[i].key.a == device)
				n++;
		e->stream_no = stream ? n + 1 : 0;
		if (group == G_DEVICE)
			e->track = (struct track){ p->index, DEVICE_TID + ++t->next_tid[G_DEVICE] };
		else
			e->track = (struct track){ PID_DOMAIN + group, ++t->next_tid[group] };
	}
	return e->track;
}

struct track tracks_steps(struct tracks *t, const struct proc *p)
{
	(void)t;
	return (struct track){ p->index, STEPS_TID };
}

static void device_label(const struct entry *e, char *buf, size_t len)
{
	if (e->stream_no)
		snprintf(buf, len, "GPU %d stream %d", e->device, e->stream_no);
	else
		snprintf(buf, len, "GPU %d null stream", e->device);
}

void tracks_metadata(struct tracks *t, const struct trace *tr, tracks_meta_fn meta, void *ctx)
{
	static const char *const domain_names[] = { [G_API] = "API calls", [G_GPU] = "GPU",
						    [G_COPIES] = "copies" };
	for (int g = G_API; g <= G_COPIES; g++)
		if (t->next_tid[g]) {
			meta(ctx, "process_name", PID_DOMAIN + g, -1, "name", domain_names[g], 0);
			meta(ctx, "process_sort_index", PID_DOMAIN + g, -1, "sort_index", NULL, g - G_API);
		}
	for (size_t i = 0; i < t->cap; i++) {
		const struct entry *e = &t->v[i];
		if (!e->used)
			continue;
		char label[600], proc[512], what[64];
		proc_label(e->p, proc, sizeof(proc));
		int in_domain = e->track.pid >= PID_DOMAIN;
		int64_t order;
		if (e->key.group == G_THREAD || e->key.group == G_API) {
			const char *n = e->name ? strings_get(e->name) : "thread";
			if (in_domain)
				snprintf(label, sizeof(label), "%s: %s", proc, n);
			else
				snprintf(label, sizeof(label), "%s", n);
			order = in_domain ? e->track.tid : e->tid == e->p->pid ? 0 : 1 + (int64_t)e->tid % 1000000;
		} else {
			device_label(e, what, sizeof(what));
			if (in_domain)
				snprintf(label, sizeof(label), "%s: %s", proc, what);
			else
				snprintf(label, sizeof(label), "%s", what);
			order = in_domain ? e->track.tid : 10000000 + (int64_t)e->device * 1000 + e->stream_no;
		}
		meta(ctx, "thread_name", e->track.pid, e->track.tid, "name", label, 0);
		meta(ctx, "thread_sort_index", e->track.pid, e->track.tid, "sort_index", NULL, order);
	}
	(void)tr;
}

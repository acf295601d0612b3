/* render/perfetto/samples.c — CPU samples as trace processor reads traced_perf's: a PerfSample
 * packet (cpu, pid, tid, callstack_iid, cpu_mode) on the sequence of the sample's thread
 * track, whose pid and tid are those of the thread's descriptor, so that the sample lands on
 * that thread.  Its callstack is interned on that sequence the first time it is used there,
 * with the frames and function names it needs: a callstack's iid is its innermost callsite's
 * number (render/callsites.h), a frame's is its function's string id and whether it is a
 * kernel frame, a function name's is its string id.  The scene knows functions, not
 * binaries: kernel frames are in one mapping named "[kernel.kallsyms]" (as perf names it,
 * and trace processor knows it as the kernel's), user frames in one named "[user]". */
#include <stdlib.h>
#include <string.h>

#include "../../../common/xalloc.h"
#include "samples.h"
#include "layout.h"
#include "hold.h"
#include "seq.h"
#include "proto.h"

enum { MAP_KERNEL = 1, MAP_USER = 2 };

static void interned_str(struct proto_buf *b, unsigned field, uint64_t iid, const char *s, size_t n)
{
	pb_need(b, n + 4 * PB_MAX_FIELD);
	size_t e = pb_open(b, field);
	pb_uint(b, INTERNED_IID, iid);
	pb_bytes(b, INTERNED_NAME, s, n);
	pb_close(b, e);
}

static int fresh(struct pf_seq *s, enum pf_ikind kind, uint64_t iid)
{
	return pf_idset_add(&s->interned, (uint64_t)kind << 56 | iid);
}

static void mapping(struct proto_buf *b, struct pf_seq *s, unsigned m)
{
	if (!fresh(s, IK_MAPPING, m))
		return;
	const char *path = m == MAP_KERNEL ? "[kernel.kallsyms]" : "[user]";
	interned_str(b, INTERNED_MAPPING_PATHS, m, path, strlen(path));
	pb_need(b, 4 * PB_MAX_FIELD);
	size_t e = pb_open(b, INTERNED_MAPPINGS);
	pb_uint(b, MAPPING_IID, m);
	pb_uint(b, MAPPING_PATH_STRING_IDS, m);
	pb_close(b, e);
}

/* The frame of callsite c, defined on s when new there; its iid. */
static uint64_t frame(struct perfetto_writer *w, struct proto_buf *b, struct pf_seq *s,
		      const struct callsite *c)
{
	uint32_t name = c->name ? c->name : w->unknown_fn;
	uint64_t iid = (uint64_t)name << 1 | c->kernel;
	if (!fresh(s, IK_FRAME, iid))
		return iid;
	unsigned m = c->kernel ? MAP_KERNEL : MAP_USER;
	mapping(b, s, m);
	if (fresh(s, IK_FUNC, name))
		interned_str(b, INTERNED_FUNCTION_NAMES, name, strings_get(name), strings_len(name));
	pb_need(b, 5 * PB_MAX_FIELD);
	size_t e = pb_open(b, INTERNED_FRAMES);
	pb_uint(b, FRAME_IID, iid);
	pb_uint(b, FRAME_FUNCTION_NAME_ID, name);
	pb_uint(b, FRAME_MAPPING_ID, m);
	pb_uint(b, FRAME_REL_PC, 0);
	pb_close(b, e);
	return iid;
}

/* The callstack ending at callsite `leaf`, new on s: its frames, then itself. */
static void callstack(struct perfetto_writer *w, struct pf_seq *s, uint32_t leaf)
{
	struct proto_buf *b = &s->b;
	size_t n = callsites_at(&w->callsites, leaf)->depth + 1;
	if (n > w->capchain) {
		w->capchain = n * 2;
		w->chain = xreallocarray(w->chain, w->capchain, sizeof(*w->chain));
	}
	for (size_t i = 0, c = leaf; i < n; i++, c = callsites_at(&w->callsites, (uint32_t)c)->parent)
		w->chain[i] = (uint32_t)c;
	pb_need(b, PB_MAX_FIELD);
	size_t d = pb_open(b, PACKET_INTERNED_DATA);
	uint64_t *ids = xmallocarray(n, sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = frame(w, b, s, callsites_at(&w->callsites, w->chain[n - 1 - i]));
	pb_need(b, (n + 2) * PB_MAX_FIELD);
	size_t e = pb_open(b, INTERNED_CALLSTACKS);
	pb_uint(b, CALLSTACK_IID, leaf);
	for (size_t i = 0; i < n; i++)
		pb_uint(b, CALLSTACK_FRAME_IDS, ids[i]);
	pb_close(b, e);
	pb_close(b, d);
	free(ids);
}

void pf_sample(struct perfetto_writer *w, const struct scene_item *it)
{
	struct pf_seq *s = pf_track_of(w, it->track)->seq;
	const struct scene_stack *st = it->stack;
	if (!w->unknown_fn)
		w->unknown_fn = strings_add("[unknown]", 9);
	uint32_t leaf = callsites_intern(&w->callsites, st);
	int hold = pf_holding(s, it->ranges_open);
	int fresh_stack = leaf && fresh(s, IK_CALLSTACK, leaf);
	size_t p;
	if (hold) {
		/* held (hold.h): its callstack, when new, goes out at once in a packet of its own */
		if (fresh_stack) {
			p = pf_packet(w, s, 0);
			callstack(w, s, leaf);
			pf_packet_end_untimed(w, s, p);
		}
		p = pf_hold_begin(w, s, 8 * PB_MAX_FIELD);
	} else {
		p = pf_packet(w, s, 8 * PB_MAX_FIELD);
		if (fresh_stack)
			callstack(w, s, leaf);
	}
	struct proto_buf *b = &s->b;
	pb_need(b, 8 * PB_MAX_FIELD);
	size_t e = pb_open(b, PACKET_PERF_SAMPLE);
	pb_uint(b, PERF_CPU, st ? st->cpu : 0);
	pb_uint(b, PERF_PID, (uint64_t)(uint32_t)it->track.pid);
	pb_uint(b, PERF_TID, (uint64_t)(uint32_t)it->track.tid);
	if (leaf)
		pb_uint(b, PERF_CALLSTACK_IID, leaf);
	pb_uint(b, PERF_CPU_MODE, st && st->nkernel ? CPU_MODE_KERNEL : CPU_MODE_USER);
	pb_close(b, e);
	if (!hold) {
		pf_packet_end(w, s, p, it->t0);
		return;
	}
	pf_hold_end(w, s, p, it->t0, it->t0, 0);
	if (!it->ranges_open)
		pf_hold_release(w, s);
}

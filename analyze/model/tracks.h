/* tracks.h — the (pid, tid) of each event's track in a Chrome trace, and the metadata that
 * names and orders them (tracks.c), in each of the --group-by layouts. */
#ifndef TPROF_ANALYZE_TRACKS_H
#define TPROF_ANALYZE_TRACKS_H

#include "../read/trace.h"

struct track {
	int64_t pid, tid;
};

/* A track's hash, for the tables that find things by track. */
static inline uint64_t tracks_hash(struct track k)
{
	uint64_t h = (uint64_t)k.pid * 0x9e3779b97f4a7c15ull;
	h ^= (uint64_t)k.tid * 0xc2b2ae3d27d4eb4full;
	return h ^ (h >> 29);
}

struct tracks;
typedef void (*tracks_meta_fn)(void *ctx, const char *what, int64_t pid, int64_t tid,
			       const char *key, const char *s, int64_t num);

/* How tracks are grouped (--group-by): each process with its tracks; API calls, GPU kernels,
 * copies and NeuronCores each across all processes; NeuronCore tracks by core across all
 * processes (the rest by process); every process's tracks under the host it ran on. */
enum tracks_group {
	TRACKS_BY_PROCESS = 0,
	TRACKS_BY_DOMAIN = 1,
	TRACKS_BY_NEURONCORE = 2,
	TRACKS_BY_INSTANCE = 3,
};

struct tracks *tracks_new(int group_by);
/* Before the first track: with --group-by instance, every host of the job numbered in the
 * order of their names (under --parallel every analysis process calls it, the hosts of all
 * of them exchanged). */
void tracks_begin(struct tracks *t, const struct trace *tr);
void tracks_free(struct tracks *t);
/* A host thread's track; with by_domain, API calls go to the "API calls" group. */
struct track tracks_thread(struct tracks *t, const struct thread *th, int api_call);
/* The track of a thread's scheduling states (Running, Sleeping...), "<thread> state", sorted
 * right after the thread's own track. */
struct track tracks_thread_state(struct tracks *t, const struct thread *th);
/* The track of imported framework events (runtimes/import) of thread `tid` of process p,
 * "<name> framework", sorted right after that thread's tracks; th: the thread of p with that
 * tid, or the imported thread when p has none. */
struct track tracks_thread_framework(struct tracks *t, const struct proc *p, int32_t tid,
				     const struct thread *th, uint32_t name);
/* A device stream's track (with by_domain, kernels go to "GPU", copies to "copies"). */
struct track tracks_device(struct tracks *t, const struct proc *p, uint32_t device, uint64_t stream,
			   int copy);
/* The track of NeuronCore `nc` of process p for work from t0 to t1 (ns): its first lane
 * free at t0, so that work that overlaps (two threads driving one core) never shares a
 * track; lanes are labelled "nc N", "nc N (2)"... */
struct track tracks_neuroncore(struct tracks *t, const struct proc *p, int32_t nc, int64_t t0,
			       int64_t t1);
struct track tracks_steps(struct tracks *t, const struct proc *p);
/* Names and sort orders of every track that was used (threads, device streams, groups). */
void tracks_metadata(struct tracks *t, const struct trace *tr, tracks_meta_fn meta, void *ctx);

/* What a track used is, for renderers that describe tracks in their own terms (SQLite);
 * their names and order come from tracks_metadata.  Steps tracks (tracks_steps) are not
 * listed: they are known by their track. */
struct track_info {
	struct track track;
	const char *kind;                /* "thread", "thread-state", "thread-framework",
					  * "device" or "neuroncore" */
	const struct proc *proc;
	const struct thread *thread;     /* thread, thread-state and thread-framework tracks */
	int64_t device;                  /* device tracks: the device; NeuronCore tracks: its
					  * core */
	uint64_t stream;                 /* device tracks: the stream handle */
	int number;                      /* device tracks: the stream's number on its device (0:
					  * the null stream); NeuronCore tracks: the lane (0: the
					  * first) */
};
typedef void (*tracks_info_fn)(void *ctx, const struct track_info *ti);
/* Calls fn for every track that was used, in no particular order. */
void tracks_each(struct tracks *t, tracks_info_fn fn, void *ctx);
/* What `track` is, for a renderer meeting it for the first time (a look through every track
 * used): 0, or -1 for a track no thread, device stream or NeuronCore lane has (steps). */
int tracks_info(struct tracks *t, struct track track, struct track_info *ti);

#endif

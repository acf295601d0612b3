/* tracks.h — the (pid, tid) of each event's track in a Chrome trace, and the metadata that
 * names and orders them (tracks.c). */
#ifndef TPROF_ANALYZE_TRACKS_H
#define TPROF_ANALYZE_TRACKS_H

#include "trace.h"

struct track {
	int64_t pid, tid;
};

struct tracks;
typedef void (*tracks_meta_fn)(void *ctx, const char *what, int64_t pid, int64_t tid,
			       const char *key, const char *s, int64_t num);

struct tracks *tracks_new(int by_domain);
void tracks_free(struct tracks *t);
/* A host thread's track; with by_domain, API calls go to the "API calls" group. */
struct track tracks_thread(struct tracks *t, const struct thread *th, int api_call);
/* A device stream's track (with by_domain, kernels go to "GPU", copies to "copies"). */
struct track tracks_device(struct tracks *t, const struct proc *p, uint32_t device, uint64_t stream,
			   int copy);
struct track tracks_steps(struct tracks *t, const struct proc *p);
/* Names and sort orders of every track that was used (threads, device streams, groups). */
void tracks_metadata(struct tracks *t, const struct trace *tr, tracks_meta_fn meta, void *ctx);

#endif

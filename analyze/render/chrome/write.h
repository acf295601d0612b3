/* render/chrome/write.h — the Chrome trace writer's state and the helpers that write one event and
 * its arguments and flow arrows (render/chrome/write.c), used by the output (render/chrome/chrome.c) and by the
 * parts that write MPI, NCCL and NRT events (runtimes/mpi/chrome.c, -nccl.c, -nrt.c). */
#ifndef TPROF_ANALYZE_CHROME_WRITE_H
#define TPROF_ANALYZE_CHROME_WRITE_H

#include "../../util/jsonw.h"
#include "../../model/output.h"
#include "../../model/tracks.h"

struct chrome {
	char *path;
	struct jw w;
	struct tracks *tracks;
	int first;
	int failed;
	struct chrome_nccl *nccl;    /* NCCL device spans held (runtimes/nccl/chrome.c) */
	uint64_t backward;           /* arrows between ranks not drawn: they would go back */
};

void chrome_sep(struct chrome *c);
void chrome_str(struct jw *w, const char *s);
void chrome_name(struct jw *w, uint32_t id);
/* {"ph":PH,"cat":CAT,"pid":..,"tid":..,"ts":TS — the caller goes on and closes the brace */
void chrome_head(struct chrome *c, struct track tr, const char *ph, const char *cat, int64_t ts);
/* One end of a flow arrow: chrome_head, then ,"bp":"e" for an "f" (it binds to the slice it
 * ends in), the name and ID (a JSON value, quotes included) — the caller closes the brace. */
void chrome_flow(struct chrome *c, struct track tr, const char *ph, const char *cat,
		 const char *name, const char *id, int64_t ts);
/* A time at which a flow end binds to the slice [t0, t1]: t, kept off the slice's edges when
 * the slice is long enough to have an inside. */
int64_t chrome_flow_ts(int64_t t, int64_t t0, int64_t t1);
/* The arrow (cat and name "launch", id a JSON value) from the call on track `from` that
 * entered at `launch` to the device span [t0, t1] it started on track `to`: inside both, and
 * never ending before it starts (the pipeline puts no span before its launch). */
void chrome_launch_flow(struct chrome *c, struct track from, struct track to, const char *id,
			int64_t launch, int64_t t0, int64_t t1);
/* Arguments: ,"args":{"key":value,... opened by the first, closed by chrome_end_args. */
void chrome_arg_key(struct jw *w, int *n, const char *key);
void chrome_arg_u64(struct jw *w, int *n, const char *key, uint64_t v);
void chrome_arg_hex(struct jw *w, int *n, const char *key, uint64_t v);
void chrome_arg_str(struct jw *w, int *n, const char *key, const char *v);
void chrome_arg_flags(struct jw *w, int *n, unsigned flags);
void chrome_end_args(struct jw *w, int n);

#endif

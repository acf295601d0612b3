/* out-chrome.h — the Chrome trace writer's state and the helpers that write one event and its
 * arguments (out-chrome.c), shared with the part that writes MPI events (out-chrome-mpi.c). */
#ifndef TPROF_ANALYZE_OUT_CHROME_H
#define TPROF_ANALYZE_OUT_CHROME_H

#include "jsonw.h"
#include "output.h"
#include "tracks.h"

struct chrome {
	char *path;
	struct jw w;
	struct tracks *tracks;
	int first;
	int failed;
};

void chrome_sep(struct chrome *c);
void chrome_str(struct jw *w, const char *s);
void chrome_name(struct jw *w, uint32_t id);
/* {"ph":PH,"cat":CAT,"pid":..,"tid":..,"ts":TS — the caller goes on and closes the brace */
void chrome_head(struct chrome *c, struct track tr, const char *ph, const char *cat, int64_t ts);
/* Arguments: ,"args":{"key":value,... opened by the first, closed by chrome_end_args. */
void chrome_arg_key(struct jw *w, int *n, const char *key);
void chrome_arg_u64(struct jw *w, int *n, const char *key, uint64_t v);
void chrome_arg_hex(struct jw *w, int *n, const char *key, uint64_t v);
void chrome_arg_str(struct jw *w, int *n, const char *key, const char *v);
void chrome_arg_flags(struct jw *w, int *n, unsigned flags);
void chrome_end_args(struct jw *w, int n);

/* out-chrome-mpi.c */
void chrome_mpi_args(struct jw *w, int *n, const struct mpi_info *mi);
void chrome_message(struct chrome *c, const struct event *ev);
void chrome_collective(struct chrome *c, const struct event *ev);

#endif

/* parallel/mail.h — what the analysis processes send each other in one all-to-all round
 * (par_exchange), as packed values (util/pack.h): each destination's bytes packed on their
 * own, sent together by one collective call, and what came read back whole or by sender.  The
 * same mail serves a second round, such as answers to what came, back to where it came from. */
#ifndef TPROF_ANALYZE_MAIL_H
#define TPROF_ANALYZE_MAIL_H

#include <stddef.h>

#include "../util/pack.h"

struct mail {
	int k;                          /* the analysis processes: par_size() */
	struct pack *to;                /* to[p]: what goes to analysis process p */
	char *got;                      /* what came in the last round, by sender in order */
	size_t *at;                     /* what came from p: bytes at[p] up to at[p + 1] of got
					 * (k + 1 entries; at[k]: all of them) */
};

/* Nothing to send yet, nothing come. */
struct mail *mail_new(void);
/* Collective: every to[p] sent to analysis process p and emptied, so that the mail may be
 * packed again for another round; what came replaces what came in the round before. */
void mail_exchange(struct mail *m);
void mail_free(struct mail *m);  /* with what was not sent; NULL: nothing */

/* What came in the last round, from every analysis process in order. */
static inline struct unpack mail_all(const struct mail *m)
{
	return unpack_of(m->got, m->at[m->k]);
}

/* What came in the last round from analysis process p. */
static inline struct unpack mail_from(const struct mail *m, int p)
{
	return unpack_of(m->got + m->at[p], m->at[p + 1] - m->at[p]);
}

#endif

/* parallel/mail.c — the analysis processes' packed bytes sent to each other in one all-to-all
 * round (mail.h): the packs laid end to end in process order, as par_exchange takes them. */
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "mail.h"
#include "par.h"

struct mail *mail_new(void)
{
	struct mail *m = xcalloc(1, sizeof(*m));
	m->k = par_size();
	m->to = xcalloc((size_t)m->k, sizeof(*m->to));
	m->at = xcalloc((size_t)m->k + 1, sizeof(*m->at));
	return m;
}

void mail_exchange(struct mail *m)
{
	size_t k = (size_t)m->k, total = 0;
	size_t *out = xcalloc(k, sizeof(*out));
	for (size_t p = 0; p < k; p++)
		total += out[p] = m->to[p].n;
	char *all = xmalloc(total + 1), *end = all;
	for (size_t p = 0; p < k; p++) {
		if (out[p])
			memcpy(end, m->to[p].v, out[p]);
		end += out[p];
		pack_free(&m->to[p]);
	}
	free(m->got);
	/* each sender's length lands in at[p + 1], then adds up to where its bytes end */
	m->got = par_exchange(all, out, m->at + 1);
	for (size_t p = 0; p < k; p++)
		m->at[p + 1] += m->at[p];
	free(all);
	free(out);
}

void mail_free(struct mail *m)
{
	if (!m)
		return;
	for (int p = 0; p < m->k; p++)
		pack_free(&m->to[p]);
	free(m->to);
	free(m->got);
	free(m->at);
	free(m);
}

/* test-mail.c — what the analysis processes send each other (analyze/parallel/mail.h), with
 * one process and no MPI, where every round goes to the process itself: what is read back,
 * whole and from the sender, is what was packed; the packs are emptied by the round; a second
 * round's answer replaces what came before; a round with nothing sent brings nothing.  func/
 * t-par.sh runs the same with several processes (unit/test-par.c). */
#include <string.h>

#include "../../analyze/parallel/mail.h"
#include "../../analyze/parallel/par.h"
#include "tap.h"

/* Some values of each kind, as a question of round `r`. */
static void pack_some(struct pack *b, uint64_t r)
{
	pack_u64(b, r);
	pack_i64(b, -7 - (int64_t)r);
	pack_str(b, "a string");
	pack_str(b, NULL);
	pack_f64(b, 2.5);
}

/* The values pack_some packed, all there and nothing after them. */
static int read_some(struct unpack u, uint64_t r)
{
	size_t len;
	uint64_t got = unpack_u64(&u);
	int64_t neg = unpack_i64(&u);
	const char *s = unpack_str(&u, &len);
	int good = got == r && neg == -7 - (int64_t)r && len == 8 && !memcmp(s, "a string", 8);
	unpack_str(&u, &len);
	good = good && len == 0 && unpack_f64(&u) == 2.5;
	return good && !u.short_read && !unpack_more(&u);
}

int main(void)
{
	struct mail *m = mail_new();
	ok(m->k == 1 && par_size() == 1, "one analysis process without MPI");

	mail_exchange(m);
	struct unpack all = mail_all(m), from = mail_from(m, 0);
	ok(!unpack_more(&all) && !unpack_more(&from) && m->at[1] == 0,
	   "a round with nothing sent: nothing came");

	pack_some(&m->to[0], 1);
	struct pack want = { 0 };
	pack_some(&want, 1);
	mail_exchange(m);
	ok(m->to[0].n == 0 && m->to[0].v == NULL, "the round empties what was packed");
	ok(m->at[0] == 0 && m->at[1] == want.n && !memcmp(m->got, want.v, want.n),
	   "the bytes that came are the bytes packed");
	ok(read_some(mail_all(m), 1) && read_some(mail_from(m, 0), 1),
	   "read back whole and from the sender: the values packed");

	/* an answer to what came, sent back where it came from */
	struct unpack u = mail_from(m, 0);
	pack_u64(&m->to[0], unpack_u64(&u) + 41);
	mail_exchange(m);
	u = mail_all(m);
	ok(unpack_u64(&u) == 42 && !u.short_read && !unpack_more(&u) && m->at[1] == 8,
	   "a second round: its answer replaces what came before");

	mail_exchange(m);
	all = mail_all(m);
	ok(!unpack_more(&all) && m->at[1] == 0, "an empty round after others: nothing came");

	pack_some(&m->to[0], 3);
	mail_free(m);
	mail_free(NULL);
	pack_free(&want);
	ok(1, "freed with something packed and not sent; NULL freed as nothing");
	return tap_done();
}

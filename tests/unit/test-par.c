/* test-par.c — the analysis processes' MPI (analyze/parallel/par.c), run by func/t-par.sh
 * under Open MPI's mpirun, MPICH's, and alone: the process's number and count, the sums,
 * minimums and maximums, gathers of lengths that differ by process (none empty, some empty),
 * exchanges whose bytes say where they come from, in one message and in rounds, and the same
 * packed (parallel/mail.c), read back by sender and whole, with answers back.  Every
 * process checks what it got; the first prints TAP, each check passing when it did on all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../analyze/parallel/mail.h"
#include "../../analyze/parallel/par.h"
#include "tap.h"

/* What process `from` sends process `to`: (from + 1) * (to + 3) % 7 bytes at first, each
 * byte naming both and its place. */
static size_t amount(int from, int to, size_t scale)
{
	return (size_t)((from + 1) * (to + 3) % 7) * scale;
}

static unsigned char byte_at(int from, int to, size_t i)
{
	return (unsigned char)(from * 31 + to * 7 + i * 13);
}

static int exchange(int me, int k, size_t scale)
{
	size_t *out = calloc((size_t)k, sizeof(*out)), *in = calloc((size_t)k, sizeof(*in));
	size_t total = 0;
	for (int p = 0; p < k; p++)
		total += out[p] = amount(me, p, scale);
	unsigned char *buf = calloc(total + 1, 1), *at = buf;
	for (int p = 0; p < k; p++)
		for (size_t i = 0; i < out[p]; i++)
			*at++ = byte_at(me, p, i);
	unsigned char *got = par_exchange(buf, out, in);
	int good = 1;
	at = got;
	for (int p = 0; p < k; p++) {
		if (in[p] != amount(p, me, scale))
			good = 0;
		for (size_t i = 0; good && i < in[p]; i++)
			good = *at++ == byte_at(p, me, i);
	}
	free(out);
	free(in);
	free(buf);
	free(got);
	return good;
}

/* Packed (mail.h): each process sends each p its own number and amount(me, p, 1) values that
 * name both; then answers each sender with the sum of what came from it. */
static int mail(int me, int k)
{
	struct mail *m = mail_new();
	for (int p = 0; p < k; p++) {
		pack_u64(&m->to[p], (uint64_t)me);
		for (size_t i = 0; i < amount(me, p, 1); i++)
			pack_u64(&m->to[p], byte_at(me, p, i));
	}
	mail_exchange(m);
	int good = m->k == k;
	struct unpack all = mail_all(m);
	for (int p = 0; p < k; p++) {
		struct unpack u = mail_from(m, p);
		uint64_t sum = 0;
		good = good && unpack_u64(&u) == (uint64_t)p && unpack_u64(&all) == (uint64_t)p;
		for (size_t i = 0; i < amount(p, me, 1); i++) {
			uint64_t v = unpack_u64(&u);
			good = good && v == byte_at(p, me, i) && unpack_u64(&all) == v;
			sum += v;
		}
		good = good && !u.short_read && !unpack_more(&u);
		pack_u64(&m->to[p], sum);
	}
	good = good && !all.short_read && !unpack_more(&all);
	mail_exchange(m);
	for (int p = 0; p < k; p++) {
		struct unpack u = mail_from(m, p);
		uint64_t sum = 0;
		for (size_t i = 0; i < amount(me, p, 1); i++)
			sum += byte_at(me, p, i);
		good = good && unpack_u64(&u) == sum && !u.short_read && !unpack_more(&u);
	}
	mail_free(m);
	return good;
}

/* A check that holds on every process (a collective call: all make it). */
static int everywhere(int cond)
{
	uint64_t failed = !cond;
	par_sum_u64(&failed, 1);
	return failed == 0;
}

#define check(cond, ...)                                               \
	do {                                                           \
		int check_ = everywhere(cond);                         \
		if (par_rank() == 0)                                   \
			ok(check_, __VA_ARGS__);                       \
	} while (0)

int main(int argc, char **argv)
{
	if (par_start(&argc, &argv) != 0)
		return 1;
	int me = par_rank(), k = par_size();
	int want = argc > 1 ? atoi(argv[1]) : 1;
	check(k == want && me >= 0 && me < k, "process %d of %d (want %d), library %s", me, k, want,
	   par_library() ? par_library() : "none");

	uint64_t s[2] = { (uint64_t)me + 1, 1000000000000ull };
	par_sum_u64(s, 2);
	check(s[0] == (uint64_t)k * (k + 1) / 2 && s[1] == 1000000000000ull * (uint64_t)k,
	   "sums: %llu %llu", (unsigned long long)s[0], (unsigned long long)s[1]);
	int64_t lo[2] = { -5 * me, 3 + me }, hi[2] = { -5 * me, 3 + me };
	par_min_i64(lo, 2);
	par_max_i64(hi, 2);
	check(lo[0] == -5 * (k - 1) && lo[1] == 3 && hi[0] == 0 && hi[1] == 3 + k - 1,
	   "minimums and maximums");

	char mine[64];
	size_t len = (size_t)snprintf(mine, sizeof(mine), "process %d%.*s", me, me, "xxxxxxxx");
	if (me == 1)
		len = 0;                /* one gives nothing */
	size_t *lens;
	char *all = par_allgather(mine, len, &lens);
	int good = 1;
	for (int p = 0, off = 0; p < k; p++) {
		char want_s[64];
		size_t n = (size_t)snprintf(want_s, sizeof(want_s), "process %d%.*s", p, p, "xxxxxxxx");
		if (p == 1)
			n = 0;
		good = good && lens[p] == n && !memcmp(all + off, want_s, n);
		off += (int)lens[p];
	}
	check(good, "allgather: each process's bytes, in order");
	free(all);
	free(lens);
	all = par_gather(mine, len, k - 1, &lens);
	check(me == k - 1 ? all != NULL && lens != NULL : all == NULL && lens == NULL,
	   "gather: to the last process only");
	free(all);
	free(lens);

	check(exchange(me, k, 1), "exchange: what each process sent each, in one message");
	par_set_round_bytes(5);
	check(exchange(me, k, 3), "exchange in rounds of 5 bytes");
	par_set_round_bytes(0);
	check(mail(me, k), "mail: packed for each process, read by sender and whole, answered");
	char word[8] = "";
	if (me == 0)
		memcpy(word, "tprof", 6);
	par_bcast(word, sizeof(word), 0);
	check(!strcmp(word, "tprof"), "broadcast");
	uint64_t sent, received;
	par_traffic(&sent, &received);
	check(k == 1 ? sent == 0 && received == 0 : sent > 0 && received > 0,
	   "traffic counted: %llu bytes sent, %llu received", (unsigned long long)sent,
	   (unsigned long long)received);
	par_barrier();
	par_stop();
	return me == 0 ? tap_done() : 0;
}

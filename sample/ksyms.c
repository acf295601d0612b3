/* ksyms.c — kernel symbols for the kernel frames of the samples: the distinct addresses are
 * kept while sampling; at the end /proc/kallsyms is read once, and each text symbol that
 * holds one of them becomes a KSYM record (its start, the next symbol's start, of any type,
 * and its name). */
#include "ksyms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/events.h"
#include "../common/ownfd.h"

struct ksym {
	uint64_t addr;
	const char *name;               /* into the kallsyms text: "name" or "name\t[module]" */
	size_t len;
	int text;                       /* code (t, T, w, W), not data */
};

void tprof_ksyms_add(struct tprof_ksyms *k, uint64_t addr)
{
	if (!addr)
		return;
	if ((k->count + 1) * 2 > k->cap) {
		size_t nc = k->cap ? k->cap * 2 : 1024;
		uint64_t *ns = calloc(nc, sizeof(*ns));
		if (!ns)
			return;
		for (size_t i = 0; i < k->cap; i++) {
			if (!k->set[i])
				continue;
			size_t j = (k->set[i] * 0x9e3779b97f4a7c15ull) >> 20 & (nc - 1);
			while (ns[j])
				j = (j + 1) & (nc - 1);
			ns[j] = k->set[i];
		}
		free(k->set);
		k->set = ns;
		k->cap = nc;
	}
	size_t j = (addr * 0x9e3779b97f4a7c15ull) >> 20 & (k->cap - 1);
	for (; k->set[j]; j = (j + 1) & (k->cap - 1))
		if (k->set[j] == addr)
			return;
	k->set[j] = addr;
	k->count++;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int cmp_ksym(const void *a, const void *b)
{
	return cmp_u64(&((const struct ksym *)a)->addr, &((const struct ksym *)b)->addr);
}

/* The symbols of kallsyms ("addr type name [module]"), sorted by address. */
static struct ksym *parse_kallsyms(const char *text, size_t *n)
{
	size_t cap = 0;
	struct ksym *v = NULL;
	*n = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		char *end;
		uint64_t addr = strtoull(l, &end, 16);
		if (end == l || end[0] != ' ' || end[1] == '\0' || end[2] != ' ' || !addr)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 4096;
			struct ksym *nv = realloc(v, cap * sizeof(*nv));
			if (!nv)
				break;
			v = nv;
		}
		const char *name = end + 3;
		v[*n] = (struct ksym){ addr, name, strcspn(name, "\n"), !!strchr("tTwW", end[1]) };
		(*n)++;
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_ksym);
	return v;
}

/* The symbol's name as KSYM wants it: "name" or "name [module]". */
static void write_ksym(struct tprof_sysimg *im, const struct ksym *s, uint64_t end,
		       uint64_t now)
{
	char buf[512];
	size_t n = s->len < sizeof(buf) - 1 ? s->len : sizeof(buf) - 1;
	memcpy(buf, s->name, n);
	buf[n] = '\0';
	char *tab = strchr(buf, '\t');
	if (tab)
		*tab = ' ';
	uint32_t name = tprof_sysimg_string(im, buf, now);
	struct tprof_rec r = { .kind = TPROF_K_KSYM, .name = name, .t0 = now, .t1 = end,
			       .arg = s->addr };
	tprof_sysimg_write(im, 0, r, NULL, 0);
}

size_t tprof_ksyms_write(struct tprof_ksyms *k, struct tprof_sysimg *im, const char *kallsyms,
			 uint64_t now)
{
	size_t nsyms, naddr = 0, written = 0;
	if (!k->count)
		return 0;
	struct ksym *syms = parse_kallsyms(kallsyms, &nsyms);
	uint64_t *addrs = malloc(k->count * sizeof(*addrs));
	if (!syms || !addrs)
		goto out;
	for (size_t i = 0; i < k->cap; i++)
		if (k->set[i])
			addrs[naddr++] = k->set[i];
	qsort(addrs, naddr, sizeof(*addrs), cmp_u64);
	/* Both sorted: walk them together; a symbol ends where the next one (at a higher
	 * address) starts. */
	size_t s = 0;
	for (size_t a = 0; a < naddr; a++) {
		while (s + 1 < nsyms && syms[s + 1].addr <= addrs[a])
			s++;
		if (syms[s].addr > addrs[a] || !syms[s].text)
			continue;
		size_t e = s + 1;
		while (e < nsyms && syms[e].addr == syms[s].addr)
			e++;
		if (e >= nsyms)
			continue;   /* past the last symbol: no end to bound it */
		write_ksym(im, &syms[s], syms[e].addr, now);
		written++;
		while (a + 1 < naddr && addrs[a + 1] < syms[e].addr)
			a++;
	}
out:
	free(syms);
	free(addrs);
	return written;
}

size_t tprof_ksyms_finish(struct tprof_ksyms *k, struct tprof_sysimg *im, uint64_t now)
{
	if (!k->count)
		return 0;
	FILE *f = tprof_fd_fopen_read("/proc/kallsyms");
	if (!f)
		return 0;
	char *text = NULL;
	size_t len = 0, cap = 0, n;
	do {
		if (len + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 1 << 22;
			char *nt = realloc(text, cap);
			if (!nt)
				break;
			text = nt;
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	tprof_fd_fclose(f);
	size_t written = 0;
	if (text) {
		text[len] = '\0';
		written = tprof_ksyms_write(k, im, text, now);
	}
	free(text);
	return written;
}

void tprof_ksyms_free(struct tprof_ksyms *k)
{
	free(k->set);
	memset(k, 0, sizeof(*k));
}

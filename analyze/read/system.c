/* system.c — a system image's stream 0 collected (system.h): its PROP keys, TASK, MAPS and
 * KSYM records, and the lookups of a mapping and of a kernel symbol by address that
 * symbolization asks for.  Attaching its records to the trace's threads is sysattach.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/xalloc.h"
#include "../util/search.h"
#include "system.h"
#include "../util/grow.h"

static struct sysimage *image(struct proc *p)
{
	if (!p->sys) {
		p->sys = xcalloc(1, sizeof(*p->sys));
		p->sys->proc = p;
		p->sys->sample_hz = p->sys->counter_hz = p->sys->ncpu = -1;
		p->sys->mem_total = p->sys->target = -1;
	}
	return p->sys;
}

int system_prop(struct proc *p, const char *key, const struct tprof_rec *r)
{
	static const char *const ints[] = { "sample_hz", "counter_hz", "ncpu", "mem_total",
					    "target" };
	if (r->flags & TPROF_PROP_INT) {
		for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
			if (strcmp(key, ints[i]))
				continue;
			struct sysimage *si = image(p);
			int64_t *v[] = { &si->sample_hz, &si->counter_hz, &si->ncpu, &si->mem_total,
					 &si->target };
			*v[i] = (int64_t)r->arg;
			return 1;
		}
		return 0;
	}
	uint32_t val = proc_string(p, (uint32_t)r->arg);
	if (!strcmp(key, "role")) {
		if (val && !strcmp(strings_get(val), "system"))
			image(p);
		return 1;
	}
	if (!strcmp(key, "sampler"))
		image(p)->sampler = val;
	else if (!strcmp(key, "sample"))
		image(p)->sample = val;
	else if (!strcmp(key, "kernel"))
		image(p)->kernel = val;
	else
		return 0;
	return 1;
}

static void on_task(struct sysimage *si, const struct tprof_rec *r)
{
	if (r->ext < 1)
		return;
	struct tprof_task t;
	memcpy(&t, r + 1, sizeof(t));
	si->tasks = util_grow(si->tasks, &si->captasks, si->ntasks, sizeof(*si->tasks), 64);
	si->tasks[si->ntasks++] = (struct sys_task){
		.ticks = r->t0, .pid = t.pid, .tid = t.tid, .ppid = t.ppid, .gen = t.gen,
		.comm = r->name ? proc_string(si->proc, r->name) : 0,
		.exe = t.exe ? proc_string(si->proc, t.exe) : 0, .what = r->flags,
	};
}

static void on_map(struct sysimage *si, const struct tprof_rec *r)
{
	if (r->ext < 1)
		return;
	struct tprof_map m;
	memcpy(&m, r + 1, sizeof(m));
	if (m.end <= m.start)
		return;
	struct tprof_map_file f = { 0 };
	if (r->ext >= 2)
		memcpy(&f, (const uint8_t *)(r + 1) + TPROF_UNIT, sizeof(f));
	si->maps = util_grow(si->maps, &si->capmaps, si->nmaps, sizeof(*si->maps), 64);
	si->maps[si->nmaps++] = (struct sys_map){
		.start = m.start, .end = m.end, .offset = m.offset, .pid = (uint32_t)r->arg,
		.gen = m.gen, .path = r->name ? proc_string(si->proc, r->name) : 0,
		.has_file = r->ext >= 2, .inode = f.inode, .size = f.size, .mtime_ns = f.mtime_ns,
	};
}

void system_record(struct proc *p, const struct tprof_rec *r)
{
	struct sysimage *si = image(p);
	switch (r->kind) {
	case TPROF_K_TASK:
		on_task(si, r);
		break;
	case TPROF_K_MAPS:
		on_map(si, r);
		break;
	case TPROF_K_KSYM:
		si->ksyms = util_grow(si->ksyms, &si->capksyms, si->nksyms, sizeof(*si->ksyms), 64);
		si->ksyms[si->nksyms++] = (struct sys_ksym){
			r->arg, r->t1, r->name ? proc_string(p, r->name) : 0 };
		break;
	default:
		break;
	}
}

const struct sys_map *system_map(const struct sysimage *si, uint32_t pid, int64_t gen,
				 uint64_t addr)
{
	/* the last mapping at or before (pid, gen, addr) in (pid, gen, start) order */
	size_t lo = 0, hi = si->nmaps;
	uint32_t g = gen < 0 ? UINT32_MAX : (uint32_t)gen;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sys_map *m = &si->maps[mid];
		int le = m->pid != pid ? m->pid < pid : m->gen != g ? m->gen < g : m->start <= addr;
		if (le)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* back through the process's mappings (of every generation, when any will do): a
	 * process has a few hundred at most, and symbolization caches what it found */
	for (size_t i = lo; i-- > 0;) {
		const struct sys_map *m = &si->maps[i];
		if (m->pid != pid || (gen >= 0 && m->gen != g))
			break;
		if (addr >= m->start && addr < m->end)
			return m;
	}
	return NULL;
}

const struct sys_ksym *system_ksym(const struct sysimage *si, uint64_t addr)
{
	size_t lo = search_upper_u64(si->ksyms, si->nksyms, sizeof(*si->ksyms),
				     offsetof(struct sys_ksym, addr), addr);
	if (!lo)
		return NULL;
	const struct sys_ksym *k = &si->ksyms[lo - 1];
	return !k->end || addr < k->end ? k : NULL;
}

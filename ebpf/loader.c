/* loader.c — ebpf/loader.h: loads the skeletons of follow.bpf.c, sched.bpf.c and sample.bpf.c
 * (the last two sharing the first's maps), attaches them, and polls their ring buffer on the
 * caller's timer: the programs wake it only when the ring is half full. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "follow.skel.h"
#include "internal.h"
#include "sample.skel.h"
#include "sched.skel.h"

#define DEFAULT_HZ 99u

/* About a second of samples (a KiB each at most) on every CPU, with room for the switches. */
static size_t ring_size(const struct tprof_bpf_opts *o)
{
	size_t want = o->ring_bytes, size = 256u << 10;
	int ncpu = libbpf_num_possible_cpus();

	if (!want)
		want = (size_t)(o->hz ? o->hz : DEFAULT_HZ) * (ncpu > 0 ? ncpu : 1) * 1024 + size;
	while (size < want && size < (1u << 30))
		size <<= 1;
	return size;
}

/* The maps of a later object become the first's. */
static int share_maps(struct bpf_map *followed, struct bpf_map *records, struct bpf_map *lost,
		      const struct tprof_follow *f)
{
	int err = bpf_map__reuse_fd(followed, bpf_map__fd(f->maps.followed));

	if (!err)
		err = bpf_map__reuse_fd(records, bpf_map__fd(f->maps.records));
	if (!err)
		err = bpf_map__reuse_fd(lost, bpf_map__fd(f->maps.lost));
	return err;
}

static int load_follow(struct tprof_bpf *b, size_t ring)
{
	int err;

	b->follow = tprof_follow__open();
	if (!b->follow)
		return -errno;
	err = bpf_map__set_max_entries(b->follow->maps.records, (__u32)ring);
	if (!err)
		err = tprof_follow__load(b->follow);
	if (!err)
		err = tprof_follow__attach(b->follow);
	return err;
}

static int load_sched(struct tprof_bpf *b)
{
	int err;

	b->sched = tprof_sched__open();
	if (!b->sched)
		return -errno;
	err = share_maps(b->sched->maps.followed, b->sched->maps.records, b->sched->maps.lost,
			 b->follow);
	if (!err)
		err = tprof_sched__load(b->sched);
	if (!err)
		err = tprof_sched__attach(b->sched);
	return err;
}

static int load_sample(struct tprof_bpf *b)
{
	int err;

	b->sample = tprof_sample__open();
	if (!b->sample)
		return -errno;
	err = share_maps(b->sample->maps.followed, b->sample->maps.records, b->sample->maps.lost,
			 b->follow);
	if (!err)
		err = tprof_sample__load(b->sample);
	return err;
}

static int load(struct tprof_bpf *b, const struct tprof_bpf_opts *o, char *why, size_t whylen)
{
	unsigned hz = o->hz ? o->hz : DEFAULT_HZ;
	int err = load_follow(b, ring_size(o));

	if (!err && (o->what & TPROF_BPF_SCHED))
		err = load_sched(b);
	if (!err && (o->what & TPROF_BPF_CPU))
		err = load_sample(b);
	if (err) {
		tprof_bpf_say_error(err, 1, "loading the BPF programs", why, whylen);
		return err;
	}
	if (o->what & TPROF_BPF_CPU) {
		err = tprof_bpf_clocks_attach(b, b->sample->progs.on_cpu_clock,
					      hz > 1000000000u ? 1000000000u : hz, why, whylen);
		if (err)
			return err;
	}
	b->lost_fd = bpf_map__fd(b->follow->maps.lost);
	b->rb = ring_buffer__new(bpf_map__fd(b->follow->maps.records), tprof_bpf_deliver, b,
				 NULL);
	if (!b->rb) {
		err = -errno;
		tprof_bpf_say_error(err, 0, "opening the BPF ring buffer", why, whylen);
	}
	return err;
}

struct tprof_bpf *tprof_bpf_open(const struct tprof_bpf_opts *o,
				 const struct tprof_bpf_events *ev, char *why, size_t whylen)
{
	struct tprof_bpf *b;

	tprof_bpf_quiet_libbpf();
	if (!tprof_bpf_kernel_ready(why, whylen))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	b->ev = *ev;
	if (load(b, o, why, whylen)) {
		tprof_bpf_close(b);
		return NULL;
	}
	return b;
}

int tprof_bpf_follow(struct tprof_bpf *b, uint32_t pid)
{
	__u32 one = 1;

	return bpf_map_update_elem(bpf_map__fd(b->follow->maps.followed), &pid, &one, BPF_ANY)
		       ? -1 : 0;
}

int tprof_bpf_poll(struct tprof_bpf *b, int timeout_ms)
{
	int n = ring_buffer__consume(b->rb), m;

	if (n < 0)
		return -1;
	if (n > 0 || timeout_ms == 0)
		return n;
	/* Sleeps the whole timeout unless the ring fills past half; then takes what came. */
	m = ring_buffer__poll(b->rb, timeout_ms);
	if (m < 0 && m != -EINTR)
		return -1;
	n = ring_buffer__consume(b->rb);
	if (n < 0)
		return -1;
	return n + (m > 0 ? m : 0);
}

uint64_t tprof_bpf_lost(const struct tprof_bpf *b)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t sum = 0, *v;
	__u32 zero = 0;

	if (ncpu <= 0 || !(v = calloc((size_t)ncpu, sizeof(*v))))
		return 0;
	if (bpf_map_lookup_elem(b->lost_fd, &zero, v) == 0)
		for (int c = 0; c < ncpu; c++)
			sum += v[c];
	free(v);
	return sum;
}

void tprof_bpf_close(struct tprof_bpf *b)
{
	if (!b)
		return;
	tprof_bpf_clocks_detach(b);
	ring_buffer__free(b->rb);
	tprof_sample__destroy(b->sample);
	tprof_sched__destroy(b->sched);
	tprof_follow__destroy(b->follow);
	free(b);
}

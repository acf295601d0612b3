/* segment.c — the POSIX shared-memory segment the ranks of one communicator meet in, named
 * after the hash of its ncclUniqueId ("/standin-nccl-<16 hex digits>").  The first rank of any
 * process to arrive creates and lays it out (O_CREAT|O_EXCL decides the race; the others wait
 * until it is marked ready); a process maps it once for all the ranks it holds.  Layout: a
 * header, a control block per rank, a staging slot per rank (collectives), a ring per ordered
 * pair of ranks (send/recv).  Changes are announced with a futex "bell" every waiter of any
 * process sleeps on. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define LAYOUT_VERSION 1u
#define RANK_STRIDE 256u
#define CHAN_HDR 256u
#define PAGE 4096u

_Static_assert(sizeof(struct sn_seg_rank) <= RANK_STRIDE, "rank block fits its stride");
_Static_assert(sizeof(struct sn_seg_chan) <= CHAN_HDR, "channel header fits");

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct sn_seg *mapped; /* segments this process has mapped */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* The registry's lock is held across fork, so that a child never inherits it taken. */
static void fork_lock(void)
{
	pthread_mutex_lock(&reg_mu);
}

static void fork_unlock(void)
{
	pthread_mutex_unlock(&reg_mu);
}

static void fork_setup(void)
{
	pthread_atfork(fork_lock, fork_unlock, fork_unlock);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static void layout(struct sn_seg_hdr *h, int n)
{
	uint64_t nn = (uint64_t)n * (uint64_t)n, chan = (16u << 20) / nn;
	size_t slot = sn_cfg.chunk_bytes < 64u * (size_t)n ? 64u * (size_t)n : sn_cfg.chunk_bytes;
	chan = chan < PAGE ? PAGE : chan > (256u << 10) ? (256u << 10) : chan;
	h->layout = LAYOUT_VERSION;
	h->nranks = n;
	h->slot_bytes = align_up(slot, 64);
	h->chan_bytes = align_up(chan, PAGE);
	h->chan_stride = CHAN_HDR + h->chan_bytes;
	h->off_ranks = align_up(sizeof(*h), RANK_STRIDE);
	h->off_slots = align_up(h->off_ranks + (uint64_t)n * RANK_STRIDE, PAGE);
	h->off_chans = align_up(h->off_slots + (uint64_t)n * h->slot_bytes, PAGE);
	h->size = h->off_chans + nn * h->chan_stride;
}

static void nap(void)
{
	struct timespec ts = {0, 1000000}; /* 1 ms */
	nanosleep(&ts, NULL);
}

static ncclResult_t create(const char *name, int fd, int nranks, struct sn_seg_hdr **out)
{
	struct sn_seg_hdr h;
	void *p;
	memset(&h, 0, sizeof(h));
	layout(&h, nranks);
	if (ftruncate(fd, (off_t)h.size) != 0)
		return sn_fail(ncclSystemError, "standin-nccl: cannot size %s to %llu bytes: %s",
			       name, (unsigned long long)h.size, strerror(errno));
	p = mmap(NULL, h.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return sn_fail(ncclSystemError, "standin-nccl: cannot map %s: %s", name,
			       strerror(errno));
	memcpy(p, &h, sizeof(h)); /* the rest of a new file reads as zeros */
	*out = p;
	atomic_store(&(*out)->ready, SN_SEG_READY);
	return ncclSuccess;
}

/* Maps a segment another process created, once it is laid out. */
static ncclResult_t attach(const char *name, int fd, int nranks, uint64_t deadline,
			   struct sn_seg_hdr **out)
{
	struct stat st;
	struct sn_seg_hdr *h;
	for (;;) {
		if (fstat(fd, &st) != 0)
			return sn_fail(ncclSystemError, "standin-nccl: fstat %s: %s", name,
				       strerror(errno));
		if ((size_t)st.st_size >= sizeof(*h))
			break;
		if (sn_now_ns() > deadline)
			return sn_fail(ncclSystemError, "standin-nccl: %s was never laid out", name);
		nap();
	}
	h = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		return sn_fail(ncclSystemError, "standin-nccl: cannot map %s: %s", name,
			       strerror(errno));
	while (atomic_load(&h->ready) != SN_SEG_READY) {
		if (sn_now_ns() > deadline) {
			munmap(h, (size_t)st.st_size);
			return sn_fail(ncclSystemError, "standin-nccl: %s was never laid out", name);
		}
		nap();
	}
	if (h->layout != LAYOUT_VERSION || h->nranks != nranks || h->size != (uint64_t)st.st_size) {
		int other = h->nranks;
		munmap(h, (size_t)st.st_size);
		return sn_fail(ncclInvalidUsage,
			       "standin-nccl: ranks disagree on the communicator's size (%d here, "
			       "%d in %s)", nranks, other, name);
	}
	*out = h;
	return ncclSuccess;
}

static ncclResult_t open_new(const char *name, int nranks, uint64_t deadline,
			     struct sn_seg_hdr **out)
{
	for (;;) {
		ncclResult_t r;
		int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd >= 0) {
			r = create(name, fd, nranks, out);
			close(fd);
			if (r != ncclSuccess)
				shm_unlink(name);
			return r;
		}
		if (errno != EEXIST)
			return sn_fail(ncclSystemError, "standin-nccl: cannot create %s: %s", name,
				       strerror(errno));
		fd = shm_open(name, O_RDWR, 0);
		if (fd < 0 && errno != ENOENT)
			return sn_fail(ncclSystemError, "standin-nccl: cannot open %s: %s", name,
				       strerror(errno));
		if (fd >= 0) {
			r = attach(name, fd, nranks, deadline, out);
			close(fd);
			return r;
		}
		/* removed between the two opens: try again */
		if (sn_now_ns() > deadline)
			return sn_fail(ncclSystemError, "standin-nccl: cannot open %s", name);
	}
}

ncclResult_t sn_seg_open(uint64_t hash, int nranks, uint64_t deadline, struct sn_seg **out)
{
	char name[64];
	struct sn_seg *s;
	struct sn_seg_hdr *h = NULL;
	ncclResult_t r;
	snprintf(name, sizeof(name), "/standin-nccl-%016llx", (unsigned long long)hash);
	pthread_once(&fork_once, fork_setup);
	pthread_mutex_lock(&reg_mu);
	for (s = mapped; s; s = s->next)
		if (!strcmp(s->name, name))
			break;
	if (s) {
		r = s->hdr->nranks == nranks
			    ? ncclSuccess
			    : sn_fail(ncclInvalidUsage,
				      "standin-nccl: ranks disagree on the communicator's size "
				      "(%d and %d)", nranks, s->hdr->nranks);
		if (r == ncclSuccess)
			s->refs++;
		pthread_mutex_unlock(&reg_mu);
		*out = r == ncclSuccess ? s : NULL;
		return r;
	}
	r = open_new(name, nranks, deadline, &h);
	if (r == ncclSuccess) {
		s = calloc(1, sizeof(*s));
		if (!s) {
			munmap(h, h->size);
			r = sn_fail(ncclSystemError, "standin-nccl: out of memory");
		} else {
			snprintf(s->name, sizeof(s->name), "%s", name);
			s->hdr = h;
			s->size = h->size;
			s->refs = 1;
			s->next = mapped;
			mapped = s;
		}
	}
	pthread_mutex_unlock(&reg_mu);
	*out = s;
	return r;
}

void sn_seg_close(struct sn_seg *s)
{
	struct sn_seg **pp;
	pthread_mutex_lock(&reg_mu);
	if (--s->refs > 0) {
		pthread_mutex_unlock(&reg_mu);
		return;
	}
	for (pp = &mapped; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	pthread_mutex_unlock(&reg_mu);
	munmap(s->hdr, s->size);
	free(s);
}

void sn_seg_unlink(struct sn_seg *s)
{
	if (shm_unlink(s->name) != 0 && errno != ENOENT)
		sn_warn("cannot remove %s: %s", s->name, strerror(errno));
}

struct sn_seg_rank *sn_seg_rank(struct sn_seg *s, int r)
{
	return (struct sn_seg_rank *)((char *)s->hdr + s->hdr->off_ranks +
				      (uint64_t)r * RANK_STRIDE);
}

unsigned char *sn_seg_slot(struct sn_seg *s, int r)
{
	return (unsigned char *)s->hdr + s->hdr->off_slots + (uint64_t)r * s->hdr->slot_bytes;
}

struct sn_seg_chan *sn_seg_chan(struct sn_seg *s, int src, int dst)
{
	uint64_t i = (uint64_t)src * (uint64_t)s->hdr->nranks + (uint64_t)dst;
	return (struct sn_seg_chan *)((char *)s->hdr + s->hdr->off_chans + i * s->hdr->chan_stride);
}

unsigned char *sn_seg_chan_data(struct sn_seg *s, int src, int dst)
{
	return (unsigned char *)sn_seg_chan(s, src, dst) + CHAN_HDR;
}

/* A process that exited but was not reaped yet (a zombie) is gone too. */
static int process_gone(int pid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;
	if (kill(pid, 0) != 0)
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* "pid (comm) S ...": the name may hold anything */
	return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

int sn_seg_rank_gone(struct sn_seg *s, int r)
{
	struct sn_seg_rank *k = sn_seg_rank(s, r);
	int pid = atomic_load(&k->pid);
	if (atomic_load(&k->state) == SN_RANK_LEFT)
		return 1;
	return pid > 0 && pid != getpid() && process_gone(pid);
}

/* ------------------------------------------------------------------ the bell */
static long futex(_Atomic uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	/* not FUTEX_PRIVATE: the waiters are in several processes */
	return syscall(SYS_futex, (uint32_t *)addr, op, val, ts, NULL, 0);
}

void sn_bell_ring(struct sn_seg *s)
{
	atomic_fetch_add(&s->hdr->bell, 1);
	if (atomic_load(&s->hdr->waiters))
		futex(&s->hdr->bell, FUTEX_WAKE, INT_MAX, NULL);
}

uint32_t sn_bell_read(struct sn_seg *s)
{
	return atomic_load(&s->hdr->bell);
}

void sn_bell_wait(struct sn_seg *s, uint32_t seen, uint64_t ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
	atomic_fetch_add(&s->hdr->waiters, 1);
	futex(&s->hdr->bell, FUTEX_WAIT, seen, &ts);
	atomic_fetch_sub(&s->hdr->waiters, 1);
}

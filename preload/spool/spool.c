/* spool.c — the per-process spool: a file in the output directory, mapped shared, cut into
 * fixed-size slots that serve as thread buffers.  Because the pages belong to the file, every
 * record written survives the process dying in any way, SIGKILL included.  Blocks are reserved
 * before they are mapped (common/spool-reserve.c), so a full disk is an error here, never a
 * SIGBUS. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../common/chunk.h"
#include "../../common/outdir.h"
#include "../../common/spool-reserve.h"
#include "../../common/record.h"
#include "../core/clock.h"
#include "../core/core.h"
#include "spool.h"

#define INITIAL_SLOTS 4u
#define GROW_SLOTS 8u
#define RESERVE_SLOTS 2u   /* free buffers the flusher keeps ready */

struct segment {
	void *base;
	size_t len;
	struct tprof_slot *slots;
	struct segment *next;
};

static struct segment *segments TPROF_START_DATA;   /* read at every fork */
static uint32_t slot_bytes;
static int out_of_space;

/* Adds n slots at the end of the file and returns them as a list (not yet free).  Called
 * under tprof_g.lock. */
static struct tprof_slot *grow(uint32_t n)
{
	uint64_t off = tprof_g.spool_bytes;
	uint64_t len = (uint64_t)n * slot_bytes;
	if (out_of_space || off + len > tprof_g.cfg.spool_max + TPROF_SPOOL_HEADER_SIZE)
		return NULL;
	/* The descriptor is still the spool's (the program may have taken it): else reopened,
	 * or recording stops here. */
	if (tprof_held_check(&tprof_g.spool) < 0) {
		int e = errno;
		if (tprof_stop_writing())
			tprof_log_warn("cannot extend %s%s: its descriptor was taken and it cannot "
				       "be reopened: %s; recording stopped", tprof_g.base,
				       TPROF_SPOOL_SUFFIX, strerror(e));
		out_of_space = 1;
		return NULL;
	}
	if (tprof_spool_reserve(tprof_g.spool.fd, off, len) < 0) {
		/* Only the first failure speaks; a full disk stops recording, not the program. */
		int e = errno;
		if (tprof_g.slots_total && tprof_stop_writing())
			tprof_log_warn("cannot extend %s%s: %s; recording stopped", tprof_g.base,
				       TPROF_SPOOL_SUFFIX, strerror(e));
		out_of_space = 1;
		return NULL;
	}
	void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, tprof_g.spool.fd, (off_t)off);
	if (base == MAP_FAILED)
		return NULL;
	struct segment *seg = malloc(sizeof(*seg));
	struct tprof_slot *slots = calloc(n, sizeof(*slots));
	if (!seg || !slots) {
		free(seg);
		free(slots);
		munmap(base, len);
		return NULL;
	}
	seg->base = base;
	seg->len = len;
	seg->slots = slots;
	seg->next = segments;
	segments = seg;
	for (uint32_t i = 0; i < n; i++) {
		struct tprof_slot *s = &slots[i];
		s->hdr = (struct tprof_slot_header *)((char *)base + (size_t)i * slot_bytes);
		s->units = (struct tprof_rec *)(s->hdr + 1);
		s->hdr->magic = TPROF_SLOT_MAGIC;
		s->hdr->capacity = (slot_bytes - TPROF_SLOT_HEADER_SIZE) / TPROF_UNIT;
		s->next = i + 1 < n ? &slots[i + 1] : NULL;
		/* Publish with release order: the final flush walks this list without the lock. */
		s->all_next = tprof_g.all_slots;
		__atomic_store_n(&tprof_g.all_slots, s, __ATOMIC_RELEASE);
	}
	tprof_g.spool_bytes = off + len;
	tprof_g.slots_total += n;
	return slots;
}

static void free_list(struct tprof_slot *list)
{
	while (list) {
		struct tprof_slot *next = list->next;
		tprof_spool_release(list);
		list = next;
	}
}

int tprof_spool_open(const char *path, uint32_t bytes)
{
	struct tprof_spool_header h;
	char page[TPROF_SPOOL_HEADER_SIZE];

	slot_bytes = bytes;
	out_of_space = 0;
	if (tprof_held_create(&tprof_g.spool, path, O_RDWR, tprof_file_mode(), &tprof_g.lock))
		return -1;
	tprof_spool_header_init(&h, tprof_g.instance, (uint32_t)tprof_g.pid, bytes, tprof_real_ns());
	memset(page, 0, sizeof(page));
	memcpy(page, &h, sizeof(h));
	tprof_losses_page(page);
	/* Under the lock that a program's dup2 onto the descriptor waits for. */
	pthread_mutex_lock(&tprof_g.lock);
	errno = 0;
	int ok = pwrite(tprof_g.spool.fd, page, sizeof(page), 0) == (ssize_t)sizeof(page);
	int e = errno ? errno : ENOSPC;
	struct tprof_slot *fresh = NULL;
	if (ok) {
		tprof_g.spool_bytes = TPROF_SPOOL_HEADER_SIZE;
		fresh = grow(INITIAL_SLOTS);
		e = errno;
		free_list(fresh);
	}
	pthread_mutex_unlock(&tprof_g.lock);
	if (!fresh) {
		tprof_held_close(&tprof_g.spool);
		unlink(path);
		errno = e;
		return -1;
	}
	tprof_losses_map(tprof_g.spool.fd);
	return 0;
}

struct tprof_slot *tprof_spool_acquire(void)
{
	if (!tprof_g.free_slots)
		free_list(grow(GROW_SLOTS));
	struct tprof_slot *s = tprof_g.free_slots;
	if (!s)
		return NULL;
	tprof_g.free_slots = s->next;
	tprof_g.free_count--;
	s->next = NULL;
	return s;
}

void tprof_spool_release(struct tprof_slot *s)
{
	s->next = tprof_g.free_slots;
	tprof_g.free_slots = s;
	tprof_g.free_count++;
}

/* Called by the flusher, without the lock: keeps a few buffers free whose pages have been
 * written once, so that the first-touch page faults of a growing spool fall on the flusher
 * and not on a thread that is recording. */
void tprof_spool_keep_reserve(void)
{
	pthread_mutex_lock(&tprof_g.lock);
	struct tprof_slot *fresh = tprof_g.free_count < RESERVE_SLOTS ? grow(GROW_SLOTS) : NULL;
	pthread_mutex_unlock(&tprof_g.lock);
	if (!fresh)
		return;
	long page = sysconf(_SC_PAGESIZE);
	for (struct tprof_slot *s = fresh; s; s = s->next) {
		volatile char *p = (volatile char *)s->units;
		size_t len = (size_t)s->hdr->capacity * TPROF_UNIT;
		for (size_t off = 0; off < len; off += (size_t)page)
			p[off] = 0;
	}
	pthread_mutex_lock(&tprof_g.lock);
	free_list(fresh);
	pthread_mutex_unlock(&tprof_g.lock);
}

int tprof_spool_idle(void)
{
	for (struct tprof_slot *s = __atomic_load_n(&tprof_g.all_slots, __ATOMIC_ACQUIRE); s;
	     s = s->all_next) {
		uint32_t state = __atomic_load_n(&s->hdr->state, __ATOMIC_ACQUIRE);
		uint32_t f = s->hdr->flushed;
		if (state != TPROF_SLOT_FREE && f < s->hdr->capacity && tprof_peek_kind(&s->units[f]))
			return 0;
	}
	return 1;
}

TPROF_START_CODE void tprof_spool_forget(void)
{
	while (segments) {
		struct segment *seg = segments;
		segments = seg->next;
		munmap(seg->base, seg->len);
		free(seg->slots);
		free(seg);
	}
	tprof_g.all_slots = NULL;
	tprof_g.free_slots = NULL;
	tprof_g.free_count = 0;
	tprof_g.queue_head = tprof_g.queue_tail = NULL;
	tprof_g.slots_total = 0;
	tprof_g.spool_bytes = 0;
	tprof_held_close(&tprof_g.spool);
}

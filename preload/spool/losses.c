/* losses.c — where every record the recorder could not keep is counted, so that the count
 * survives whatever happens next (a full disk, SIGKILL): the loss table in the spool's header
 * page (format.h), mapped shared, whose block exists from the spool's creation.  A fork child
 * that could not create files of its own counts in the table of the nearest ancestor that has
 * one (the mapping is inherited), per process and reason; a process image with neither (or
 * finding no room there) leaves an empty marker file whose name carries its count at exit.
 * Counting is lock-free (atomic adds) and needs no allocation, so a signal handler may count. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../common/outdir.h"
#include "../../common/real-libc.h"
#include "../core/core.h"
#include "losses.h"

/* where this image's marker file goes (no files of its own) */
static char *marker_path TPROF_START_DATA;
static int marker_made TPROF_START_DATA;   /* ... and it exists (read at every exit) */
/* a descendant's counts in the ancestor's table (cleared at every fork) */
static uint64_t *desc_count[TPROF_DROP_REASONS] TPROF_START_DATA;

static struct tprof_loss_entry *entries(struct tprof_loss_table *tab)
{
	return (struct tprof_loss_entry *)((char *)tab + tab->header_size);
}

/* An empty table, in the spool's header page as it is about to be written. */
void tprof_losses_page(void *header_page)
{
	struct tprof_loss_table *tab =
		(struct tprof_loss_table *)((char *)header_page + TPROF_LOSS_OFFSET);
	memset(tab, 0, TPROF_SPOOL_HEADER_SIZE - TPROF_LOSS_OFFSET);
	tab->magic = TPROF_LOSS_MAGIC;
	tab->header_size = sizeof(*tab);
	tab->entry_size = sizeof(struct tprof_loss_entry);
	tab->capacity = TPROF_LOSS_CAPACITY;
}

/* The spool (fd) exists, its header page written: its table, mapped, counts from now on. */
void tprof_losses_map(int fd)
{
	void *page = mmap(NULL, TPROF_SPOOL_HEADER_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (page == MAP_FAILED)
		return;
	__atomic_store_n(&tprof_g.losses,
			 (struct tprof_loss_table *)((char *)page + TPROF_LOSS_OFFSET),
			 __ATOMIC_RELEASE);
}

/* The parent's table (or its ancestor's) serves the child until it has one of its own. */
TPROF_START_CODE void tprof_losses_fork_child(void)
{
	if (tprof_g.losses)
		tprof_g.ancestor = tprof_g.losses;
	tprof_g.losses = NULL;
	tprof_g.lost_nowhere = 0;
	tprof_g.reported = 0;
	if (marker_path) {   /* no call of free (and no fault on its page) when there is none */
		free(marker_path);
		marker_path = NULL;
	}
	marker_made = 0;
	memset(desc_count, 0, sizeof(desc_count));
}

/* An entry for t's losses of `reason` in tab (a thread's from the front, a descendant's from
 * the back), or NULL when its part of the table is full. */
static struct tprof_loss_entry *claim(struct tprof_loss_table *tab, uint8_t kind, unsigned reason,
				      const struct tprof_thread *t)
{
	uint32_t cap = tab->capacity, share = cap < TPROF_LOSS_DESC_SHARE ? cap : TPROF_LOSS_DESC_SHARE;
	uint32_t i;
	if (kind == TPROF_LOSS_THREAD) {
		i = __atomic_fetch_add(&tab->claimed, 1, __ATOMIC_RELAXED);
		if (i >= cap - share)
			return NULL;
	} else {
		i = __atomic_fetch_add(&tab->claimed_desc, 1, __ATOMIC_RELAXED);
		if (i >= share)
			return NULL;
		i = cap - 1 - i;
	}
	struct tprof_loss_entry *e = &entries(tab)[i];
	e->reason = (uint8_t)reason;
	e->stream = kind == TPROF_LOSS_THREAD ? t->stream : 0;
	e->tid = t->tid;
	e->pid = (int32_t)tprof_g.pid;
	e->ppid = kind == TPROF_LOSS_DESCENDANT ? (int32_t)getppid() : 0;
	e->instance = (uint32_t)tprof_image_instance();
	__atomic_store_n(&e->kind, kind, __ATOMIC_RELEASE);
	return e;
}

/* The marker file, made now (open and close: no allocation, safe in a signal handler). */
static void make_marker(void)
{
	if (!marker_path || __atomic_exchange_n(&marker_made, 1, __ATOMIC_RELAXED))
		return;
	int fd = tprof_fd_open_brief(marker_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
				     tprof_file_mode());
	if (fd >= 0)
		tprof_real_close(fd);
	else
		__atomic_store_n(&marker_made, 0, __ATOMIC_RELAXED);
}

/* Where a descendant without files counts what it loses for `reason`: its entry in the
 * ancestor's table (one per process and reason), or, with no room there, its marker. */
static uint64_t *descendant_count(struct tprof_loss_table *tab, unsigned reason,
				  const struct tprof_thread *t)
{
	uint64_t *c = __atomic_load_n(&desc_count[reason], __ATOMIC_ACQUIRE);
	if (c)
		return c;
	struct tprof_loss_entry *e = claim(tab, TPROF_LOSS_DESCENDANT, reason, t);
	if (!e) {
		make_marker();
		return &tprof_g.lost_nowhere;
	}
	uint64_t *mine = &e->count, *none = NULL;
	if (!__atomic_compare_exchange_n(&desc_count[reason], &none, mine, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		mine = none;    /* another thread claimed one first: its entry serves */
	return mine;
}

void tprof_losses_count(struct tprof_thread *t, unsigned reason, uint64_t n)
{
	uint64_t *c = t->loss[reason];
	if (TPROF_UNLIKELY(!c)) {
		struct tprof_loss_table *tab = __atomic_load_n(&tprof_g.losses, __ATOMIC_ACQUIRE);
		if (tab) {
			struct tprof_loss_entry *e = claim(tab, TPROF_LOSS_THREAD, reason, t);
			c = e ? &e->count : &tab->overflow[reason];
		} else if (tprof_g.ancestor && !tprof_g.spool.path &&
			   tprof_g.phase == TPROF_PHASE_FAILED) {
			c = descendant_count(tprof_g.ancestor, reason, t);
		} else {
			c = &tprof_g.lost_nowhere;
		}
		t->loss[reason] = c;
	}
	__atomic_add_fetch(c, n, __ATOMIC_RELAXED);
}

/* The image has no files: with no ancestor's table to count in, an empty marker file (no
 * data blocks: it can be made on a full disk) names it until exit gives it its count.  Its
 * name is made ready in any case, for a descendant that finds no room in the table. */
void tprof_losses_no_files(void)
{
	/* Never into a directory refused as another user's or open to others (core/output.c). */
	if (marker_path || !tprof_g.base || tprof_output_ready() < 0)
		return;
	size_t n = strlen(tprof_g.base) + sizeof(TPROF_LOST_SUFFIX);
	char *path = malloc(n);
	if (!path)
		return;
	snprintf(path, n, "%s%s", tprof_g.base, TPROF_LOST_SUFFIX);
	marker_path = path;
	if (!tprof_g.ancestor)
		make_marker();
}

/* At exit (or exec): the marker's name says how many records the image lost. */
TPROF_START_CODE void tprof_losses_exit(void)
{
	if (!__atomic_load_n(&marker_made, __ATOMIC_ACQUIRE))
		return;
	int e = errno;
	uint64_t lost = __atomic_load_n(&tprof_g.lost_nowhere, __ATOMIC_RELAXED);
	size_t n = strlen(tprof_g.base) + 32 + sizeof(TPROF_LOST_SUFFIX);
	char *to = malloc(n);
	if (to) {
		snprintf(to, n, "%s%s-%llu", tprof_g.base, TPROF_LOST_SUFFIX, (unsigned long long)lost);
		rename(marker_path, to);
		free(to);
	}
	marker_made = 0;
	errno = e;
}

/* Must the spool stay for its table?  When descendants counted in it, or when some loss of
 * this image is not in a DROP record of the chunk file.  Marks the table complete otherwise. */
int tprof_losses_keep(void)
{
	struct tprof_loss_table *tab = tprof_g.losses;
	if (!tab)
		return 0;
	uint64_t total = 0;
	for (int r = 0; r < 8; r++)
		total += __atomic_load_n(&tab->overflow[r], __ATOMIC_RELAXED);
	for (uint32_t i = 0; i < tab->capacity; i++) {
		const struct tprof_loss_entry *e = &entries(tab)[i];
		uint8_t kind = __atomic_load_n(&e->kind, __ATOMIC_ACQUIRE);
		if (kind == TPROF_LOSS_DESCENDANT)
			return 1;
		if (kind == TPROF_LOSS_THREAD)
			total += __atomic_load_n(&e->count, __ATOMIC_RELAXED);
	}
	if (total > __atomic_load_n(&tprof_g.reported, __ATOMIC_RELAXED))
		return 1;
	__atomic_store_n(&tab->complete, 1, __ATOMIC_RELEASE);
	return 0;
}

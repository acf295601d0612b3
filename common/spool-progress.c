/* spool-progress.c — a running process's progress from its spool (spool-progress.h).  Each
 * poll reads every slot's header; of a slot that still belongs to the same buffer it reads
 * only from its last record on (records are appended, and the last one may still change: a
 * call's t1 when it returns, a run of polls' ext when another function joins it). */
#include "spool-progress.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunk.h"
#include "events.h"
#include "format.h"
#include "real-libc.h"

#define READ_UNITS 64           /* units read at a time while stepping over records */

int spool_progress_open(struct spool_progress *sp, const char *path)
{
	memset(sp, 0, sizeof(*sp));
	sp->fd = open(path, O_RDONLY | O_CLOEXEC);
	struct tprof_spool_header h;
	if (sp->fd < 0)
		return -1;
	if (pread(sp->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || tprof_spool_header_check(&h)) {
		spool_progress_close(sp);
		return -1;
	}
	sp->slot_bytes = h.slot_bytes;
	sp->created_ns = h.created_ns;
	sp->job = h.job;
	return 0;
}

/* Steps over the records of a slot from unit `from` (a record's start): where the last one
 * starts, the units written, and that record's t1 when it is a call. */
static void scan(int fd, uint64_t off, const struct tprof_slot_header *sh, uint32_t from,
		 struct spool_slot_seen *s)
{
	struct tprof_rec buf[READ_UNITS];
	uint32_t at = from, last = from;
	uint64_t last_t1 = 0;
	int any = 0;
	while (at < sh->capacity) {
		uint32_t want = sh->capacity - at < READ_UNITS ? sh->capacity - at : READ_UNITS;
		ssize_t got = pread(fd, buf, want * sizeof(buf[0]),
				    (off_t)(off + TPROF_SLOT_HEADER_SIZE + (uint64_t)at * TPROF_UNIT));
		if (got < (ssize_t)sizeof(buf[0]))
			break;
		uint32_t n = (uint32_t)((size_t)got / sizeof(buf[0])), k = 0;
		while (k < n && buf[k].kind) {
			if (at + k + 1u + buf[k].ext > sh->capacity)
				goto out;
			last = at + k;
			last_t1 = buf[k].kind == TPROF_K_CALL ? buf[k].t1 : 0;
			any = 1;
			k += 1u + buf[k].ext;
		}
		if (k < n && !buf[k].kind)
			break;
		at += k;   /* k may pass n: a record's units run into the next read */
	}
out:
	s->last = any ? last : from;
	s->units = any ? (at > last ? at : last + 1) : from;
	s->last_t1 = any ? last_t1 : s->last_t1;
}

int spool_progress_poll(struct spool_progress *sp)
{
	struct stat st;
	if (sp->fd < 0 || fstat(sp->fd, &st) || !st.st_nlink)
		return -1;   /* removed: the process ended cleanly */
	uint64_t n = st.st_size > TPROF_SPOOL_HEADER_SIZE
			     ? ((uint64_t)st.st_size - TPROF_SPOOL_HEADER_SIZE) / sp->slot_bytes : 0;
	int moved = sp->slots == NULL;
	if (n > sp->nslots) {
		struct spool_slot_seen *v = realloc(sp->slots, n * sizeof(*v));
		if (!v)
			return -1;
		memset(v + sp->nslots, 0, (n - sp->nslots) * sizeof(*v));
		sp->slots = v;
		sp->nslots = (uint32_t)n;
	}
	for (uint32_t i = 0; i < sp->nslots; i++) {
		uint64_t off = TPROF_SPOOL_HEADER_SIZE + (uint64_t)i * sp->slot_bytes;
		struct tprof_slot_header sh;
		struct spool_slot_seen *s = &sp->slots[i], was = *s;
		if (pread(sp->fd, &sh, sizeof(sh), (off_t)off) != (ssize_t)sizeof(sh) ||
		    sh.magic != TPROF_SLOT_MAGIC || sh.state == TPROF_SLOT_FREE || !sh.stream ||
		    sh.capacity > (sp->slot_bytes - TPROF_SLOT_HEADER_SIZE) / TPROF_UNIT)
			continue;   /* free, or the process's own stream: nothing said */
		int same = sh.stream == s->stream && sh.seq == s->seq;
		if (!same)
			*s = (struct spool_slot_seen){ .stream = sh.stream, .seq = sh.seq };
		scan(sp->fd, off, &sh, same ? s->last : 0, s);
		/* a thread's new buffer, a record more, or its call returned */
		moved |= !same || s->units != was.units || (s->last_t1 && !was.last_t1);
	}
	return moved;
}

void spool_progress_close(struct spool_progress *sp)
{
	if (sp->fd >= 0)
		tprof_real_close(sp->fd);
	free(sp->slots);
	memset(sp, 0, sizeof(*sp));
	sp->fd = -1;
}

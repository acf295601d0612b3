/* chunks.c — from buffers to chunks: the queue of full buffers, encoding and deflating one
 * into a self-describing chunk appended to the chunk file, clearing it for reuse, and the
 * synchronous flush of every buffer (exit, exec).  An error writing the chunk file stops
 * recording; what was recorded stays in the spool. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "../../common/chunk.h"
#include "../../common/codec.h"
#include "../../common/deflate.h"
#include "../../common/writev-all.h"
#include "../../common/record.h"
#include "chunks.h"
#include "../core/core.h"
#include "spool.h"

static struct libdeflate_compressor *zc;
static uint8_t *raw_buf, *comp_buf;
static size_t raw_cap, comp_cap;

int tprof_chunks_init(void)
{
	size_t units = tprof_g.cfg.buffer_units;
	raw_cap = tprof_codec_bound((uint32_t)units);
	/* Raw deflate (libdeflate: zlib's format at 1.7 times its speed, loaded now, at the
	 * first record, not at every process start): the chunk header's CRC already guards
	 * the payload. */
	const char *why;
	if (tprof_deflate_load(&why) < 0) {
		tprof_log_warn("%s; not recording", why);
		return -1;
	}
	if (!zc && !(zc = tprof_deflate_new(tprof_g.cfg.compress_level)))
		return -1;
	comp_cap = tprof_deflate_bound(zc, raw_cap);
	free(raw_buf);
	free(comp_buf);
	raw_buf = malloc(raw_cap);
	comp_buf = malloc(comp_cap);
	return raw_buf && comp_buf ? 0 : -1;
}


/* A write error: recording stops (what is in the spool stays there), said once. */
static void stop(const char *why, const char *how)
{
	if (tprof_stop_writing())
		tprof_log_warn("cannot write %s%s: %s%s; recording stopped (events so far are kept "
			       "in %s%s)", tprof_g.base, TPROF_TRACE_SUFFIX, how, why, tprof_g.base,
			       TPROF_SPOOL_SUFFIX);
	tprof_held_close(&tprof_g.trace);
}

/* Writes the units of s not yet in the chunk file.  Caller holds flush_lock.
 * Returns 0 (also when there was nothing new) or -1 on a write error. */
int tprof_chunks_write(struct tprof_slot *s)
{
	struct tprof_slot_header *h = s->hdr;
	uint32_t from = h->flushed, cap = h->capacity;
	struct tprof_enc_info info;
	struct tprof_chunk_header ch;

	if (!tprof_g.trace.path)
		return -1;
	if (from >= cap || !tprof_peek_kind(&s->units[from]))
		return 0;
	size_t raw_len = tprof_encode(s->units + from, cap - from, raw_buf, &info);
	if (info.units == 0)
		return 0;
	uint32_t comp_len = (uint32_t)tprof_deflate(zc, raw_buf, raw_len, comp_buf, comp_cap);
	if (comp_len == 0)
		return -1;
	tprof_chunk_header_init(&ch, h->stream, h->seq, from, &info, (uint32_t)raw_len, comp_buf,
				comp_len, TPROF_ENC_PACKED_DEFLATE);
	struct iovec iov[2] = { { &ch, sizeof(ch) }, { comp_buf, comp_len } };
	/* Only into the chunk file: a descriptor the program took is reopened by path first. */
	if (tprof_held_check(&tprof_g.trace) < 0) {
		stop(strerror(errno), "its descriptor was taken and it cannot be reopened: ");
		return -1;
	}
	if (tprof_writev_all(tprof_g.trace.fd, iov, 2) < 0) {
		stop(strerror(errno), "");
		return -1;
	}
	__atomic_store_n(&h->flushed, from + info.units, __ATOMIC_RELEASE);
	tprof_g.chunks_written++;
	tprof_g.bytes_written += sizeof(ch) + comp_len;
	if (h->stream != 0)
		tprof_g.events_written += info.records;
	return 0;
}

/* Empties a flushed slot; caller holds flush_lock, so no synchronous flush can encode it
 * half-cleared.  State goes to FREE before the records are cleared, so a reader of the spool
 * never sees a half-cleared buffer as data. */
void tprof_chunks_clear(struct tprof_slot *s)
{
	struct tprof_slot_header *h = s->hdr;
	size_t used = h->flushed;
	__atomic_store_n(&h->state, TPROF_SLOT_FREE, __ATOMIC_RELEASE);
	memset(s->units, 0, used * TPROF_UNIT);
	h->flushed = 0;
	h->stream = 0;
	h->seq = 0;
}

void tprof_chunks_enqueue(struct tprof_slot *s)
{
	__atomic_store_n(&s->hdr->state, TPROF_SLOT_FULL, __ATOMIC_RELEASE);
	s->next = NULL;
	if (tprof_g.queue_tail)
		tprof_g.queue_tail->next = s;
	else
		tprof_g.queue_head = s;
	tprof_g.queue_tail = s;
	pthread_cond_signal(&tprof_g.flush_cond);
}

struct tprof_slot *tprof_chunks_dequeue(void)
{
	struct tprof_slot *s = tprof_g.queue_head;
	if (s) {
		tprof_g.queue_head = s->next;
		if (!tprof_g.queue_head)
			tprof_g.queue_tail = NULL;
		s->next = NULL;
	}
	return s;
}

int tprof_chunks_write_all(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 10;
	if (pthread_mutex_timedlock(&tprof_g.flush_lock, &ts) != 0) {
		tprof_log_warn("the chunk file stayed busy for 10 s; events left in %s%s",
			       tprof_g.base, TPROF_SPOOL_SUFFIX);
		return -1;
	}
	int rc = 0;
	for (struct tprof_slot *s = __atomic_load_n(&tprof_g.all_slots, __ATOMIC_ACQUIRE); s;
	     s = s->all_next) {
		if (__atomic_load_n(&s->hdr->state, __ATOMIC_ACQUIRE) == TPROF_SLOT_FREE)
			continue;
		if (tprof_chunks_write(s) < 0) {
			rc = -1;
			break;
		}
	}
	pthread_mutex_unlock(&tprof_g.flush_lock);
	return rc;
}

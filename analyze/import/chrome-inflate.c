/* chrome-inflate.c — chrome-inflate.h: zlib's inflate over read(2) on a helper thread that fills
 * blocks of BLOCK bytes, NBUF in all, handed to the reader through a queue (gzread is not used:
 * it would drop what it inflated before damage). */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../common/xalloc.h"
#include "chrome-inflate.h"

#define ZIN (256 * 1024)
#define BLOCK (1024 * 1024)
#define NBUF 3

struct chrome_inflate {
	/* The helper's own */
	int fd;
	z_stream zs;
	unsigned char *zin;
	uint64_t zread;         /* compressed bytes read */
	int member_end;         /* a gzip member ended: another may follow */
	/* Shared, under lock */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned char *free_bufs[NBUF];
	int nfree;
	unsigned char *full[NBUF];      /* a queue of blocks, oldest at head */
	size_t full_len[NBUF];
	int head, nfull;
	int status;             /* after the queue: 0 more to come, 1 the end, -1 an error (msg) */
	int stop;
	char msg[200];
	/* The reader's own */
	unsigned char *cur;
	size_t cur_len, cur_off;
	int done;               /* the status was reached: what read returns from now on */
};

static void failed(struct chrome_inflate *z, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void failed(struct chrome_inflate *z, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(z->msg, sizeof(z->msg), fmt, ap);
	va_end(ap);
}

/* More compressed input: 1, 0 at the end of the file, -1 on an error. */
static int refill(struct chrome_inflate *z)
{
	ssize_t r;
	do
		r = read(z->fd, z->zin, ZIN);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		failed(z, "cannot read: %s", strerror(errno));
		return -1;
	}
	z->zs.next_in = z->zin;
	z->zs.avail_in = (uInt)r;
	z->zread += (uint64_t)r;
	return r > 0;
}

/* One step of inflate: 0 to go on, 1 at the end of the input, -1 on damage (msg set). */
static int step(struct chrome_inflate *z)
{
	if (!z->zs.avail_in) {
		int r = refill(z);
		if (r < 0)
			return -1;
		if (r == 0) {
			if (z->member_end)
				return 1;
			failed(z, "the gzip stream is cut short (at compressed offset %" PRIu64 ")",
			       z->zread);
			return -1;
		}
	}
	if (z->member_end) {
		/* Another member, or non-gzip bytes after the last (ignored, as gzip does). */
		if (z->zs.next_in[0] != 0x1f)
			return 1;
		inflateReset(&z->zs);
		z->member_end = 0;
	}
	int rc = inflate(&z->zs, Z_NO_FLUSH);
	if (rc == Z_STREAM_END) {
		z->member_end = 1;
	} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
		failed(z, "bad gzip stream at compressed offset %" PRIu64 ": %s",
		       z->zread - z->zs.avail_in, z->zs.msg ? z->zs.msg : "inflate failed");
		return -1;
	}
	return 0;
}

/* Fills buf as far as the stream goes: its length, and *status as in struct chrome_inflate. */
static size_t fill(struct chrome_inflate *z, unsigned char *buf, int *status)
{
	z->zs.next_out = buf;
	z->zs.avail_out = BLOCK;
	*status = 0;
	while (z->zs.avail_out && !*status)
		*status = step(z);
	return BLOCK - z->zs.avail_out;
}

static void *inflater(void *arg)
{
	struct chrome_inflate *z = arg;
	int status = 0;

	while (!status) {
		pthread_mutex_lock(&z->lock);
		while (!z->nfree && !z->stop)
			pthread_cond_wait(&z->cond, &z->lock);
		if (z->stop) {
			pthread_mutex_unlock(&z->lock);
			break;
		}
		unsigned char *buf = z->free_bufs[--z->nfree];
		pthread_mutex_unlock(&z->lock);

		size_t len = fill(z, buf, &status);

		pthread_mutex_lock(&z->lock);
		int tail = (z->head + z->nfull) % NBUF;
		z->full[tail] = buf;
		z->full_len[tail] = len;
		z->nfull++;
		z->status = status;
		pthread_cond_broadcast(&z->cond);
		pthread_mutex_unlock(&z->lock);
	}
	return NULL;
}

/* The next block for the reader, the one it had going back to the helper: 1, or 0 when the
 * stream has nothing more (done is set). */
static int next_block(struct chrome_inflate *z)
{
	pthread_mutex_lock(&z->lock);
	if (z->cur) {
		z->free_bufs[z->nfree++] = z->cur;
		z->cur = NULL;
		pthread_cond_broadcast(&z->cond);
	}
	while (!z->nfull && !z->status)
		pthread_cond_wait(&z->cond, &z->lock);
	if (z->nfull) {
		z->cur = z->full[z->head];
		z->cur_len = z->full_len[z->head];
		z->cur_off = 0;
		z->head = (z->head + 1) % NBUF;
		z->nfull--;
	} else {
		z->done = z->status;
	}
	pthread_mutex_unlock(&z->lock);
	return z->cur != NULL;
}

ssize_t chrome_inflate_read(struct chrome_inflate *z, void *to, size_t n)
{
	while (!z->done && (!z->cur || z->cur_off == z->cur_len))
		if (!next_block(z))
			break;
	if (z->done)
		return z->done > 0 ? 0 : -1;
	size_t k = z->cur_len - z->cur_off < n ? z->cur_len - z->cur_off : n;
	memcpy(to, z->cur + z->cur_off, k);
	z->cur_off += k;
	return (ssize_t)k;
}

const char *chrome_inflate_error(const struct chrome_inflate *z)
{
	return z->msg;
}

struct chrome_inflate *chrome_inflate_start(int fd, char *err, size_t errlen)
{
	struct chrome_inflate *z = xcalloc(1, sizeof(*z));
	z->fd = fd;
	z->zin = malloc(ZIN);
	for (int i = 0; i < NBUF; i++)
		z->free_bufs[z->nfree++] = xmalloc(BLOCK);
	/* 16 + MAX_WBITS: a gzip header and trailer around the deflate stream. */
	if (!z->zin || inflateInit2(&z->zs, 16 + MAX_WBITS) != Z_OK) {
		snprintf(err, errlen, "cannot set up inflate");
		goto fail;
	}
	pthread_mutex_init(&z->lock, NULL);
	pthread_cond_init(&z->cond, NULL);
	/* The helper takes no signal: the program's handlers run on its own threads. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&z->thread, NULL, inflater, z);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		snprintf(err, errlen, "cannot start a thread: %s", strerror(rc));
		inflateEnd(&z->zs);
		goto fail;
	}
	return z;
fail:
	for (int i = 0; i < z->nfree; i++)
		free(z->free_bufs[i]);
	free(z->zin);
	free(z);
	return NULL;
}

void chrome_inflate_stop(struct chrome_inflate *z)
{
	if (!z)
		return;
	pthread_mutex_lock(&z->lock);
	z->stop = 1;
	pthread_cond_broadcast(&z->cond);
	pthread_mutex_unlock(&z->lock);
	pthread_join(z->thread, NULL);
	inflateEnd(&z->zs);
	for (int i = 0; i < z->nfree; i++)
		free(z->free_bufs[i]);
	for (int i = 0; i < z->nfull; i++)
		free(z->full[(z->head + i) % NBUF]);
	free(z->cur);
	free(z->zin);
	pthread_mutex_destroy(&z->lock);
	pthread_cond_destroy(&z->cond);
	free(z);
}

/* outfile.c — output files for the analyzer.  Plain files are written as buffers fill; a
 * gzip file is compressed by a helper thread, so that deflate (the slowest part of writing
 * a .json.gz) runs beside the formatting instead of after it.  A file may be put aside and
 * taken up again (a part of a split trace that something comes to late): its descriptor,
 * buffers and compressor go; a gzip file stays one gzip member (its deflate stream is
 * flushed to a byte boundary and a new one goes on after it, as zlib's gzappend example
 * does: readers that stop after a file's first member read it whole).  Where the bytes go
 * until the file is complete is outname.c's. */
#include "outfile.h"
#include "handoff.h"
#include "outname.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../common/xalloc.h"

#define ZOUT (64u << 10)

struct outfile {
	struct outname *name;
	FILE *f;                /* a plain file */
	int gzip;
	int err;                /* the first write's error (errno; EIO when none was said) */
	size_t cap;
	/* gzip only: the file, its deflate stream and what the member's trailer needs */
	int fd;
	z_stream z;
	unsigned char *zout;
	uint32_t crc;
	uint32_t isize;         /* the bytes compressed, modulo 2^32 (RFC 1952) */
	/* gzip only: the compressor thread and the two buffers it shares with the caller */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *pending;          /* handed over, not yet compressed */
	size_t pending_len;
	char *spare;            /* compressed, free for the caller */
	int done;
	int away;               /* put aside (outfile_suspend), not taken up again */
};

static void write_all(struct outfile *of, const unsigned char *b, size_t n)
{
	while (n && !of->err) {
		ssize_t k = write(of->fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			of->err = k < 0 && errno ? errno : EIO;
			return;
		}
		b += k;
		n -= (size_t)k;
	}
}

/* n bytes of b through deflate, to the file; flush: Z_NO_FLUSH, Z_SYNC_FLUSH (all of it out,
 * ending on a byte boundary) or Z_FINISH (the stream's last block). */
static void deflate_out(struct outfile *of, const char *b, size_t n, int flush)
{
	do {
		uInt in = n > (1u << 30) ? 1u << 30 : (uInt)n;
		if (in) {
			of->crc = (uint32_t)crc32(of->crc, (const Bytef *)b, in);
			of->isize += (uint32_t)in;
		}
		of->z.next_in = (Bytef *)b;
		of->z.avail_in = in;
		int rc;
		do {
			of->z.next_out = of->zout;
			of->z.avail_out = ZOUT;
			rc = deflate(&of->z, in == n ? flush : Z_NO_FLUSH);
			write_all(of, of->zout, ZOUT - of->z.avail_out);
		} while (of->z.avail_out == 0 && rc != Z_STREAM_ERROR);
		b += in;
		n -= in;
	} while (n);
}

static void *compressor(void *arg)
{
	struct outfile *of = arg;
	pthread_mutex_lock(&of->lock);
	for (;;) {
		while (!of->pending && !of->done)
			pthread_cond_wait(&of->cond, &of->lock);
		if (!of->pending)
			break;
		char *b = of->pending;
		size_t n = of->pending_len;
		pthread_mutex_unlock(&of->lock);
		deflate_out(of, b, n, Z_NO_FLUSH);
		pthread_mutex_lock(&of->lock);
		of->pending = NULL;
		of->spare = b;
		pthread_cond_broadcast(&of->cond);
	}
	pthread_mutex_unlock(&of->lock);
	return NULL;
}

/* A raw deflate stream (the member's header is written once, its trailer at the end) and
 * the thread that feeds it. */
static int start_gzip(struct outfile *of)
{
	memset(&of->z, 0, sizeof(of->z));
	if (deflateInit2(&of->z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	of->zout = xmalloc(ZOUT);
	of->spare = xmalloc(of->cap);
	of->pending = NULL;
	of->done = 0;
	pthread_mutex_init(&of->lock, NULL);
	pthread_cond_init(&of->cond, NULL);
	if (pthread_create(&of->thread, NULL, compressor, of) != 0) {
		deflateEnd(&of->z);
		free(of->zout);
		free(of->spare);
		of->zout = NULL;
		of->spare = NULL;
		pthread_mutex_destroy(&of->lock);
		pthread_cond_destroy(&of->cond);
		return -1;
	}
	handoff_busy(1);
	return 0;
}

/* The thread stopped, the stream flushed (Z_SYNC_FLUSH: to go on later) or finished. */
static void stop_gzip(struct outfile *of, int flush)
{
	pthread_mutex_lock(&of->lock);
	of->done = 1;
	pthread_cond_broadcast(&of->cond);
	pthread_mutex_unlock(&of->lock);
	pthread_join(of->thread, NULL);
	handoff_busy(-1);
	pthread_mutex_destroy(&of->lock);
	pthread_cond_destroy(&of->cond);
	deflate_out(of, NULL, 0, flush);
	deflateEnd(&of->z);
	free(of->zout);
	free(of->spare);
	of->zout = NULL;
	of->spare = NULL;
}

static int ends_with_gz(const char *p)
{
	size_t n = strlen(p);
	return n > 3 && !strcmp(p + n - 3, ".gz");
}

struct outfile *outfile_open(const char *path, const struct out_format *fmt, size_t cap,
			     char **buf)
{
	static const unsigned char header[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3 };
	struct outfile *of = xcalloc(1, sizeof(*of));
	*buf = xmalloc(cap);
	of->cap = cap;
	of->fd = -1;
	if (!(of->name = outname_begin(path, fmt, &of->fd)))
		goto fail;
	if (strcmp(path, "-") && ends_with_gz(path)) {
		of->gzip = 1;
		write_all(of, header, sizeof(header));
		if (of->err || start_gzip(of) < 0)
			goto fail;
	} else if (!(of->f = fdopen(of->fd, "w"))) {
		goto fail;
	}
	return of;
fail:
	if (of->fd >= 0 && !of->f)
		close(of->fd);
	if (of->name)
		outname_end(of->name, 0, of->err ? of->err : errno);
	free(of);
	free(*buf);
	*buf = NULL;
	return NULL;
}

static void write_plain(struct outfile *of, const char *buf, size_t len)
{
	if (!of->err && fwrite(buf, 1, len, of->f) != len)
		of->err = errno ? errno : EIO;
}

char *outfile_swap(struct outfile *of, char *buf, size_t len)
{
	if (of->away)           /* could not be taken up again: failed already */
		return buf;
	if (!of->gzip) {
		write_plain(of, buf, len);
		return buf;
	}
	pthread_mutex_lock(&of->lock);
	while (of->pending || !of->spare)
		pthread_cond_wait(&of->cond, &of->lock);
	of->pending = buf;
	of->pending_len = len;
	char *next = of->spare;
	of->spare = NULL;
	pthread_cond_broadcast(&of->cond);
	pthread_mutex_unlock(&of->lock);
	return next;
}

void outfile_suspend(struct outfile *of, char *buf, size_t len)
{
	if (len)
		buf = outfile_swap(of, buf, len);
	free(buf);
	if (of->away)
		return;
	if (of->gzip) {
		stop_gzip(of, Z_SYNC_FLUSH);
		if (close(of->fd) != 0 && !of->err)
			of->err = errno ? errno : EIO;
	} else if (fclose(of->f) != 0 && !of->err) {
		of->err = errno ? errno : EIO;
	}
	of->f = NULL;
	of->fd = -1;
	of->away = 1;
}

char *outfile_resume(struct outfile *of)
{
	if (of->away && !of->err) {
		of->fd = open(outname_path(of->name), O_WRONLY | O_APPEND | O_CLOEXEC);
		if (of->fd >= 0 && (of->gzip ? start_gzip(of) == 0
					     : (of->f = fdopen(of->fd, "a")) != NULL))
			of->away = 0;
		else if (!of->err)
			of->err = errno ? errno : EIO;
		if (of->away && of->fd >= 0)
			close(of->fd);
	}
	return xmalloc(of->cap);
}

int outfile_close(struct outfile *of, char *buf, size_t len, int keep)
{
	if (of->away) {                 /* put aside, and could not be taken up again */
		free(buf);
		if (!of->err)
			of->err = EIO;
	} else {
		if (len && keep)
			buf = outfile_swap(of, buf, len);
		free(buf);
		if (of->gzip) {
			stop_gzip(of, keep ? Z_FINISH : Z_SYNC_FLUSH);
			unsigned char t[8];
			for (int i = 0; i < 4; i++) {
				t[i] = (unsigned char)(of->crc >> (8 * i));
				t[4 + i] = (unsigned char)(of->isize >> (8 * i));
			}
			if (keep)
				write_all(of, t, sizeof(t));
			if (close(of->fd) != 0 && !of->err)
				of->err = errno ? errno : EIO;
		} else if (fclose(of->f) != 0 && !of->err) {
			of->err = errno ? errno : EIO;
		}
	}
	int rc = outname_end(of->name, keep && !of->err, of->err);
	free(of);
	return rc;
}

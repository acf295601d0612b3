/* outfile.c — output files for the analyzer.  Plain files are written as buffers fill; a
 * gzip file is compressed by a helper thread, so that deflate (the slowest part of writing
 * a .json.gz) runs beside the formatting instead of after it.  Where the bytes go until the
 * file is complete is outname.c's. */
#include "outfile.h"
#include "handoff.h"
#include "outname.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../../common/xalloc.h"

struct outfile {
	struct outname *name;
	FILE *f;
	gzFile gz;
	int err;                /* the first write's error (errno; EIO when none was said) */
	size_t cap;
	/* gzip only: the compressor thread and the two buffers it shares with the caller */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *pending;          /* handed over, not yet compressed */
	size_t pending_len;
	char *spare;            /* compressed, free for the caller */
	int done;
};

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
		int bad = gzwrite(of->gz, b, (unsigned)n) != (int)n;
		int err = errno;
		pthread_mutex_lock(&of->lock);
		if (bad && !of->err)
			of->err = err ? err : EIO;
		of->pending = NULL;
		of->spare = b;
		pthread_cond_broadcast(&of->cond);
	}
	pthread_mutex_unlock(&of->lock);
	return NULL;
}

static int start_gzip(struct outfile *of, int fd)
{
	of->gz = gzdopen(fd, "wb1");
	of->spare = malloc(of->cap);
	if (!of->gz || !of->spare)
		return -1;
	pthread_mutex_init(&of->lock, NULL);
	pthread_cond_init(&of->cond, NULL);
	if (pthread_create(&of->thread, NULL, compressor, of) != 0)
		return -1;
	handoff_busy(1);
	return 0;
}

static int ends_with_gz(const char *p)
{
	size_t n = strlen(p);
	return n > 3 && !strcmp(p + n - 3, ".gz");
}

struct outfile *outfile_open(const char *path, const struct out_format *fmt, size_t cap,
			     char **buf)
{
	struct outfile *of = xcalloc(1, sizeof(*of));
	*buf = xmalloc(cap);
	of->cap = cap;
	int fd;
	if (!(of->name = outname_begin(path, fmt, &fd)))
		goto fail;
	if (strcmp(path, "-") && ends_with_gz(path)) {
		if (start_gzip(of, fd) < 0) {
			if (!of->gz)
				close(fd);
			goto fail;
		}
	} else if (!(of->f = fdopen(fd, "w"))) {
		close(fd);
		goto fail;
	}
	return of;
fail:
	if (of->gz)
		gzclose(of->gz);
	if (of->name)
		outname_end(of->name, 0, errno);
	free(of->spare);
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
	if (!of->gz) {
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

int outfile_close(struct outfile *of, char *buf, size_t len, int keep)
{
	if (len && keep)
		buf = outfile_swap(of, buf, len);
	if (of->gz) {
		pthread_mutex_lock(&of->lock);
		of->done = 1;
		pthread_cond_broadcast(&of->cond);
		pthread_mutex_unlock(&of->lock);
		pthread_join(of->thread, NULL);
		handoff_busy(-1);
		if (gzclose(of->gz) != Z_OK && !of->err)
			of->err = errno ? errno : EIO;
		free(of->spare);
	} else if (fclose(of->f) != 0 && !of->err) {
		of->err = errno ? errno : EIO;
	}
	int rc = outname_end(of->name, keep && !of->err, of->err);
	free(buf);
	free(of);
	return rc;
}

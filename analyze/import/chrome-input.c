/* chrome-input.c — chrome-input.h: read(2), or zlib's inflate over read(2) for gzip, so that
 * the output made before a damaged spot comes out before the error (gzread would drop it). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "chrome-input.h"

#define ZIN (256 * 1024)

struct chrome_input {
	int fd;
	int gz;                 /* inflating */
	z_stream zs;
	unsigned char *zin;
	uint64_t zread;         /* compressed bytes read */
	int member_end;         /* a gzip member ended: another may follow */
	int failed;             /* an error waits for the next call */
	char msg[200];
};

static ssize_t read_fd(struct chrome_input *in, void *to, size_t n)
{
	for (;;) {
		ssize_t r = read(in->fd, to, n);
		if (r >= 0)
			return r;
		if (errno != EINTR) {
			snprintf(in->msg, sizeof(in->msg), "cannot read: %s", strerror(errno));
			return -1;
		}
	}
}

/* More compressed input: 1, 0 at the end of the file, -1 on an error. */
static int refill(struct chrome_input *in)
{
	ssize_t r = read_fd(in, in->zin, ZIN);
	if (r <= 0)
		return (int)r;
	in->zs.next_in = in->zin;
	in->zs.avail_in = (uInt)r;
	in->zread += (uint64_t)r;
	return 1;
}

static void gz_failed(struct chrome_input *in, const char *what)
{
	snprintf(in->msg, sizeof(in->msg), "bad gzip stream at compressed offset %" PRIu64 ": %s",
		 in->zread - in->zs.avail_in, what);
	in->failed = 1;
}

/* One step of inflate: 0 to go on, 1 at the end of the input, -1 on damage. */
static int inflate_step(struct chrome_input *in)
{
	if (!in->zs.avail_in) {
		int r = refill(in);
		if (r < 0) {
			in->failed = 1;
			return -1;
		}
		if (r == 0) {
			if (in->member_end)
				return 1;
			snprintf(in->msg, sizeof(in->msg), "the gzip stream is cut short (at compressed "
				 "offset %" PRIu64 ")", in->zread);
			in->failed = 1;
			return -1;
		}
	}
	if (in->member_end) {
		/* Another member, or bytes that are not gzip after the last (ignored, as gzip does). */
		if (in->zs.next_in[0] != 0x1f)
			return 1;
		inflateReset(&in->zs);
		in->member_end = 0;
	}
	int rc = inflate(&in->zs, Z_NO_FLUSH);
	if (rc == Z_STREAM_END)
		in->member_end = 1;
	else if (rc != Z_OK && rc != Z_BUF_ERROR) {
		gz_failed(in, in->zs.msg ? in->zs.msg : "inflate failed");
		return -1;
	}
	return 0;
}

ssize_t chrome_input_read(struct chrome_input *in, void *to, size_t n)
{
	if (in->failed)
		return -1;
	if (!in->gz)
		return read_fd(in, to, n);
	if (n > 1u << 30)
		n = 1u << 30;
	in->zs.next_out = to;
	in->zs.avail_out = (uInt)n;
	while (in->zs.avail_out == n) {
		int r = inflate_step(in);
		if (r)
			return in->zs.avail_out < n ? (ssize_t)(n - in->zs.avail_out) : r > 0 ? 0 : -1;
	}
	return (ssize_t)(n - in->zs.avail_out);
}

struct chrome_input *chrome_input_open(const char *path, char *err, size_t errlen)
{
	unsigned char magic[2];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open: %s", strerror(errno));
		return NULL;
	}
	ssize_t n = pread(fd, magic, 2, 0);
	if (n < 0) {
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
		close(fd);
		return NULL;
	}
	struct chrome_input *in = calloc(1, sizeof(*in));
	if (!in)
		abort();
	in->fd = fd;
	if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		in->gz = 1;
		in->zin = malloc(ZIN);
		/* 16 + MAX_WBITS: a gzip header and trailer around the deflate stream. */
		if (!in->zin || inflateInit2(&in->zs, 16 + MAX_WBITS) != Z_OK) {
			snprintf(err, errlen, "cannot set up inflate");
			free(in->zin);
			close(fd);
			free(in);
			return NULL;
		}
	}
	return in;
}

const char *chrome_input_error(const struct chrome_input *in)
{
	return in->msg;
}

void chrome_input_close(struct chrome_input *in)
{
	if (!in)
		return;
	if (in->gz) {
		inflateEnd(&in->zs);
		free(in->zin);
	}
	close(in->fd);
	free(in);
}

/* chrome-input.c — chrome-input.h: read(2) for a plain file; a gzip file (by its first two
 * bytes) through chrome-inflate.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/xalloc.h"
#include "chrome-inflate.h"
#include "chrome-input.h"

struct chrome_input {
	int fd;
	struct chrome_inflate *z;       /* NULL: a plain file */
	char msg[200];
};

ssize_t chrome_input_read(struct chrome_input *in, void *to, size_t n)
{
	if (in->z)
		return chrome_inflate_read(in->z, to, n);
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
	struct chrome_input *in = xcalloc(1, sizeof(*in));
	in->fd = fd;
	int gz = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	if (gz && !(in->z = chrome_inflate_start(fd, err, errlen))) {
		close(fd);
		free(in);
		return NULL;
	}
	return in;
}

const char *chrome_input_error(const struct chrome_input *in)
{
	return in->z ? chrome_inflate_error(in->z) : in->msg;
}

void chrome_input_close(struct chrome_input *in)
{
	if (!in)
		return;
	chrome_inflate_stop(in->z);
	close(in->fd);
	free(in);
}

/* import/send.c — an imported file as the parallel analyzer sends it from the analysis
 * process that read it to the one that reads its home process (import.c): what the transcoder
 * found (transcode.h's struct imp_file: its kind of time, its steps, its images' places and
 * pids, its fixes) and the bytes of its images, which the receiver writes into a file of its
 * own scratch directory and reads as if it had made them. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/xalloc.h"
#include "../util/pack.h"
#include "send.h"

static void pack_fixes(struct pack *b, const struct imp_fixes *x)
{
	for (int i = 0; i < IMP_FIX_N; i++) {
		pack_u64(b, x->n[i]);
		pack_u64(b, x->offset[i]);
		pack_name(b, x->file[i]);
	}
}

static void unpack_fixes(struct unpack *u, struct imp_fixes *x)
{
	for (int i = 0; i < IMP_FIX_N; i++) {
		x->n[i] = unpack_u64(u);
		x->offset[i] = unpack_u64(u);
		x->file[i] = unpack_name(u);
	}
}

int imp_send_pack(struct pack *b, uint64_t index, const struct imp_file *f)
{
	int fd = open(f->pack, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	off_t size = lseek(fd, 0, SEEK_END);
	char *bytes = size > 0 ? xmalloc((size_t)size) : NULL;
	ssize_t got = size > 0 ? pread(fd, bytes, (size_t)size, 0) : 0;
	close(fd);
	if (size < 0 || got != size) {
		free(bytes);
		return -1;
	}
	pack_u64(b, index);
	pack_str(b, f->source);
	pack_str(b, f->host ? f->host : "");
	pack_u64(b, f->host != NULL);
	const int64_t v[] = { f->rank, f->tprof_pid, f->time, f->base_ns, f->has_hint, f->hint_ns,
			      f->first_ns, f->last_ns, (int64_t)f->events, f->failed };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		pack_i64(b, v[i]);
	pack_fixes(b, &f->fixes);
	pack_u64(b, f->nimages);
	for (size_t i = 0; i < f->nimages; i++) {
		const struct imp_image *im = &f->images[i];
		pack_u64(b, im->offset);
		pack_u64(b, im->size);
		pack_i64(b, im->pid);
		pack_u64(b, im->pid_str != NULL);
		pack_str(b, im->pid_str);
		pack_u64(b, im->events);
		pack_u64(b, im->nsteps);
		pack_bytes(b, im->steps, im->nsteps * sizeof(*im->steps));
	}
	pack_u64(b, (uint64_t)size);
	pack_bytes(b, bytes, (size_t)size);
	free(bytes);
	return 0;
}

int imp_send_unpack(struct unpack *u, const char *scratch, uint64_t *index, struct imp_file *f)
{
	memset(f, 0, sizeof(*f));
	*index = unpack_u64(u);
	f->source = unpack_strdup(u);
	char *host = unpack_strdup(u);
	if (unpack_u64(u))
		f->host = host;
	else
		free(host);
	int64_t *const v[] = { &f->rank, &f->tprof_pid, NULL, &f->base_ns, NULL, &f->hint_ns,
			       &f->first_ns, &f->last_ns, NULL, NULL };
	int64_t got[sizeof(v) / sizeof(v[0])];
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		got[i] = unpack_i64(u);
		if (v[i])
			*v[i] = got[i];
	}
	f->time = (enum imp_time)got[2];
	f->has_hint = (int)got[4];
	f->events = (uint64_t)got[8];
	f->failed = (int)got[9];
	unpack_fixes(u, &f->fixes);
	f->nimages = unpack_count(u, 7 * sizeof(uint64_t));
	f->images = xcalloc(f->nimages ? f->nimages : 1, sizeof(*f->images));
	for (size_t i = 0; i < f->nimages; i++) {
		struct imp_image *im = &f->images[i];
		im->offset = unpack_u64(u);
		im->size = unpack_u64(u);
		im->pid = unpack_i64(u);
		int has_str = unpack_u64(u) != 0;
		char *s = unpack_strdup(u);
		if (has_str)
			im->pid_str = s;
		else
			free(s);
		im->events = unpack_u64(u);
		im->nsteps = unpack_count(u, sizeof(*im->steps));
		im->steps = xcalloc(im->nsteps ? im->nsteps : 1, sizeof(*im->steps));
		unpack_bytes(u, im->steps, im->nsteps * sizeof(*im->steps));
	}
	size_t size = unpack_count(u, 1);
	if (u->short_read || (size_t)(u->end - u->at) < size)
		return -1;
	f->pack = xasprintf("%s/received-%llu", scratch, (unsigned long long)*index);
	int fd = open(f->pack, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = fd < 0 ? -1 : 0;
	for (size_t done = 0; !rc && done < size;) {
		ssize_t n = write(fd, u->at + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = -1;
		else
			done += (size_t)n;
	}
	if (fd >= 0 && close(fd) < 0)
		rc = -1;
	u->at += size;
	return rc;
}

/* spool-check.c — reads a spool's buffer headers: a buffer whose first unit past `flushed`
 * is empty holds nothing the chunk file lacks.  Used to tidy an output directory after the
 * processes that wrote it have ended. */
#include "spool-check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chunk.h"
#include "format.h"
#include "real-libc.h"

static int settled(int fd, uint64_t size)
{
	struct tprof_spool_header h;
	if (pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || tprof_spool_header_check(&h))
		return -1;
	for (uint64_t off = TPROF_SPOOL_HEADER_SIZE; off + h.slot_bytes <= size; off += h.slot_bytes) {
		struct tprof_slot_header sh;
		struct tprof_rec r;
		if (pread(fd, &sh, sizeof(sh), (off_t)off) != (ssize_t)sizeof(sh) ||
		    sh.magic != TPROF_SLOT_MAGIC)
			return 0;
		if (sh.state == TPROF_SLOT_FREE || sh.flushed >= sh.capacity)
			continue;
		uint64_t at = off + TPROF_SLOT_HEADER_SIZE + (uint64_t)sh.flushed * TPROF_UNIT;
		if (pread(fd, &r, sizeof(r), (off_t)at) != (ssize_t)sizeof(r) || r.kind != 0)
			return 0;
	}
	return 1;
}

int tprof_spool_settled(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	int rc = fstat(fd, &st) == 0 ? settled(fd, (uint64_t)st.st_size) : -1;
	tprof_real_close(fd);
	return rc;
}

/* spool-reserve.c — reserving a spool's blocks before they are mapped (spool-reserve.h). */
#include "spool-reserve.h"

#include <errno.h>
#include <fcntl.h>

int tprof_spool_reserve(int fd, uint64_t off, uint64_t len)
{
	if (fallocate(fd, 0, (off_t)off, (off_t)len) == 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != ENOSYS)
		return -1;
	int rc = posix_fallocate(fd, (off_t)off, (off_t)len);
	if (rc) {
		errno = rc;
		return -1;
	}
	return 0;
}

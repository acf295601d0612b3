/* writev-all.h — writing a chunk (header and payload) whole: the recorder's chunk files and
 * the sampler's system image append the same way. */
#ifndef TPROF_WRITEV_ALL_H
#define TPROF_WRITEV_ALL_H

#include <sys/uio.h>

/* Writes all of iov[0..n) to fd, again after EINTR and short writes (it advances iov).
 * 0, or -1 with errno (ENOSPC when the file takes no more). */
int tprof_writev_all(int fd, struct iovec *iov, int n);

#endif

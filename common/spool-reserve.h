/* spool-reserve.h — growing a spool file (docs/FORMAT.md §7; spool-reserve.c): slots are
 * added at its end with their blocks reserved before they are mapped, so that a full disk is
 * an error when a slot is taken and never a SIGBUS when it is written.  The recorder's spool
 * (preload/spool/spool.c) and a written image's (imgwrite.c) grow this way. */
#ifndef TPROF_COMMON_SPOOL_RESERVE_H
#define TPROF_COMMON_SPOOL_RESERVE_H

#include <stdint.h>

/* The blocks of bytes [off, off + len) of file fd allocated now (fallocate, or
 * posix_fallocate where the file system has none): 0, or -1 with errno (ENOSPC: a full
 * disk).  The caller then maps them shared. */
int tprof_spool_reserve(int fd, uint64_t off, uint64_t len);

#endif

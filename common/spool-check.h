/* spool-check.h — whether a spool still holds anything its chunk file lacks. */
#ifndef TPROF_SPOOL_CHECK_H
#define TPROF_SPOOL_CHECK_H

/* 1 when every record in the spool at path is also in its chunk file (the spool can go),
 * 0 when some are not, -1 when the spool cannot be read or is not a spool. */
int tprof_spool_settled(const char *path);

#endif

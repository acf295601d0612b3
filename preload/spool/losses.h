/* losses.h — what losses.c gives the rest of the recorder: where what is lost is counted
 * (the loss table, format.h). */
#ifndef TPROF_LOSSES_H
#define TPROF_LOSSES_H

#include "../core/core.h"

void tprof_losses_page(void *header_page);  /* an empty table in a spool header being made */
void tprof_losses_map(int spool_fd);        /* the spool exists: its table counts */
void tprof_losses_fork_child(void);         /* the parent's table becomes the ancestor's */
void tprof_losses_no_files(void);           /* the image could not create its files */
void tprof_losses_count(struct tprof_thread *t, unsigned reason, uint64_t n);
int tprof_losses_keep(void);                /* the spool must stay for its table */
void tprof_losses_exit(void);               /* the marker file's name gets the count */

#endif

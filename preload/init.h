/* init.h — what init.c, the recorder's loading and unloading, gives the rest of it: the
 * moments that involve every part. */
#ifndef TPROF_INIT_H
#define TPROF_INIT_H

void tprof_prepare_exec(void);          /* exec hooks: final pass, everything flushed */

#endif

/* startup.h — where the recorder keeps what every process start, fork and exit touches.  A
 * page fault costs more than all the constructor's instructions, and after a fork each page
 * that either side writes is copied, so that state is kept together, in as few pages of the
 * library as can be:
 *   TPROF_START_DATA  a variable a start, a fork or an exit writes (locks the fork handlers
 *                     take included): in section .tprof_start, which preload/startup.ld
 *                     places at the start of a page of its own, right before .bss, so that
 *                     it shares the page the loader writes anyway (it zeroes the rest of it
 *                     for .bss); it must stay within that page (func/t-start-layout.sh);
 *   TPROF_START_CODE  a function that runs at start, and rarely after: in .text.startup,
 *                     beside the constructors.
 * Outside the recorder they only place things; nothing depends on them.  Here too: how a fork
 * child makes the locks it inherited usable, writing only those that need it. */
#ifndef TPROF_STARTUP_H
#define TPROF_STARTUP_H

#include <pthread.h>
#include <string.h>

#define TPROF_START_DATA __attribute__((section(".tprof_start")))
#define TPROF_START_CODE __attribute__((section(".text.startup")))

/* In a fork child: a lock that another thread of the parent may have held at the fork made
 * usable again.  One that is as PTHREAD_MUTEX_INITIALIZER made it (never taken, or taken and
 * given back) is left alone: writing it would copy its page (or fault in a fresh one) in
 * every child, and a shell forks for every command it runs.  The others are given the
 * initializer's bytes, which is all that pthread_mutex_init(m, NULL) writes in glibc: no call
 * into libc, whose page of pthread_mutex_init a fork child would have to fault in.  The
 * initializer is a local, not a static constant: it is made on the stack, not read from a page
 * of constants that the child would fault in too. */
static inline void tprof_mutex_reset(pthread_mutex_t *m)
{
	const pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
	if (memcmp(m, &fresh, sizeof(fresh)))
		memcpy(m, &fresh, sizeof(fresh));
}

/* The same for a condition variable (one that a thread of the parent may have waited on). */
static inline void tprof_cond_reset(pthread_cond_t *c)
{
	const pthread_cond_t fresh = PTHREAD_COND_INITIALIZER;
	if (memcmp(c, &fresh, sizeof(fresh)))
		memcpy(c, &fresh, sizeof(fresh));
}

#endif

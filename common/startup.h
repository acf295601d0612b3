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
 * Outside the recorder they only place things; nothing depends on them. */
#ifndef TPROF_STARTUP_H
#define TPROF_STARTUP_H

#define TPROF_START_DATA __attribute__((section(".tprof_start")))
#define TPROF_START_CODE __attribute__((section(".text.startup")))

#endif

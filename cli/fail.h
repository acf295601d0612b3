/* fail.h — how tprof-inspect names itself in what it says, and how every part of it stops
 * before the command runs: one line on stderr and exit status EXIT_SETUP, so that every such
 * message reads alike and no status of the command's own is taken; also the one way its parts
 * set the command's environment, which stops so when it cannot. */
#ifndef TPROF_CLI_FAIL_H
#define TPROF_CLI_FAIL_H

#define PROG "tprof-inspect"
#define EXIT_SETUP 2            /* usage errors and anything that stops the command starting */

/* "tprof-inspect: <message>" on stderr, and exit EXIT_SETUP. */
void __attribute__((noreturn, format(printf, 1, 2))) inspect_fail(const char *fmt, ...);

/* Sets a variable of the command's environment, or stops (inspect_fail). */
void inspect_set_var(const char *name, const char *value);

#endif

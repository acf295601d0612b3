/* signal-name.h — a signal as a user names it on the command line (signal-name.c). */
#ifndef TPROF_CLI_SIGNAL_NAME_H
#define TPROF_CLI_SIGNAL_NAME_H

/* The signal a name (USR1, SIGUSR1, usr1) or number gives, 0 when none does. */
int inspect_signal_of(const char *v);

#endif

/* signal-name.c — a signal as a user names it on the command line: --capture-signal and
 * --hang-action signal:SIG read it alike. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "signal-name.h"

int inspect_signal_of(const char *v)
{
	const char *name = strncasecmp(v, "SIG", 3) ? v : v + 3;
	char *end;
	long n = strtol(v, &end, 10);
	if (*v >= '0' && *v <= '9' && !*end)
		return n > 0 && n < NSIG ? (int)n : 0;
	for (int s = 1; s < NSIG; s++) {
		const char *abbrev = sigabbrev_np(s);
		if (abbrev && !strcasecmp(abbrev, name))
			return s;
	}
	return 0;
}

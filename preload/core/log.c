/* log.c — the profiler's messages: one line each on stderr, "tprof[pid]: ...", written with a
 * single write(2) so that lines from many processes do not interleave (common/ownfd.h: also
 * from the sampler's thread, whose descriptors are not the program's). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "../../common/ownfd.h"
#include "core.h"

static void vlog(const char *level, const char *fmt, va_list ap)
{
	char buf[1024];
	int saved = errno;
	int n = snprintf(buf, sizeof(buf), "tprof[%d]: %s", (int)getpid(), level);
	if (n < 0 || (size_t)n >= sizeof(buf))
		n = 0;
	int m = vsnprintf(buf + n, sizeof(buf) - (size_t)n - 1, fmt, ap);
	if (m < 0)
		m = 0;
	n += m;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	tprof_fd_write_stderr(buf, (size_t)n);
	errno = saved;
}

void tprof_log_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void tprof_log_info(const char *fmt, ...)
{
	if (tprof_g.cfg.verbose < 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog("", fmt, ap);
	va_end(ap);
}

void tprof_log_debug(const char *fmt, ...)
{
	if (tprof_g.cfg.verbose < 2)
		return;
	va_list ap;
	va_start(ap, fmt);
	vlog("debug: ", fmt, ap);
	va_end(ap);
}

/* reasons.c — what the loader says when it cannot: the one-line reasons it gives its caller, the
 * checks of the kernel made before loading, and libbpf's own messages, silenced unless
 * TPROF_VERBOSE >= 2 (3 adds libbpf's debug messages). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "internal.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

static int verbosity;

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (verbosity < 2 || (level == LIBBPF_DEBUG && verbosity < 3))
		return 0;
	fputs("tprof: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

void tprof_bpf_quiet_libbpf(void)
{
	const char *v = getenv("TPROF_VERBOSE");

	verbosity = v ? atoi(v) : 0;
	libbpf_set_print(print_libbpf);
}

/* The ring buffer and its queries need Linux 5.8; the programs need the kernel's BTF. */
int tprof_bpf_kernel_ready(char *why, size_t whylen)
{
	struct utsname u;
	unsigned major = 0, minor = 0;

	if (uname(&u) == 0 && sscanf(u.release, "%u.%u", &major, &minor) == 2 &&
	    (major < 5 || (major == 5 && minor < 8))) {
		snprintf(why, whylen, "the kernel is too old for BPF sampling (%s; 5.8 or later "
			 "needed)", u.release);
		return 0;
	}
	if (access(VMLINUX_BTF, R_OK) != 0) {
		snprintf(why, whylen, "the kernel has no BTF (%s: %s; needs a kernel built with "
			 "CONFIG_DEBUG_INFO_BTF)", VMLINUX_BTF, strerror(errno));
		return 0;
	}
	return 1;
}

/* EACCES from the verifier is a program it refused, not a lack of privileges. */
void tprof_bpf_say_error(int err, int verifier, const char *doing, char *why, size_t whylen)
{
	if (err < 0)
		err = -err;
	if (err == EPERM || (err == EACCES && !verifier))
		snprintf(why, whylen, "not permitted to load BPF programs (needs root, or "
			 "CAP_BPF and CAP_PERFMON)");
	else
		snprintf(why, whylen, "%s failed: %s%s", doing, strerror(err),
			 verbosity >= 2 ? "" : " (TPROF_VERBOSE=2 shows libbpf's messages)");
}

/* driver.c — the scratch directory of a fuzz target (in /dev/shm when there is one, so that
 * no input touches a disk; TMPDIR too) and the call of tprof-analyze's main on what is in
 * it. */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"

int tprof_analyze_main(int argc, char **argv);

static char scratch[256];

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag;
	if (f->level > 0 || !strcmp(p, scratch))
		remove(p);
	return 0;
}

static void remove_scratch(void)
{
	nftw(scratch, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *dir(void)
{
	if (!*scratch) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
		snprintf(scratch, sizeof(scratch), "%s/tprof-fuzz.%d.XXXXXX", base ? base : "/tmp",
			 (int)getpid());
		if (!mkdtemp(scratch))
			abort();
		atexit(remove_scratch);
		setenv("TMPDIR", scratch, 1);   /* the import's scratch directories too */
	}
	return scratch;
}

char *fuzz_path(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", dir(), name);
	return buf;
}

static int clear_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag;
	if (f->level > 0)
		remove(p);
	return 0;
}

void fuzz_clear(void)
{
	nftw(dir(), clear_one, 16, FTW_DEPTH | FTW_PHYS);
}

void fuzz_write(const char *name, const uint8_t *data, size_t n)
{
	char p[512];
	fuzz_path(p, sizeof(p), name);
	char *slash = strrchr(p, '/');
	*slash = 0;
	if (mkdir(p, 0700) < 0 && errno != EEXIST)
		abort();
	*slash = '/';
	FILE *f = fopen(p, "wb");
	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
		abort();
}

int fuzz_analyze(const char *arg, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	argv[argc++] = (char *)"tprof-analyze";
	va_start(ap, arg);
	for (const char *a = arg; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	optind = 0;             /* getopt starts afresh */
	return tprof_analyze_main(argc, argv);
}

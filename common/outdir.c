/* outdir.c — the output directory made and checked, and the modes of what goes in it
 * (outdir.h). */
#include "outdir.h"
#include "startup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int group_readable TPROF_START_DATA;

TPROF_START_CODE void tprof_private_group(int readable)
{
	group_readable = readable;
}

mode_t tprof_file_mode(void)
{
	return group_readable ? 0640 : 0600;
}

mode_t tprof_dir_mode(void)
{
	return group_readable ? 0750 : 0700;
}

/* One directory, fine if it is there already. */
static int make_one(const char *path)
{
	struct stat st;
	if (!mkdir(path, tprof_dir_mode()))
		return 0;
	int err = errno;
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return 0;
	errno = err == EEXIST ? ENOTDIR : err;
	return -1;
}

int tprof_outdir_make(const char *dir)
{
	char *p = strdup(dir);
	int r = 0;
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	for (char *s = p + 1; *s && !r; s++) {
		if (*s != '/' || s[-1] == '/')
			continue;
		*s = '\0';
		r = make_one(p);
		*s = '/';
	}
	if (!r)
		r = make_one(p);
	int err = errno;
	free(p);
	errno = err;
	return r;
}

int tprof_outdir_check(const char *dir, char *why, size_t whylen)
{
	struct stat st;
	uid_t me = geteuid();
	if (stat(dir, &st)) {
		snprintf(why, whylen, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "not a directory");
		return -1;
	}
	if (st.st_uid != me && st.st_uid != 0) {
		snprintf(why, whylen, "owned by uid %u (not by you, uid %u, or root)",
			 (unsigned)st.st_uid, (unsigned)me);
		return -1;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		snprintf(why, whylen, "writable by %s and not sticky (mode %04o)",
			 st.st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

int tprof_outdir_prepare(const char *dir, char *why, size_t whylen)
{
	if (tprof_outdir_make(dir)) {
		snprintf(why, whylen, "cannot create it: %s", strerror(errno));
		return -1;
	}
	return tprof_outdir_check(dir, why, whylen);
}

/* outdir.h — where profiles go, and how private they are.  Files are created 0600 and
 * directories 0700 (0640 and 0750 when widened for the group: TPROF_GROUP_READABLE=1, or
 * tprof-inspect --group-readable), since a profile holds the command line, the working
 * directory and the paths of the program.  An output directory is used only when it is the
 * caller's (or root's) and neither its group nor others may write to it, unless it is sticky
 * (as /tmp): the checks ssh makes of a user's files.  Reached through a symbolic link, the
 * directory it leads to is the one checked.  One check for the recorder, the program's own
 * system profile and tprof-inspect. */
#ifndef TPROF_OUTDIR_H
#define TPROF_OUTDIR_H

#include <stddef.h>
#include <sys/types.h>

/* Widens the modes below for the group (readable, never writable).  Once, at start. */
void tprof_private_group(int readable);
mode_t tprof_file_mode(void);   /* 0600, or 0640 */
mode_t tprof_dir_mode(void);    /* 0700, or 0750 */

/* dir and its missing parents, made with tprof_dir_mode(); 0, or -1 and errno (ENOTDIR when
 * a part of it is there but not a directory). */
int tprof_outdir_make(const char *dir);
/* Whether profiles may be written into dir: 0, or -1 and the reason in why ("owned by uid 5
 * (not by you, uid 1000, or root)"). */
int tprof_outdir_check(const char *dir, char *why, size_t whylen);
/* Made if missing, then checked: 0, or -1 and the reason in why. */
int tprof_outdir_prepare(const char *dir, char *why, size_t whylen);

#endif

/* test-spool-progress.c — what tprof-inspect --hang-report takes for a process getting on
 * (common/spool-progress.h), on spools written as a running recorder leaves them: a record
 * appended, a call returning and a thread's new buffer are progress; the same buffer looked
 * at again, another unsuccessful poll counted in a run, the process's own stream (its clock
 * sample every second) are not; a removed spool is said; a damaged slot is read within its
 * bounds; a file that is no spool is refused. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/events.h"
#include "../../common/format.h"
#include "../../common/spool-progress.h"
#include "tap.h"
#include "writer.h"

#define SLOT_UNITS 1024

/* Writes unit `at` of the only slot of the spool at path. */
static void put(const char *path, uint32_t at, const struct tprof_rec *r)
{
	int fd = open(path, O_WRONLY);
	off_t off = TPROF_SPOOL_HEADER_SIZE + TPROF_SLOT_HEADER_SIZE + (off_t)at * TPROF_UNIT;
	if (fd < 0 || pwrite(fd, r, sizeof(*r), off) != (ssize_t)sizeof(*r))
		abort();
	close(fd);
}

/* Sets the slot header's seq. */
static void set_seq(const char *path, uint32_t seq)
{
	int fd = open(path, O_WRONLY);
	off_t off = TPROF_SPOOL_HEADER_SIZE + offsetof(struct tprof_slot_header, seq);
	if (fd < 0 || pwrite(fd, &seq, sizeof(seq), off) != (ssize_t)sizeof(seq))
		abort();
	close(fd);
}

int main(void)
{
	char dir[] = "/tmp/tprof-spool-progress.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	char path[256], zero[256], junk[256];
	snprintf(path, sizeof(path), "%s/h.1.00000001.spool", dir);
	snprintf(zero, sizeof(zero), "%s/h.2.00000002.spool", dir);
	snprintf(junk, sizeof(junk), "%s/h.3.00000003.spool", dir);

	/* a thread's buffer: a range, then a call in progress */
	struct tprof_rec u[4] = { tw_rec(TPROF_K_PUSH, 1, 10, 0, 1),
				  tw_rec(TPROF_K_CALL, 2, 20, 0, 7) };
	u[1].ext = 1;   /* one argument unit, zero */
	tw_spool(path, 77, 1, 0, u, 3);
	struct spool_progress sp;
	ok(spool_progress_open(&sp, path) == 0, "a spool is opened");
	ok(spool_progress_poll(&sp) == 1, "the first look is progress");
	ok(spool_progress_poll(&sp) == 0, "the same buffer looked at again: none");

	struct tprof_rec done = u[1];
	done.t1 = 30;
	put(path, 1, &done);
	ok(spool_progress_poll(&sp) == 1, "the call in progress returned: progress");
	ok(spool_progress_poll(&sp) == 0, "and then none");

	struct tprof_rec poll = tw_rec(TPROF_K_POLL, 3, 40, 0, 0);
	poll.ext = 1;
	struct tprof_rec fn = { 0 };
	fn.t0 = 1;   /* a count in its argument unit */
	put(path, 3, &poll);
	put(path, 4, &fn);
	ok(spool_progress_poll(&sp) == 1, "a run of polls begun: progress");
	fn.t0 = 2;
	put(path, 4, &fn);
	ok(spool_progress_poll(&sp) == 0, "another unsuccessful poll counted in the run: none");

	set_seq(path, 1);
	ok(spool_progress_poll(&sp) == 1, "the slot holds the thread's next buffer: progress");

	unlink(path);
	ok(spool_progress_poll(&sp) == -1, "the spool removed (a clean exit): said");
	spool_progress_close(&sp);

	/* the process's own stream: its clock samples say nothing of progress */
	struct tprof_rec clk[2] = { tw_rec(TPROF_K_CLOCK, 0, 1, 2, 3) };
	clk[0].ext = 1;
	tw_spool(zero, 78, 0, 0, clk, 2);
	ok(spool_progress_open(&sp, zero) == 0 && spool_progress_poll(&sp) == 1,
	   "stream 0: the first look");
	struct tprof_rec clk2 = tw_rec(TPROF_K_CLOCK, 0, 4, 5, 6);
	put(zero, 2, &clk2);
	ok(spool_progress_poll(&sp) == 0, "a clock sample more in stream 0: none");
	spool_progress_close(&sp);

	/* a record whose units would run past the slot: read within it */
	struct tprof_rec bad = tw_rec(TPROF_K_CALL, 2, 20, 0, 7);
	bad.ext = 255;
	struct tprof_rec many[SLOT_UNITS - 100];
	memset(many, 0, sizeof(many));
	for (size_t i = 0; i + 1 < sizeof(many) / sizeof(many[0]); i++)
		many[i] = tw_rec(TPROF_K_MARK, 1, i, 0, 0);
	many[sizeof(many) / sizeof(many[0]) - 1] = bad;
	tw_spool(junk, 79, 5, 0, many, (uint32_t)(sizeof(many) / sizeof(many[0])));
	ok(spool_progress_open(&sp, junk) == 0 && spool_progress_poll(&sp) == 1 &&
	   spool_progress_poll(&sp) == 0, "a record past the slot's end: read up to it, no more");
	spool_progress_close(&sp);
	unlink(junk);

	int fd = open(junk, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ok(fd >= 0 && write(fd, "not a spool\n", 12) == 12, "a file that is no spool");
	close(fd);
	ok(spool_progress_open(&sp, junk) == -1, "is refused");
	unlink(junk);
	unlink(zero);
	rmdir(dir);
	return tap_done();
}

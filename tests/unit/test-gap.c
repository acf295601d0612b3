/* test-gap.c — where the GAP record of a record lost to a signal handler goes (spool/guard.c).
 * A handler that annotates while its thread is busy in the recorder loses that record; the
 * GAP record marking the place is written once the thread publishes the record it was
 * making: right after it when the buffer has room for two units, else first in the thread's
 * next buffer, before the next record.  Each case fills this thread's buffer to a given room,
 * loses one mark as a handler would (the thread busy) and looks at the records written.  The
 * recorder is compiled into this binary; it runs itself again with recording on. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tprof/tprof.h>

#include "../../preload/spool/buffer.h"
#include "tap.h"

/* Marks until the thread's buffer has `room` units left (a mark is one unit). */
static void fill_to(struct tprof_thread *t, size_t room)
{
	while ((size_t)(t->end - t->pos) > room)
		tprof_mark("fill");
}

/* A mark made as a handler would make it, while the thread is busy making a record. */
static void lose_one(struct tprof_thread *t)
{
	tprof_busy_enter(t);
	tprof_mark("lost");
	tprof_busy_leave(t);
}

static int is_gap_of_one(const struct tprof_rec *r)
{
	return tprof_peek_kind(r) == TPROF_K_GAP && r->ext == 1 && r->arg == 1;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* The test itself runs in a child with recording on, into a directory removed afterwards. */
static int run_recorded(char **argv)
{
	char dir[] = "/tmp/tprof-test-gap.XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		setenv("TPROF_ENABLE", "1", 1);
		setenv("TPROF_OUTPUT_DIR", dir, 1);
		execv("/proc/self/exe", argv);
		perror("execv");
		_exit(2);
	}
	int st = 0;
	if (child < 0 || waitpid(child, &st, 0) != child)
		st = 2 << 8;
	nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}

int main(int argc, char **argv)
{
	(void)argc;
	if (!getenv("TPROF_ENABLE"))
		return run_recorded(argv);
	struct tprof_thread *t = &tprof_tls;
	tprof_mark("start");
	ok(t->slot != NULL, "the thread records into a buffer");
	if (!t->slot)
		return tap_done();

	/* room for the GAP record: right after the record the thread was making */
	fill_to(t, 5);
	struct tprof_rec *at = t->pos;
	lose_one(t);
	ok(t->pos == at + 2 && is_gap_of_one(at), "with room: the GAP record (1 lost) right there");
	is_u64(t->gap.n, 0, "with room: no GAP record left due");
	ok(t->busy == 0, "with room: the thread is no longer busy");

	/* one unit left: the buffer ends, and the next one starts with the GAP record */
	fill_to(t, 1);
	struct tprof_slot *full = t->slot;
	at = t->pos;
	lose_one(t);
	ok(t->end == at && t->pos == at, "one unit left: the buffer ends where the thread was");
	is_u64(t->gap.n, 1, "one unit left: the GAP record is due");
	ok(t->busy == 0, "one unit left: the thread is no longer busy");
	tprof_mark("after");
	struct tprof_rec *first = t->slot ? t->slot->units : NULL;
	ok(t->slot != full && first && is_gap_of_one(first) &&
		   tprof_peek_kind(first + 2) == TPROF_K_MARK && t->pos == first + 3,
	   "the next mark: a fresh buffer, the GAP record first, then the mark");
	is_u64(t->gap.n, 0, "then no GAP record is due");
	return tap_done();
}

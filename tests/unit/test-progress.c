/* test-progress.c — the progress line's timing, with stderr in a file (--progress): nothing in
 * the first second, then at most one update every 250 ms, the clock looked at only every
 * thousands of records, and the line erased at the end of the phase. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../analyze/util/progress.h"
#include "tap.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static char *read_all(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	*len = file_size(path);
	char *buf = f && *len >= 0 ? calloc(1, (size_t)*len + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)*len, f) != (size_t)*len)
		*len = -1;
	if (f)
		fclose(f);
	return buf;
}

int main(void)
{
	char path[] = "/tmp/tprof-progress.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0 || !freopen(path, "w", stderr))
		return 1;
	close(fd);
	unsetenv("TPROF_PROGRESS_DELAY_MS");
	double t0 = now_s();
	progress_init(PROGRESS_ON);
	ok(progress_begin("merging", 0, PROGRESS_RECORDS) == UINT64_MAX,
	   "a phase with nothing to do has no mark");
	uint64_t mark = progress_begin("merging", 1000000000000ull, PROGRESS_RECORDS);
	ok(mark >= 1024 && mark != UINT64_MAX, "the first mark is thousands of records on (%llu)",
	   (unsigned long long)mark);

	/* 1.8 s of records, one compare each; every size change of stderr is one update, made
	 * between `before` and when it is seen: a busy machine can only make the delay and the
	 * gaps look longer than they are by one call, never shorter. */
	double first = 0, last = 0, gap = 1e9;
	uint64_t n = 0, calls = 0, short_marks = 0;
	long size = 0;
	int updates = 0;
	while (now_s() - t0 < 1.8) {
		if (++n < mark)
			continue;
		double before = now_s();
		uint64_t next = progress_at(n);
		calls++;
		short_marks += next < n + 1024;
		mark = next;
		long s = file_size(path);
		if (s == size)
			continue;
		double t = now_s();
		if (!updates++)
			first = t;
		else if (t - last < gap)
			gap = t - last;
		last = before;
		size = s;
	}
	ok(calls > 0 && !short_marks, "the clock is looked at every thousands of records (%llu "
	   "looks for %llu records, %llu marks closer)", (unsigned long long)calls,
	   (unsigned long long)n, (unsigned long long)short_marks);
	ok(updates && first - t0 >= 1.0, "nothing in the first second (first update after %.3f s)",
	   first - t0);
	ok(updates >= 2 && updates <= 4, "then a few updates (%d in %.3f s)", updates, 1.8 - (first - t0));
	ok(updates >= 2 && gap >= 0.24, "at least 250 ms apart (closest %.3f s)", gap);

	progress_end();
	long len;
	char *text = read_all(path, &len);
	size_t drawn = 0, blank = 0;     /* "...\r<line><pad>\r<blanks>\r" */
	if (text && len > 2 && text[len - 1] == '\r') {
		char *end = text + len - 1, *p = end;
		while (p > text && p[-1] == ' ')
			p--;
		blank = (size_t)(end - p);
		if (p > text && p[-1] == '\r') {
			char *q = p - 1, *e = p - 1;
			while (q > text && q[-1] != '\r')
				q--;
			while (e > q && e[-1] == ' ')
				e--;
			drawn = (size_t)(e - q);
		}
	}
	ok(drawn && blank >= drawn, "the end erases the line: %zu blanks over %zu "
	   "characters, then \\r", blank, drawn);
	ok(text && strstr(text, "tprof-analyze: merging ") && strstr(text, "records/s"),
	   "the line says what is done and how fast");
	free(text);
	unlink(path);
	return tap_done();
}

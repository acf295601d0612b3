/* util/progress.c — one line on stderr, rewritten in place with \r, saying how far a long phase
 * has got (done/total, rate, time left): nothing in the first second, at most four updates a
 * second, and the line erased when the phase ends, so what follows stays clean.  One lock
 * keeps it whole when a message from another thread erases it (diag.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define DELAY_NS 1000000000LL           /* nothing shown before this */
#define INTERVAL_NS 250000000LL         /* between two updates */
#define MARK_RECORDS 16384u             /* units between two looks at the clock */
#define MARK_BYTES (256u * 1024)

static struct {
	int on, tty;
	int64_t t_init, delay, interval;
	const char *what;
	int unit;
	uint64_t total, done, records, next;
	int64_t t_begin, t_drawn;
	size_t shown;                   /* length of the line on stderr; 0: none */
} pg = { .next = UINT64_MAX };

/* Held by the public functions (which call only the _locked ones). */
static pthread_mutex_t pg_lock = PTHREAD_MUTEX_INITIALIZER;

static void end_locked(void);

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void progress_init(int mode)
{
	pg.tty = isatty(STDERR_FILENO);
	pg.on = mode == PROGRESS_ON || (mode == PROGRESS_AUTO && pg.tty);
	pg.t_init = now_ns();
	pg.delay = DELAY_NS;
	pg.interval = INTERVAL_NS;
	/* Test knob: the delay before the first line, in milliseconds; 0 also draws every
	 * update, so that the last one of a phase shows whatever the machine's speed. */
	const char *d = getenv("TPROF_PROGRESS_DELAY_MS");
	if (d && *d) {
		char *end;
		long ms = strtol(d, &end, 10);
		if (!*end && ms >= 0 && ms < 3600000)
			pg.delay = ms * 1000000LL;
		if (pg.delay < pg.interval)
			pg.interval = pg.delay;
	}
}

static uint64_t mark(void)
{
	uint64_t step = pg.unit == PROGRESS_BYTES ? MARK_BYTES : MARK_RECORDS;
	return pg.done + step;
}

static uint64_t begin_locked(const char *what, uint64_t total, int unit)
{
	end_locked();
	if (!pg.on || !total)
		return UINT64_MAX;
	pg.what = what;
	pg.unit = unit;
	pg.total = total;
	pg.done = pg.records = 0;
	pg.t_begin = now_ns();
	pg.t_drawn = 0;
	pg.next = mark();
	return pg.next;
}

/* Decimals that leave three significant digits (of a value below 1000). */
static int decimals(double v)
{
	return v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
}

/* Three digits: 999 -> "999", 1234 -> "1.23k", 123456 -> "123k", 2e7 -> "20.0M" */
static void count(char *buf, size_t len, double v)
{
	static const char suffix[] = "kMGT";
	int i = -1;
	while (v >= 999.5 && i < 3) {
		v /= 1000;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.*f%c", decimals(v), v, suffix[i]);
}

/* The binary unit that suits v (B, KiB, MiB...), and v in it. */
static const char *bytes_unit(double *v)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;
	while (*v >= 999.5 && i < 4) {
		*v /= 1024;
		i++;
	}
	return unit[i];
}

/* Two sizes in the unit of the second: "12.3/33.0 MiB" */
static void sizes(char *buf, size_t len, double a, double b)
{
	double scaled = b;
	const char *u = bytes_unit(&scaled);
	double div = scaled > 0 ? b / scaled : 1;
	int d = decimals(scaled);
	snprintf(buf, len, "%.*f/%.*f %s", d, a / div, d, scaled, u);
}

static void time_left(char *buf, size_t len, double s)
{
	long t = s < 1e7 ? (long)(s + 0.5) : 9999999;
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

/* "merging 12.3M/20.0M records (61%), 18.2M records/s, 0:01 left" or
 * "reading 120/300 MiB (40%), 3.12M records, 25.0 MiB/s, 0:07 left" */
static size_t format(char *line, size_t len, int64_t now)
{
	double el = (double)(now - pg.t_begin) / 1e9;
	uint64_t done = pg.done < pg.total ? pg.done : pg.total;
	double rate = el > 0 ? (double)pg.done / el : 0;
	int pct = (int)(100.0 * (double)done / (double)pg.total);
	char a[16], b[16], r[16], t[48], left[64] = "";
	if (rate > 0) {
		time_left(t, sizeof(t), (double)(pg.total - done) / rate);
		snprintf(left, sizeof(left), ", %s left", t);
	}
	int n;
	if (pg.unit == PROGRESS_BYTES) {
		char s[48];
		const char *u = bytes_unit(&rate);
		sizes(s, sizeof(s), (double)done, (double)pg.total);
		count(r, sizeof(r), (double)pg.records);
		n = snprintf(line, len, "tprof-analyze: %s %s (%d%%), %s records, %.*f %s/s%s",
			     pg.what, s, pct, r, decimals(rate), rate, u, left);
	} else {
		count(a, sizeof(a), (double)pg.done);
		count(b, sizeof(b), (double)pg.total);
		count(r, sizeof(r), rate);
		n = snprintf(line, len, "tprof-analyze: %s %s/%s records (%d%%), %s records/s%s",
			     pg.what, a, b, pct, r, left);
	}
	if (n < 0)
		return 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}

/* Only while we are the terminal's foreground job, and within its width. */
static int fits(size_t *n)
{
	if (!pg.tty)
		return 1;
	if (tcgetpgrp(STDERR_FILENO) != getpgrp())
		return 0;
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 && *n >= ws.ws_col)
		*n = ws.ws_col - 1u;
	return 1;
}

static void draw(int64_t now)
{
	char line[192], out[2 * sizeof(line) + 2];
	size_t n = format(line, sizeof(line), now);
	if (!fits(&n))
		return;
	size_t k = 0;
	out[k++] = '\r';
	memcpy(out + k, line, n);
	k += n;
	for (size_t i = n; i < pg.shown; i++)   /* cover what was longer */
		out[k++] = ' ';
	fwrite(out, 1, k, stderr);
	fflush(stderr);
	pg.shown = n;
	pg.t_drawn = now;
}

static uint64_t at_locked(uint64_t done)
{
	if (!pg.on || !pg.total)
		return UINT64_MAX;
	pg.done = done;
	if (pg.unit == PROGRESS_RECORDS)
		pg.records = done;
	int64_t now = now_ns();
	if (now - pg.t_init >= pg.delay && (!pg.t_drawn || now - pg.t_drawn >= pg.interval))
		draw(now);
	pg.next = mark();
	return pg.next;
}

static void add_locked(uint64_t units, uint64_t records)
{
	pg.records += records;
	pg.done += units;
	if (pg.done >= pg.next)
		at_locked(pg.done);
}

static void clear_locked(void)
{
	if (!pg.shown)
		return;
	char out[2 * 192 + 2];
	size_t k = 0;
	out[k++] = '\r';
	memset(out + k, ' ', pg.shown);
	k += pg.shown;
	out[k++] = '\r';
	fwrite(out, 1, k, stderr);
	fflush(stderr);
	pg.shown = 0;
}

static void end_locked(void)
{
	clear_locked();
	pg.total = 0;
	pg.next = UINT64_MAX;
}

uint64_t progress_begin(const char *what, uint64_t total, int unit)
{
	pthread_mutex_lock(&pg_lock);
	uint64_t r = begin_locked(what, total, unit);
	pthread_mutex_unlock(&pg_lock);
	return r;
}

uint64_t progress_at(uint64_t done)
{
	pthread_mutex_lock(&pg_lock);
	uint64_t r = at_locked(done);
	pthread_mutex_unlock(&pg_lock);
	return r;
}

void progress_add(uint64_t units, uint64_t records)
{
	pthread_mutex_lock(&pg_lock);
	add_locked(units, records);
	pthread_mutex_unlock(&pg_lock);
}

void progress_clear(void)
{
	pthread_mutex_lock(&pg_lock);
	clear_locked();
	pthread_mutex_unlock(&pg_lock);
}

void progress_end(void)
{
	pthread_mutex_lock(&pg_lock);
	end_locked();
	pthread_mutex_unlock(&pg_lock);
}

/* test-sample.c — the system profile's sampler (sample/) on fixed input: the /proc parsers
 * (stat lines with odd comms, /proc/stat, meminfo, statm), maps lines, kernel symbols from a
 * kallsyms text, and the system image writer read back with the analyzer's reader (strings,
 * PROPs, a stream cut into several chunks, time order, END), also when the disk fills; and the
 * words of TPROF_SAMPLE and its rate, as tprof-inspect and the recorder read them. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../analyze/read/trace.h"
#include "../../common/system-records.h"
#include "../../sample/image.h"
#include "../../sample/ksyms.h"
#include "../../sample/maps.h"
#include "../../sample/procstat.h"
#include "../../sample/sampler.h"
#include "tap.h"

static void test_task_stat(void)
{
	struct tprof_task_stat st;
	/* comm "a) (b c" holds spaces and parentheses: fields start after the last ')'. */
	const char *line = "4242 (a) (b c) S 17 4242 4242 0 -1 4194560 120 0 7 0 250 50 0 0 20 0 "
			   "3 0 98765 10000000 300 18446744073709551615 94000000 94100000 "
			   "140730000000000 0 0 0 0 0 0 0 0 0 17 5 0 0 0 0 0\n";
	ok(tprof_procstat_task(line, 100, &st) == 0, "stat line with ') (' in comm parses");
	ok(!strcmp(st.comm, "a) (b c"), "comm is everything between the first '(' and the last ')' "
	   "(got '%s')", st.comm);
	ok(st.state == 'S', "state S");
	is_u64(st.ppid, 17, "ppid");
	is_u64(st.faults, 127, "faults = minflt 120 + majflt 7");
	is_u64(st.cpu_ns, 3000000000ull, "cpu = (utime 250 + stime 50) ticks at 100 Hz, in ns");
	is_u64(st.nthreads, 3, "num_threads (field 20)");
	is_u64(st.start_ticks, 98765, "starttime");
	is_u64(st.processor, 5, "processor (field 39)");
	is_u64(st.start_code, 94000000, "startcode");
	is_u64(st.start_stack, 140730000000000ull, "startstack");
	ok(tprof_procstat_task("4242 (x) R", 100, &st) < 0, "a line cut short is refused");
	ok(tprof_procstat_task("garbage", 100, &st) < 0, "a line without (comm) is refused");
	is_u64(tprof_procstat_sched_state('R'), TPROF_SCHED_RUNNING, "R: running");
	is_u64(tprof_procstat_sched_state('S'), TPROF_SCHED_SLEEPING, "S: sleeping");
	is_u64(tprof_procstat_sched_state('D'), TPROF_SCHED_BLOCKED, "D: blocked");
	is_u64(tprof_procstat_sched_state('t'), TPROF_SCHED_STOPPED, "t: stopped");
	is_u64(tprof_procstat_sched_state('Z'), TPROF_SCHED_EXITED, "Z: exited");
}

static void test_cpus(void)
{
	struct tprof_cpu_times a[4], b[4];
	unsigned char seen[4] = { 0 };
	const char *s1 = "cpu  100 0 100 800 0 0 0 0 0 0\n"
			 "cpu0 50 0 50 400 0 0 0 0 0 0\n"
			 "cpu1 50 0 50 400 0 0 0 0 0 0\n"
			 "intr 12345\nctxt 999\n";
	const char *s2 = "cpu  400 0 100 1200 0 0 0 0 0 0\n"
			 "cpu0 350 0 50 400 0 0 0 0 0 0\n"      /* all 300 ticks busy */
			 "cpu1 50 0 50 700 100 0 0 0 0 0\n";    /* idle 300 + iowait 100 */
	is_u64(tprof_procstat_cpus(s1, a, seen, 4), 2, "/proc/stat: two CPUs");
	ok(seen[0] && seen[1] && !seen[2], "cpu0 and cpu1 seen, not cpu2");
	tprof_procstat_cpus(s2, b, seen, 4);
	is_u64(tprof_procstat_busy_ppm(&a[0], &b[0]), 1000000, "cpu0 busy the whole interval");
	is_u64(tprof_procstat_busy_ppm(&a[1], &b[1]), 0, "cpu1: idle and iowait are not busy");
	is_u64(tprof_procstat_busy_ppm(&b[0], &b[0]), 0, "no time passed: 0");
	ok(tprof_procstat_cpus("nothing here\n", a, seen, 4) < 0, "text without cpu lines: -1");

	uint64_t total = 0, avail = 0, rss = 0;
	ok(tprof_procstat_meminfo("MemTotal:       16000000 kB\nMemFree:  100 kB\n"
				  "MemAvailable:    4000000 kB\n", &total, &avail) == 0 &&
	   total == 16000000ull * 1024 && avail == 4000000ull * 1024,
	   "meminfo: MemTotal and MemAvailable in bytes");
	ok(tprof_procstat_meminfo("MemTotal: 5 kB\n", &total, &avail) < 0,
	   "meminfo without MemAvailable: -1");
	ok(tprof_procstat_statm("5000 1234 300 10 0 900 0\n", 4096, &rss) == 0 &&
	   rss == 1234ull * 4096, "statm: resident pages times the page size");
}

static void test_maps_line(void)
{
	struct tprof_map_range r;
	uint64_t off;
	const char *path;
	size_t len;
	const char *l1 = "7f0000001000-7f0000005000 r-xp 00001000 08:01 1234   /usr/lib/libc.so.6";
	const char *l2 = "7f0000005000-7f0000006000 rw-p 00005000 08:01 1234   /usr/lib/libc.so.6";
	const char *l3 = "7ffd00000000-7ffd00002000 r-xp 00000000 00:00 0        [vdso]";
	const char *l4 = "7f0000010000-7f0000012000 r-xp 00000000 08:01 99 /tmp/a b (deleted)";
	ok(tprof_maps_parse_line(l1, strlen(l1), &r, &off, &path, &len) == 1 &&
	   r.start == 0x7f0000001000ull && r.end == 0x7f0000005000ull && off == 0x1000 &&
	   len == strlen("/usr/lib/libc.so.6") && !strncmp(path, "/usr/lib/libc.so.6", len),
	   "maps: an executable file mapping");
	ok(!tprof_maps_parse_line(l2, strlen(l2), &r, &off, &path, &len), "maps: rw-p is not");
	ok(!tprof_maps_parse_line(l3, strlen(l3), &r, &off, &path, &len), "maps: [vdso] is not");
	ok(tprof_maps_parse_line(l4, strlen(l4), &r, &off, &path, &len) == 1 &&
	   len == strlen("/tmp/a b (deleted)"), "maps: a path with spaces is kept whole");
}

/* Every record of the one image in dir, into recs (stream, record); the count. */
struct seen {
	uint32_t stream;
	struct tprof_rec r;
	char name[64];
	uint8_t ext[64];
};

static size_t read_back(const char *dir, struct seen *out, size_t max, int *ok_load)
{
	struct trace tr = { 0 };
	size_t n = 0;
	/* One image on disk: the system image (the analyzer adds a process for the pid its
	 * TASK record names, which has no files). */
	size_t images = 0;
	*ok_load = trace_load(&tr, dir) == 0;
	for (size_t i = 0; *ok_load && i < tr.nprocs; i++)
		images += !tr.procs[i]->made;
	*ok_load = *ok_load && images == 1;
	for (size_t i = 0; *ok_load && i < tr.nprocs; i++) {
		struct proc *p = tr.procs[i];
		if (p->made)
			continue;
		for (uint32_t s = 0; s < p->nstreams; s++) {
			struct stream *st = p->streams[s];
			if (!st)
				continue;
			stream_rewind(st);
			while (stream_next(st) && n < max) {
				out[n].stream = s;
				out[n].r = *st->rec;
				out[n].name[0] = '\0';
				if (st->rec->name && st->rec->kind != TPROF_K_STRING)
					snprintf(out[n].name, sizeof(out[n].name), "%s",
						 strings_get(proc_string(p, st->rec->name)));
				size_t bytes = st->rec->ext * TPROF_UNIT;
				memcpy(out[n].ext, st->rec + 1, bytes < 64 ? bytes : 64);
				n++;
			}
		}
	}
	trace_free(&tr);
	return n;
}

static void put(struct tprof_sysimg *im, uint32_t stream, uint16_t kind, uint8_t flags,
		uint32_t name, uint64_t t0, uint64_t t1, uint64_t arg, const void *ext, size_t n)
{
	struct tprof_rec r = { .kind = kind, .flags = flags, .name = name, .t0 = t0, .t1 = t1,
			       .arg = arg };
	tprof_sysimg_write(im, stream, r, ext, n);
}

#define NSCHED 10000   /* more than a stream buffer holds: several chunks */

static void test_image(void)
{
	char dir[] = "/tmp/test-sample.XXXXXX", why[256];
	ok(mkdtemp(dir) != NULL, "scratch directory");
	struct tprof_sysimg *im = tprof_sysimg_open(dir, "test-sample", why, sizeof(why));
	ok(im != NULL, "image opened (%s)", im ? "ok" : why);
	if (!im)
		return;
	tprof_sysimg_prop_str(im, "sampler", "proc");
	uint64_t t = tprof_sysimg_now();
	struct tprof_task x = { .pid = 10, .tid = 11, .gen = 2 };
	put(im, 0, TPROF_K_TASK, TPROF_TASK_CREATED, tprof_sysimg_string(im, "worker", t), t, 0, 0,
	    &x, sizeof(x));
	for (int i = 0; i < NSCHED; i++)
		put(im, 2, TPROF_K_SCHED, (uint8_t)(1 + i % 3), 0, t + 1000 + (uint64_t)i, 11, 10,
		    NULL, 0);
	/* Earlier than the last record of stream 2: raised to keep the stream in order. */
	put(im, 2, TPROF_K_SCHED, 6, 0, t, 11, 10, NULL, 0);
	put(im, 1, TPROF_K_SYSCTR, 3, 0, t, 10, 1 << 20, NULL, 0);
	struct tprof_ksyms k = { 0 };
	tprof_ksyms_add(&k, 0xffffffff81000150ull);
	tprof_ksyms_add(&k, 0xffffffff81000180ull);   /* the same symbol */
	tprof_ksyms_add(&k, 0xffffffff81000310ull);
	tprof_ksyms_add(&k, 0x1234);                  /* below every symbol */
	is_u64(tprof_ksyms_write(&k, im,
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 t do_thing\n"
		"ffffffff81000200 D some_data\n"
		"ffffffff81000300 t mod_fn\t[mymod]\n"
		"ffffffff81000400 T next_fn\n", t), 2, "two kernel symbols hold the addresses");
	tprof_ksyms_free(&k);
	char path[512];
	snprintf(path, sizeof(path), "%s.tpf", tprof_sysimg_base(im));
	tprof_sysimg_close(im, 42);

	static struct seen recs[NSCHED + 200];
	int loaded;
	size_t n = read_back(dir, recs, NSCHED + 200, &loaded);
	ok(loaded, "the analyzer's reader loads the image");
	size_t sched = 0, order_ok = 1, task = 0, ksym = 0, drop = 0, end = 0, prop = 0;
	uint64_t last[4] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct seen *s = &recs[i];
		if (s->stream < 4 && s->r.t0 < last[s->stream] && s->stream != 0)
			order_ok = 0;
		if (s->stream < 4)
			last[s->stream] = s->r.t0;
		sched += s->r.kind == TPROF_K_SCHED && s->stream == 2;
		if (s->r.kind == TPROF_K_TASK) {
			struct tprof_task y;
			memcpy(&y, s->ext, sizeof(y));
			task += !strcmp(s->name, "worker") && y.pid == 10 && y.tid == 11 &&
				y.gen == 2;
		}
		uint64_t a = s->r.arg, e = s->r.t1;
		if (s->r.kind == TPROF_K_KSYM)
			ksym += (!strcmp(s->name, "do_thing") && a == 0xffffffff81000100ull &&
				 e == 0xffffffff81000200ull) ||
				(!strcmp(s->name, "mod_fn [mymod]") && a == 0xffffffff81000300ull &&
				 e == 0xffffffff81000400ull);
		drop += s->r.kind == TPROF_K_DROP && s->r.flags == TPROF_DROP_SAMPLES && e == 42;
		end += s->r.kind == TPROF_K_END;
		prop += s->r.kind == TPROF_K_PROP && !strcmp(s->name, "role");
	}
	is_u64(sched, NSCHED + 1, "every SCHED record of stream 2 came back");
	ok(order_ok, "streams 1 and 2 are in time order");
	is_u64(task, 1, "the TASK record with its name and extension");
	is_u64(ksym, 2, "KSYM records: start, end and name (with its module)");
	is_u64(drop, 1, "DROP reason 5 with the count lost");
	is_u64(end, 1, "END");
	is_u64(prop, 1, "PROP role");
	unlink(path);
	rmdir(dir);
}

/* A full disk (here: the file size limit) stops the image with a warning; the program lives. */
static void test_write_error(void)
{
	char dir[] = "/tmp/test-sample.XXXXXX", why[256];
	ok(mkdtemp(dir) != NULL, "scratch directory");
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit rl = { 8192, 8192 };
		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		struct tprof_sysimg *im = tprof_sysimg_open(dir, "test-sample", why, sizeof(why));
		if (!im)
			_exit(10);
		char junk[100];
		for (int i = 0; i < 20000; i++) {
			snprintf(junk, sizeof(junk), "string %d %x", i, i * 2654435761u);
			tprof_sysimg_string(im, junk, tprof_sysimg_now());
			if (i % 1000 == 0)
				tprof_sysimg_flush(im);
		}
		int ok_after = tprof_sysimg_ok(im);
		tprof_sysimg_close(im, 0);
		_exit(ok_after ? 11 : 0);
	}
	int st;
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	   "a write error stops the image (ok() is 0) and the program carries on (status %d)",
	   WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ok(system(cmd) == 0, "cleaned up");
}

static void test_words(void)
{
	struct tprof_sample_request r;
	unsigned what, hz = 0;
	char bad[8], why[256];
	ok(tprof_sample_parse_list("sched,mem", &what, bad, sizeof(bad)) == 0 &&
	   what == (TPROF_SAMPLE_SCHED | TPROF_SAMPLE_MEM), "sched,mem");
	ok(tprof_sample_parse_list("cpu,all", &what, bad, sizeof(bad)) == 0 &&
	   what == TPROF_SAMPLE_ALL, "cpu,all is all");
	ok(tprof_sample_parse_list("cpu,memory", &what, bad, sizeof(bad)) < 0 &&
	   !strcmp(bad, "memory"), "an unknown word is named (got '%s')", bad);
	ok(tprof_sample_parse_list("mem,", &what, bad, sizeof(bad)) < 0 && !bad[0],
	   "an empty word is refused");
	ok(tprof_sample_parse_list("averyveryverylongword", &what, bad, sizeof(bad)) < 0 &&
	   !strcmp(bad, "averyve"), "the word is cut to the room given");
	ok(tprof_sample_parse_hz("10000", &hz) == 0 && hz == 10000, "rate 10000");
	ok(tprof_sample_parse_hz("0", &hz) < 0 && tprof_sample_parse_hz("10001", &hz) < 0 &&
	   tprof_sample_parse_hz("-5", &hz) < 0 && tprof_sample_parse_hz("+5", &hz) < 0 &&
	   tprof_sample_parse_hz("5x", &hz) < 0 && tprof_sample_parse_hz("", &hz) < 0,
	   "rates 0, 10001, -5, +5, 5x and '' are refused");
	ok(tprof_sample_from_env(NULL, "7", &r, why, sizeof(why)) == 0 && r.what == 0,
	   "TPROF_SAMPLE unset: nothing (the rate alone is not looked at)");
	ok(tprof_sample_from_env("", "bad", &r, why, sizeof(why)) == 0 && r.what == 0,
	   "TPROF_SAMPLE empty: nothing");
	ok(tprof_sample_from_env("cpu", NULL, &r, why, sizeof(why)) == 1 &&
	   r.what == TPROF_SAMPLE_CPU && r.hz == TPROF_SAMPLE_HZ_DEFAULT, "cpu at the default rate");
	ok(tprof_sample_from_env("all", "250", &r, why, sizeof(why)) == 1 &&
	   r.what == TPROF_SAMPLE_ALL && r.hz == 250, "all at 250 Hz");
	ok(tprof_sample_from_env("cpu,bogus", "250", &r, why, sizeof(why)) < 0 && r.what == 0 &&
	   strstr(why, "TPROF_SAMPLE=\"cpu,bogus\"") && strstr(why, "'bogus'"),
	   "a bad word: nothing, and the message names the variable and the word (%s)", why);
	ok(tprof_sample_from_env("mem", "5x", &r, why, sizeof(why)) < 0 && r.what == 0 &&
	   strstr(why, "TPROF_SAMPLE_HZ=\"5x\""),
	   "a bad rate: nothing, and the message names the variable (%s)", why);
}

int main(void)
{
	test_task_stat();
	test_cpus();
	test_maps_line();
	test_image();
	test_write_error();
	test_words();
	return tap_done();
}

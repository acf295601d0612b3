/* tasks.c — the followed processes and threads.  In the /proc mode they are found by looking:
 * new processes from the children files of the followed threads (or, on a kernel without
 * them, every process of /proc whose parent is followed), threads from /proc/PID/task when
 * their count changed, execs from a changed /proc/PID/exe or program layout; with the
 * kernel probes they are told.  Each change is a TASK record in stream 0. */
#include "tasks.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/events.h"
#include "../common/ownfd.h"
#include "../common/system-records.h"
#include "maps.h"

static void task_rec(struct tprof_tasks *t, uint64_t now, unsigned what,
		     const struct tprof_sproc *p, uint32_t tid, const char *comm)
{
	struct tprof_task x = { .pid = p->pid, .tid = tid, .gen = p->gen };
	int whole = tid == p->pid;
	if (whole && (what == TPROF_TASK_SEEN || what == TPROF_TASK_CREATED))
		x.ppid = p->ppid;
	if (whole && (what == TPROF_TASK_SEEN || what == TPROF_TASK_EXEC))
		x.exe = tprof_sysimg_string(t->im, p->exe, now);
	uint32_t name = comm && *comm ? tprof_sysimg_string(t->im, comm, now) : 0;
	struct tprof_rec r = { .kind = TPROF_K_TASK, .flags = (uint8_t)what, .name = name,
			       .t0 = now };
	tprof_sysimg_write(t->im, 0, r, &x, sizeof(x));
}

void tprof_tasks_init(struct tprof_tasks *t, struct tprof_sysimg *im, int maps_on)
{
	memset(t, 0, sizeof(*t));
	t->im = im;
	t->maps_on = maps_on;
	t->clk_tck = sysconf(_SC_CLK_TCK);
	const char *test = getenv("TPROF_TEST_SAMPLE_NO_CHILDREN");
	t->no_children = (test && !strcmp(test, "1")) ||
			 access("/proc/thread-self/children", R_OK) != 0;
}

/* Files of /proc kept open at most (a followed thread keeps two). */
#define KEPT_FILES_MAX 1024

static void close_files(struct tprof_tasks *t, struct tprof_sthread *th)
{
	int *fds[] = { &th->stat_fd, &th->children_fd };
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			tprof_fd_close(*fds[i]);
			*fds[i] = -1;
			t->open_fds--;
		}
}

/* Reads /proc/PID/task/TID/<file> of a followed thread: through *fd, which it opens, for
 * tprof-inspect's sampler; opened and closed each time in a program sampling itself. */
static long read_task_file(struct tprof_tasks *t, const struct tprof_sthread *th, int *fd,
			   const char *file, char *buf, size_t len)
{
	if (*fd < 0) {
		char path[96];
		snprintf(path, sizeof(path), "/proc/%u/task/%u/%s", th->pid, th->tid, file);
		if (t->self_only || t->open_fds >= KEPT_FILES_MAX)
			return tprof_procfs_read(path, buf, len);
		*fd = tprof_fd_open(path, O_RDONLY, 0);
		if (*fd < 0)
			return -1;
		t->open_fds++;
	}
	return tprof_procfs_pread(*fd, buf, len);
}

void tprof_tasks_free(struct tprof_tasks *t)
{
	for (size_t i = 0; i < t->nthreads; i++)
		close_files(t, &t->threads[i]);
	for (size_t i = 0; i < t->nprocs; i++) {
		free(t->procs[i].exe);
		free(t->procs[i].maps);
	}
	free(t->procs);
	free(t->threads);
	free(t->ever);
	free(t->others);
	memset(t, 0, sizeof(*t));
}

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 16;
	void *np = realloc(*p, nc * size);
	if (!np)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

struct tprof_sproc *tprof_tasks_proc(struct tprof_tasks *t, uint32_t pid)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid && !t->procs[i].gone)
			return &t->procs[i];
	return NULL;
}

static struct tprof_sthread *find_thread(struct tprof_tasks *t, uint32_t tid)
{
	for (size_t i = 0; i < t->nthreads; i++)
		if (t->threads[i].tid == tid && !t->threads[i].gone)
			return &t->threads[i];
	return NULL;
}

static char *read_exe(uint32_t pid)
{
	char path[64], buf[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%u/exe", pid);
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

/* The comm of a thread, "" when it cannot be read. */
static void read_comm(uint32_t pid, uint32_t tid, char *comm, size_t len)
{
	char path[96];
	snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	comm[0] = '\0';
	if (tprof_procfs_read(path, comm, len) > 0)
		comm[strcspn(comm, "\n")] = '\0';
}

static struct tprof_sthread *add_thread(struct tprof_tasks *t, struct tprof_sproc *p,
					uint32_t tid, unsigned what, const char *comm,
					uint64_t now)
{
	if (grow((void **)&t->threads, &t->capthreads, t->nthreads, sizeof(*t->threads)) < 0)
		return NULL;
	struct tprof_sthread *th = &t->threads[t->nthreads++];
	memset(th, 0, sizeof(*th));
	th->pid = p->pid;
	th->tid = tid;
	th->stat_fd = th->children_fd = -1;
	if (comm)
		snprintf(th->comm, sizeof(th->comm), "%s", comm);
	else
		read_comm(p->pid, tid, th->comm, sizeof(th->comm));
	task_rec(t, now, what, p, tid, th->comm);
	return th;
}

/* Whether the threads of process p may have changed: the last read of its main thread
 * counted more or fewer than are followed (a self sampler's own thread counts too, and a
 * thread that ended shows when its stat line is gone).  Threads made since that read are
 * found at the next look; a look at /proc/PID/task each time is a fifth of the /proc
 * sampler's system calls. */
static int threads_changed(const struct tprof_tasks *t, const struct tprof_sproc *p)
{
	uint32_t n = t->skip_tid ? 1 : 0;
	int main_read = 0;
	for (size_t i = 0; i < t->nthreads; i++) {
		const struct tprof_sthread *th = &t->threads[i];
		if (th->pid != p->pid || th->gone)
			continue;
		n++;
		if (th->tid == p->pid && th->have_stat)
			main_read = 1;
	}
	return !main_read || p->nthreads != n;
}

/* The threads of process p listed in /proc that are not followed yet. */
static void scan_threads(struct tprof_tasks *t, struct tprof_sproc *p, unsigned what,
			 uint64_t now)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%u/task", p->pid);
	DIR *d = tprof_fd_opendir(path);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end;
		unsigned long tid = strtoul(e->d_name, &end, 10);
		if (*end || !tid || tid == p->pid || tid == t->skip_tid ||
		    find_thread(t, (uint32_t)tid))
			continue;
		add_thread(t, p, (uint32_t)tid, what, NULL, now);
	}
	tprof_fd_closedir(d);
}

/* Where the process's program and stack start (/proc/PID/stat): with address space layout
 * randomisation every exec moves them, also an exec of the same file.  0: unknown. */
static int read_layout(uint32_t pid, long clk_tck, uint64_t *code, uint64_t *stack)
{
	char path[64], buf[1024];
	struct tprof_task_stat st;
	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	if (tprof_procfs_read(path, buf, sizeof(buf)) <= 0 ||
	    tprof_procstat_task(buf, clk_tck, &st) < 0)
		return -1;
	*code = st.start_code;
	*stack = st.start_stack;
	return 0;
}

static struct tprof_sproc *add_proc(struct tprof_tasks *t, uint32_t pid, uint32_t ppid,
				    unsigned what, uint64_t now)
{
	if (grow((void **)&t->procs, &t->capprocs, t->nprocs, sizeof(*t->procs)) < 0 ||
	    grow((void **)&t->ever, &t->capever, t->never, sizeof(*t->ever)) < 0)
		return NULL;
	struct tprof_sproc *p = &t->procs[t->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = ppid;
	p->exe = read_exe(pid);
	read_layout(pid, t->clk_tck, &p->start_code, &p->start_stack);
	t->ever[t->never++] = pid;
	add_thread(t, p, pid, what, NULL, now);
	return p;
}

uint32_t tprof_tasks_ppid(const struct tprof_tasks *t, uint32_t pid)
{
	char path[64], buf[1024];
	struct tprof_task_stat st = { 0 };
	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	if (tprof_procfs_read(path, buf, sizeof(buf)) > 0)
		tprof_procstat_task(buf, t->clk_tck, &st);
	return (uint32_t)st.ppid;
}

void tprof_tasks_follow(struct tprof_tasks *t, uint32_t pid, uint32_t ppid, unsigned what,
			uint64_t now)
{
	if (tprof_tasks_proc(t, pid))
		return;
	struct tprof_sproc *p = add_proc(t, pid, ppid, what, now);
	if (!p)
		return;
	scan_threads(t, p, what, now);
	if (t->maps_on)
		tprof_maps_read(t, p, now);
}

/* The process of a thread, also when it has just ended (until tprof_tasks_reap). */
static struct tprof_sproc *proc_of(struct tprof_tasks *t, const struct tprof_sthread *th)
{
	struct tprof_sproc *gone = NULL;
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == th->pid) {
			if (!t->procs[i].gone)
				return &t->procs[i];
			gone = &t->procs[i];
		}
	return gone;
}

/* An ended thread: its TASK record; the caller writes what else ends with it. */
static void thread_gone(struct tprof_tasks *t, struct tprof_sthread *th, uint64_t now)
{
	struct tprof_sproc *p = proc_of(t, th);
	th->gone = 1;
	close_files(t, th);
	if (p) {
		task_rec(t, now, TPROF_TASK_EXIT, p, th->tid, th->comm);
		if (th->tid == p->pid)
			p->gone = 1;
	}
}

static void exec_seen(struct tprof_tasks *t, struct tprof_sproc *p, char *exe, uint64_t now)
{
	free(p->exe);
	p->exe = exe;
	p->gen++;
	p->maps_stale = 1;
	if (p->pid == t->quiet_pid && !t->quiet_until)
		t->quiet_until = now;
	struct tprof_sthread *th = find_thread(t, p->pid);
	char comm[16];
	read_comm(p->pid, p->pid, comm, sizeof(comm));
	if (th)
		memcpy(th->comm, comm, sizeof(comm));
	task_rec(t, now, TPROF_TASK_EXEC, p, p->pid, comm);
}

/* New processes whose parent is followed, found through the pids of /proc that are not
 * known yet (a pid once found not to be a descendant stays so while it lives). */
static void scan_descendants(struct tprof_tasks *t, uint64_t now)
{
	DIR *d = tprof_fd_opendir("/proc");
	struct dirent *e;
	int32_t *others = NULL, (*cand)[2] = NULL;
	size_t nothers = 0, capothers = 0, ncand = 0, capcand = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end, path[64], buf[1024];
		long pid = strtol(e->d_name, &end, 10);
		int32_t key = (int32_t)pid;
		struct tprof_task_stat st;
		if (*end || pid <= 0 || pid > INT32_MAX || tprof_tasks_proc(t, (uint32_t)pid))
			continue;
		if (t->nothers &&
		    bsearch(&key, t->others, t->nothers, sizeof(int32_t), tprof_cmp_i32)) {
			if (grow((void **)&others, &capothers, nothers, sizeof(*others)) == 0)
				others[nothers++] = (int32_t)pid;
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		if (tprof_procfs_read(path, buf, sizeof(buf)) <= 0 ||
		    tprof_procstat_task(buf, t->clk_tck, &st) < 0 ||
		    tprof_procstat_sched_state(st.state) == TPROF_SCHED_EXITED)
			continue;   /* a zombie: ended (and if followed, its end is written) */
		if (grow((void **)&cand, &capcand, ncand, sizeof(*cand)) == 0) {
			cand[ncand][0] = (int32_t)pid;
			cand[ncand++][1] = st.ppid;
		}
	}
	tprof_fd_closedir(d);
	/* Parents first: a child found in the same look follows once its parent does. */
	for (int more = 1; more;) {
		more = 0;
		for (size_t i = 0; i < ncand; i++) {
			if (cand[i][0] && tprof_tasks_proc(t, (uint32_t)cand[i][1])) {
				tprof_tasks_follow(t, (uint32_t)cand[i][0], (uint32_t)cand[i][1],
						   TPROF_TASK_CREATED, now);
				cand[i][0] = 0;
				more = 1;
			}
		}
	}
	for (size_t i = 0; i < ncand; i++)
		if (cand[i][0] && grow((void **)&others, &capothers, nothers, sizeof(*others)) == 0)
			others[nothers++] = cand[i][0];
	if (nothers)
		qsort(others, nothers, sizeof(*others), tprof_cmp_i32);
	free(cand);
	free(t->others);
	t->others = others;
	t->nothers = nothers;
}

/* Where the program and stack of p lie, from its main thread's stat file (kept open). */
static int layout_of(struct tprof_tasks *t, const struct tprof_sproc *p, uint64_t *code,
		     uint64_t *stack)
{
	struct tprof_sthread *th = find_thread(t, p->pid);
	char buf[1024];
	struct tprof_task_stat st;
	if (!th)
		return read_layout(p->pid, t->clk_tck, code, stack);
	if (read_task_file(t, th, &th->stat_fd, "stat", buf, sizeof(buf)) <= 0 ||
	    tprof_procstat_task(buf, t->clk_tck, &st) < 0)
		return -1;
	*code = st.start_code;
	*stack = st.start_stack;
	return 0;
}

/* An exec of p since the last look (its executable, or where its program and stack lie,
 * changed): its TASK record. */
static void look_for_exec(struct tprof_tasks *t, struct tprof_sproc *p, uint64_t now)
{
	char *exe = read_exe(p->pid);
	uint64_t code = 0, stack = 0;
	int moved = layout_of(t, p, &code, &stack) == 0 &&
		    (code || stack) && (code != p->start_code || stack != p->start_stack);
	if (exe && (moved || !p->exe || strcmp(exe, p->exe)))
		exec_seen(t, p, exe, now);
	else
		free(exe);
	if (moved) {
		p->start_code = code;
		p->start_stack = stack;
	}
}

/* Whether process pid has ended (a zombie its parent has not reaped yet, or gone): it is
 * not followed, or, followed before, not again. */
static int ended(const struct tprof_tasks *t, uint32_t pid)
{
	char path[64], buf[1024];
	struct tprof_task_stat st;
	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	return tprof_procfs_read(path, buf, sizeof(buf)) <= 0 ||
	       tprof_procstat_task(buf, t->clk_tck, &st) < 0 ||
	       tprof_procstat_sched_state(st.state) == TPROF_SCHED_EXITED;
}

/* New processes made by a followed thread, from its children file; -1 when one list did not
 * fit (then /proc is looked through). */
static int scan_children(struct tprof_tasks *t, uint64_t now)
{
	static char buf[65536];   /* the sampler's thread alone reads here */
	int whole = 0;
	/* t->threads grows as children are followed: their children are read in turn. */
	for (size_t i = 0; i < t->nthreads; i++) {
		struct tprof_sthread *th = &t->threads[i];
		uint32_t parent = th->pid;
		if (th->gone)
			continue;
		long n = read_task_file(t, th, &th->children_fd, "children", buf, sizeof(buf));
		if (n < 0)
			continue;   /* ended: its stat read says so */
		if ((size_t)n + 1 >= sizeof(buf))
			whole = -1;
		for (char *p = buf, *end; *p; p = end) {
			unsigned long pid = strtoul(p, &end, 10);
			if (end == p)
				break;
			if (pid && pid <= INT32_MAX && !tprof_tasks_proc(t, (uint32_t)pid) &&
			    !ended(t, (uint32_t)pid))
				tprof_tasks_follow(t, (uint32_t)pid, parent, TPROF_TASK_CREATED,
						   now);
		}
	}
	return whole;
}

void tprof_tasks_scan(struct tprof_tasks *t, uint64_t now)
{
	if (!t->self_only && (t->no_children || scan_children(t, now) < 0))
		scan_descendants(t, now);
	for (size_t i = 0; i < t->nprocs; i++) {
		struct tprof_sproc *p = &t->procs[i];
		if (p->gone)
			continue;
		/* A process that samples itself stops its sampler before it execs. */
		if (!t->self_only)
			look_for_exec(t, p, now);
		if (threads_changed(t, p))
			scan_threads(t, p, TPROF_TASK_CREATED, now);
	}
}

void tprof_tasks_read_stats(struct tprof_tasks *t, uint64_t now)
{
	for (size_t i = 0; i < t->nthreads; i++) {
		struct tprof_sthread *th = &t->threads[i];
		char buf[1024];
		struct tprof_task_stat st;
		if (th->gone)
			continue;
		if (read_task_file(t, th, &th->stat_fd, "stat", buf, sizeof(buf)) <= 0 ||
		    tprof_procstat_task(buf, t->clk_tck, &st) < 0) {
			thread_gone(t, th, now);
			continue;
		}
		if (!th->have_stat)
			th->faults0 = st.faults;
		th->st = st;
		th->have_stat = 1;
		struct tprof_sproc *proc = th->tid == th->pid ? tprof_tasks_proc(t, th->pid) : NULL;
		if (proc)
			proc->nthreads = st.nthreads;
		if (tprof_procstat_sched_state(st.state) == TPROF_SCHED_EXITED) {
			thread_gone(t, th, now);   /* a zombie: ended, only not reaped */
			continue;
		}
		/* The process exits: every thread but the exiting one and the main one (whose
		 * end is the image's) ends with it. */
		if (t->exit_tid && th->tid != t->exit_tid && th->tid != th->pid) {
			thread_gone(t, th, now);
			continue;
		}
		if (strcmp(st.comm, th->comm)) {
			struct tprof_sproc *p = tprof_tasks_proc(t, th->pid);
			memcpy(th->comm, st.comm, sizeof(th->comm));
			if (p)
				task_rec(t, now, TPROF_TASK_RENAMED, p, th->tid, th->comm);
		}
	}
	/* The threads of a process that is gone are gone. */
	for (size_t i = 0; i < t->nthreads; i++)
		if (!t->threads[i].gone && !tprof_tasks_proc(t, t->threads[i].pid))
			thread_gone(t, &t->threads[i], now);
}

void tprof_tasks_event(struct tprof_tasks *t, uint64_t ns, unsigned what, uint32_t pid,
		       uint32_t tid, uint32_t ppid, const char *comm)
{
	struct tprof_sproc *p = tprof_tasks_proc(t, pid);
	struct tprof_sthread *th = find_thread(t, tid);
	switch (what) {
	case TPROF_TASK_CREATED:
		if (!p)
			tprof_tasks_follow(t, pid, ppid, TPROF_TASK_CREATED, ns);
		else if (!th)
			add_thread(t, p, tid, TPROF_TASK_CREATED, comm, ns);
		break;
	case TPROF_TASK_EXEC:
		if (p)
			exec_seen(t, p, read_exe(pid), ns);
		break;
	case TPROF_TASK_EXIT:
		if (th)
			thread_gone(t, th, ns);
		break;
	case TPROF_TASK_RENAMED:
		if (th && p && comm) {
			snprintf(th->comm, sizeof(th->comm), "%s", comm);
			task_rec(t, ns, TPROF_TASK_RENAMED, p, tid, th->comm);
		}
		break;
	default:
		break;
	}
}

void tprof_tasks_reap(struct tprof_tasks *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nthreads; i++)
		if (!t->threads[i].gone)
			t->threads[n++] = t->threads[i];
	t->nthreads = n;
	n = 0;
	for (size_t i = 0; i < t->nprocs; i++) {
		if (!t->procs[i].gone) {
			t->procs[n++] = t->procs[i];
			continue;
		}
		free(t->procs[i].exe);
		free(t->procs[i].maps);
	}
	t->nprocs = n;
}

int tprof_cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* diagnose/state.h — what the diagnosis keeps while the events go by and then ranks: per
 * process its timeline, the steps waiting to be diagnosed, the delays it caused waiting to be
 * explained and what its steps added up to (diagnosis.c); per step number the spread over
 * the ranks (imbalance); the groups of wait states by who caused them (findings.c); written
 * by report.c. */
#ifndef TPROF_ANALYZE_DIAGNOSE_STATE_H
#define TPROF_ANALYZE_DIAGNOSE_STATE_H

#include "../model/waits.h"
#include "../util/u64map.h"
#include "launches.h"
#include "timeline.h"

#define DONE_KEPT 8              /* the last steps diagnosed a process remembers */
#define DIAG_LAG 2               /* steps a process's step waits for its events */
#define LAG_MIN 1000000000LL     /* the time it waits past its end, at least, */
#define LAG_MAX 10000000000LL    /* and at most */
#define PEND_MAX 1024            /* steps waiting in a process at most (memory) */
#define CP_QUEUE 4               /* step numbers waiting for their critical path, at most */
#define CP_LINKS 64              /* links of a critical path, at most */

struct pend_step {
	uint64_t step;
	int64_t t0, t1;
};

/* A stream's latest device operation (the launches' facts: host-bound gaps, copies that
 * hold kernels back). */
struct lane {
	uint64_t stream;
	int64_t t0, t1;
	uint8_t kind;                    /* enum tprof_devop_kind */
	uint32_t name;
};

/* A wait of a process for another (for the critical path). */
struct wait_rec {
	int64_t t0, t1;
	int32_t cause_rank;              /* world rank */
	uint32_t site, seq;
	uint64_t comm;
};

/* One link of a step's critical path: a process's time from t0 to t1, most of it `cat`
 * (`name` the kernel or call with the most), ended by its arrival at `via` (a collective or
 * message others waited for) when has_via. */
struct cp_link {
	int proc;
	int64_t t0, t1;
	uint8_t cat;
	uint32_t name;
	int64_t cat_ns;
	uint32_t after;                  /* for host time: the call it had returned from */
	int has_via;
	uint32_t via_site, via_seq;
	uint64_t via_comm;
	uint32_t via_waiters;
	int64_t via_waited;
};

/* What one process did that cost time of its own (not a wait it caused): the kinds, and
 * their JSON names ("host_bound"; findings.c). */
enum own_kind { OWN_STARVED, OWN_COPY_HELD, OWN_CPU_WAIT, OWN_KINDS };
extern const char *const own_kind_key[OWN_KINDS];

struct own_cost {
	int64_t total, max;
	uint64_t steps;                  /* steps in which it cost something */
	uint64_t max_step;
	int max_has_step;
	int64_t max_t0, max_t1;          /* the step (or run) of the most */
	uint32_t name;                   /* what most of it was (a kernel, a copy) */
	uint64_t count;                  /* instances (gaps, kernels held back) */
	uint32_t made;                   /* the group of waits it made the others have, + 1
					  * (0: none): it came late because of this */
	int by_proc;                     /* waiting for a CPU: the process that ran most
					  * meanwhile in its longest step (-1: none seen) */
	int64_t by_index;                /* its number */
	int64_t by_ns;
};

/* A thread of a process running on a CPU (the thread states), for who took the CPU. */
struct run_rec {
	int64_t t0, t1;
	int proc;
	uint32_t cpu;
};

/* The overview (overview.h, overview.c): a device stream's busy time by bin and kind
 * (compute, copy, collective) until the end, then its bytes. */
#define OV_KINDS 3
struct ov_stream {
	uint64_t stream;
	float *busy;                     /* bins x OV_KINDS */
	uint8_t *bins;
};

/* A thread's scheduling states by bin (threads.c): their ns in each bin of th_bins until
 * the end, then its bytes. */
struct ov_thread {
	int32_t tid;
	uint32_t name;                   /* trace-wide string id; 0: none */
	int64_t running;                 /* ns on a CPU */
	float *ns;                       /* th_bins x OVERVIEW_STATES */
	uint8_t *bins;
};

/* A process's overview: its split binned up to `upto`, the bin being filled summed apart. */
struct ov_proc {
	uint8_t *bins;
	int started;
	int64_t upto;
	uint32_t open;                   /* the bin being filled */
	int64_t acc[CATS];
	struct ov_stream *streams;       /* OVERVIEW_STREAMS + 1 at most (the rest) */
	size_t nstreams, capstreams;
	struct ov_thread *threads;       /* its threads with states; OVERVIEW_THREADS once */
	size_t nthreads, capthreads;     /* finished, the busiest */
	struct u64map thread_of;         /* struct thread pointer -> index + 1 */
	int finished;
};

/* The step map (stepmap.c): a process's steps summed by step number, `per` numbers a bin,
 * bin i holding the numbers from (first + i) * per; `per` doubles (neighbours merged) when
 * a step would fall outside the bins. */
struct sm_bin {
	uint64_t n;                      /* its steps */
	int64_t time, wait;              /* summed: their times, their waits for others */
	int64_t longest;
};
struct sm_proc {
	struct sm_bin *bins;             /* dx->sm_cols of them, once a step came */
	uint64_t per, first;
	uint32_t used;                   /* bins from the first to the last with steps */
};

/* A step ended (its process's index in procs), waiting to be due. */
struct due_step {
	int64_t t1;
	size_t proc;
};

struct dproc {
	struct proc *p;
	int index;                       /* in struct diagnosis's procs */
	struct timeline tl;
	struct pend_step *pend;          /* steps ended, not yet diagnosed, in order: */
	size_t npend, cappend;           /* pend[pend_first, pend_first + npend) */
	size_t pend_first;               /* 0 when held */
	int64_t due_upto;                /* its steps that ended by this are due (diagnosis.c) */
	int64_t dev_upto;                /* the latest end of its device spans come */
	int device_work;                 /* it launches some (its calls say, or a span came) */
	struct pend_step done[DONE_KEPT];   /* the latest diagnosed, done[ndone % DONE_KEPT] next */
	unsigned ndone;
	struct wait_rec *waits;          /* its waits not yet forgotten, in order of arrival */
	size_t nwaits, capwaits;
	struct wait_delay *why;          /* delays it caused, to be explained */
	size_t nwhy, capwhy;
	size_t why_at;                   /* held (parallel.c): those explained, in order */
	size_t nfinal;                   /* held: its steps diagnosed, from pend[0] */
	int has_steps;
	int64_t lo, hi;                  /* the extent of its events */
	int any;                         /* it has some */
	/* what its steps (or its run) add up to */
	uint64_t steps;
	int64_t covered, ns[CATS];
	uint64_t most_compute, most_wait;   /* steps it had the most of, among 2 ranks or more */
	int64_t *excess;                 /* in those, its compute over the others' mean */
	size_t capexcess;
	int64_t excess_median;
	struct own_cost own[OWN_KINDS];
	struct lane *lanes;
	size_t nlanes, caplanes;
	uint64_t kernels;
	int64_t kernel_ns;
	uint64_t outside;                /* delays it caused outside its steps (not counted) */
	struct launches launches;
	int64_t comm_ns, comm_hidden;    /* communicating (host calls to other processes,
					  * device collectives), and of that while a kernel ran */
	uint32_t label;                  /* its label, when another analysis process read it
					  * (parallel.c): proc_label's there */
	struct ov_proc ov;
	struct sm_proc sm;
};

/* One step number over the ranks. */
struct step_agg {
	uint64_t step;
	uint32_t ranks;
	int64_t t0, t1;                  /* its earliest start and latest end */
	int64_t dur_max, dur_sum;
	int dur_max_proc;
	int64_t comp_max, comp_min, comp_sum;
	int comp_max_proc, comp_min_proc;
	int64_t wait_max, wait_min, wait_sum;
	int wait_max_proc, wait_min_proc;
	int64_t ns[CATS];                /* summed over its ranks */
	uint32_t done;                   /* processes that diagnosed it */
	struct cp_link *path;            /* its critical path, first link first */
	uint32_t npath;
	int64_t late_start;              /* its first link's process began the step this long
					  * after the earliest did */
	int late_proc;
};

/* Wait states caused by one process at one place (kind, site, communicator). */
struct delay_group {
	uint8_t kind, on_device;
	int proc;                        /* the late one (index in procs) */
	uint32_t site;
	uint32_t caller;                 /* the program's function that made its call (0: not
					  * known) */
	uint64_t comm;
	uint64_t n;                      /* instances */
	int64_t cost;                    /* the delays, in all: the time the job waited for it */
	int64_t waited;                  /* the others' waits, in all */
	uint32_t waiters;                /* the most that waited for one instance */
	uint64_t steps, last_step;       /* steps with an instance (counted once each) */
	int counted_step;
	int64_t max, max_t0, max_t1;     /* the longest delay */
	uint64_t max_step;
	int max_has_step;
	uint32_t max_seq;
	int64_t ex[CATS];                /* what it was doing while late, in all */
	int64_t ex_best[CATS];
	uint32_t ex_top[CATS];           /* the name with the longest part, per category */
	uint32_t after;                  /* the call before its longest host gap */
	int64_t *delays;                 /* each instance's (for the median) */
	size_t capdelays;
	int64_t median;                  /* found by findings_rank */
	int folded;                      /* its late process's own cost explains it (struct
					  * own's made): a finding of that, not of its own */
};

/* What one line of findings says. */
enum finding_kind { F_WAIT, F_OWN, F_OWN_MANY };

/* A kind of own cost over the processes that have it (past OWN_MANY of them, one finding). */
#define OWN_MANY 4
struct own_many {
	size_t procs;
	int64_t total, max;
	int proc;                        /* the one with the most */
};
struct finding {
	int64_t cost;
	uint8_t kind;                    /* enum finding_kind */
	uint32_t i;                      /* the group, proc * OWN_KINDS + own kind, or the own
					  * kind (F_OWN_MANY) */
};

/* Whole-job waits by kind, site, communicator and waiting process (the wait-state table). */
struct wait_row {
	uint8_t kind;
	int proc;
	uint32_t site;
	uint32_t caller;                 /* the program's function that made the call (0: not
					  * known) */
	uint64_t comm;
	uint64_t n;
	int64_t ns;
};

/* One process's split of one step (or of its run), kept for the tables (rows.h). */
struct split_rec {
	int proc;
	int has_step;
	uint64_t step;
	int64_t t0, t1;
	int64_t ns[CATS];
};

struct runtime_set;
struct diagnosis {
	const struct runtime_set *rts;
	struct dproc **procs;            /* by first event; index = place */
	size_t nprocs, capprocs;
	struct u64map proc_of;           /* struct proc pointer -> index + 1 */
	struct step_agg *steps;
	size_t nsteps, capsteps;
	struct u64map step_of;           /* step number -> index */
	uint64_t *cpq;                   /* step numbers waiting for their critical path, in the
					  * order their first process diagnosed them */
	size_t ncpq, capcpq;
	struct u64map by_rank;           /* world rank -> index in procs + 1 */
	size_t step_procs;               /* processes with steps */
	int settled;                     /* diagnosis_settle ran */
	int ending;                      /* the events are over: no critical path before all
					  * processes diagnosed its step */
	struct delay_group *groups;
	size_t ngroups, capgroups;
	struct u64map group_of;          /* key hash -> index */
	struct wait_row *rows;
	size_t nrows, caprows;
	struct u64map row_of;
	int job_steps;                   /* some process has steps */
	uint64_t late_spans;             /* came after their time was diagnosed */
	int64_t now;                     /* how far the events read have come: the latest
					  * start seen (no later than the record being read) */
	int64_t lag;                     /* a step waits this long past its end for its
					  * events (diagnosis.c: grows with how late they come) */
	struct due_step *dueq;           /* every step waiting, in the order they ended: */
	size_t ndueq, capdueq, dueq_at;  /* dueq[dueq_at, ndueq) */
	struct finding *findings;
	size_t nfindings;
	struct own_many many[OWN_KINDS];
	struct run_rec *running;         /* every process's running spans not yet forgotten */
	size_t nrunning, caprunning;
	struct u64map by_index;          /* process number -> index in procs + 1 */
	/* several analysis processes (parallel.c) */
	const struct trace *tr;
	int hold;                        /* steps are diagnosed at the end, once the waits of
					  * the processes read here have come from the others */
	struct mail *away;               /* waits of processes others read, by reader */
	struct proc **standins;          /* the first's: the processes the others read */
	size_t nstandins, capstandins;
	int keep_splits;                 /* each process's split of each step is kept */
	uint64_t ov_budget;              /* the overview is kept (overview.c): its bytes */
	uint32_t ov_bins;                /* its bins, from the trace's span (0: not kept) */
	int64_t ov_bin_ns;
	uint32_t sm_cols;                /* the step map's bins a process (stepmap.c; 0: not
					  * kept) */
	uint32_t th_bins;                /* the thread states' bins (threads.c), each */
	int64_t th_bin_ns;               /* this long */
	struct split_rec *splits;
	size_t nsplits, capsplits;
};

/* diagnosis.c: who took the CPUs of a process waiting for them */
struct cpu_span {                 /* a wait of the process, or another's run (proc >= 0: its
				   * number), clipped to the time asked about */
	int64_t t0, t1;
	int proc;
};
struct cpu_spans {
	struct cpu_span *v;
	size_t n, cap;
};
#define CPU_TAKERS 16
struct cpu_took {
	int64_t index;                   /* process number */
	int64_t ns;
};
uint64_t cpu_mask(const struct diagnosis *dx, const struct dproc *dp, int64_t a, int64_t b);
void cpu_waits(const struct dproc *dp, int64_t a, int64_t b, struct cpu_spans *v);
/* The running spans of the processes read here on `host` (but process not_index) on cpus. */
void cpu_runs(const struct diagnosis *dx, uint32_t host, uint64_t cpus, int64_t not_index,
	      int64_t a, int64_t b, struct cpu_spans *v);
unsigned cpu_sweep(struct cpu_spans *v, struct cpu_took *took);
void cpu_pick(struct diagnosis *dx, struct own_cost *o, const struct cpu_took *took,
	      unsigned n);

/* diagnosis.c */
struct dproc *dproc_at(struct diagnosis *dx, int64_t index);   /* by process number */
struct dproc *dproc_get(struct diagnosis *dx, struct proc *p);   /* made at first */

/* order.c: the processes in the order they are written (by number), malloc'd. */
struct dproc **dprocs_in_order(const struct diagnosis *dx);

struct step_agg *step_agg_of(struct diagnosis *dx, uint64_t step);   /* made at first */
void step_done(struct diagnosis *dx, struct dproc *dp);   /* its oldest step waiting */
void diagnose_rest(struct diagnosis *dx);
void dproc_free(struct dproc *dp);
/* dx becomes `from` (freed), settled as dx was. */
void diagnosis_take(struct diagnosis *dx, struct diagnosis *from);
void wait_span_take(struct diagnosis *dx, struct dproc *dp, const struct wait_span *w);
void wait_delay_take(struct diagnosis *dx, struct dproc *dp, const struct wait_delay *d);

/* parallel.c */
/* Collective, under --parallel, before diagnosis_settle: the held steps diagnosed, the
 * others' findings joined on the first analysis process (1 there: it writes). */
int dpar_hold_end(struct diagnosis *dx);

/* join.c: what an analysis process found, packed for the first; the parts of every one
 * (par_gather's, len_of[k] bytes each) joined into dx there.  -1 when one cannot be read. */
struct pack;
void join_pack(struct pack *b, const struct diagnosis *dx);
int join_unpack(struct diagnosis *dx, const char *all, const size_t *len_of);

/* overview.c (overview.h) */
void overview_begin(struct diagnosis *dx);       /* the bins, from the trace's span */
void overview_upto(struct diagnosis *dx, struct dproc *dp, int64_t t1);   /* binned to t1 */
void overview_device(struct diagnosis *dx, struct dproc *dp, uint64_t stream, unsigned cat,
		     int64_t t0, int64_t t1);
void overview_finish(struct diagnosis *dx, struct dproc *dp);   /* binned to its end */
void overview_free(struct ov_proc *o);
/* A bin's byte (overview.h): kind << 5 | ns's share of bin_ns in 31sts, at least 1; 0 when
 * ns is none. */
uint8_t overview_byte(unsigned kind, double ns, int64_t bin_ns);
/* Adds t0..t1 to acc[bin * kinds + kind] over bins of bin_ns from 0 (the last takes the
 * rest); the kind of v[0..n-1] with the most. */
void overview_spread(float *acc, unsigned kinds, unsigned kind, int64_t t0, int64_t t1,
		     int64_t bin_ns, uint32_t bins);
unsigned overview_top(const float *v, unsigned n);
struct thread;
struct unpack;
/* threads.c: a thread's scheduling state from t0 to t1; at overview_finish, the busiest
 * threads' bytes; their packing for the first analysis process */
void overview_state(struct diagnosis *dx, struct dproc *dp, const struct thread *th,
		    unsigned state, int64_t t0, int64_t t1);
void threads_finish(const struct diagnosis *dx, struct ov_proc *o);
void threads_free(struct ov_proc *o);
void threads_pack(struct pack *b, const struct diagnosis *dx, const struct ov_proc *o);
void threads_unpack(struct unpack *u, const struct diagnosis *dx, struct ov_proc *o);
void overview_pack(struct pack *b, const struct diagnosis *dx, const struct dproc *dp);
struct unpack;
void overview_unpack(struct unpack *u, const struct diagnosis *dx, struct dproc *dp);

/* stepmap.c (overview.h) */
void stepmap_add(struct diagnosis *dx, struct dproc *dp, uint64_t step, int64_t time,
		 int64_t wait);
void stepmap_pack(struct pack *b, const struct diagnosis *dx, const struct dproc *dp);
void stepmap_unpack(struct unpack *u, const struct diagnosis *dx, struct dproc *dp);

/* critical.c */
const struct pend_step *done_step(const struct dproc *dp, uint64_t step);
/* describe: each link's split found too (else by the analysis process that reads its
 * process: parallel.c) */
void critical_path(struct diagnosis *dx, struct step_agg *s, int describe);
void describe_link(struct dproc *dp, struct cp_link *l);

/* findings.c */
void group_add(struct diagnosis *dx, struct dproc *dp, const struct wait_delay *d,
	       const int64_t ex[CATS], const uint32_t top[CATS], uint32_t after,
	       int has_step, uint64_t step);
void wait_row_add(struct diagnosis *dx, const struct wait_span *w, int proc);
void findings_rank(struct diagnosis *dx);

/* report.c */
struct sumw;
void report_write(struct diagnosis *dx, struct sumw *w, const char *dir, int top);
/* Finding i (from 0) as its text says it, without its number, indentation and look line
 * (malloc'd). */
char *report_finding_text(struct diagnosis *dx, const char *dir, size_t i);
/* The command that writes the finding's time as a Perfetto trace (nth: its number). */
void report_look(char *buf, size_t len, const char *dir, size_t nth, int has_step,
		 uint64_t step, int64_t t0, int64_t t1);
/* A step's line of cause; the median of the steps' longest ranks. */
void report_cause(struct diagnosis *dx, const struct step_agg *s, int64_t median, char *buf,
		  size_t len);
int64_t report_steps_median(const struct diagnosis *dx);

#endif

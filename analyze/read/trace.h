/* trace.h — the analyzer's model of an output directory: processes (one per recorded process
 * image), their threads and streams, the pieces of each stream on disk, and the clock that
 * puts them on one time axis.  Read by every stage; filled by the readers. */
#ifndef TPROF_ANALYZE_TRACE_H
#define TPROF_ANALYZE_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <zlib.h>

#include "../../common/codec.h"
#include "../../common/events.h"
#include "../../common/format.h"
#include "../util/u64map.h"
#include "../util/strings.h"
#include "timebase.h"

/* A run of units of one buffer (stream, seq), in a chunk of the trace file or in the spool. */
enum piece_src { PIECE_CHUNK = 1, PIECE_SPOOL = 2 };

struct piece {
	uint32_t seq, first, units, records;
	uint8_t src;
	uint8_t bad;            /* found undecodable: skipped from then on */
	uint8_t raw;            /* chunk: not compressed, read as it is (no inflate) */
	uint8_t encoding;       /* chunk: TPROF_ENC_*, which says the codec's version */
	uint8_t copied;         /* spool: in the process's copy of a running writer's records */
	uint64_t offset;        /* chunk: file offset of the payload; spool: byte offset of unit 0
				 * in the mapping (or the copy) */
	uint32_t comp_len;      /* chunk only */
	uint32_t raw_len;       /* chunk only */
	uint64_t t_first;       /* ticks of the first record */
};

struct proc;
struct thread;
struct sysimage;
struct sysindex;

/* A stream and the iterator that reads its records in order, piece by piece. */
struct stream {
	uint32_t id;                    /* as the files name it (UINT32_MAX: made, no file's) */
	uint32_t index;                 /* in its process's streams[] */
	struct proc *proc;
	struct thread *thread;          /* NULL for stream 0 */
	struct piece *pieces;
	size_t npieces, cap;
	size_t nsorted;                 /* pieces[0, nsorted) in order (stream_sort_pieces) */

	/* iterator */
	size_t cur;                     /* piece being read */
	int open;                       /* cur's reader is set up */
	struct stream_read *rd;         /* the piece's reading state (stream.c), while open: a
					 * trace of many streams holds it for those being read */
	struct tprof_rec *rec;          /* current record (its units; the largest record's once
					 * the stream is long) */
	size_t reccap;
	int64_t ns;                     /* global time of rec->t0 */
	size_t tb_cursor;               /* the reader's (t0) */
	size_t tb_cursor_t1;            /* the pipeline's, for the records' t1 */
	uint64_t records_read;
};

/* Per-thread state kept while events flow (ranges still open). */
struct open_range {
	uint32_t name;
	int64_t t0;
	uint8_t source;
	int32_t level;                  /* as recorded (PUSH's arg - 1), -1: not recorded */
};

#define MAX_STACK 32

/* An API call still in progress when its process's data ends (its t1 is 0). */
struct open_call {
	uint32_t name;
	int64_t t0;
	uint8_t domain;
	uint64_t arg;
	uint8_t ext[2 * TPROF_UNIT];
	uint8_t next;
};

/* A range started with an id (roctxRangeStartA), open until its id is stopped. */
struct open_async {
	uint64_t id;
	uint32_t name;
	int64_t t0;
	struct thread *thread;
	uint8_t dup;                    /* another range of its id is open since before */
};

/* The records of a process's spool that pieces read (read/spoolfile.c): the mapping, and a
 * copy of a running writer's records no chunk holds. */
struct proc_spool {
	const uint8_t *map;             /* the spool mapped, while pieces read from it, or NULL */
	size_t map_len;
	uint8_t *copy;
	size_t len, cap;
};

/* A process's ranges started by id and not yet stopped, and what GAP records said of them:
 * made at its first (most processes have none). */
struct proc_asyncs {
	struct open_async *v;
	size_t n, cap;
	uint64_t lost_abegins, lost_aends; /* ABEGIN/AEND records GAP records say were lost ... */
	int64_t abegin_gap_ns, aend_gap_ns; /* ... and where the latest of each loss began */
	struct u64map of;               /* range id -> its oldest entry in v */
	size_t dups;                    /* entries whose id another entry holds in the map */
	uint64_t over;                  /* begun past the ranges held, not yet ended */
};

/* The MPI call a thread made last (pipeline.c): requests completed or started inside it
 * (MPIREQ records) belong to it. */
struct mpi_last_call {
	uint64_t corr;
	int64_t t0, t1;                 /* ns from the trace start */
	uint32_t name;
	uint32_t caller;                /* the program's function that made it (0: not known) */
};

struct drop_count {
	uint64_t count[8];              /* by enum tprof_drop_reason */
};

/* A process's and a thread's drop counts exist once something is counted (most lose
 * nothing): drops_add makes them, drops_of reads them (NULL reads as all zero). */
const struct drop_count *drops_of(const struct drop_count *d);
struct drop_count *drops_add(struct drop_count **d);

struct thread {
	struct proc *proc;
	uint32_t stream;                /* the index of its stream in proc->streams[] */
	int32_t tid;
	uint32_t name;                  /* global string id */
	int gaps;                       /* GAP records seen (pipeline.c): records were lost */
	struct drop_count *drops;       /* records it lost, by reason (read/losses.c) */
	struct drop_count *drops_rec;   /* what its DROP records say */
	struct open_range *stack;
	size_t depth, cap;
	int64_t gap_ns;                 /* where the latest says the loss began */
	int64_t gap_range_ns;           /* where the latest that lost a range's begin or end
					 * says the loss ended */
	uint64_t gap_lost;              /* records the GAP records say were lost */
	uint32_t *frames;               /* the last STACK record, for the call it belongs to
					 * (MAX_STACK of them, from the thread's first) */
	uint32_t nframes;
	uint32_t over;                  /* ranges pushed past the open ranges held, still open */
	uint64_t frames_corr;
	uint32_t frames_caller;         /* the STACK's calling function (trace-wide id) */
	struct open_call *open_calls;   /* calls that never returned */
	size_t nopen_calls, capopen_calls;
	int64_t first_ns, last_ns;      /* first and last event time seen */
	uint64_t events;
	int seen;                       /* has events in the output window */
	/* the system profile (runtimes/sys): the scheduling state it is in since sched_t0 */
	uint32_t sched_cpu;
	int64_t sched_t0;
	uint8_t sched;                  /* enum tprof_sched_state, 0: none known */
	struct mpi_last_call mpi_call;
};

/* Records lost by a thread that never had a stream (read/losses.c): by its tid. */
struct tid_loss {
	int32_t tid;
	struct drop_count drops;
};

/* A process image that left no data of its own, its files not created (read/losses.c): known
 * from the loss table of an ancestor that counted for it, or from its marker file. */
struct lost_proc {
	int64_t pid, ppid;
	uint32_t host;                  /* trace-wide string id, 0 = unknown */
	uint32_t instance;              /* the low 32 bits of its instance */
	const struct proc *ancestor;    /* whose table counted it; NULL: a marker file */
	char *marker;                   /* its marker file, or NULL */
	int known;                      /* its count is final (a table, or a marker renamed at
					 * its exit) */
	struct drop_count drops;
	struct tid_loss *threads;       /* by thread, when a table says */
	size_t nthreads;
};

/* A chunk whose header is good but whose payload is not (cut short, checksum wrong): lost
 * unless the spool still has its records, which is only known once the spool is read. */
struct damage {
	uint64_t offset;
	uint32_t stream, seq, first, units, records;
	uint8_t cut;                    /* DAMAGE_*: cut short by the end of the file */
	char why[96];
};
enum { DAMAGE_BAD = 0, DAMAGE_CUT = 1, DAMAGE_CUT_HEADER = 2 };

struct step_open {
	uint64_t step;
	int64_t t0;
	int open;
};

/* One CSYNC record: the clock offset of a process against its reference process (MPI rank
 * 0), and what clocksync.c found from it. */
struct csync {
	uint64_t t0, t1, rtt;           /* local ticks; the reference's ticks; round trip (local) */
	uint32_t ref_host;              /* trace-wide string id */
	int64_t ref_pid;
	int32_t ref_rank;
	uint32_t rounds;
	uint8_t when;                   /* enum tprof_csync_when */
	/* found by clocksync_apply */
	int64_t at;                     /* t0 on the global axis, before any correction */
	int64_t delta;                  /* at - the reference's t1 on the global axis: how far
					 * this process's times were ahead of the reference's */
	int64_t rtt_ns;
};

/* What clock alignment did with a process's CSYNC records. */
enum csync_verdict {
	CSYNC_NONE = 0,                 /* no CSYNC records */
	CSYNC_APPLIED,                  /* its times were corrected by the measured offsets */
	CSYNC_SHARED_CLOCK,             /* same host as its reference, offsets within the round
					 * trip: left alone */
	CSYNC_NO_REFERENCE,             /* the reference process is not in the trace */
};

/* A file read again and again while the records flow (a chunk file), through a descriptor
 * opened on demand and closed when another file needs one (fdcache.c): a profile may hold
 * more files than the process may open. */
struct cfile {
	const char *path;               /* not owned */
	int fd;                         /* -1 while closed */
	unsigned pins;                  /* reads in progress */
	int failed;                     /* could not be opened again: nothing more is read */
	uint64_t dev, ino;              /* the file first opened: reopened, it must be that one */
	struct cfile *newer, *older;    /* open files, most recently used first */
	struct cfile *whole;            /* not NULL: this is [base, base + len) of that file, read
					 * as if it were a file (an image among others in one file),
					 * through its descriptor */
	uint64_t base, len;
};

/* What the spool's writer was doing when the spool was read (read/spoolfile.c). */
enum spool_writer { WRITER_UNKNOWN = 0, WRITER_GONE, WRITER_LIVE };

struct proc {
	char *trace_path, *spool_path;  /* owned, but for a part of a file (file.whole): its
					 * path is then the whole's */
	uint64_t instance;
	struct cfile file;              /* the chunk file (path NULL: none) */
	uint64_t indexed;               /* chunk file: bytes indexed so far (tracefile.c) */
	int scratch;                    /* written by this run (an import's image): its chunks'
					 * payloads are not read again to check them */
	int system_file;                /* its chunk file's header says it is a system image
					 * (before its records are read: read/jobs.c) */
	uint32_t scan_order;            /* its place among the files found (every analysis
					 * process of the parallel analyzer finds the same) */
	struct proc_spool *spool;       /* where its spool's pieces are read from, or NULL */
	int from_spool;                 /* some records are read from the spool */
	uint8_t writer;                 /* enum spool_writer: its writer still runs (live) */
	uint8_t remote;                 /* a stand-in for a process another analysis process
					 * reads (read/remote.c) */

	/* from the process stream */
	uint32_t *strmap;               /* local string id -> global id */
	size_t nstrmap;
	struct u64map *strsparse;       /* the same for ids far past those defined (procstrings.c),
					 * made at the first */
	uint32_t nstrings;              /* STRING records read */
	int clock_source;
	int64_t pid, ppid, rank, world_size, local_rank;
	uint32_t host, exe;             /* global string ids, 0 = unknown */
	uint32_t instance_type;         /* PROP "instance_type" (e.g. trn1.32xlarge), 0 = none */
	uint32_t nrt_instance;          /* PROP "nrt_instance": the Neuron instance family (trn1) */
	uint32_t *args;
	size_t nargs, capargs;
	int ended;                      /* END record seen */
	struct timebase tb;
	struct drop_count *drops;       /* every record it lost, by reason (read/losses.c) */
	struct drop_count *stream0;     /* of these, its process stream's and its device work's */
	struct drop_count *unattributed; /* of these, threads' that its loss table had no room
					  * to name */
	struct tid_loss *unreg;         /* of these, threads' that never had a stream */
	size_t nunreg;
	const struct tprof_loss_table *losses; /* its spool's loss table, or NULL */
	struct damage *damage;
	size_t ndamage, capdamage;

	struct stream **streams;        /* [0]: stream 0; then the others in the order met */
	size_t nstreams, capstreams;
	struct thread **threads;        /* indexed like streams (NULL where none) */
	struct u64map stream_of;         /* stream id -> index in streams[], once there are many
					  * (has_stream_of; tracefile.c) */
	int has_stream_of;

	int64_t start_ns, end_ns;       /* global */
	uint64_t events;
	int index;                      /* output order, 1-based */
	struct step_open step;
	int had_steps;                  /* step events were emitted */
	struct proc_asyncs *asyncs;     /* ranges by id (model/pipeline.c), once there is one */
	struct csync *csync;            /* CSYNC records, in the order read */
	size_t ncsync, capcsync;
	int csync_verdict;              /* enum csync_verdict */
	const struct proc *csync_ref;   /* the reference process, when found */
	struct sysimage *sys;           /* a system image (PROP role "system"): what its stream 0
					 * describes (system.h); NULL for a program's image */
	int made;                       /* made from a system image's TASK records: a followed
					 * process that recorded no image of its own (no files) */
	int before_exec;                /* made: the pid exec'ed after this run (its label says
					 * so: a fork child getting ready, not yet the program) */
	int unsampled;                  /* made: tprof-inspect's child before its exec, which
					 * the sampler leaves out (sample/tasks.h: quiet_pid) */
	int64_t gen;                    /* the exec generation of its pid it ran as (system.h),
					 * -1 when no system image tells */
	struct import_image *imp;           /* an imported image (PROP role "import"): what it says
					 * of itself (import-image.h); NULL for a recorded one */
	struct capture_mark *captures;  /* its capture window's changes (CAPTURE records), in
					 * the order written */
	size_t ncaptures, capcaptures;
	size_t capture_seen;            /* those before the open step (model/pipeline.c) */
};

/* A change of a process's capture window (common/capture.h). */
struct capture_mark {
	uint64_t ticks;
	int64_t ns;                     /* global, once placed (capture.c) */
	uint8_t on;                     /* opened, else closed */
	uint8_t at_start;               /* closed: the state it started in */
	uint8_t why;                    /* enum tprof_capture_why */
};

/* What the capture windows of every process leave recorded (capture.c). */
struct capture_sum {
	int any;                        /* some process had its window changed */
	size_t windows;                 /* stretches of time some process recorded in */
	int64_t recorded_ns;            /* their length */
	uint32_t opened_by, closed_by;  /* bit 1 << enum tprof_capture_why */
};

/* What MPI matching found over the whole trace (runtimes/mpi/match.c, runtimes/mpi/coll.c), window or not. */
struct mpi_totals {
	uint64_t sends, recvs;          /* message ends: sends posted, receives completed */
	uint64_t matched, matched_bytes;
	uint64_t unmatched_sends, unmatched_recvs;
	uint64_t never_completed;       /* receives posted whose completion was never recorded */
	uint64_t cancelled, proc_null;  /* operations that were no message */
	uint64_t colls, colls_incomplete, colls_name_mismatch;
	uint64_t rma_linked;            /* one-sided transfers linked to their completion at the
					 * target (runtimes/mpi/rma.c) */
	uint64_t rma_unlinked;          /* in an epoch whose end at the target was never read */
};

/* A process with a rank, wherever it is read: in the parallel analyzer each analysis process
 * reads its share and knows of the others' ranks (read/share.c). */
struct rank_home {
	int32_t rank;
	int32_t from;                   /* the analysis process that reads it (0: serial) */
	int64_t index;                  /* its number */
};

/* An MPI communicator, from the COMM records of every process (mpi-comms.c). */
struct mpi_comm {
	uint64_t id;
	uint64_t parent;                 /* 0 when none */
	uint8_t kind;                    /* enum tprof_comm_kind */
	uint32_t size, remote_size;
	int32_t *members;                /* world ranks: size of them, then remote_size (inter),
					  * as far as COMM records listed them (mpi_comm_member) */
	uint32_t known, capmembers;      /* members listed: [0, known) */
	uint32_t recorded;               /* of those, members whose process is in the trace */
	uint32_t name;                   /* trace-wide string id, 0 = none */
	int32_t self_rank;               /* TPROF_COMM_SELF: whose (one entry per rank) */
};

/* Device spans moved later by more than the timing's resolution (devorder.c), their
 * durations kept: to start at the call that launched them, or after the span before them on
 * their stream; how many, and the largest move of each kind (ns). */
struct devorder_totals {
	uint64_t to_launch, after_prev;
	int64_t to_launch_max, after_prev_max;
};

/* What the system profile's records could not be given (runtimes/sys/pipe.c). */
struct sys_totals {
	uint64_t unattributed;          /* SAMPLE, SCHED and per-thread SYSCTR records naming a
					 * thread no TASK record or process image describes */
	uint32_t first_pid, first_tid;  /* the first of them */
	int64_t first_ns;
	uint64_t unresolved;            /* addresses shown as file+0xOFF or 0xADDR */
	uint64_t missing_files;         /* ELF files that could not be read */
};

/* A job found under the directory (jobs.c): the process images whose files name its id. */
struct job {
	uint64_t id;                    /* 0: unknown (files written before jobs were recorded) */
	int64_t start_ns;               /* the earliest of its files' creation, ns since 1970 */
	uint32_t procs;                 /* its process images */
	char *command;                  /* its first process's arguments, NULL when unknown */
	int selected;                   /* analyzed */
	struct proc *first;             /* that process, when selected */
};

struct imp_fixes;
struct u64map;

struct trace {
	struct proc **procs;
	size_t nprocs;
	/* the parallel analyzer: other analysis processes' processes that clock offsets were
	 * measured against, with their timebases only (read/share.c) */
	struct proc **refs;
	size_t nrefs;
	struct rank_home *homes;        /* every process with a rank, by rank (read/share.c) */
	size_t nhomes;
	/* the parallel analyzer: the analysis process that reads each process, by number - 1
	 * (read/share.c), for what is drawn where another one's process is; NULL serially */
	int32_t *reader_of;
	size_t nreader_of;
	int64_t world_size;             /* the largest MPI_COMM_WORLD size a process saw (below
					 * 2^24), or -1 */
	struct job *jobs;               /* every job found under the directory, oldest first */
	size_t njobs;
	struct mpi_comm **comms;        /* MPI communicators, from every process's COMM records */
	size_t ncomms, capcomms;
	struct u64map comm_of;           /* while reading: communicator -> index in comms */
	int64_t start_ns, end_ns;       /* global time span of everything read */
	int undated;                    /* nothing read gives a date: an import of relative
					 * times alone, counted from its first event */
	uint64_t chunks_bad;            /* damaged chunks skipped */
	uint64_t unmatched_pops, unknown_kinds, decode_errors;
	struct capture_sum capture;     /* when the processes recorded (capture.c) */
	struct lost_proc *lost;         /* process images that left no data (read/losses.c) */
	size_t nlost;
	/* ranges shown cut because records around them were lost (pipeline.c) */
	uint64_t cut_begin, cut_end;    /* a range's begin, or its end, was lost */
	uint64_t cut_steps;             /* a step whose end (the next step's start) was lost */
	uint64_t over_limit;            /* records past what the pipeline holds open (pipeline.c) */
	uint64_t events;
	struct mpi_totals mpi;
	struct devorder_totals devorder;
	struct sysindex *sysidx;        /* threads by (host, tid), for the system images' records
					 * (system.c); NULL when there is no system image */
	struct sys_totals sys;
	char **found;                   /* framework traces found under the directory
					 * (*.pt.trace.json[.gz], *.trace.json[.gz]), to import */
	size_t nfound;
	struct imp_fixes *imp_fixes;    /* what the import changed or left out, by cause
					 * (import/fixes.h; the import's own); NULL: nothing
					 * imported */
};

/* diag.c: warnings about the input, each naming the file and offset (DIAG_NO_OFFSET: a
 * warning about a whole file or directory) */
#define DIAG_NO_OFFSET UINT64_MAX
void diag_warn(const char *path, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Records lost to damage, added to diag_records_lost (from any thread). */
void diag_lost(uint64_t records);
extern int diag_verbose;
extern int diag_quiet;              /* > 0: warnings and notes are not said (nor counted) */
extern int diag_muted;              /* > 0: nothing is said nor listed: another analysis
				     * process of the parallel analyzer says the same */
extern uint64_t diag_warnings;
extern uint64_t diag_records_lost;  /* records in damaged input that were skipped */

/* diag.c: a file (or directory) that could not be read at all, or not to its end: named in a
 * warning and listed for the summary's header (from any thread). */
void diag_unreadable(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *const *diag_unreadable_list(size_t *n);

/* fdcache.c: the chunk files' descriptors, a few open at a time */
void cfile_init(struct cfile *f, const char *path);
void cfile_init_part(struct cfile *f, struct cfile *whole, uint64_t base, uint64_t len);
void cfile_adopt(struct cfile *f, int fd);          /* fd, opened by the caller, is f's */
/* Reads at off of the file (of the part, for a part). */
ssize_t cfile_pread(struct cfile *f, void *buf, size_t n, uint64_t off);
/* The bytes there are to read: the part's, or the file's at path now (f not yet opened). */
int cfile_size(const struct cfile *f, const char *path, uint64_t *size);
void cfile_close(struct cfile *f);
/* open(2) (O_CLOEXEC added) that closes cached descriptors and tries again when the process
 * has no descriptor left. */
int fdcache_open(const char *path, int flags);

/* scan.c: finds and opens every file under a directory */
int scan_dir(struct trace *tr, const char *dir);
/* A process image that is [base, base + len) of a file (an import's images, one after
 * another in one file), added to the trace; the file (and its path) must outlive it. */
struct proc *scan_add_part(struct trace *tr, struct cfile *whole, uint64_t base, uint64_t len);
int strcmp_ptr(const void *a, const void *b);

/* jobs.c: the process images scanned, grouped by job; those of the jobs `want` names kept
 * ("all", "unknown" or a unique prefix of an id; NULL: the latest, saying so when there are
 * others), the others freed.  -1, said with the list of jobs, when want names none. */
int jobs_select(struct trace *tr, const char *want, const char *dir);
void jobs_describe(struct trace *tr);      /* once stream 0 is read: the jobs' commands */
void jobs_free(struct trace *tr);

/* tracefile.c / spoolfile.c: indexes one process image's files into stream pieces */
int tracefile_index(struct trace *tr, struct proc *p);
int spoolfile_index(struct trace *tr, struct proc *p);
void tracefile_report_damage(struct trace *tr, struct proc *p);
/* The stream of that id (made on first use), the stream if there is one, a new stream that
 * no file names (for a thread that recorded nothing). */
struct stream *proc_stream(struct proc *p, uint32_t id);
struct stream *proc_stream_find(struct proc *p, uint32_t id);
struct stream *proc_stream_new(struct proc *p);
void proc_streams_order(struct proc *p);    /* by id, once the files are indexed */
void stream_sort_pieces(struct stream *s);
void stream_add_piece(struct stream *s, const struct piece *pc);

/* stream.c: record iterator */
int stream_rewind(struct stream *s);
int stream_next(struct stream *s);   /* 1: s->rec holds the next record, 0: end */
void stream_close(struct stream *s);
uint64_t stream_records(const struct stream *s);   /* as its pieces say */

/* procstrings.c: a process's own string ids, mapped onto the trace-wide table */
void proc_string_map(struct proc *p, uint32_t local, const char *s, size_t len);
uint32_t proc_string(const struct proc *p, uint32_t local);

/* losses.c: the loss tables of spools, the marker files of process images without files, and
 * what every process and thread lost by reason, put together once every stream 0 is read */
void losses_table(struct proc *p, const uint8_t *header_page);
int losses_marker(struct trace *tr, const char *path);
void losses_apply(struct trace *tr);
void losses_report(const struct trace *tr);   /* -v: per process and thread */
void losses_free(struct trace *tr);

/* procstream.c: reads stream 0 of every process (strings, properties, threads, clocks) */
int procs_load(struct trace *tr);
/* The thread of the stream at index i of p (made on first use). */
struct thread *proc_thread(struct proc *p, size_t i);
/* The stream id the files gave a thread's stream. */
static inline uint32_t thread_stream_id(const struct thread *t)
{
	return t->proc->streams[t->stream]->id;
}

/* time-axis.c: calibrates every process's clock and gives each host its offset; trace_span then
 * finds the span of every process and of the trace (after clocksync_apply). */
void timebase_align(struct trace *tr);
void trace_span(struct trace *tr);
/* capture.c: the capture windows' changes placed on the global axis, and what they left
 * recorded (tr->capture); after trace_span. */
void capture_place(struct trace *tr);

/* clocksync.c: the CSYNC records (procstream.c adds them), turned into a correction of each
 * MPI rank's times against rank 0's once every clock is calibrated. */
void clocksync_add(struct trace *tr, struct proc *p, const struct tprof_rec *r);
void clocksync_apply(struct trace *tr);

/* mpi-comms.c: communicators from the COMM records (procstream.c adds them) */
void mpi_comms_add(struct trace *tr, struct proc *p, const struct tprof_rec *r);
void mpi_comms_finish(struct trace *tr);   /* after every process stream is read */
void mpi_comms_free(struct trace *tr);
/* The communicator with this id (TPROF_COMM_SELF: that of world rank self_rank), or NULL. */
const struct mpi_comm *trace_comm(const struct trace *tr, uint64_t id, int32_t self_rank);
/* A rank of c (of its remote group when `remote`) as a world rank; negative ranks
 * (TPROF_MPI_*) pass through; TPROF_MPI_NONE when unknown. */
int32_t mpi_comm_world_rank(const struct mpi_comm *c, int32_t rank, int remote);
/* Member i of c (its local group first, then the remote one) as a world rank, -1 where no
 * COMM record listed it. */
int32_t mpi_comm_member(const struct mpi_comm *c, size_t i);

int trace_load(struct trace *tr, const char *dir);
/* What a caller adds to the loading (load.c): `add` after the scan, `align` once every
 * recorded process is on the time axis (before the spans are found). */
struct load_hooks {
	int (*add)(struct trace *tr, void *ctx);
	void (*align)(struct trace *tr, void *ctx);
	int (*imports)(void *ctx);     /* whether files to import were given */
	void *ctx;
	const char *job;        /* the jobs under dir to read (jobs_select); NULL: the latest */
};
/* 0, -1 when nothing could be read, -2 when `job` names no job of dir (said). */
int trace_load_with(struct trace *tr, const char *dir, const struct load_hooks *h);
int trace_has_data(const struct trace *tr);
void trace_free(struct trace *tr);
void proc_free(struct proc *p);        /* one process image, and its files closed */
/* procorder.c: what a process is called, the order of processes, finding one */
const char *proc_label(const struct proc *p, char *buf, size_t len);
char *proc_command(const struct proc *p, size_t max);  /* arguments joined; malloc'd */
void trace_order(struct trace *tr);                    /* sorts processes, numbers them */
/* What orders processes (trace_order): folded ones last, system images before them, ranks
 * first in order, the rest by start time, then pid. */
struct proc_key {
	int32_t folded, sys, rank;
	int32_t pad;
	int64_t start_ns, pid;
};
struct proc_key proc_key_of(const struct proc *p);
int proc_key_cmp(const struct proc_key *x, const struct proc_key *y);
/* The bytes of a process image's files that reading it reads (a spool's blocks, not its
 * holes). */
uint64_t proc_file_bytes(const struct proc *p);
/* The process numbered `index` (1, 2, ...: trace_order), NULL when none is (nor when another
 * analysis process reads it). */
const struct proc *trace_proc_at(const struct trace *tr, int64_t index);
/* The process of a rank (the first by number when two have it), or NULL. */
const struct rank_home *trace_rank_home(const struct trace *tr, int64_t rank);
/* Whether p is shown only as part of another process, or not at all: an imported process
 * whose events go to the recorded process it belongs to, or a made process the sampler left
 * out.  Such processes are numbered after every other. */
int proc_folded(const struct proc *p);
/* The analysis process that reads process number `index` (0 serially), -1 when none does. */
int trace_reader_of(const struct trace *tr, int64_t index);

#endif

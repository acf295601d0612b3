/* main.c — tprof-analyze: reads every process image under an output directory, puts them on
 * one time axis, and writes the summary and/or a trace (Chrome JSON, Perfetto's protobuf
 * trace, an OTF2 archive or an SQLite database) in one streaming pass. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "../common/deflate.h"
#include "../common/xalloc.h"
#include "import/import.h"
#include "render/otf2/otf2.h"
#include "render/sqlite/sqlite-out.h"
#include "render/html/html.h"
#include "model/output.h"
#include "render/chrome/chrome.h"
#include "render/perfetto/perfetto.h"
#include "render/split/split.h"
#include "parallel/par.h"
#include "read/share.h"
#include "summary/summary.h"
#include "diff/diff.h"
#include "diagnose/diagnosis.h"
#include "diagnose/overview.h"
#include "hang/hang.h"
#include "summary/write.h"
#include "summary/spread.h"
#include "util/outname.h"
#include "util/progress.h"
#include "runtimes/registry.h"
#include "model/tracks.h"

struct options {
	const char *dir;
	int summary;
	int summary_format;      /* enum summary_format */
	int tables;              /* -s, --summary given: the summary's tables */
	int diagnose;            /* --diagnose */
	const char *diff;        /* --diff B */
	int diff_data;           /* --diff-data */
	const char *format;
	const char *out;
	const char *start, *end, *steps;
	int top;
	size_t rank_rows;        /* --ranks: 0 for all */
	int group_by;            /* enum tracks_group */
	int otf2;
	int perfetto;
	int sqlite;
	int html;                /* --format html: the report page */
	int progress;            /* enum progress_mode */
	const char *split;       /* --split, as given */
	struct split_spec split_spec;
	const char **imports;    /* --import, in order */
	size_t nimports;
	const char *import_steps;
	const char *import_offset;
	int64_t import_offset_ns;
	const char *label;       /* what the outputs call the input: DIR, or the first import */
	const char *job;         /* --job: which of DIR's jobs; NULL: the latest */
	int parallel;            /* --parallel: one of the analysis processes mpirun started */
	int live;                /* --live */
	int once;                /* --once */
	double interval;         /* --interval S: seconds between two views of --live */
	int live_over;           /* --live: no process of the job runs any more */
};

static void usage(FILE *f)
{
	fputs("Usage: tprof-analyze DIR [OPTIONS]\n"
	      "       tprof-analyze [DIR] --import FILE [--import FILE...] [OPTIONS]\n"
	      "Read the profile tprof-inspect (or TPROF_ENABLE=1) wrote to DIR and report on it.\n"
	      "\n"
	      "Outputs (with neither, --summary is implied):\n"
	      "  -s, --summary          print tables: ranges, kernels and API calls by total time\n"
	      "                         (Total(%), Time, Calls, Avg, Min, Max, Name); per device\n"
	      "                         the busy share and idle gaps; copies by direction;\n"
	      "                         steps, marks, counters; MPI by rank, messages,\n"
	      "                         collectives and clock alignment; NCCL collectives\n"
	      "                         with bus bandwidth and wait, send/receive traffic\n"
	      "      --summary-format FMT, --summary=FMT\n"
	      "                         the summary as 'text' (the tables, the default) or\n"
	      "                         'json' (one JSON document with every table and\n"
	      "                         figure: exact counts, ns and bytes, units in the\n"
	      "                         keys; see summary-json.md); implies --summary\n"
	      "      --diagnose         answers, before the tables (or alone without -s): the\n"
	      "                         findings ranked by the time they cost (who came late\n"
	      "                         to which collective or message, host-bound launches,\n"
	      "                         kernels held back by copies, waiting for a CPU), each\n"
	      "                         with what caused it and the command that writes its\n"
	      "                         time as a Perfetto trace; where each step's time went\n"
	      "                         on each process (compute, copies, waiting for others,\n"
	      "                         collectives, runtime calls, host outside calls,\n"
	      "                         waiting for a CPU, idle); each step's spread over the\n"
	      "                         ranks; wait states by kind and place.  Text, or JSON\n"
	      "                         with --summary-format json (a \"diagnosis\" object);\n"
	      "                         with --format sqlite also the database's diag_ tables\n"
	      "      --diff B           what changed from DIR (A) to the profile B: per kernel,\n"
	      "                         copy, API call, MPI collective, part of the step time\n"
	      "                         and step length, the count and time in each and their\n"
	      "                         change, the per-step means and standard deviations,\n"
	      "                         and whether the change stands out of the step-to-step\n"
	      "                         noise (more, less, within noise; new, gone); the\n"
	      "                         largest changes first.  Text, or JSON with\n"
	      "                         --summary-format json; --steps, --start and --end\n"
	      "                         apply to both\n"
	      "      --diff-data        what --diff compares, of DIR alone, as JSON (the items'\n"
	      "                         time in each step)\n"
	      "      --live             DIR as it is now, while its job runs (read only: the\n"
	      "                         processes are neither stopped nor slowed), or as a\n"
	      "                         killed job left it: the findings, causes first (who\n"
	      "                         has not entered the collective the others wait in and\n"
	      "                         what it does instead, deadlocks, mismatched\n"
	      "                         collectives, device work that does not end, processes\n"
	      "                         gone); each process's call in progress and for how\n"
	      "                         long, its step, its device work not finished; the\n"
	      "                         newest collective each rank entered and left; messages\n"
	      "                         without their other end.  Again every --interval\n"
	      "                         seconds until no process runs (or ^C).  Text, or JSON\n"
	      "                         with --summary-format json\n"
	      "      --once             with --live: one view, then exit\n"
	      "      --interval S       with --live: seconds between two views (0.1 to 3600,\n"
	      "                         default 2), longer when a view takes more than a\n"
	      "                         tenth of that in CPU time; the views run at nice 10\n"
	      "  -f, --format FORMAT    write a trace: FORMAT is 'chrome' (trace-event JSON for\n"
	      "                         Perfetto and chrome://tracing), 'perfetto' (Perfetto's\n"
	      "                         own protobuf trace, for ui.perfetto.dev and trace\n"
	      "                         processor: several times smaller than chrome's .json.gz),\n"
	      "                         'otf2' (an OTF2 archive for Vampir and the Score-P tools)\n"
	      "                         'sqlite' (an SQLite database for SQL: slices, device\n"
	      "                         operations, MPI messages, collectives...; see\n"
	      "                         sqlite-schema.md) or 'html' (a report: one page, opened\n"
	      "                         offline in any browser, that draws the findings of\n"
	      "                         --diagnose, where the time went, the steps and the top\n"
	      "                         kernels, calls and collectives from the numbers of\n"
	      "                         --diagnose --summary-format json)\n"
	      "  -o, --output FILE      where the trace goes; without --format its name's\n"
	      "                         ending chooses the format (.json, .gz: chrome;\n"
	      "                         .pftrace, .perfetto-trace: perfetto; .db, .sqlite,\n"
	      "                         .sqlite3: sqlite; .html, .htm: html; anything else:\n"
	      "                         chrome), and with\n"
	      "                         --format it must not name another.  Directories above\n"
	      "                         FILE that are missing are made.  chrome: a file\n"
	      "                         (default NAME.json.gz in the current directory, NAME\n"
	      "                         the profile directory's own name); a name ending in\n"
	      "                         .gz is gzip-compressed; '-' is standard output.\n"
	      "                         perfetto: a file (default NAME.pftrace; compressed\n"
	      "                         inside, never gzipped) or '-'.\n"
	      "                         otf2: a directory, required, that must not exist or be\n"
	      "                         empty; the archive's anchor file is FILE/traces.otf2.\n"
	      "                         sqlite: a file, required; an existing FILE is replaced\n"
	      "                         only if it is empty or a database tprof wrote, and only\n"
	      "                         once the new one is complete.  html: a file (default\n"
	      "                         NAME.html) or '-'\n"
	      "      --group-by WHAT    tracks grouped by 'process' (the default: each process\n"
	      "                         with its threads, device streams and NeuronCores), by\n"
	      "                         'domain' (API calls, GPU kernels, copies and NeuronCores\n"
	      "                         each across all processes), by 'neuroncore' (a group\n"
	      "                         'nc N' per NeuronCore number, a track per process in\n"
	      "                         it) or by 'instance' (a group per host, with its\n"
	      "                         instance type, holding its processes' tracks); chrome\n"
	      "                         and perfetto only\n"
	      "      --split steps:N, --split size:MB\n"
	      "                         write the trace as a series of files a viewer can open\n"
	      "                         each alone: N training steps a part, or parts of about\n"
	      "                         MB megabytes of JSON (uncompressed, also for .gz); an\n"
	      "                         item goes to the part in which it ends, an arrow with\n"
	      "                         the slice it ends in.  FILE.json.gz becomes\n"
	      "                         FILE.part-0001.json.gz... and FILE.index.json, which\n"
	      "                         lists each part's file, time range, steps and counts;\n"
	      "                         chrome, and perfetto with steps:N (FILE.pftrace\n"
	      "                         becomes FILE.part-0001.pftrace...)\n"
	      "\n"
	      "Restricting every output to a window:\n"
	      "      --start US         from US microseconds after the trace start\n"
	      "      --end US           up to US microseconds after the trace start\n"
	      "      --steps A:B        from the start of training step A to the end of step B\n"
	      "                         (a single number selects one step); imported\n"
	      "                         ProfilerStep#N count when the profile has none\n"
	      "\n"
	      "Framework traces (Chrome trace-event JSON: PyTorch, Kineto, JAX, ...):\n"
	      "      --import FILE      merge FILE (plain or gzipped; repeatable) with the\n"
	      "                         profile; files named *.pt.trace.json[.gz] or\n"
	      "                         *.trace.json[.gz] under DIR are merged without it.\n"
	      "                         Without DIR: FILE alone is converted (--format and\n"
	      "                         -o, or --summary).  Placed by absolute time\n"
	      "                         (baseTimeNanoseconds, epoch timestamps), else by\n"
	      "                         matching its steps to the profile's, else by\n"
	      "                         --import-offset; -v says how\n"
	      "      --import-steps REGEX\n"
	      "                         the names of the file's step slices, an extended\n"
	      "                         regular expression whose first group is the step\n"
	      "                         number (default '^ProfilerStep#([0-9]+)$')\n"
	      "      --import-offset US the file's first event US microseconds after the\n"
	      "                         profile's start, when it has no absolute time and no\n"
	      "                         step in common with the profile\n"
	      "\n"
	      "Jobs (each run of tprof-inspect, or of a launcher, is one; its files say which):\n"
	      "      --job ID           analyze the job ID (its first hex digits are enough\n"
	      "                         when no other job's id starts with them; 'unknown' for\n"
	      "                         files recorded before jobs were), or 'all' of DIR's\n"
	      "                         jobs together.  Without it, a DIR holding several jobs\n"
	      "                         gives the latest (the one whose first file was created\n"
	      "                         last) and a line on stderr naming it and the others\n"
	      "\n"
	      "Other options:\n"
	      "      --top N            show only the first N rows of each table\n"
	      "      --ranks N, --ranks all\n"
	      "                         the summary's text lists each process, and shows each\n"
	      "                         row of its per-rank tables (devices, idle gaps,\n"
	      "                         NeuronCores, MPI by rank, clock alignment, NCCL\n"
	      "                         send/receive pairs), up to N of them (16 by default);\n"
	      "                         past N, one line for all processes with only the\n"
	      "                         unusual ones listed, and of each table the rows with\n"
	      "                         the least, median and most of its main column; 'all':\n"
	      "                         every one.  JSON has every row either way\n"
	      "      --parallel         be one of K analysis processes started by\n"
	      "                         'mpirun -np K': each reads its share of DIR, the first\n"
	      "                         writes the summary (and --diagnose), the same as one\n"
	      "                         process's; with\n"
	      "                         --format otf2 each writes its share's locations into\n"
	      "                         one archive; with --format chrome or perfetto each\n"
	      "                         writes a part (OUT's stem + .part-NNNN), the first an\n"
	      "                         index (stem + .index.json); with --format sqlite each\n"
	      "                         writes a part that the first merges into FILE;\n"
	      "                         with --split steps:N each writes its share's part of\n"
	      "                         every group of steps, with --split size:MB parts of\n"
	      "                         its share; a host with a system profile is one\n"
	      "                         analysis process's; an imported trace is read by\n"
	      "                         one and placed by the one that reads its process\n"
	      "  -v, --verbose          say more about what is read (clock offsets, what was left\n"
	      "                         unmatched, device spans moved more than 1 us to keep\n"
	      "                         their stream in order)\n"
	      "      --progress         show how far reading and merging have got (records\n"
	      "                         read of all, rate, time left) on one line of stderr,\n"
	      "                         even when it is not a terminal; by default the line\n"
	      "                         appears only on a terminal, after the first second\n"
	      "      --no-progress      never show it\n"
	      "  -h, --help             show this help\n"
	      "  -V, --version          show the version\n"
	      "\n"
	      "Damaged files are reported (file and offset) and skipped; everything else is still\n"
	      "read.  Exit status: 0 when something was read, 1 when nothing could be, 2 for a\n"
	      "usage error.\n",
	      f);
}

static int bad_usage(const char *fmt, const char *arg)
{
	fputs("tprof-analyze: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'tprof-analyze --help'.\n", stderr);
	return 2;
}

static int summary_format(const char *s, struct options *o)
{
	if (!strcmp(s, "text"))
		o->summary_format = SUMMARY_TEXT;
	else if (!strcmp(s, "json"))
		o->summary_format = SUMMARY_JSON;
	else
		return -1;
	return 0;
}

/* The formats' file names, by how they end: a name given to -o says its format when --format
 * does not, and must not say another.  An OTF2 archive is a directory; *.otf2 is its anchor
 * file, inside it. */
static const struct {
	const char *end, *format, *names;
} name_formats[] = {
	{ ".json", "chrome", "a name ending in .json or .json.gz" },
	{ ".gz", "chrome", "a name ending in .json or .json.gz" },
	{ ".pftrace", "perfetto", "a name ending in .pftrace" },
	{ ".perfetto-trace", "perfetto", "a name ending in .pftrace" },
	{ ".db", "sqlite", "a name ending in .db or .sqlite" },
	{ ".sqlite", "sqlite", "a name ending in .db or .sqlite" },
	{ ".sqlite3", "sqlite", "a name ending in .db or .sqlite" },
	{ ".otf2", "otf2", "a directory (its anchor file is DIR/traces.otf2)" },
	{ ".html", "html", "a name ending in .html or .htm" },
	{ ".htm", "html", "a name ending in .html or .htm" },
};

/* The format a name given to -o says, or NULL (no known ending); *i: its entry. */
static const char *format_of_name(const char *path, size_t *i)
{
	size_t n = strlen(path);
	for (*i = 0; *i < sizeof(name_formats) / sizeof(name_formats[0]); ++*i) {
		size_t m = strlen(name_formats[*i].end);
		if (n > m && !strcmp(path + n - m, name_formats[*i].end) && path[n - m - 1] != '/')
			return name_formats[*i].format;
	}
	return NULL;
}

/* The name's format, when it says one, must be the one asked for (or becomes it). */
static int output_format(struct options *o)
{
	size_t i;
	const char *said = o->out && strcmp(o->out, "-") ? format_of_name(o->out, &i) : NULL;
	if (said && !strcmp(said, "otf2") && !o->format) {
		fprintf(stderr, "tprof-analyze: -o %s: an OTF2 archive is a directory, which holds "
				"its anchor file traces.otf2: give --format otf2 -o DIR\n", o->out);
		return 2;
	}
	if (!o->format && o->out)
		o->format = said ? said : "chrome";
	if (!said || !strcmp(said, o->format))
		return 0;
	const char *wants = "";
	for (size_t k = 0; k < sizeof(name_formats) / sizeof(name_formats[0]); k++)
		if (!strcmp(name_formats[k].format, o->format)) {
			wants = name_formats[k].names;
			break;
		}
	fprintf(stderr, "tprof-analyze: -o %s is a name for --format %s, not %s: give --format %s, "
			"or -o %s\nTry 'tprof-analyze --help'.\n", o->out, said, o->format, said, wants);
	return 2;
}

/* The long options without a short one, by the number getopt_long returns for each. */
enum { OPT_START = 1, OPT_END, OPT_STEPS, OPT_TOP, OPT_GROUP_BY, OPT_SUMMARY_FORMAT,
       OPT_PROGRESS = 8, OPT_NO_PROGRESS, OPT_SPLIT, OPT_IMPORT, OPT_IMPORT_STEPS,
       OPT_IMPORT_OFFSET, OPT_JOB, OPT_RANKS, OPT_PARALLEL, OPT_DIAGNOSE, OPT_DIFF,
       OPT_DIFF_DATA, OPT_LIVE, OPT_ONCE, OPT_INTERVAL };

/* Every long option, for getopt_long (short ones: ":sf:o:vhV"). */
static const struct option long_options[] = {
	{ "summary", optional_argument, NULL, 's' },
	{ "summary-format", required_argument, NULL, OPT_SUMMARY_FORMAT },
	{ "diagnose", no_argument, NULL, OPT_DIAGNOSE },
	{ "diff", required_argument, NULL, OPT_DIFF },
	{ "diff-data", no_argument, NULL, OPT_DIFF_DATA },
	{ "live", no_argument, NULL, OPT_LIVE },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "start", required_argument, NULL, OPT_START },
	{ "end", required_argument, NULL, OPT_END },
	{ "steps", required_argument, NULL, OPT_STEPS },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "ranks", required_argument, NULL, OPT_RANKS },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "split", required_argument, NULL, OPT_SPLIT },
	{ "import", required_argument, NULL, OPT_IMPORT },
	{ "import-steps", required_argument, NULL, OPT_IMPORT_STEPS },
	{ "import-offset", required_argument, NULL, OPT_IMPORT_OFFSET },
	{ "job", required_argument, NULL, OPT_JOB },
	{ "parallel", no_argument, NULL, OPT_PARALLEL },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* --top N: the rows each table shows. */
static int set_top(const char *arg, struct options *o)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (*end || end == arg || n < 0 || n > 1000000)
		return bad_usage("--top: '%s' is not a number of rows", arg);
	o->top = (int)n;
	return 0;
}

/* --ranks N|all: the rows of per-rank tables the summary's text shows. */
static int set_ranks(const char *arg, struct options *o)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (!strcmp(arg, "all"))
		o->rank_rows = 0;
	else if (*end || end == arg || n < 1 || n > 1000000)
		return bad_usage("--ranks: '%s' is neither 'all' nor a number of rows", arg);
	else
		o->rank_rows = (size_t)n;
	return 0;
}

/* --group-by WHAT: how the trace's tracks are grouped. */
static int set_group_by(const char *arg, struct options *o)
{
	if (!strcmp(arg, "process"))
		o->group_by = TRACKS_BY_PROCESS;
	else if (!strcmp(arg, "domain"))
		o->group_by = TRACKS_BY_DOMAIN;
	else if (!strcmp(arg, "neuroncore"))
		o->group_by = TRACKS_BY_NEURONCORE;
	else if (!strcmp(arg, "instance"))
		o->group_by = TRACKS_BY_INSTANCE;
	else
		return bad_usage("--group-by: unknown grouping '%s' (known: process, domain, "
				 "neuroncore, instance)", arg);
	return 0;
}

/* --import FILE: one more file to merge, after those given before it. */
static void add_import(const char *arg, struct options *o)
{
	o->imports = xreallocarray(o->imports, o->nimports + 1, sizeof(*o->imports));
	o->imports[o->nimports++] = arg;
}

/* --import-offset US: where an imported file starts, kept as given and in ns. */
static int set_import_offset(const char *arg, struct options *o)
{
	char *end;
	errno = 0;
	double us = strtod(arg, &end);
	if (errno || end == arg || *end || !(us > -9.2e12 && us < 9.2e12))
		return bad_usage("--import-offset: '%s' is not a time in microseconds", arg);
	o->import_offset = arg;
	o->import_offset_ns = (int64_t)(us * 1000.0 + (us < 0 ? -0.5 : 0.5));
	return 0;
}

/* Applies to o the option getopt_long returned as c, its value in optarg; 2: a usage error
 * was said.  --help and --version print and exit. */
static int apply_option(int c, char **argv, struct options *o)
{
	switch (c) {
	case 's':
		o->summary = 1;
		o->tables = 1;
		if (optarg && summary_format(optarg, o) < 0)
			return bad_usage("--summary: unknown summary format '%s' (known: "
					 "text, json)", optarg);
		break;
	case OPT_SUMMARY_FORMAT:
		o->summary = 1;
		if (summary_format(optarg, o) < 0)
			return bad_usage("--summary-format: unknown format '%s' (known: "
					 "text, json)", optarg);
		break;
	case 'f': o->format = optarg; break;
	case 'o': o->out = optarg; break;
	case OPT_START: o->start = optarg; break;
	case OPT_END: o->end = optarg; break;
	case OPT_STEPS: o->steps = optarg; break;
	case OPT_TOP: return set_top(optarg, o);
	case OPT_RANKS: return set_ranks(optarg, o);
	case OPT_GROUP_BY: return set_group_by(optarg, o);
	case OPT_PROGRESS: o->progress = PROGRESS_ON; break;
	case OPT_NO_PROGRESS: o->progress = PROGRESS_OFF; break;
	case OPT_SPLIT:
		o->split = optarg;
		if (split_parse(optarg, &o->split_spec) < 0)
			return bad_usage("--split: '%s' is not steps:N (N >= 1) or size:MB "
					 "(a number of megabytes, from 0.01)", optarg);
		break;
	case OPT_IMPORT: add_import(optarg, o); break;
	case OPT_IMPORT_STEPS: o->import_steps = optarg; break;
	case OPT_IMPORT_OFFSET: return set_import_offset(optarg, o);
	case OPT_JOB:
		if (!*optarg)
			return bad_usage("--job: '%s' is not a job (an id or its start, "
					 "'unknown', 'all')", optarg);
		o->job = optarg;
		break;
	case OPT_PARALLEL: o->parallel = 1; break;
	case OPT_DIAGNOSE: o->diagnose = 1; break;
	case OPT_DIFF: o->diff = optarg; break;
	case OPT_DIFF_DATA: o->diff_data = 1; break;
	case OPT_LIVE: o->live = 1; break;
	case OPT_ONCE: o->once = 1; break;
	case OPT_INTERVAL: {
		char *end;
		errno = 0;
		o->interval = strtod(optarg, &end);
		if (errno || end == optarg || *end || !(o->interval >= 0.1 && o->interval <= 3600))
			return bad_usage("--interval: '%s' is not a number of seconds from 0.1 to "
					 "3600", optarg);
		break;
	}
	case 'v': diag_verbose++; break;
	case 'h': usage(stdout); exit(0);
	case 'V': printf("tprof-analyze (tprof) %s\n", PACKAGE_VERSION); exit(0);
	case ':': return bad_usage("option '%s' needs a value", argv[optind - 1]);
	default:
		return bad_usage("unknown option '%s'", argv[optind - 1]);
	}
	return 0;
}

/* Every option, in the order given, up to the first error. */
static int read_options(int argc, char **argv, struct options *o)
{
	opterr = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":sf:o:vhV", long_options, NULL)) != -1) {
		int rc = apply_option(c, argv, o);
		if (rc)
			return rc;
	}
	return 0;
}

/* DIR, the one argument after the options (none with --import), and the options that need
 * DIR or an import. */
static int read_directory(int argc, char **argv, struct options *o)
{
	if (optind >= argc && !o->nimports)
		return bad_usage("%s", "no directory given");
	if (optind + 1 < argc)
		return bad_usage("unexpected argument '%s' (one directory at a time)",
				 argv[optind + 1]);
	o->dir = optind < argc ? argv[optind] : NULL;
	o->label = o->dir ? o->dir : o->imports[0];
	if (o->job && !o->dir)
		return bad_usage("%s", "--job chooses among the jobs of DIR: give DIR");
	if ((o->import_steps || o->import_offset) && !o->nimports && !o->dir)
		return bad_usage("%s", "--import-steps and --import-offset need --import or DIR");
	return 0;
}

/* The trace's format: a known one, which the name -o gives agrees with (or chooses). */
static int choose_format(struct options *o)
{
	if (o->format && strcmp(o->format, "chrome") && strcmp(o->format, "perfetto") &&
	    strcmp(o->format, "otf2") && strcmp(o->format, "sqlite") && strcmp(o->format, "html"))
		return bad_usage("--format: unknown format '%s' (known: chrome, perfetto, otf2, "
				 "sqlite, html)",
				 o->format);
	int rc = output_format(o);
	if (rc)
		return rc;
	o->otf2 = o->format && !strcmp(o->format, "otf2");
	o->perfetto = o->format && !strcmp(o->format, "perfetto");
	return 0;
}

/* What the format needs of -o, and whether it can group its tracks. */
static int check_format_output(struct options *o)
{
	if (!o->dir && o->format && !o->out)
		return bad_usage("%s", "converting with --import and no DIR: --format needs -o");
	if (o->otf2 && !o->out)
		return bad_usage("%s", "--format otf2 needs -o DIR (a new or empty directory)");
	if (o->otf2 && !strcmp(o->out, "-"))
		return bad_usage("%s", "--format otf2 writes a directory: '-o -' is not possible");
	if (o->otf2 && o->group_by != TRACKS_BY_PROCESS)
		return bad_usage("%s", "--group-by is for --format chrome and perfetto");
	o->sqlite = o->format && !strcmp(o->format, "sqlite");
	if (o->sqlite && !o->out)
		return bad_usage("%s", "--format sqlite needs -o FILE (the database to write)");
	if (o->sqlite && !strcmp(o->out, "-"))
		return bad_usage("%s", "--format sqlite writes a file: '-o -' is not possible");
	if (o->sqlite && o->group_by != TRACKS_BY_PROCESS)
		return bad_usage("%s", "--group-by is for --format chrome and perfetto");
	o->html = o->format && !strcmp(o->format, "html");
	if (o->html && o->group_by != TRACKS_BY_PROCESS)
		return bad_usage("%s", "--group-by is for --format chrome and perfetto");
	return 0;
}

/* --split, the window and the summary, against the trace chosen (no trace: a summary). */
static int check_split_window_summary(struct options *o)
{
	if (o->split && (!o->format || o->otf2 || o->sqlite || o->html))
		return bad_usage("%s", "--split is for a trace written with --format chrome or "
				 "perfetto");
	if (o->split && o->perfetto && o->split_spec.mode == SPLIT_SIZE)
		return bad_usage("%s", "--split size:MB is for --format chrome "
				 "(perfetto: steps:N)");
	if (o->split && o->out && !strcmp(o->out, "-"))
		return bad_usage("%s", "--split writes several files: '-o -' is not possible");
	if (o->steps && (o->start || o->end))
		return bad_usage("%s", "--steps cannot be combined with --start/--end");
	if ((o->diff || o->diff_data) && (o->format || o->parallel || o->nimports || o->split ||
					  o->diagnose || o->tables || !o->dir))
		return bad_usage("%s", "--diff and --diff-data compare profiles: not with --format, "
				 "--parallel, --import, --split, --diagnose or -s, and with DIR");
	if (o->once && !o->live)
		return bad_usage("%s", "--once is for --live");
	if (o->interval && !o->live)
		return bad_usage("%s", "--interval is for --live");
	if (o->live && (o->format || o->parallel || o->nimports || o->split || o->diagnose ||
			o->tables || o->diff || o->diff_data || o->steps || o->start || o->end ||
			!o->dir))
		return bad_usage("%s", "--live reads DIR as it is now: not with --format, "
				 "--parallel, --import, --split, --diagnose, -s, --diff or a window");
	if (o->live) {
		o->summary = 0;   /* --summary-format: the view's */
		return 0;
	}
	if (o->diff && o->diff_data)
		return bad_usage("%s", "--diff B runs --diff-data itself: give one of them");
	if (o->diff_data)
		return 0;
	if (!o->format || o->diagnose)
		o->summary = 1;
	if (o->summary && o->format && o->out && !strcmp(o->out, "-"))
		return bad_usage("%s", "--summary and '-o -' would both write to standard output");
	return 0;
}

/* The command line into o, each step checking what it reads; 2: a usage error was said. */
static int parse_args(int argc, char **argv, struct options *o)
{
	int rc = read_options(argc, argv, o);
	if (!rc)
		rc = read_directory(argc, argv, o);
	if (!rc)
		rc = choose_format(o);
	if (!rc)
		rc = check_format_output(o);
	if (!rc)
		rc = check_split_window_summary(o);
	return rc;
}

static int time_window(struct options *o, struct trace *tr, struct window *w)
{
	w->start = 0;
	w->end = INT64_MAX;
	if (o->steps)
		return window_from_steps(tr, o->steps, w);
	if (!o->start && !o->end)
		return 0;
	if (o->start && window_parse_time(o->start, &w->start) < 0) {
		diag_error("--start: '%s' is not a time in microseconds", o->start);
		return -1;
	}
	if (o->end && window_parse_time(o->end, &w->end) < 0) {
		diag_error("--end: '%s' is not a time in microseconds", o->end);
		return -1;
	}
	if (w->end < w->start) {
		diag_error("--end is before --start");
		return -1;
	}
	w->active = 1;
	snprintf(w->desc, sizeof(w->desc), "--start %s --end %s", o->start ? o->start : "0",
		 o->end ? o->end : "(end)");
	return 0;
}

/* Without -o: NAME.EXT in the current directory, NAME the profile directory's own name (its
 * real one: "." and ".." name the directories they are). */
static char *default_output(const char *dir, const char *ext)
{
	char *real = realpath(dir, NULL);
	const char *name = real ? real : dir;
	size_t n = strlen(name);
	while (n > 1 && name[n - 1] == '/')
		n--;
	const char *base = name + n;
	while (base > name && base[-1] != '/')
		base--;
	size_t len = (size_t)(name + n - base);
	if (!len || (len == 1 && *base == '/') || (len <= 2 && !strncmp(base, "..", len)))
		base = "tprof", len = 5;
	char *p = xmalloc(len + strlen(ext) + 1);
	memcpy(p, base, len);
	strcpy(p + len, ext);
	free(real);
	return p;
}

static struct scene_renderer make_chrome(const char *path, void *ctx)
{
	(void)ctx;
	return render_chrome(path);
}

static struct scene_renderer make_perfetto(const char *path, void *ctx)
{
	(void)ctx;
	return render_perfetto(path);
}

/* --split: the parts' renderers, and for steps:N the parts' steps (one more pass). */
static int split_output(struct options *o, struct trace *tr, const struct window *w,
			const char *path, struct output *out, const struct runtime_set *rts)
{
	struct split_opts so = { .spec = o->split_spec, .start = w->active ? w->start : 0,
				 .end = w->active ? w->end : INT64_MAX,
				 .format = o->perfetto ? "perfetto" : "chrome",
				 .label = o->perfetto ? "Perfetto" : "Chrome" };
	struct split_group *g = NULL;
	if (!o->split) {                 /* --parallel: a part per analysis process */
		so.spec.mode = SPLIT_PROCESS;
		snprintf(so.spec.text, sizeof(so.spec.text), "parallel:%d", par_size());
	}
	if (so.spec.mode == SPLIT_STEPS) {
		size_t n;
		struct step_start *v = window_step_starts(tr, &n);
		so.ngroups = split_group_steps(v, n, so.spec.steps, so.start, so.end, &g);
		free(v);
		if (!so.ngroups) {
			diag_error("--split %s: %s (record them with tprof_step)", o->split,
				   n ? "no step starts in the window" : "the trace has no steps");
			free(g);
			return -1;
		}
		so.groups = g;
	}
	*out = output_scene(render_split(path, &so, o->perfetto ? make_perfetto : make_chrome, NULL),
			    o->group_by, rts);
	free(g);
	return 0;
}

/* Whether the trace is written in parts: --split, or a Chrome or Perfetto trace under
 * --parallel (one per analysis process). */
static int parts(const struct options *o)
{
	return o->split || (o->format && !o->otf2 && !o->sqlite && !o->html && par_size() > 1);
}

/* Refuses, before the (long) reading starts, an output whose name holds what it may not
 * replace, or whose directory cannot take it (util/outname.h). */
static int check_output(const struct options *o, const char *path)
{
	const struct out_format *f = o->otf2 ? &otf2_format : o->sqlite ? &sqlite_format
				   : o->html ? &html_format : o->perfetto ? &perfetto_format
				   : &chrome_format;
	if ((parts(o) ? split_check(path, f) : outname_check(path, f)) < 0) {
		diag_error("%s", outname_error());
		return -1;
	}
	return 0;
}

/* --format html: the summary the page draws, as JSON with the diagnosis and every table. */
struct html_summary {
	const struct options *o;
	const struct window *win;
	const struct runtime_set *rts;
	struct diagnosis *dx;
};

static struct output html_summary(FILE *f, void *ctx)
{
	const struct html_summary *hs = ctx;
	summary_set_window(hs->win);
	summary_set_rank_rows(hs->o->rank_rows);
	summary_set_runtimes(hs->rts);
	summary_set_part(&diagnosis_summary_part, hs->dx, 0);
	return output_summary_as(f, hs->o->label, hs->o->top, SUMMARY_JSON);
}

/* Streams from a thousand processes need a thousand descriptors. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* ---- --parallel: one of K analysis processes under mpirun ---------------------------------- */

/* Said once, by the first analysis process. */
static int parallel_error(const char *what)
{
	if (par_rank() == 0)
		fprintf(stderr, "tprof-analyze: --parallel: %s; run tprof-analyze as one process "
				"(without mpirun) for it\n", what);
	return 2;
}

/* What the analysis processes do not yet share between them, among the options. */
static int parallel_options(const struct options *o)
{
	if (par_size() < 2)
		return 0;
	if (o->nimports && !o->dir)
		return parallel_error("--import without a profile directory is not computed in "
				      "parallel");
	return 0;
}

/* What the analysis processes do not yet share between them, in the profile (every one
 * decides alike). */
static int parallel_refuses(const struct trace *tr, const struct import_set *imports)
{
	if (par_size() < 2)
		return 0;
	if (imports->home_elsewhere) {
		char why[1200];
		snprintf(why, sizeof(why), "the process of the imported %s was read by another "
			 "analysis process than the file (the profile's files are not named "
			 "<host>.<pid>.*)", imports->home_elsewhere);
		return parallel_error(why), 1;
	}
	const char *host = share_system_split(tr);
	if (host) {
		char why[512];
		snprintf(why, sizeof(why), "the processes of host %s, which has a system image, were "
			 "read by different analysis processes (its files are not all named "
			 "%s.<pid>.*.tpf, or its system images were written before their file "
			 "header said so)", host, host);
		return parallel_error(why), 1;
	}
	return 0;
}

/* -v under --parallel: what this analysis process read, the time (since it started, MPI's
 * start included) and memory it took, and what it sent and received of the others. */
static void parallel_report(const struct trace *tr, const struct timespec *t0)
{
	if (par_size() < 2 || !diag_verbose)
		return;
	struct timespec t1;
	struct rusage ru;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru);
	uint64_t bytes = 0, sent, received;
	for (size_t i = 0; i < tr->nprocs; i++)
		bytes += proc_file_bytes(tr->procs[i]);
	par_traffic(&sent, &received);
	double wall = (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
	double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	diag_note("analysis process %d of %d: %zu processes, %" PRIu64 " bytes of files read; "
		  "%.3f s wall, %.3f s CPU, peak RSS %ld KiB; %" PRIu64 " bytes sent to the others, "
		  "%" PRIu64 " received", par_rank(), par_size(), tr->nprocs, bytes, wall, cpu,
		  ru.ru_maxrss, sent, received);
}

/* Every output put in place, or none: under --parallel when every analysis process
 * succeeded, the first one's last (its outputs name the others': an index, an archive's
 * anchor).  -1 when something of this one's could not be put in place (said). */
static int parallel_release(int rc)
{
	int64_t failed = rc != 0;
	if (par_size() > 1)
		par_max_i64(&failed, 1);
	int released = 0;
	if (par_rank() != 0)
		released = outname_release(!failed);
	int64_t any = released < 0;
	if (par_size() > 1)
		par_max_i64(&any, 1);     /* the others' are in place (or could not be) */
	if (par_rank() == 0)
		released = outname_release(!failed && !any);
	if (released < 0 && !failed && (!any || par_rank() != 0))
		diag_error("%s", outname_error());
	return failed || any || released < 0 ? -1 : 0;
}

/* Whether any analysis process read something. */
static int parallel_has_data(const struct trace *tr)
{
	int64_t has = trace_has_data(tr);
	par_max_i64(&has, 1);
	return has != 0;
}

/* --live beside a running job takes what CPU the job leaves: its views at a lower priority
 * (nice 10, or the one it was given if lower), and at most a tenth of a CPU in all, the next
 * view waiting ten times as long as the last one's CPU time when that is more than
 * --interval (a view reads the whole profile again). */
enum { LIVE_NICE = 10, LIVE_CPU_SHARE_INV = 10 };

static void live_step_aside(void)
{
	errno = 0;
	int now = getpriority(PRIO_PROCESS, 0);
	if (!(now == -1 && errno) && now < LIVE_NICE)
		setpriority(PRIO_PROCESS, 0, LIVE_NICE);   /* before any thread: they inherit it */
}

/* The CPU time of the whole process (all its threads), in seconds. */
static double process_cpu_s(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One view of --live: the report written whole, the screen cleared first when it is a
 * terminal and views follow each other. */
static void live_show(struct hang *hg, const struct options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return;
	struct sumw w;
	sw_init(&w, f, (enum summary_format)o->summary_format);
	sw_obj(&w, NULL);
	sw_str(&w, NULL, "format", "tprof-live");
	sw_u64(&w, NULL, "version", 1);
	hang_write(hg, &w, o->dir);
	sw_close(&w);
	sw_finish(&w);
	fclose(f);
	if (!o->once && isatty(STDOUT_FILENO))
		fputs("\033[H\033[2J", stdout);
	fwrite(buf, 1, len, stdout);
	fflush(stdout);
	free(buf);
}

static int analyze(struct options *op, const struct timespec *t0)
{
	struct options o = *op;
	struct trace tr = { 0 };
	int rc = 0;
	const char *why;
	if (tprof_deflate_load(&why) < 0) {     /* every checksum needs it */
		fprintf(stderr, "tprof-analyze: %s (Debian: apt-get install libdeflate0)\n", why);
		free(o.imports);
		return 2;
	}
	/* before any thread starts: SIGINT, SIGTERM and SIGHUP remove unfinished outputs */
	outname_catch_signals();
	char *outpath = NULL;
	if (o.format) {
		outpath = o.out ? xstrdup(o.out)
				: default_output(o.dir, o.perfetto ? ".pftrace"
							    : o.html ? ".html" : ".json.gz");
		if (check_output(&o, outpath) < 0) {
			free(outpath);
			free(o.imports);
			return 2;
		}
	}
	raise_fd_limit();
	progress_init(par_rank() ? PROGRESS_OFF : o.progress);   /* one line for a job */
	struct import_req req = { .files = o.imports, .nfiles = o.nimports,
				  .step_pattern = o.import_steps, .has_offset = !!o.import_offset,
				  .offset_ns = o.import_offset_ns };
	struct import_set imports = { .req = &req };
	struct load_hooks hooks = import_hooks(&imports);
	hooks.job = o.job;
	int loaded = trace_load_with(&tr, o.dir, &hooks);
	if (loaded == 0 && parallel_refuses(&tr, &imports))
		loaded = -2;
	if (loaded < 0) {
		free(o.imports);
		free(outpath);
		trace_free(&tr);
		import_end(&imports);   /* after: the images are parts of its files */
		return loaded == -2 ? 2 : 1;
	}
	if (diag_verbose) {
		import_report(&imports, &tr);
		losses_report(&tr);
	}
	/* Nothing recorded but what was lost: the summary says so, nothing else has anything to
	 * show. */
	if (!parallel_has_data(&tr) && !(tr.nlost && o.summary && !o.format)) {
		if (o.dir && tr.nlost)
			diag_error("no tprof data could be read under %s: %zu process images could not "
				   "create their files (tprof-analyze -v says what each lost)", o.dir,
				   tr.nlost);
		else if (o.dir)
			diag_error("no tprof data could be read under %s", o.dir);
		else
			diag_error("nothing could be read from %s", o.label);
		free(o.imports);
		free(outpath);
		trace_free(&tr);
		import_end(&imports);   /* after: the images are parts of its files */
		return 1;
	}
	struct runtime_set rts;
	unsigned nrts;
	const struct runtime *const *all = runtimes_all(&nrts);
	runtime_set_init(&rts, all, nrts);
	struct pipeline pl = { .tr = &tr, .rts = &rts };
	if (time_window(&o, &tr, &pl.win) < 0) {
		free(o.imports);
		free(outpath);
		trace_free(&tr);
		import_end(&imports);   /* after: the images are parts of its files */
		return 2;
	}
	struct output outs[3];
	/* the diagnosis first: the outputs after it write what it found at their end */
	struct diagnosis *dx = o.diagnose || o.html ? diagnosis_new(&rts) : NULL;
	if (dx) {
		if (o.sqlite)
			diagnosis_keep_splits(dx);
		if (o.html)
			diagnosis_keep_overview(dx, HTML_OVERVIEW_BYTES);
		outs[pl.nouts++] = output_diagnosis(dx);
	}
	if (o.format) {
		if (o.otf2) {
			/* OTF2 writes each track in time order: it hears what is to come, ranges
			 * announced when they open among it. */
			pl.want_begins = 1;
			outs[pl.nouts++] = output_scene_announced(render_otf2(outpath, &pl.win),
								  TRACKS_BY_PROCESS, &rts);
		} else if (parts(&o)) {
			if (split_output(&o, &tr, &pl.win, outpath, &outs[pl.nouts++], &rts) < 0) {
				if (dx)
					outs[0].ops->end(outs[0].priv, &tr);
				diagnosis_free(dx);
				free(outpath);
				free(o.imports);
				trace_free(&tr);
				import_end(&imports);   /* after: the images are parts of its files */
				return 2;
			}
		} else if (o.sqlite) {
			outs[pl.nouts++] = output_sqlite(outpath, o.label, &pl.win, &rts, dx);
		} else if (o.html) {
			struct html_summary hs = { &o, &pl.win, &rts, dx };
			outs[pl.nouts++] = output_html(outpath, html_summary, &hs, dx, &rts);
		} else {
			struct scene_renderer r = o.perfetto ? render_perfetto(outpath)
							     : render_chrome(outpath);
			outs[pl.nouts++] = output_scene(r, o.group_by, &rts);
		}
	}
	struct hang *hg = NULL;
	if (o.live) {
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		hg = hang_new(&rts, (int64_t)now.tv_sec * 1000000000 + now.tv_nsec, 1);
		outs[pl.nouts++] = output_hang(hg);
		pl.hangs = hang_sink(hg);
	}
	if (o.diff_data) {
		size_t nsteps;
		struct step_start *starts = window_step_starts(&tr, &nsteps);
		outs[pl.nouts++] = output_diff_data(stdout, o.label, starts, nsteps, &rts);
	}
	if (o.summary) {
		summary_set_window(&pl.win);
		summary_set_rank_rows(o.rank_rows);
		summary_set_runtimes(&rts);
		summary_set_part(dx ? &diagnosis_summary_part : NULL, dx, !o.tables);
		outs[pl.nouts++] = output_summary_as(stdout, o.label, o.top, o.summary_format);
	}
	pl.outs = outs;
	/* Every output is put in place at the end, or none is. */
	outname_hold();
	for (int i = 0; i < pl.nouts; i++)
		if (outs[i].ops->begin(outs[i].priv, &tr) < 0)
			rc = 1;
	int64_t begun = rc;   /* under --parallel every analysis process reads, or none */
	if (par_size() > 1)
		par_max_i64(&begun, 1);
	if (!begun)
		merge_run(&tr, &pl);
	else
		rc = 1;
	/* end() finishes the output and frees it, also after a failed begin(). */
	for (int i = 0; i < pl.nouts; i++) {
		int ended = outs[i].ops->end(outs[i].priv, &tr);
		if (ended < 0)
			rc = ended == -2 ? 2 : 1;   /* -2: what --parallel cannot do yet */
	}
	diagnosis_free(dx);
	if (hg && !rc) {
		live_show(hg, &o);
		op->live_over = !hang_running(hg);
	}
	hang_free(hg);
	if (parallel_release(rc) < 0 && !rc)
		rc = 1;
	if (diag_verbose)
		import_report_fixes(&imports);
	parallel_report(&tr, t0);
	if (par_rank() != 0)
		;                        /* the first analysis process says where outputs are */
	else if (!rc && outpath && o.otf2)
		fprintf(stderr, "tprof-analyze: OTF2 archive written to %s/traces.otf2\n", outpath);
	else if (!rc && outpath && o.sqlite)
		fprintf(stderr, "tprof-analyze: SQLite database written to %s\n", outpath);
	else if (!rc && outpath && o.html && strcmp(outpath, "-"))
		fprintf(stderr, "tprof-analyze: HTML report written to %s\n", outpath);
	else if (!rc && outpath && strcmp(outpath, "-") && !parts(&o))
		fprintf(stderr, "tprof-analyze: %s trace written to %s\n",
			o.perfetto ? "Perfetto" : "Chrome", outpath);
	free(outpath);
	free(o.imports);
	trace_free(&tr);
	import_end(&imports);   /* after: the images are parts of its files */
	return rc;
}

int main(int argc, char **argv)
{
	struct options o = { .rank_rows = SPREAD_ROWS_DEFAULT };
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc;
	if (o.diff) {
		/* each profile read by a run of this program of its own, then compared */
		const char *pass[8];
		int np = 0;
		if (o.steps)
			pass[np++] = "--steps", pass[np++] = o.steps;
		if (o.start)
			pass[np++] = "--start", pass[np++] = o.start;
		if (o.end)
			pass[np++] = "--end", pass[np++] = o.end;
		pass[np] = NULL;
		return diff_run("/proc/self/exe", o.dir, o.diff, pass,
				(enum summary_format)o.summary_format, o.top);
	}
	if (o.parallel && par_start(&argc, &argv) < 0)
		return 2;
	rc = parallel_options(&o);
	if (o.live)
		live_step_aside();
	while (!rc) {
		double cpu0 = process_cpu_s();
		rc = analyze(&o, &t0);
		if (!o.live || o.once || o.live_over || rc)
			break;
		double gap_s = o.interval ? o.interval : 2;
		double cap_s = LIVE_CPU_SHARE_INV * (process_cpu_s() - cpu0);
		if (cap_s > gap_s)
			gap_s = cap_s;
		struct timespec gap = { (time_t)gap_s, (long)((gap_s - (double)(time_t)gap_s) * 1e9) };
		while (nanosleep(&gap, &gap) < 0 && errno == EINTR)
			;
	}
	par_stop();
	return rc;
}

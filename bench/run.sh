#!/bin/sh
# run.sh — tprof's benchmarks, run by `make bench` against one build tree.
#
# Measures the recorder and the analyzer against the targets of the design brief and prints,
# for each figure, the median of BENCH_RUNS runs (with min and max), the target and a verdict.
# A missed target is reported, not failed: the exit status is 0 whatever the figures are.
# It is non-zero when a benchmark itself breaks: a program that fails, an analyzer that cannot
# read a trace, or events lost where nothing may be lost (the SIGKILL benchmark, or a run given
# room enough never to drop).
#
# The benchmarks, each run BENCH_RUNS times:
#   floor     this machine's floor: ns per two reads of the TSC (the recorder's clock where the
#             CPU has an invariant one) and per two clock_gettime(CLOCK_MONOTONIC) (its clock
#             otherwise), the median batch of BENCH_FLOOR_PAIRS: about the least a recorded
#             call costs, as the recorder reads its clock when a call enters and when it
#             returns.  The per-call figures below change from machine to machine; in floors
#             they compare (bench/floor.c)
#   overhead  ns per push+pop pair (4 names, 50 names) and per mark in a tight loop, plain
#             (libtprof's empty functions) and recorded, alternating; added = recorded - plain
#   rate      records/s one thread achieves with default settings, marks and a realistic mix,
#             as fast as it goes and held to BENCH_PACE, and what the analyzer then finds
#   bytes     size of the chunk files (and any spool left) per record: push/pop loop, mix
#   analyze   wall time, CPU time and peak RSS of tprof-analyze --summary, --diagnose, --format chrome to
#             /dev/null and to .json.gz, --format perfetto (and its size against the
#             .json.gz's), --format otf2 and --format sqlite (and its rows/s) on a cached mix
#             trace of BENCH_TRACE records, and of the first two on one of BENCH_BIG records
#   annot     an annotation-heavy profile (bench/annot-heavy.c: BENCH_ANNOT_THREADS threads, each
#             opening BENCH_ANNOT_RANGES ranges nested four to five deep with marks between
#             them), recorded afresh each run: how many times smaller its --format perfetto
#             .pftrace is than its --format chrome .json.gz, and the .pftrace's bytes per event
#   start     CPU per process start (getrusage of the children: everything the process ran,
#             threads included), BENCH_STARTS starts of /bin/true each way, the ways taking
#             turns start by start: plain, with an empty library preloaded (the floor any preloaded library
#             costs), with the recorder preloaded but off (TPROF_ENABLE=0) and recording; and
#             of a program that records one mark (its files made and written), plain, with the
#             empty library preloaded and recording.  Each figure is the difference from the
#             start with the empty library of that round (what the targets are defined
#             against), and from the plain start, for information; and the same starts made
#             by a program that has the library preloaded itself, as a shell under
#             tprof-inspect does (fork handlers, then exec), recording nothing, over the same
#             with the empty library: its CPU and its children's
#   script    a shell script that starts BENCH_SCRIPT_LOOPS x 6 short processes (/bin/true,
#             cat, sed, expr in a command substitution, grep, tr; like a configure script),
#             plain and under tprof-inspect -o DIR, and under tprof-inspect --sample all,
#             the order turned round from run to run: wall time recorded / plain, and CPU
#             time (user + system of the whole process tree, tprof-inspect included, from
#             runstat) recorded / plain
#   SIGKILL   a program records N events, says so, and is killed with SIGKILL; the analyzer
#             must find exactly N
#   HIP       ns per hipGetDevice and per hipLaunchKernel against the stand-in runtime, plain
#             and recorded, alternating; how many launches got their device span; the
#             recorder's own work per launch: recorded launch - bracketed launch (the same loop
#             without the profiler, each launch between two hipEventRecord on its stream, as
#             the profiler times it: the runtime's share then cancels), against the stand-in
#             and against the tests' minimal runtime with event functions (calls that cost
#             almost nothing); two hipEventRecord by themselves, for comparison; and, on the
#             minimal runtime without event functions, the added cost per launch (each one
#             left untimed) and how often the recorder looked up each missing function
#   MPI       ns per MPI_Comm_rank (one rank) and per MPI_Send+MPI_Recv pair (8-byte ping-pong
#             between two ranks, half a round trip), plain and recorded (mpirun itself run
#             under the recorder, as tprof-inspect -- mpirun does), alternating
#   MPI polls ns per unsuccessful MPI_Test, MPI_Testany and MPI_Iprobe and per completing
#             MPI_Testany (with the MPI_Irecv and MPI_Send it completes), plain and recorded,
#             alternating; profile bytes per million unsuccessful tests; wall time recorded /
#             plain of two polling programs: mpi-calls' halo exchange and, when Debian's hpcc
#             is installed, HPC Challenge (-np 2, its example input on a 1x2 grid): its wall
#             time, its CPU and its own MPIRandomAccess figures (GUP/s, many small messages),
#             recorded / plain
#   live      the program's time while tprof-analyze --live reads its profile: mpi-calls'
#             halo exchange (two ranks, BENCH_LIVE_HALO steps, default 40000) recorded, alone
#             and with a live view beside it every 2 s (the default) and every 0.5 s, taking
#             turns: the halo's wall time with the view / alone, and the views written
#   NRT       ns per nrt_execute (a model whose run time is 0) and per nrt_tensor_read (64
#             bytes) against the stand-in Neuron runtime, plain and recorded, alternating
#   sample    the system profile: a CPU-bound program (cpuburn, 2 threads) plain and under
#             tprof-inspect --sample all at 99 and 999 Hz with the kernel probes, and at 99 Hz
#             with the /proc sampler (TPROF_SAMPLE_BPF=0), and at 99 Hz by the recorder
#             alone (LD_PRELOAD with TPROF_SAMPLE=all: the process samples itself from
#             /proc), in rotating order: wall time sampled / plain, and the sampler thread's
#             own CPU (tprof-inspect -v); then one
#             run at 999 Hz for BENCH_SAMPLE_LONG seconds: samples written against those
#             expected (999 per second per busy CPU), and samples lost.  The kernel probes
#             need root: without them the BPF rows say "not measured"
#   NCCL      ns per ncclCommCount and per ncclAllReduce (host side: the call's return, the
#             collective of one float on a one-rank communicator of the stand-in NCCL), plain
#             and recorded, alternating; and what two hipEventRecord (the profiler's timing of
#             each collective) cost by themselves
#   parallel  a generated MPI job (tests/tools/gen-profile: BENCH_PAR_RANKS ranks, default 1024,
#             BENCH_PAR_STEPS steps each, default 6200: a ring message, an MPI_Allreduce and
#             kernels each step, 1.02 x 10^8 records), cached like the analyzer's traces,
#             summarized by tprof-analyze alone and by `mpirun -np 2 tprof-analyze --parallel`
#             in turn: wall time and records/s, the peak RSS of the one and of the largest
#             analysis process, and the bytes the analysis processes sent and received (their
#             -v lines); the two summaries must be the same
#   import    a Chrome trace of BENCH_IMPORT_EVENTS events (default 10^7; every phase, epoch
#             timestamps; tests/tools/mk-chrome-trace) imported alone by tprof-analyze
#             --import, to --summary and to a Perfetto trace: events/s and peak RSS; and one
#             shaped like torch.profiler's output, of BENCH_IMPORT_TORCH_EVENTS events
#             (default 10^6; mk-chrome-trace -t: Kineto's indented layout, args on every op,
#             python_function events, ac2g and fwdbwd flows s/f, about 235 bytes an event)
#             imported to --summary: events/s, peak RSS and CPU time
#
# Environment (make bench sets the first four):
#   BENCH_BIN        directory holding the benchmark programs (overhead, rate, mix, killme,
#                    runstat)
#   TPROF_INSPECT, TPROF_ANALYZE, TPROF_PRELOAD
#                    tprof-inspect, tprof-analyze and libtrace_preload.so under test
#   BENCH_RUNS       runs per figure (default 5)
#   BENCH_ONLY       the parts to run, separated by spaces (default all): floor overhead rate
#                    bytes analyze annot hip mpi polls live nrt nccl start script sigkill
#                    sample parallel import; the table shows the others not measured
#   BENCH_GEN_PROFILE tests/tools/gen-profile (make bench builds it and sets it)
#   BENCH_PAR_RANKS, BENCH_PAR_STEPS  the parallel analyzer's generated job
#   BENCH_FLOOR_PAIRS pairs of clock reads per floor run, each clock (default 1e7)
#   BENCH_CACHE      where generated analyzer traces are kept between runs (default
#                    $TMPDIR/tprof-bench-cache); they are regenerated when the recorder or the
#                    generator changes
#   BENCH_PAIRS      push+pop pairs per overhead loop (default 1e7)
#   BENCH_BURST      records in the burst rate run (default 5e7)
#   BENCH_LONG       records in the sustained rate runs (default 2e8)
#   BENCH_PACE       records/s of the paced run (default 2e7, the target)
#   BENCH_TRACE      records in the analyzer-speed trace (default 2e7)
#   BENCH_BIG        records in the analyzer-memory trace (default 1e8; 0 skips it)
#   BENCH_ANNOT_THREADS, BENCH_ANNOT_RANGES
#                    threads and ranges per thread of the annotation-heavy profile (default 8
#                    and 20000)
#   BENCH_ANALYZE_BASE another tprof-analyze (the one before a change) timed on the same
#                    trace right before each --summary, chrome and otf2 run: its rows show
#                    beside the analyzer's under "before"
#   BENCH_KILL_CASES "EVENTS:THREADS:DELAY_S ..." for the SIGKILL benchmark
#   BENCH_HIP_STANDIN the stand-in HIP runtime's directory (make bench sets it; the HIP
#                    benchmark is left out, saying so, without it or without hip-calls)
#   BENCH_HIP_CALLS  calls per HIP loop (default 2e5)
#   BENCH_HIP_MINIMAL, BENCH_HIP_MINIMAL_EV
#                    the tests' minimal HIP runtimes, without and with event functions
#                    (make bench sets them; their figures are left out without them)
#   BENCH_MPIRUN     Open MPI's mpirun (make bench sets it; the MPI benchmark is left out,
#                    saying so, without it or without mpi-calls)
#   BENCH_MPI_CALLS  MPI_Comm_rank calls per loop (default 1e6)
#   BENCH_MPI_PAIRS  ping-pong round trips per loop (default 2e5)
#   BENCH_MPI_POLLS  polls per polling loop (default 1e7)
#   BENCH_MPI_HALO   steps of the halo exchange (default 10000)
#   BENCH_LIVE_HALO  steps of the halo exchange the live view watches (default 40000)
#   BENCH_NRT_STANDIN the stand-in libnrt.so.1's directory (make bench sets it; the NRT
#                    benchmark is left out, saying so, without it or without nrt-calls)
#   BENCH_NRT_CALLS  calls per NRT loop (default 1e6)
#   BENCH_SAMPLE_WORK  cpuburn's work per run (default 2e9: about 3 s on 2 threads)
#   BENCH_SAMPLE_LONG  seconds of the long 999 Hz run (default 60; 0 leaves it out)
#   BENCH_STARTS     process starts per figure and round of the start benchmark (default 300)
#   BENCH_SCRIPT_LOOPS loops of the script benchmark, 6 processes each (default 100)
#   BENCH_NCCL_CALLS calls per NCCL loop (default 2e6; the NCCL benchmark needs the stand-in
#                    NCCL next to the stand-in HIP runtime, BENCH_HIP_STANDIN)
#   BENCH_IMPORT_EVENTS, BENCH_IMPORT_TORCH_EVENTS
#                    events in the import's every-phase trace (default 1e7) and in its
#                    torch-shaped one (default 1e6)
#
# Units: a "record" is one API call as the recorder stores it (push and pop are one each); the
# analyzer counts "events" (a range, from its push and its pop, is one).  Rates, bytes per
# event and trace sizes are per record unless said otherwise.  The runtime calls' parts give,
# beside the wall time a call takes, the CPU the recorder adds per call: on the calling thread
# (its own clock, hip-calls) and in the whole process, every thread, the flusher's included,
# from its start to its end (runstat's getrusage of the finished process, less the plain
# run's).  The table gives a figure in ns also in floors (the floor part's two TSC reads).
set -u
LC_ALL=C
export LC_ALL

: "${BENCH_BIN:?set BENCH_BIN (run through make bench)}"
: "${TPROF_INSPECT:?}" "${TPROF_ANALYZE:?}" "${TPROF_PRELOAD:?}"
RUNS=${BENCH_RUNS:-5}
PAIRS=${BENCH_PAIRS:-1e7}
BURST=${BENCH_BURST:-5e7}
LONG=${BENCH_LONG:-2e8}
PACE=${BENCH_PACE:-2e7}
TRACE=${BENCH_TRACE:-2e7}
BIG=${BENCH_BIG:-1e8}
BASE=${BENCH_ANALYZE_BASE:-}
KILL_CASES=${BENCH_KILL_CASES:-"1:1:0 1000:1:0 8191:1:0 8193:1:0 1000003:1:0 1000003:1:0.3 1000003:4:0 3000001:2:0.05"}
CACHE=${BENCH_CACHE:-${TMPDIR:-/tmp}/tprof-bench-cache}
SAMPLE_WORK=${BENCH_SAMPLE_WORK:-2e9}
SAMPLE_LONG=${BENCH_SAMPLE_LONG:-60}
STARTS=${BENCH_STARTS:-300}
ANNOT_THREADS=${BENCH_ANNOT_THREADS:-8}
ANNOT_RANGES=${BENCH_ANNOT_RANGES:-20000}
SCRIPT_LOOPS=${BENCH_SCRIPT_LOOPS:-100}

for p in floor overhead rate mix annot-heavy killme runstat cpuburn startcost onemark .libs/libempty.so; do
	[ -x "$BENCH_BIN/$p" ] || { echo "run.sh: $BENCH_BIN/$p is missing (make bench builds it)" >&2; exit 2; }
done
for p in "$TPROF_INSPECT" "$TPROF_ANALYZE" "$TPROF_PRELOAD"; do
	[ -e "$p" ] || { echo "run.sh: $p is missing (build the tree first)" >&2; exit 2; }
done

W=$(mktemp -d "${TMPDIR:-/tmp}/tprof-bench.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
trap 'exit 130' INT TERM
mkdir "$W/s"
failures=0
B=$BENCH_BIN
RUNSTAT=$B/runstat
MKCHROME=${BENCH_MKCHROME:-}

# ---- helpers -----------------------------------------------------------------------------

say() { printf '%s\n' "$*"; }
fail() {
	failures=$((failures + 1))
	say "!!! BENCHMARK FAILURE: $*"
}
num() { awk -v x="$1" 'BEGIN { printf "%.0f", x }'; }

# rec DIR [VAR=VALUE...] COMMAND...: runs COMMAND with the recorder writing to DIR.
rec() {
	_d=$1
	shift
	env TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$_d" LD_PRELOAD="$TPROF_PRELOAD" "$@"
}

# rec_timed DIR STATFILE [VAR=VALUE...] COMMAND...: the same under runstat (which itself runs
# without the recorder), its figures in STATFILE.
rec_timed() {
	_d=$1
	_st=$2
	shift 2
	"$RUNSTAT" "$_st" env TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$_d" LD_PRELOAD="$TPROF_PRELOAD" "$@"
}

# kv FILE KEY: the value of a KEY=VALUE line.
kv() { sed -n "s/^$2=//p" "$1" | head -n 1; }

# alternate PREFIX CALL RUN DIR [VAR=VALUE...] COMMAND...: one run of COMMAND without the
# profiler and one recorded into DIR, plain first on odd runs and recorded first on even
# ones; samples PREFIX_plain_CALL, PREFIX_rec_CALL and PREFIX_add_CALL from their ns= lines
# and leaves the two figures in $p and $q.  Each run is under runstat: with a calls= line,
# PREFIX_cpu_CALL is the CPU the recorder added per call to the whole process (user + system
# of every thread, the flusher's included, from the start of the process to its end: what
# getrusage says of it, less the plain run's), and with cpu_ns= lines, PREFIX_tcpu_CALL what
# it added to the calling thread's.  Non-zero, having said why, when a run fails.
alternate() {
	_pre=$1 _call=$2 _run=$3 _dir=$4
	shift 4
	_order="plain rec"
	[ $((_run % 2)) -eq 0 ] && _order="rec plain"
	for _which in $_order; do
		if [ "$_which" = plain ]; then
			"$RUNSTAT" "$W/$_pre.rs.plain" env "$@" >"$W/$_pre.plain" 2>"$W/$_pre.err" ||
				{ fail "$_pre-calls $_call (plain): $(head -n 3 "$W/$_pre.err")"; return 1; }
		else
			rec_timed "$_dir" "$W/$_pre.rs.rec" "$@" >"$W/$_pre.rec" 2>"$W/$_pre.err" ||
				{ fail "$_pre-calls $_call (recorded): $(head -n 3 "$W/$_pre.err")"; return 1; }
		fi
	done
	p=$(kv "$W/$_pre.plain" ns)
	q=$(kv "$W/$_pre.rec" ns)
	sample "${_pre}_plain_$_call" "$p"
	sample "${_pre}_rec_$_call" "$q"
	sample "${_pre}_add_$_call" "$(awk -v a="$q" -v b="$p" 'BEGIN { print a - b }')"
	_n=$(kv "$W/$_pre.rec" calls)
	[ -n "$_n" ] && [ "$_n" != 0 ] &&
		sample "${_pre}_cpu_$_call" "$(awk -v n="$_n" \
			-v a="$(awk '{ print $2 + $3 }' "$W/$_pre.rs.rec")" \
			-v b="$(awk '{ print $2 + $3 }' "$W/$_pre.rs.plain")" 'BEGIN { print (a - b) * 1e9 / n }')"
	_tp=$(kv "$W/$_pre.plain" cpu_ns) _tq=$(kv "$W/$_pre.rec" cpu_ns)
	[ -n "$_tp" ] && [ -n "$_tq" ] &&
		sample "${_pre}_tcpu_$_call" "$(awk -v a="$_tq" -v b="$_tp" 'BEGIN { print a - b }')"
	return 0
}

# sfield FILE events|dropped|skipped: a count from a --summary header, commas removed.
sfield() {
	case $2 in
	events) sed -n 's/.*events: \([0-9,]*\).*/\1/p' "$1" | head -n 1 | tr -d , ;;
	*) sed -n "s/^ *$2: *\([0-9,]*\).*/\1/p" "$1" | head -n 1 | tr -d , ;;
	esac
}

# rs FILE wall|user|sys|rss|status: a field of a runstat line.
rs() {
	case $2 in wall) f=1 ;; user) f=2 ;; sys) f=3 ;; rss) f=4 ;; status) f=5 ;; esac
	awk -v f="$f" '{ print $f }' "$1"
}

sample() { printf '%s\n' "$2" >>"$W/s/$1"; }
stat_last() { tail -n 1 "$W/s/$1"; }

# want PART: whether BENCH_ONLY asks for PART (or for all of them, its default).
want() { case " ${BENCH_ONLY:-all} " in *" all "* | *" $1 "*) return 0 ;; esac; return 1; }

# stat NAME median|min|max
stat() {
	[ -s "$W/s/$1" ] || { echo nan; return; }
	sort -g "$W/s/$1" | awk -v w="$2" '{ v[NR] = $1 }
		END { if (w == "min") print v[1]; else if (w == "max") print v[NR];
		      else print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# sum NAME: the total of a sample file (0 when empty).
sum() { [ -s "$W/s/$1" ] && awk '{ s += $1 } END { printf "%.0f", s }' "$W/s/$1" || echo 0; }

# summary DIR OUT: runs tprof-analyze --summary, failing loudly if it cannot.
summary() {
	if ! "$TPROF_ANALYZE" "$1" --summary >"$2" 2>"$2.err"; then
		fail "tprof-analyze --summary $1 failed: $(head -n 3 "$2.err")"
		return 1
	fi
}

# trace_bytes DIR: bytes of the chunk files and any spool left behind.
trace_bytes() {
	find "$1" -type f \( -name '*.tpf' -o -name '*.spool' \) -printf '%s\n' |
		awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# check_complete WHAT SUMMARY EXPECTED_EVENTS: nothing dropped and every event there, else a
# failure (for runs given room enough never to drop).
check_complete() {
	_e=$(sfield "$2" events)
	_dr=$(sfield "$2" dropped)
	if [ "${_dr:-x}" != 0 ] || [ "${_e:-x}" != "$3" ]; then
		fail "$1: analyzer found ${_e:-?} events (want $3), dropped ${_dr:-?}"
		return 1
	fi
}

warm_cache() { cat "$@" >/dev/null 2>&1; }

say "tprof benchmarks: $RUNS runs per figure, medians reported"
say "  recorder:  $TPROF_PRELOAD"
say "  analyzer:  $TPROF_ANALYZE"
say "  machine:   $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)"
say "  load:      $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at the start; the figures assume an idle machine"
say "  work dir:  $W"
say ""

# ---- 0. floor: what two timestamp reads cost on this machine ---------------------------------
# One floor run per round, each clock in turn; the median batch of each run is a sample.
if want floor; then
FLOOR_PAIRS=${BENCH_FLOOR_PAIRS:-1e7}
say "== floor [load $(cut -d' ' -f1 /proc/loadavg)]: $FLOOR_PAIRS pairs of clock reads per run, each clock"
for r in $(seq 1 "$RUNS"); do
	"$B/floor" "$FLOOR_PAIRS" >"$W/floor.out" 2>"$W/floor.err" ||
		{ fail "floor exited with status $?: $(head -n 3 "$W/floor.err")"; continue; }
	for k in tsc mono; do
		v=$(kv "$W/floor.out" "${k}_ns")
		[ -n "$v" ] && sample "floor_$k" "$v"
	done
	say "  run $r: ns per two reads: TSC $(kv "$W/floor.out" tsc_ns), clock_gettime $(kv "$W/floor.out" mono_ns)"
done
if [ -s "$W/s/floor_mono" ]; then
	case $(kv "$W/floor.out" invariant_tsc) in
	1) say "  the recorder reads the TSC here (invariant TSC): the floor is two TSC reads" ;;
	*) say "  no invariant TSC: the recorder reads CLOCK_MONOTONIC here: the floor is two clock_gettime" ;;
	esac
fi
say ""
fi

# ---- 1. overhead: added cost per call ---------------------------------------------------
# Each loop (push+pop pairs with 4 names, with 50 names, marks) runs in a process of its own,
# plain and recorded one after the other, which first alternating from round to round, so
# that drift in a shared machine's speed falls on both; each round's difference is a sample.
if want overhead; then
say "== overhead [load $(cut -d' ' -f1 /proc/loadavg)]: $PAIRS calls per loop (pairs: push+pop with 4 names; pairs50: 50 names; marks)"
for r in $(seq 1 "$RUNS"); do
	line_out=""
	for loop in pairs pairs50 marks; do
		d="$W/ov.$r"
		order="plain rec"
		[ $((r % 2)) -eq 0 ] && order="rec plain"
		# The recorder loaded but switched off (TPROF_ENABLE=0), and on but outside its
		# capture window (started paused, never resumed), for the 4-name loop.
		[ "$loop" = pairs ] && order="$order off paused"
		for which in $order; do
			if [ "$which" = paused ]; then
				env TPROF_ENABLE=1 TPROF_CAPTURE_RANGE=api TPROF_OUTPUT_DIR="$d.paused" \
					LD_PRELOAD="$TPROF_PRELOAD" "$B/overhead" "$loop" "$PAIRS" >"$W/ov.paused" 2>"$W/ov.err" ||
					{ fail "overhead $loop (paused) exited with status $?: $(head -n 3 "$W/ov.err")"; continue 2; }
				[ -n "$(ls -A "$d.paused" 2>/dev/null)" ] && fail "a run paused throughout wrote files to $d.paused"
				rm -rf "$d.paused"
				sample "ov_paused_${loop}_ns" "$(awk -v a="$(kv "$W/ov.paused" ns)" -v b="$(kv "$W/ov.plain" ns)" 'BEGIN { print a - b }')"
			elif [ "$which" = plain ]; then
				"$B/overhead" "$loop" "$PAIRS" >"$W/ov.plain" 2>"$W/ov.err" ||
					{ fail "overhead $loop (plain) exited with status $?: $(head -n 3 "$W/ov.err")"; continue 2; }
			elif [ "$which" = off ]; then
				env TPROF_ENABLE=0 TPROF_OUTPUT_DIR="$d.off" LD_PRELOAD="$TPROF_PRELOAD" \
					"$B/overhead" "$loop" "$PAIRS" >"$W/ov.off" 2>"$W/ov.err" ||
					{ fail "overhead $loop (off) exited with status $?: $(head -n 3 "$W/ov.err")"; continue 2; }
				[ -e "$d.off" ] && fail "TPROF_ENABLE=0 wrote files to $d.off"
				sample "ov_off_${loop}_ns" "$(awk -v a="$(kv "$W/ov.off" ns)" -v b="$(kv "$W/ov.plain" ns)" 'BEGIN { print a - b }')"
			else
				rec "$d" TPROF_SPOOL_MB=16384 "$B/overhead" "$loop" "$PAIRS" >"$W/ov.rec" 2>"$W/ov.err" ||
					{ fail "overhead $loop (recorded) exited with status $?: $(head -n 3 "$W/ov.err")"; continue 2; }
			fi
		done
		summary "$d" "$W/ov.sum" && check_complete "overhead $loop run $r" "$W/ov.sum" "$(kv "$W/ov.rec" events)"
		rm -rf "$d"
		for k in ns batch_median_ns; do
			p=$(kv "$W/ov.plain" "$k")
			q=$(kv "$W/ov.rec" "$k")
			sample "ov_plain_${loop}_$k" "$p"
			sample "ov_rec_${loop}_$k" "$q"
			sample "ov_add_${loop}_$k" "$(awk -v a="$q" -v b="$p" 'BEGIN { print a - b }')"
		done
		line_out="$line_out, $loop $(kv "$W/ov.plain" ns) -> $(kv "$W/ov.rec" ns)"
	done
	say "  run $r: ns per call, plain -> recorded:${line_out#,}"
done
say ""
fi

# ---- 2. rate: events one thread records, and whether any is lost --------------------------
# Default recorder settings (TPROF_SPOOL_MB 1024): "without loss" is what a user gets.
# rate_run NAME COMMAND...: one recorded run of COMMAND, its figures into samples NAME_*.
if want rate; then
rate_run() {
	_n=$1
	shift
	_d="$W/rate.$_n"
	if ! rec_timed "$_d" "$W/rate.rs" "$@" >"$W/rate.out" 2>"$W/rate.err"; then
		fail "$* exited with status $(rs "$W/rate.rs" status): $(head -n 3 "$W/rate.err")"
		rm -rf "$_d"
		return 1
	fi
	summary "$_d" "$W/rate.sum" || { rm -rf "$_d"; return 1; }
	_rec=$(kv "$W/rate.out" records)
	_want=$(kv "$W/rate.out" events)
	_ev=$(sfield "$W/rate.sum" events)
	_dr=$(sfield "$W/rate.sum" dropped)
	_sk=$(sfield "$W/rate.sum" skipped)
	_rate=$(kv "$W/rate.out" records_per_s)
	_wall=$(rs "$W/rate.rs" wall)
	_rss=$(rs "$W/rate.rs" rss)
	sample "${_n}_rate" "$_rate"
	sample "${_n}_dropped" "$_dr"
	sample "${_n}_e2e" "$(awk -v n="$_rec" -v dr="$_dr" -v w="$_wall" 'BEGIN { printf "%.0f", (n - dr) / w }')"
	sample "${_n}_rss" "$_rss"
	# With nothing dropped, every event must be there.
	if [ "$_dr" = 0 ] && [ "$_ev" != "$_want" ]; then
		fail "$*: analyzer found $_ev events, want $_want, and reports none dropped"
	fi
	say "  $_n: $(awk -v x="$_rate" 'BEGIN { printf "%.1f", x / 1e6 }') M records/s in the loop," \
		"$(awk -v x="$_wall" 'BEGIN { printf "%.2f", x }') s to exit, dropped $_dr, skipped $_sk," \
		"events found $_ev of $_want, peak RSS $((_rss / 1024)) MiB"
	rm -rf "$_d"
}

say "== rate [load $(cut -d' ' -f1 /proc/loadavg)]: one thread, default settings (TPROF_SPOOL_MB=1024)"
for r in $(seq 1 "$RUNS"); do
	rate_run burst "$B/rate" "$BURST"
	rate_run long "$B/rate" "$LONG"
	rate_run mixlong "$B/mix" "$LONG" 1 0
	rate_run paced "$B/mix" "$LONG" 1 0 "$PACE"
done
say "  (burst: $BURST marks; long: $LONG marks; mixlong: the realistic mix of ranges, marks and"
say "   counters, $LONG records with no work between them; paced: the same held to $PACE records/s)"
say ""
fi

# ---- 3. bytes on disk per event ------------------------------------------------------------
if want bytes; then
say "== bytes on disk per record [load $(cut -d' ' -f1 /proc/loadavg)]: chunk files + any spool left, default compression"
for r in $(seq 1 "$RUNS"); do
	d="$W/bytes.$r"
	rec "$d" TPROF_SPOOL_MB=16384 "$B/rate" --pairs "$BURST" >"$W/b.out" 2>"$W/b.err" ||
		fail "rate --pairs exited with status $?: $(head -n 3 "$W/b.err")"
	summary "$d" "$W/b.sum" && check_complete "bytes (push/pop) run $r" "$W/b.sum" "$(kv "$W/b.out" events)"
	n=$(kv "$W/b.out" records)
	by=$(trace_bytes "$d")
	sample bytes_pairs "$(awk -v b="$by" -v n="$n" 'BEGIN { print b / n }')"
	rm -rf "$d"
	rec "$d" TPROF_SPOOL_MB=16384 "$B/mix" 2e6 1 200 >"$W/b.out" 2>"$W/b.err" ||
		fail "mix exited with status $?: $(head -n 3 "$W/b.err")"
	summary "$d" "$W/b.sum" && check_complete "bytes (mix) run $r" "$W/b.sum" "$(kv "$W/b.out" events)"
	n2=$(kv "$W/b.out" records)
	by2=$(trace_bytes "$d")
	sample bytes_mix "$(awk -v b="$by2" -v n="$n2" 'BEGIN { print b / n }')"
	say "  run $r: push/pop loop $by bytes / $n records; mix $by2 bytes / $n2 records"
	rm -rf "$d"
done
say ""
fi

# ---- 4. analyzer speed and memory ----------------------------------------------------------
if want analyze; then
# gen_trace RECORDS: a cached trace of the mix (2 threads, a little work between events),
# recorded with room enough that nothing drops.  Leaves its directory in GEN_DIR; returns
# non-zero when there is none.
gen_trace() {
	_key=$( (cksum <"$TPROF_PRELOAD"; cksum <"$B/mix") | cksum | cut -d' ' -f1)
	GEN_DIR="$CACHE/mix-$(num "$1")-$_key"
	[ -f "$GEN_DIR/ok" ] && return 0
	mkdir -p "$CACHE" || return 1
	rm -rf "$CACHE"/mix-"$(num "$1")"-*
	# The spool may briefly hold every record (32 bytes each) before the flusher catches up.
	_need=$(awk -v n="$1" 'BEGIN { printf "%.0f", n * 40 / 1024 }')
	_have=$(df -Pk "$CACHE" | awk 'NR == 2 { print $4 }')
	if [ "$_have" -lt "$_need" ]; then
		say "  SKIPPED: $CACHE has $((_have / 1024)) MiB free; generating $1 records needs about $((_need / 1024)) MiB"
		return 2
	fi
	say "  generating a $1-record trace in $GEN_DIR"
	if ! rec_timed "$GEN_DIR/trace" "$W/gen.rs" TPROF_SPOOL_MB=65536 "$B/mix" "$1" 2 20 \
		>"$W/gen.out" 2>"$W/gen.err"; then
		fail "mix $1 exited with status $(rs "$W/gen.rs" status): $(head -n 3 "$W/gen.err")"
		return 1
	fi
	say "  ($(kv "$W/gen.out" records) records in $(rs "$W/gen.rs" wall) s)"
	summary "$GEN_DIR/trace" "$W/gen.sum" || return 1
	check_complete "generating the $1-record trace" "$W/gen.sum" "$(kv "$W/gen.out" events)" || return 1
	cp "$W/gen.out" "$GEN_DIR/gen.out"
	touch "$GEN_DIR/ok"
}

# analyze_runs TAG DIR: times --summary (text, JSON), --diagnose (not on the big trace), chrome
# to /dev/null, chrome to .json.gz, perfetto to a
# .pftrace (and how many times smaller it is than that .json.gz) and (not on the big trace,
# whose archive or database would not fit) an OTF2 archive and an SQLite database, whose rows
# per second (-v says how many rows) are sampled too.
analyze_runs() {
	_t=$1
	_dir=$2
	_rec=$(kv "$_dir/gen.out" records)
	_ev=$(kv "$_dir/gen.out" events)
	_by=$(trace_bytes "$_dir/trace")
	say "  trace: $_rec records ($_ev analyzer events), $((_by / 1048576)) MiB on disk"
	for r in $(seq 1 "$RUNS"); do
		warm_cache "$_dir"/trace/*
		for m in summary sumjson diagnose chrome gz pf otf2 sqlite; do
			case $m in
			summary) set -- --summary; o="$W/an.sum" ;;
			sumjson) set -- --summary-format json; o="$W/an.sumjson" ;;
			diagnose) set -- --diagnose; o="$W/an.diag" ;;
			chrome) set -- --format chrome -o /dev/null; o=/dev/null ;;
			gz) set -- --format chrome -o "$W/an.json.gz"; o=/dev/null ;;
			pf) set -- --format perfetto -o "$W/an.pftrace"; o=/dev/null ;;
			otf2) set -- --format otf2 -o "$W/an.otf2"; o=/dev/null ;;
			sqlite) set -- --format sqlite -o "$W/an.db" -v; o=/dev/null ;;
			esac
			[ "$_t" = big ] && { [ "$m" = gz ] || [ "$m" = pf ] || [ "$m" = otf2 ] ||
				[ "$m" = sqlite ] || [ "$m" = sumjson ] || [ "$m" = diagnose ]; } &&
				continue
			# The analyzer before a change, on the same trace, right before this one.
			if [ -n "$BASE" ] && { [ "$m" = summary ] || [ "$m" = chrome ] || [ "$m" = gz ] ||
				[ "$m" = otf2 ]; }; then
				if "$RUNSTAT" "$W/an.rs" "$BASE" "$_dir/trace" "$@" >"$o" 2>"$W/an.err"; then
					sample "an_${_t}_${m}_base_rate" "$(awk -v n="$_rec" -v w="$(rs "$W/an.rs" wall)" 'BEGIN { printf "%.0f", n / w }')"
					sample "an_${_t}_${m}_base_cpu" "$(awk -v u="$(rs "$W/an.rs" user)" -v s="$(rs "$W/an.rs" sys)" 'BEGIN { print u + s }')"
				else
					fail "the baseline analyzer ($BASE) $* exited with status $(rs "$W/an.rs" status)"
				fi
				rm -rf "$W/an.json.gz" "$W/an.otf2"
			fi
			if ! "$RUNSTAT" "$W/an.rs" "$TPROF_ANALYZE" "$_dir/trace" "$@" >"$o" 2>"$W/an.err"; then
				fail "tprof-analyze $* exited with status $(rs "$W/an.rs" status): $(head -n 3 "$W/an.err")"
				continue
			fi
			if [ "$m" = summary ]; then
				check_complete "tprof-analyze --summary ($_t)" "$W/an.sum" "$_ev"
			fi
			_w=$(rs "$W/an.rs" wall)
			_c=$(awk -v u="$(rs "$W/an.rs" user)" -v s="$(rs "$W/an.rs" sys)" 'BEGIN { print u + s }')
			sample "an_${_t}_${m}_rate" "$(awk -v n="$_rec" -v w="$_w" 'BEGIN { printf "%.0f", n / w }')"
			sample "an_${_t}_${m}_evrate" "$(awk -v n="$_ev" -v w="$_w" 'BEGIN { printf "%.0f", n / w }')"
			sample "an_${_t}_${m}_cpu" "$(awk -v c="$_c" -v w="$_w" 'BEGIN { printf "%.3f", c / w }')"
			sample "an_${_t}_${m}_rss" "$(rs "$W/an.rs" rss)"
			sample "an_${_t}_${m}_cpus" "$_c"
			if [ "$m" = sqlite ]; then
				_rows=$(sed -n 's/.*SQLite: \([0-9]*\) rows.*/\1/p' "$W/an.err")
				sample "an_${_t}_sqlite_rows" "$_rows"
				sample "an_${_t}_sqlite_rowrate" "$(awk -v n="${_rows:-0}" -v w="$_w" 'BEGIN { printf "%.0f", n / w }')"
			fi
			say "  run $r: $m $(awk -v w="$_w" 'BEGIN { printf "%.2f", w }') s wall, $(awk -v c="$_c" 'BEGIN { printf "%.2f", c }') s CPU, peak RSS $(($(rs "$W/an.rs" rss) / 1024)) MiB"
			# the .pftrace against the .json.gz of this same round
			if [ "$m" = pf ] && [ -s "$W/an.json.gz" ]; then
				_gzb=$(wc -c <"$W/an.json.gz") _pfb=$(wc -c <"$W/an.pftrace")
				sample "an_${_t}_pf_ratio" "$(awk -v g="$_gzb" -v p="$_pfb" 'BEGIN { printf "%.3f", g / p }')"
				sample "an_${_t}_pf_bpr" "$(awk -v p="$_pfb" -v n="$_rec" 'BEGIN { printf "%.3f", p / n }')"
				say "  run $r: .pftrace $_pfb bytes, .json.gz $_gzb bytes"
			fi
			[ "$m" = gz ] || rm -rf "$W/an.json.gz"
			rm -rf "$W/an.otf2" "$W/an.db" "$W/an.pftrace"
		done
	done
}

say "== analyzer speed [load $(cut -d' ' -f1 /proc/loadavg)]: a trace of $TRACE records"
gen_trace "$TRACE" && analyze_runs mid "$GEN_DIR"
say ""
if [ "$(num "$BIG")" -gt 0 ]; then
	say "== analyzer memory [load $(cut -d' ' -f1 /proc/loadavg)]: a trace of $BIG records"
	gen_trace "$BIG" && analyze_runs big "$GEN_DIR"
	say ""
fi
fi

# ---- 4b. an annotation-heavy profile: the Perfetto trace's size ---------------------------
# Ranges and marks are all there is: the nested ranges' packets and their timestamps are most of
# the .pftrace.  Each run records the profile afresh (the same calls, other timings), with the
# little work between calls of the analyzer benchmarks' mix trace (20 iterations at most).
if want annot; then
say "== annotation-heavy profile [load $(cut -d' ' -f1 /proc/loadavg)]: $ANNOT_THREADS threads x $ANNOT_RANGES nested ranges with marks"
for r in $(seq 1 "$RUNS"); do
	d="$W/annot"
	rm -rf "$d"
	if ! rec "$d" "$B/annot-heavy" "$ANNOT_RANGES" "$ANNOT_THREADS" 20 >"$W/annot.out" 2>"$W/annot.err"; then
		fail "annot-heavy: $(head -n 3 "$W/annot.err")"
		break
	fi
	summary "$d" "$W/annot.sum" || break
	check_complete "annot-heavy" "$W/annot.sum" "$(kv "$W/annot.out" events)" || break
	if ! "$TPROF_ANALYZE" "$d" --format chrome -o "$W/annot.json.gz" 2>"$W/annot.err" ||
		! "$TPROF_ANALYZE" "$d" --format perfetto -o "$W/annot.pftrace" 2>"$W/annot.err"; then
		fail "tprof-analyze on the annotation-heavy profile: $(head -n 3 "$W/annot.err")"
		break
	fi
	_ev=$(kv "$W/annot.out" events)
	_gzb=$(wc -c <"$W/annot.json.gz") _pfb=$(wc -c <"$W/annot.pftrace")
	sample annot_pf_ratio "$(awk -v g="$_gzb" -v p="$_pfb" 'BEGIN { printf "%.3f", g / p }')"
	sample annot_pf_bpe "$(awk -v p="$_pfb" -v n="$_ev" 'BEGIN { printf "%.3f", p / n }')"
	say "  run $r: $_ev events ($(kv "$W/annot.out" ranges) ranges), .pftrace $_pfb bytes, .json.gz $_gzb bytes"
	rm -rf "$d" "$W/annot.json.gz" "$W/annot.pftrace"
done
say ""
fi

# ---- 5. HIP: added cost per call ---------------------------------------------------------
# Kernels of 1 us on the stand-in, so that the host side is what is timed; each loop in a
# process of its own, plain and recorded alternating; added = recorded - plain.  The
# recorder's own work per launch is recorded - bracketed (see the header): two hipEventRecord
# timed by themselves, on a stream with nothing else to do, cost more than between launches
# (each wakes the stand-in's stream thread), so added - two of them understates it.  On the
# minimal runtime with events the batches pause 3 ms (outside the timed part) for the
# profiler's timing thread to keep up with launches of a few ns: every launch is then timed.
if want hip; then
HIP_CALLS=${BENCH_HIP_CALLS:-2e5}
hip_ok=0 hipmin_ok=0
if [ -x "$B/hip-calls" ] && [ -n "${BENCH_HIP_STANDIN:-}" ] && [ -e "$BENCH_HIP_STANDIN/libamdhip64.so.5" ]; then
	hip_ok=1
	[ -e "${BENCH_HIP_MINIMAL:-/nonexistent}/libamdhip64.so.5" ] &&
		[ -e "${BENCH_HIP_MINIMAL_EV:-/nonexistent}/libamdhip64.so.5" ] && hipmin_ok=1
else
	say "== HIP: skipped (no hip-calls program or no stand-in HIP runtime: HIP headers missing at configure time)"
fi

# hip_own PREFIX RUN LIBDIR PAUSE_US: a bracketed loop without the profiler and a recorded
# launch loop against the runtime in LIBDIR, in the order `alternate` uses; samples
# PREFIX_bracketed, PREFIX_own (recorded - bracketed) and PREFIX_untimed (launches left
# without their device span), and leaves the two figures in $p and $q.
hip_own() {
	_pre=$1 _run=$2 _lib=$3 _pause=$4
	_order="plain rec"
	[ $((_run % 2)) -eq 0 ] && _order="rec plain"
	for _which in $_order; do
		if [ "$_which" = plain ]; then
			env LD_LIBRARY_PATH="$_lib" STANDIN_HIP_KERNEL_US=default:1 "$B/hip-calls" \
				bracketed "$HIP_CALLS" "$_pause" >"$W/$_pre.plain" 2>"$W/$_pre.err" ||
				{ fail "hip-calls bracketed ($_lib): $(head -n 3 "$W/$_pre.err")"; return 1; }
		else
			rec "$W/$_pre.d" LD_LIBRARY_PATH="$_lib" STANDIN_HIP_KERNEL_US=default:1 \
				"$B/hip-calls" launch "$HIP_CALLS" "$_pause" >"$W/$_pre.rec" 2>"$W/$_pre.err" ||
				{ fail "hip-calls launch ($_lib, recorded): $(head -n 3 "$W/$_pre.err")"; return 1; }
		fi
	done
	p=$(kv "$W/$_pre.plain" ns)
	q=$(kv "$W/$_pre.rec" ns)
	sample "${_pre}_bracketed" "$p"
	sample "${_pre}_own" "$(awk -v a="$q" -v b="$p" 'BEGIN { print a - b }')"
	summary "$W/$_pre.d" "$W/$_pre.sum" && sample "${_pre}_untimed" "$(sfield "$W/$_pre.sum" dropped)"
	rm -rf "$W/$_pre.d"
}

if [ "$hip_ok" = 1 ]; then
	say "== HIP [load $(cut -d' ' -f1 /proc/loadavg)]: $HIP_CALLS calls per loop against the stand-in runtime"
	for r in $(seq 1 "$RUNS"); do
		line_out=""
		for call in getdevice launch; do
			d="$W/hip.$r"
			alternate hip "$call" "$r" "$d" LD_LIBRARY_PATH="$BENCH_HIP_STANDIN" \
				STANDIN_HIP_KERNEL_US=default:1 "$B/hip-calls" "$call" "$HIP_CALLS" || continue
			if [ "$call" = launch ] && summary "$d" "$W/hip.sum"; then
				timed=$(sed -n 's/^ *[0-9.]* % .* \([0-9,]*\) .*kernel_stand_in.*/\1/p' "$W/hip.sum" | tr -d ,)
				[ -z "$timed" ] && timed=$(grep -m1 'unknown kernel\|kernel 0x' "$W/hip.sum" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9,]+$/ && $(i-1) ~ /(us|ms|ns|s)$/) { gsub(",", "", $i); print $i; exit } }')
				sample "hip_timed" "${timed:-0}"
			fi
			rm -rf "$d"
			line_out="$line_out, $call $p -> $q"
		done
		hip_own hip "$r" "$BENCH_HIP_STANDIN" 0 &&
			line_out="$line_out; bracketed $p -> recorded launch $q"
		env LD_LIBRARY_PATH="$BENCH_HIP_STANDIN" "$B/hip-calls" events "$HIP_CALLS" >"$W/hip.ev" 2>"$W/hip.err" &&
			sample hip_events "$(kv "$W/hip.ev" ns)"
		say "  run $r: ns per call, plain -> recorded:${line_out#,}; two hipEventRecord: $(kv "$W/hip.ev" ns)"
		[ "$hipmin_ok" = 1 ] || continue
		hip_own hipm "$r" "$BENCH_HIP_MINIMAL_EV" 3000 &&
			line_out="minimal runtime with events: bracketed $p -> recorded launch $q"
		alternate hipn launch "$r" "$W/hipn.$r" LD_LIBRARY_PATH="$BENCH_HIP_MINIMAL" \
			"$B/hip-calls" launch "$HIP_CALLS" &&
			line_out="$line_out; without events: launch $p -> $q"
		rm -rf "$W/hipn.$r"
		say "  run $r: $line_out"
	done
	if [ "$hipmin_ok" = 1 ]; then
		# Every name the debug log says was missing, and how often (make bench's own run).
		rec "$W/hipn.v" TPROF_VERBOSE=2 LD_LIBRARY_PATH="$BENCH_HIP_MINIMAL" "$B/hip-calls" launch \
			"$HIP_CALLS" >/dev/null 2>"$W/hipn.log" || fail "hip-calls launch (minimal, verbose) failed"
		sed -n 's/^tprof\[[0-9]*\]: debug: no definition of \([^ ]*\) .*/\1/p' "$W/hipn.log" |
			sort | uniq -c >"$W/hipn.misses"
		sample hip_lookups "$(awk '$1 > m { m = $1 } END { print m + 0 }' "$W/hipn.misses")"
		summary "$W/hipn.v" "$W/hipn.sum" && sample hipn_untimed "$(sfield "$W/hipn.sum" dropped)"
		say "  missing functions looked up in $HIP_CALLS launches (minimal runtime):" \
			$(awk '{ printf "%s %s time(s); ", $2, $1 }' "$W/hipn.misses")
		rm -rf "$W/hipn.v"
	fi
	say ""
fi
fi

# ---- 5b. MPI: added cost per call ----------------------------------------------------------
# Each loop in an MPI job of its own (one rank for MPI_Comm_rank, two for the ping-pong),
# plain and recorded alternating; added = recorded - plain.
if want mpi; then
MPI_CALLS=${BENCH_MPI_CALLS:-1e6}
MPI_PAIRS=${BENCH_MPI_PAIRS:-2e5}
mpi_ok=0
if [ -x "$B/mpi-calls" ] && [ -n "${BENCH_MPIRUN:-}" ] && [ "$BENCH_MPIRUN" != no ]; then
	mpi_ok=1
else
	say "== MPI: skipped (no mpi-calls program or no mpirun: mpicc or mpirun missing at configure time)"
fi
if [ "$mpi_ok" = 1 ]; then
	say "== MPI [load $(cut -d' ' -f1 /proc/loadavg)]: $MPI_CALLS MPI_Comm_rank calls, $MPI_PAIRS ping-pong round trips per loop"
	for r in $(seq 1 "$RUNS"); do
		line_out=""
		for call in commrank pingpong; do
			d="$W/mpi.$r"
			np=1 count=$MPI_CALLS
			[ "$call" = pingpong ] && np=2 count=$MPI_PAIRS
			alternate mpi "$call" "$r" "$d" "$BENCH_MPIRUN" --allow-run-as-root --oversubscribe \
				-np "$np" "$B/mpi-calls" "$call" "$count" || continue
			nf=$(find "$d" -name '*.tpf' 2>/dev/null | wc -l)
			[ "$nf" -eq "$np" ] || fail "mpi-calls $call (recorded): $nf profiles for $np ranks"
			rm -rf "$d"
			line_out="$line_out, $call $p -> $q"
		done
		say "  run $r: ns per call (pair), plain -> recorded:${line_out#,}"
	done
	say ""
fi
fi

# ---- 5b'. MPI polling: unsuccessful polls, a completing test, polling programs --------------
# ns per unsuccessful MPI_Test / MPI_Testany (four requests) / MPI_Iprobe and per completing
# iteration (MPI_Irecv + MPI_Send to itself + the MPI_Testany, over it and three pending
# receives, that completes it), one rank each,
# plain and recorded alternating; the profile's bytes per million unsuccessful tests.  Then
# whole polling programs, wall time recorded / plain: the halo exchange of mpi-calls (two
# ranks testing while they compute and while they wait) and, when Debian's hpcc is installed,
# HPC Challenge on two ranks with its example input on a 1x2 grid.
if want polls; then
MPI_POLLS=${BENCH_MPI_POLLS:-1e7}
MPI_HALO=${BENCH_MPI_HALO:-10000}
# Run without the MPI part (BENCH_ONLY=polls), it makes that part's check itself.
if [ -z "${mpi_ok:-}" ]; then
	mpi_ok=0
	[ -x "$B/mpi-calls" ] && [ -n "${BENCH_MPIRUN:-}" ] && [ "$BENCH_MPIRUN" != no ] && mpi_ok=1
	[ "$mpi_ok" = 1 ] ||
		say "== MPI polling: skipped (no mpi-calls program or no mpirun: mpicc or mpirun missing at configure time)"
fi
if [ "$mpi_ok" = 1 ]; then
	HPCC=$(command -v hpcc 2>/dev/null)
	HPCC_IN=/usr/share/doc/hpcc/examples/_hpccinf.txt
	if [ -n "$HPCC" ] && [ -r "$HPCC_IN" ]; then
		mkdir -p "$W/hpcc"
		sed -e 's/^[0-9]*\( *Ps\)$/1\1/' -e 's/^[0-9]*\( *Qs\)$/2\1/' "$HPCC_IN" >"$W/hpcc/hpccinf.txt"
	else
		HPCC=""
	fi
	say "== MPI polling [load $(cut -d' ' -f1 /proc/loadavg)]: $MPI_POLLS polls per loop, $MPI_HALO halo steps${HPCC:+, hpcc}"
	[ -n "$HPCC" ] || say "  (hpcc: skipped, Debian's hpcc is not installed)"
	for r in $(seq 1 "$RUNS"); do
		line_out=""
		for call in test testany iprobe testhit; do
			d="$W/mpipoll.$r"
			alternate mpi "$call" "$r" "$d" "$BENCH_MPIRUN" --allow-run-as-root --oversubscribe \
				-np 1 "$B/mpi-calls" "$call" "$MPI_POLLS" || continue
			[ "$call" = test ] &&
				sample mpi_poll_bytes "$(awk -v b="$(du -sb "$d" | cut -f1)" -v n="$(kv "$W/mpi.rec" calls)" 'BEGIN { print b / (n / 1e6) }')"
			rm -rf "$d"
			line_out="$line_out, $call $p -> $q"
		done
		say "  run $r: ns per call, plain -> recorded:${line_out#,}"
		alternate mpi halo "$r" "$W/halo.$r" "$BENCH_MPIRUN" --allow-run-as-root --oversubscribe \
			-np 2 "$B/mpi-calls" halo "$MPI_HALO" || continue
		sample mpi_halo_ratio "$(awk -v a="$q" -v b="$p" 'BEGIN { print a / b }')"
		sample mpi_halo_polls "$(kv "$W/mpi.plain" polls)"
		line_out="halo $(num "$(awk -v x="$p" 'BEGIN { print x / 1e6 }')") -> $(num "$(awk -v x="$q" 'BEGIN { print x / 1e6 }')") ms ($(kv "$W/mpi.plain" polls) polls, profile $(du -sb "$W/halo.$r" | cut -f1) B)"
		rm -rf "$W/halo.$r"
		if [ -n "$HPCC" ]; then
			order="plain rec"
			[ $((r % 2)) -eq 0 ] && order="rec plain"
			for which in $order; do
				rm -f "$W/hpcc/hpccoutf.txt"
				if [ "$which" = plain ]; then
					(cd "$W/hpcc" && "$RUNSTAT" "$W/hpcc.plain" "$BENCH_MPIRUN" --allow-run-as-root \
						--oversubscribe -np 2 "$HPCC" >/dev/null 2>&1) || fail "hpcc (plain)"
				else
					(cd "$W/hpcc" && rec_timed "$W/hpcc.prof" "$W/hpcc.rec" "$BENCH_MPIRUN" \
						--allow-run-as-root --oversubscribe -np 2 "$HPCC" >/dev/null 2>&1) ||
						fail "hpcc (recorded)"
				fi
				# its own figures: MPIRandomAccess (many small messages) in GUP/s
				sed -n 's/^MPIRandomAccess_GUPs=//p; s/^MPIRandomAccess_LCG_GUPs=/lcg /p' \
					"$W/hpcc/hpccoutf.txt" >"$W/hpcc.$which.gups" 2>/dev/null
			done
			a=$(rs "$W/hpcc.plain" wall) b=$(rs "$W/hpcc.rec" wall)
			sample mpi_hpcc_ratio "$(awk -v a="$b" -v b="$a" 'BEGIN { print a / b }')"
			sample mpi_hpcc_cpu "$(awk -v a="$(awk '{ print $2 + $3 }' "$W/hpcc.rec")" \
				-v b="$(awk '{ print $2 + $3 }' "$W/hpcc.plain")" 'BEGIN { print a / b }')"
			gp=$(grep -v lcg "$W/hpcc.plain.gups") gr=$(grep -v lcg "$W/hpcc.rec.gups")
			lp=$(sed -n 's/^lcg //p' "$W/hpcc.plain.gups") lr=$(sed -n 's/^lcg //p' "$W/hpcc.rec.gups")
			[ -n "$gp" ] && [ -n "$gr" ] &&
				sample mpi_hpcc_gups "$(awk -v a="$gr" -v b="$gp" 'BEGIN { print a / b }')"
			[ -n "$lp" ] && [ -n "$lr" ] &&
				sample mpi_hpcc_lcg "$(awk -v a="$lr" -v b="$lp" 'BEGIN { print a / b }')"
			sample mpi_hpcc_plain "$a"
			sample mpi_hpcc_bytes "$(du -sb "$W/hpcc.prof" | cut -f1)"
			line_out="$line_out; hpcc $a -> $b s, MPIRandomAccess $gp -> $gr GUP/s (profile $(du -sb "$W/hpcc.prof" | cut -f1) B)"
			rm -rf "$W/hpcc.prof"
		fi
		say "         $line_out"
	done
	say ""
fi
fi

# The program's time while tprof-analyze --live reads its profile: the halo exchange of
# mpi-calls (two ranks polling), recorded, alone and with a live view beside it refreshed
# every 2 s (the default) and every 0.5 s, the three taking turns; the halo's own wall time.
if want live; then
LIVE_HALO=${BENCH_LIVE_HALO:-40000}
live_ok=0
[ -x "$B/mpi-calls" ] && [ -n "${BENCH_MPIRUN:-}" ] && [ "$BENCH_MPIRUN" != no ] && live_ok=1
if [ "$live_ok" = 0 ]; then
	say "== live view: skipped (no mpi-calls program or no mpirun: mpicc or mpirun missing at configure time)"
else
	say "== live view [load $(cut -d' ' -f1 /proc/loadavg)]: $LIVE_HALO halo steps, 2 ranks"
	for r in $(seq 1 "$RUNS"); do
		set -- alone 2 0.5
		[ $((r % 3)) -eq 1 ] && set -- 2 0.5 alone
		[ $((r % 3)) -eq 2 ] && set -- 0.5 alone 2
		line_out=""
		for how in "$@"; do
			d="$W/live.$r.$how"
			lp=""
			if [ "$how" != alone ]; then
				(i=0
				 while [ ! -d "$d" ] && [ "$i" -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
				 "$TPROF_ANALYZE" "$d" --live --interval "$how" >"$W/live.views" 2>&1) &
				lp=$!
			fi
			rec_timed "$d" "$W/live.rs" "$BENCH_MPIRUN" --allow-run-as-root --oversubscribe -np 2 \
				"$B/mpi-calls" halo "$LIVE_HALO" >"$W/live.out" 2>"$W/live.err" ||
				fail "mpi-calls halo with --live ($how): $(head -n 3 "$W/live.err")"
			[ -n "$lp" ] && wait "$lp"
			sample "live_ns_$how" "$(kv "$W/live.out" ns)"
			[ -n "$lp" ] && sample "live_views_$how" "$(grep -c '^Live view\|^Hang report' "$W/live.views")"
			line_out="$line_out, $how $(num "$(awk -v x="$(kv "$W/live.out" ns)" 'BEGIN { print x / 1e6 }')") ms"
			rm -rf "$d"
		done
		for how in 2 0.5; do
			sample "live_ratio_$how" "$(awk -v a="$(stat_last "live_ns_$how")" \
				-v b="$(stat_last live_ns_alone)" 'BEGIN { print a / b }')"
		done
		say "  run $r: halo wall time${line_out#,}"
	done
	say ""
fi
fi

# ---- 5c. NRT: added cost per call ----------------------------------------------------------
# A model that runs for 0 us on the stand-in, so that the host side is what is timed; each
# loop in a process of its own, plain and recorded alternating; added = recorded - plain.
if want nrt; then
NRT_CALLS=${BENCH_NRT_CALLS:-1e6}
nrt_ok=0
if [ -x "$B/nrt-calls" ] && [ -n "${BENCH_NRT_STANDIN:-}" ] && [ -e "$BENCH_NRT_STANDIN/libnrt.so.1" ]; then
	nrt_ok=1
else
	say "== NRT: skipped (no nrt-calls program or no stand-in libnrt.so.1)"
fi
if [ "$nrt_ok" = 1 ]; then
	say "== NRT [load $(cut -d' ' -f1 /proc/loadavg)]: $NRT_CALLS calls per loop against the stand-in runtime"
	for r in $(seq 1 "$RUNS"); do
		line_out=""
		for call in execute read; do
			d="$W/nrt.$r"
			alternate nrt "$call" "$r" "$d" LD_LIBRARY_PATH="$BENCH_NRT_STANDIN" \
				STANDIN_NRT_EXEC_US=0 "$B/nrt-calls" "$call" "$NRT_CALLS" || continue
			rm -rf "$d"
			line_out="$line_out, $call $p -> $q"
		done
		say "  run $r: ns per call, plain -> recorded:${line_out#,}"
	done
	say ""
fi
fi

# ---- 5d. NCCL: added cost per call ---------------------------------------------------------
# A one-rank communicator of the stand-in NCCL over the stand-in HIP, each loop a process of
# its own, plain and recorded alternating; added = recorded - plain.  The stand-in's modelled
# latency is 0, so its stream keeps up with the calls.
if want nccl; then
NCCL_CALLS=${BENCH_NCCL_CALLS:-2e6}
nccl_ok=0
if [ -x "$B/nccl-calls" ] && [ -e "${BENCH_HIP_STANDIN:-/nonexistent}/libnccl.so.2" ]; then
	nccl_ok=1
else
	say "== NCCL: skipped (no nccl-calls program or no stand-in NCCL: HIP headers missing at configure time)"
fi
if [ "$nccl_ok" = 1 ]; then
	say "== NCCL [load $(cut -d' ' -f1 /proc/loadavg)]: $NCCL_CALLS calls per loop against the stand-in NCCL"
	for r in $(seq 1 "$RUNS"); do
		line_out=""
		for call in count allreduce; do
			d="$W/nccl.$r"
			alternate nccl "$call" "$r" "$d" LD_LIBRARY_PATH="$BENCH_HIP_STANDIN" \
				STANDIN_NCCL_LATENCY_US=0 "$B/nccl-calls" "$call" "$NCCL_CALLS" || continue
			rm -rf "$d"
			line_out="$line_out, $call $p -> $q"
		done
		env LD_LIBRARY_PATH="$BENCH_HIP_STANDIN" "$B/nccl-calls" events "$NCCL_CALLS" >"$W/nccl.ev" 2>"$W/nccl.err" &&
			sample nccl_events "$(kv "$W/nccl.ev" ns)"
		say "  run $r: ns per call, plain -> recorded:${line_out#,}; two hipEventRecord: $(kv "$W/nccl.ev" ns)"
	done
	say ""
fi
fi

# ---- process start: what the recorder adds to starting a process ---------------------------
# One startcost run per round, its ways started in turn start by start (drift on the machine
# falls on all of them alike); each figure is that round's difference from its start with the
# empty library preloaded (the targets' base: what any preloaded library costs is not the
# recorder's to save), and from its plain start, for information.  The fork rows preload
# startcost itself, as a shell is under tprof-inspect: its forks run the library's fork
# handlers, the children exec with it, and the figure is the CPU of both sides, startcost's
# own and its children's.
if want start; then
say "== start [load $(cut -d' ' -f1 /proc/loadavg)]: CPU us per start, $STARTS starts of /bin/true (and of onemark)"
sd="$W/start"
for r in $(seq 1 "$RUNS"); do
	# The seven ways of starting from a parent without the library, start by start in turn.
	rm -rf "$sd"
	"$B/startcost" "$STARTS" -- /bin/true \
		+ LD_PRELOAD="$B/.libs/libempty.so" -- /bin/true \
		+ LD_PRELOAD="$TPROF_PRELOAD" TPROF_ENABLE=0 -- /bin/true \
		+ LD_PRELOAD="$TPROF_PRELOAD" TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$sd" -- /bin/true \
		+ -- "$B/onemark" \
		+ LD_PRELOAD="$B/.libs/libempty.so" -- "$B/onemark" \
		+ LD_PRELOAD="$TPROF_PRELOAD" TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$sd" -- "$B/onemark" \
		>"$W/start.all" 2>"$W/start.err" ||
		{ fail "startcost: $(head -n 3 "$W/start.err")"; continue; }
	k=0
	for which in plain empty off rec mplain mempty mrec; do
		echo "cpu_ns=$(kv "$W/start.all" "cpu_ns_$k")" >"$W/start.$which"
		k=$((k + 1))
	done
	# The fork rows: startcost preloaded itself, so each way is a startcost of its own: ten
	# blocks of a tenth of the starts each, the two ways in turn.
	: >"$W/start.fempty.all"
	: >"$W/start.frec.all"
	for c in 1 2 3 4 5 6 7 8 9 10; do
		order="fempty frec"
		[ $(((r + c) % 2)) -eq 0 ] && order="frec fempty"
		for which in $order; do
			rm -rf "$sd"
			if [ $which = fempty ]; then set -- LD_PRELOAD="$B/.libs/libempty.so"
			else set -- LD_PRELOAD="$TPROF_PRELOAD" TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$sd"; fi
			env "$@" "$B/startcost" "$(((STARTS + 9) / 10))" -- /bin/true \
				>>"$W/start.$which.all" 2>"$W/start.err" ||
				{ fail "startcost ($which): $(head -n 3 "$W/start.err")"; continue 3; }
		done
	done
	for which in fempty frec; do   # the blocks' mean: cpu_ns and self_ns each
		awk -F= '/^cpu_ns=/ { c += $2; n++ } /^self_ns=/ { s += $2 }
			END { printf "cpu_ns=%.0f\nself_ns=%.0f\n", c / n, s / n }' \
			"$W/start.$which.all" >"$W/start.$which"
	done
	rm -rf "$sd"
	line_out=""
	for which in empty off rec mrec; do
		base=plain empty=empty
		[ "$which" = mrec ] && base=mplain empty=mempty
		v=$(awk -v a="$(kv "$W/start.$which" cpu_ns)" -v b="$(kv "$W/start.$base" cpu_ns)" 'BEGIN { print a - b }')
		sample "start_add_$which" "$v"
		[ "$which" = empty ] && continue
		e=$(awk -v a="$(kv "$W/start.$which" cpu_ns)" -v b="$(kv "$W/start.$empty" cpu_ns)" 'BEGIN { print a - b }')
		sample "start_over_empty_$which" "$e"
		line_out="$line_out, $which $(awk -v x="$e" 'BEGIN { printf "%+.0f", x / 1000 }')"
	done
	f=$(awk -v a="$(kv "$W/start.frec" cpu_ns)" -v b="$(kv "$W/start.frec" self_ns)" \
		-v c="$(kv "$W/start.fempty" cpu_ns)" -v d="$(kv "$W/start.fempty" self_ns)" \
		'BEGIN { print a + b - c - d }')
	sample start_fork_over_empty "$f"
	line_out="$line_out, fork+exec $(awk -v x="$f" 'BEGIN { printf "%+.0f", x / 1000 }')"
	sample start_plain "$(kv "$W/start.plain" cpu_ns)"
	say "  run $r: plain $(awk -v x="$(kv "$W/start.plain" cpu_ns)" 'BEGIN { printf "%.0f", x / 1000 }') us per start," \
		"empty library $(awk -v x="$(kv "$W/start.empty" cpu_ns)" -v p="$(kv "$W/start.plain" cpu_ns)" 'BEGIN { printf "%+.0f", (x - p) / 1000 }');" \
		"over the empty library:${line_out#,}"
done
say ""
fi

# ---- script: many short processes under tprof-inspect --------------------------------------
# A shell script like a configure script: SCRIPT_LOOPS loops of six short processes.  Plain,
# under tprof-inspect and under tprof-inspect --sample all, each under runstat (wall time, and
# the CPU of the whole process tree: wait4 counts the descendants each process waited for),
# the order turned round from run to run; each figure is that run's ratio to its plain run.
if want script; then
say "== script [load $(cut -d' ' -f1 /proc/loadavg)]: sh running $SCRIPT_LOOPS x 6 short processes, plain and under tprof-inspect"
printf 'configure line %s\n' $(seq 1 50) >"$W/script.in"
cat >"$W/script.sh" <<EOF_SCRIPT
i=0
while [ \$i -lt $SCRIPT_LOOPS ]; do
	/bin/true
	cat "$W/script.in" >/dev/null
	sed -e 's/line/LINE/' "$W/script.in" >/dev/null
	x=\$(expr \$i + 1)
	grep -c configure "$W/script.in" >/dev/null
	tr a-z A-Z <"$W/script.in" >/dev/null
	i=\$x
done
EOF_SCRIPT
sd="$W/script.out"
for r in $(seq 1 "$RUNS"); do
	order="plain rec samp"
	[ $((r % 2)) -eq 0 ] && order="samp rec plain"
	for which in $order; do
		rm -rf "$sd"
		case $which in
		plain) set -- sh "$W/script.sh" ;;
		rec) set -- "$TPROF_INSPECT" -o "$sd" -- sh "$W/script.sh" ;;
		samp) set -- "$TPROF_INSPECT" --sample all -o "$sd" -- sh "$W/script.sh" ;;
		esac
		"$RUNSTAT" "$W/script.$which" "$@" >/dev/null 2>"$W/script.err" ||
			{ fail "script ($which): $(head -n 3 "$W/script.err")"; continue 2; }
	done
	rm -rf "$sd"
	pw=$(rs "$W/script.plain" wall)
	pc=$(awk '{ print $2 + $3 }' "$W/script.plain")
	sample script_plain_wall "$pw"
	sample script_plain_cpu "$pc"
	line_out=""
	for which in rec samp; do
		w=$(awk -v a="$(rs "$W/script.$which" wall)" -v b="$pw" 'BEGIN { print a / b }')
		c=$(awk -v b="$pc" '{ print ($2 + $3) / b }' "$W/script.$which")
		sample "script_wall_$which" "$w"
		sample "script_cpu_$which" "$c"
		line_out="$line_out; $which wall $(printf '%.2f' "$w")x CPU $(printf '%.2f' "$c")x"
	done
	say "  run $r: plain $(printf '%.3f' "$pw") s wall, $(printf '%.3f' "$pc") s CPU$line_out"
done
say ""
fi

# ---- 6. SIGKILL: nothing recorded is lost --------------------------------------------------
if want sigkill; then
say "== SIGKILL [load $(cut -d' ' -f1 /proc/loadavg)]: EVENTS:THREADS:DELAY cases, each killed with SIGKILL DELAY s after it is ready"
mkfifo "$W/ready" || exit 2
for r in $(seq 1 "$RUNS"); do
	line_out=""
	for c in $KILL_CASES; do
		n=${c%%:*}
		rest=${c#*:}
		th=${rest%%:*}
		delay=${rest#*:}
		d="$W/kill.$r"
		"$TPROF_INSPECT" -o "$d" -- "$B/killme" "$n" "$th" >"$W/ready" 2>"$W/kill.err" &
		ipid=$!
		ready=""
		read -r ready <"$W/ready"
		set -- $ready
		if [ "${1:-}" != ready ]; then
			fail "killme $n $th did not get ready: $(head -n 3 "$W/kill.err")"
			wait "$ipid"
			rm -rf "$d"
			continue
		fi
		[ "$delay" != 0 ] && sleep "$delay"
		kill -9 "$2"
		wait "$ipid"
		want=$4
		if summary "$d" "$W/kill.sum"; then
			got=$(sfield "$W/kill.sum" events)
			dr=$(sfield "$W/kill.sum" dropped)
			sk=$(sfield "$W/kill.sum" skipped)
			lost=$((want - ${got:-0}))
			sample kill_lost "$lost"
			sample kill_cases 1
			if [ "$lost" -ne 0 ] || [ "$dr" != 0 ]; then
				fail "SIGKILL case $c: recorded $want events, analyzer found ${got:-none} (dropped $dr, skipped $sk)"
			elif [ "$sk" != 0 ]; then
				# Every event is there, yet the analyzer says records were skipped: a chunk
				# the kill cut short, whose records it then read from the spool.
				sample kill_false_skip 1
				say "  note: case $c: all $want events found, but the analyzer reports $sk records" \
					"skipped: $(sed -n 's/.*warning: //p' "$W/kill.sum.err" | head -n 1)"
			fi
			line_out="$line_out $c=$got"
		fi
		rm -rf "$d"
	done
	say "  run $r: found$line_out"
done
say ""
fi

# ---- system profile: what sampling costs a CPU-bound program ---------------------------------
# sampled_run WHICH HZ [VAR=VALUE...]: cpuburn under tprof-inspect --sample all -v; samples
# sample_WHICH (wall ns) and sample_cpu_WHICH (the sampler thread's % of a CPU).
sampled_run() {
	_which=$1 _hz=$2
	shift 2
	rm -rf "$W/sample"
	env "$@" "$TPROF_INSPECT" -v --sample all --sample-hz "$_hz" -o "$W/sample" -- \
		"$B/cpuburn" "$SAMPLE_WORK" 2 >"$W/sample.out" 2>"$W/sample.err" ||
		{ fail "cpuburn under --sample ($_which): $(grep -v '^tprof\[' "$W/sample.err" | head -n 3)"; return 1; }
	sample "sample_$_which" "$(kv "$W/sample.out" ns)"
	_cpu=$(sed -n 's/.*(\([0-9.]*\) % of a CPU).*/\1/p' "$W/sample.err")
	[ -n "$_cpu" ] && sample "sample_cpu_$_which" "$_cpu"
	grep -q "system profile (bpf)" "$W/sample.err"
}

if want sample; then
say "== sample: cpuburn $SAMPLE_WORK 2, plain and under tprof-inspect --sample all"
sample_bpf=1
for r in $(seq 1 "$RUNS"); do
	k=$(((r - 1) % 5 + 1))   # the order rotates from run to run
	for which in $(echo plain b99 b999 p99 r99 plain b99 b999 p99 r99 |
		cut -d' ' -f"$k"-"$((k + 4))"); do
		case $which in
		plain)
			"$B/cpuburn" "$SAMPLE_WORK" 2 >"$W/sample.out" 2>&1 ||
				{ fail "cpuburn: $(head -n 3 "$W/sample.out")"; continue; }
			sample sample_plain "$(kv "$W/sample.out" ns)" ;;
		b99 | b999)
			[ "$sample_bpf" = 1 ] || continue
			sampled_run "$which" "${which#b}" || {
				sample_bpf=0
				say "  the kernel probes are not available: $(grep -o 'BPF: .*' "$W/sample.err" | head -n 1)"
			} ;;
		p99) sampled_run p99 99 TPROF_SAMPLE_BPF=0 ;;
		r99)
			rm -rf "$W/sample"
			env TPROF_ENABLE=1 TPROF_SAMPLE=all TPROF_SAMPLE_HZ=99 \
				TPROF_OUTPUT_DIR="$W/sample" LD_PRELOAD="$TPROF_PRELOAD" \
				"$B/cpuburn" "$SAMPLE_WORK" 2 >"$W/sample.out" 2>"$W/sample.err" ||
				{ fail "cpuburn with TPROF_SAMPLE: $(head -n 3 "$W/sample.err")"; continue; }
			ls "$W/sample"/*.tpf >/dev/null 2>&1 ||   # cpuburn calls no runtime: the image is
				{ fail "cpuburn with TPROF_SAMPLE wrote no system image"; continue; }
			sample sample_r99 "$(kv "$W/sample.out" ns)" ;;
		esac
	done
done
for w in b99 b999 p99 r99; do
	[ -s "$W/s/sample_$w" ] || continue
	awk -v p="$(stat sample_plain median)" '{ print $1 / p }' "$W/s/sample_$w" >"$W/s/sample_ratio_$w"
done
if [ "$sample_bpf" = 1 ] && [ "$SAMPLE_LONG" != 0 ]; then
	# cpuburn's work for SAMPLE_LONG seconds, from the plain runs' speed
	long_work=$(awk -v w="$SAMPLE_WORK" -v ns="$(stat sample_plain median)" -v s="$SAMPLE_LONG" \
		'BEGIN { printf "%.0f", w * s * 1e9 / ns }')
	rm -rf "$W/sample"
	if "$TPROF_INSPECT" -v --sample cpu --sample-hz 999 -o "$W/sample" -- "$B/cpuburn" \
		"$long_work" 2 >"$W/sample.out" 2>"$W/sample.err" &&
		"$TPROF_ANALYZE" "$W/sample" --summary=json >"$W/sample.json" 2>"$W/sample.json.err"; then
		set -- $("${PYTHON3:-python3}" -c '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
print(s["cpu_functions"]["samples"], s["lost"]["samples_lost"])' "$W/sample.json")
		sample sample_long_samples "$1"
		sample sample_long_lost "$2"
		ns=$(kv "$W/sample.out" ns)
		# two busy threads on min(2, CPUs) CPUs for ns: 999 samples a second on each
		cpus=$(nproc); [ "$cpus" -gt 2 ] && cpus=2
		sample sample_long_expected "$(awk -v ns="$ns" -v c="$cpus" 'BEGIN { printf "%.0f", ns / 1e9 * 999 * c }')"
		sample sample_long_share "$(awk -v a="$1" -v ns="$ns" -v c="$cpus" 'BEGIN { print a / (ns / 1e9 * 999 * c) }')"
	else
		fail "the long 999 Hz run: $(grep -v '^tprof\[' "$W/sample.err" "$W/sample.json.err" 2>/dev/null | head -n 3)"
	fi
fi
rm -rf "$W/sample"
say ""
fi

# ---- parallel: the summary of a large job by two analysis processes -------------------------
PAR_RANKS=${BENCH_PAR_RANKS:-1024}
PAR_STEPS=${BENCH_PAR_STEPS:-6200}
if want parallel && [ -x "${BENCH_GEN_PROFILE:-}" ] && [ -n "${BENCH_MPIRUN:-}" ] &&
	[ "$BENCH_MPIRUN" != no ]; then
	_key=$(cksum <"$BENCH_GEN_PROFILE" | cut -d' ' -f1)
	PAR_DIR="$CACHE/job-$PAR_RANKS-$PAR_STEPS-$_key"
	if [ ! -f "$PAR_DIR/ok" ]; then
		rm -rf "$CACHE"/job-"$PAR_RANKS"-*
		mkdir -p "$PAR_DIR"
		say "  generating a job of $PAR_RANKS ranks, $PAR_STEPS steps, in $PAR_DIR"
		if "$BENCH_GEN_PROFILE" -r "$PAR_RANKS" -s "$PAR_STEPS" -k "$PAR_DIR/job" \
			>"$PAR_DIR/gen.json" 2>"$W/par.err"; then
			touch "$PAR_DIR/ok"
		else
			fail "gen-profile failed: $(head -n 3 "$W/par.err")"
		fi
	fi
	if [ -f "$PAR_DIR/ok" ]; then
		_rec=$(sed -n 's/.*"records": \([0-9]*\).*/\1/p' "$PAR_DIR/gen.json")
		sample par_records "$_rec"
		say "== parallel analyzer [load $(cut -d' ' -f1 /proc/loadavg)]: $PAR_RANKS ranks, $_rec records, $(($(trace_bytes "$PAR_DIR/job") / 1048576)) MiB"
		for r in $(seq 1 "$RUNS"); do
			warm_cache "$PAR_DIR"/job/*
			if ! "$RUNSTAT" "$W/par1.rs" "$TPROF_ANALYZE" "$PAR_DIR/job" --summary \
				>"$W/par1.txt" 2>"$W/par.err"; then
				fail "tprof-analyze --summary of the job: $(head -n 3 "$W/par.err")"
				break
			fi
			if ! "$RUNSTAT" "$W/par2.rs" "$BENCH_MPIRUN" --allow-run-as-root --oversubscribe \
				-np 2 "$TPROF_ANALYZE" --parallel "$PAR_DIR/job" --summary -v \
				>"$W/par2.txt" 2>"$W/par.err"; then
				fail "mpirun -np 2 tprof-analyze --parallel: $(grep -v 'analysis process' "$W/par.err" | head -n 3)"
				break
			fi
			cmp -s "$W/par1.txt" "$W/par2.txt" ||
				fail "the two analysis processes' summary differs from the serial one"
			_w1=$(rs "$W/par1.rs" wall) _w2=$(rs "$W/par2.rs" wall)
			sample par_serial_wall "$_w1"
			sample par_serial_rate "$(awk -v n="$_rec" -v w="$_w1" 'BEGIN { printf "%.0f", n / w }')"
			sample par_serial_rss "$(rs "$W/par1.rs" rss)"
			sample par_k2_wall "$_w2"
			sample par_k2_rate "$(awk -v n="$_rec" -v w="$_w2" 'BEGIN { printf "%.0f", n / w }')"
			sample par_k2_speedup "$(awk -v a="$_w1" -v b="$_w2" 'BEGIN { printf "%.3f", a / b }')"
			# each analysis process's -v line: its peak RSS (KiB), bytes sent and received
			sample par_k2_rss "$(sed -n 's/.*peak RSS \([0-9]*\) KiB.*/\1/p' "$W/par.err" | sort -n | tail -n 1)"
			sample par_k2_sent "$(sed -n 's/.* \([0-9]*\) bytes sent.*/\1/p' "$W/par.err" | sort -n | tail -n 1)"
			sample par_k2_received "$(sed -n 's/.* \([0-9]*\) received$/\1/p' "$W/par.err" | sort -n | tail -n 1)"
			sample par_k2_cpu "$(sed -n 's/.* \([0-9.]*\) s CPU.*/\1/p' "$W/par.err" | sort -n | tail -n 1)"
			say "  run $r: alone $_w1 s, peak RSS $(($(rs "$W/par1.rs" rss) / 1024)) MiB; two analysis processes $_w2 s, $(stat_last par_k2_rss) KiB the larger peak RSS, $(stat_last par_k2_sent) bytes sent, $(stat_last par_k2_received) received"
		done
	fi
	say ""
fi

# ---- import: framework traces --------------------------------------------------------------
if want import; then
IMPORT_EVENTS=${BENCH_IMPORT_EVENTS:-10000000}
say "== import: a Chrome trace of $IMPORT_EVENTS events (tests/tools/mk-chrome-trace, every phase)"
if [ -x "$MKCHROME" ] && "$MKCHROME" -n "$IMPORT_EVENTS" -e -o "$W/imp.json" >"$W/imp.gen" 2>&1; then
	say "  file: $(($(wc -c <"$W/imp.json") / 1048576)) MiB"
	for r in $(seq 1 "$RUNS"); do
		for m in summary pf; do
			case $m in
			summary) set -- --summary ;;
			pf) set -- --format perfetto -o "$W/imp.pftrace" ;;
			esac
			cat "$W/imp.json" >/dev/null   # in the page cache, as the others' inputs
			# written back: the generated file's 1.3 GB and the last run's .pftrace,
			# flushed by the kernel meanwhile, made the runs after them 10-40% slower
			sync
			if ! "$RUNSTAT" "$W/imp.rs" "$TPROF_ANALYZE" --import "$W/imp.json" "$@" \
				>"$W/imp.out" 2>"$W/imp.err"; then
				fail "tprof-analyze --import $* exited with status $(rs "$W/imp.rs" status): $(head -n 3 "$W/imp.err")"
				continue
			fi
			_w=$(rs "$W/imp.rs" wall)
			sample "imp_${m}_rate" "$(awk -v n="$IMPORT_EVENTS" -v w="$_w" 'BEGIN { printf "%.0f", n / w }')"
			sample "imp_${m}_rss" "$(rs "$W/imp.rs" rss)"
			say "  run $r: $m $(awk -v w="$_w" 'BEGIN { printf "%.2f", w }') s wall, peak RSS $(($(rs "$W/imp.rs" rss) / 1024)) MiB"
			rm -f "$W/imp.pftrace"
		done
	done
else
	fail "mk-chrome-trace could not write the trace to import: $(head -n 3 "$W/imp.gen" 2>/dev/null)"
fi
rm -f "$W/imp.json"
# torch.profiler's shape: args on every op, Python functions, flows; more bytes an event
# a whole number: shell arithmetic below divides by it (the variable may say 1e6)
TORCH_EVENTS=$(num "${BENCH_IMPORT_TORCH_EVENTS:-1000000}")
say "== import: a torch-shaped Chrome trace of $TORCH_EVENTS events (mk-chrome-trace -t)"
if [ -x "$MKCHROME" ] && "$MKCHROME" -t -n "$TORCH_EVENTS" -o "$W/imp.json" >"$W/imp.gen" 2>&1; then
	say "  file: $(($(wc -c <"$W/imp.json") / 1048576)) MiB, $(($(wc -c <"$W/imp.json") / TORCH_EVENTS)) bytes an event"
	for r in $(seq 1 "$RUNS"); do
		cat "$W/imp.json" >/dev/null   # in the page cache, as the others' inputs
		sync
		if ! "$RUNSTAT" "$W/imp.rs" "$TPROF_ANALYZE" --import "$W/imp.json" --summary \
			>"$W/imp.out" 2>"$W/imp.err"; then
			fail "tprof-analyze --import (torch-shaped) --summary exited with status $(rs "$W/imp.rs" status): $(head -n 3 "$W/imp.err")"
			continue
		fi
		_w=$(rs "$W/imp.rs" wall)
		sample "imp_torch_rate" "$(awk -v n="$TORCH_EVENTS" -v w="$_w" 'BEGIN { printf "%.0f", n / w }')"
		sample "imp_torch_rss" "$(rs "$W/imp.rs" rss)"
		sample "imp_torch_cpu" "$(awk -v u="$(rs "$W/imp.rs" user)" -v s="$(rs "$W/imp.rs" sys)" 'BEGIN { print u + s }')"
		say "  run $r: summary $(awk -v w="$_w" 'BEGIN { printf "%.2f", w }') s wall, $(stat_last imp_torch_cpu) s CPU, peak RSS $(($(rs "$W/imp.rs" rss) / 1024)) MiB"
	done
else
	fail "mk-chrome-trace -t could not write the trace to import: $(head -n 3 "$W/imp.gen" 2>/dev/null)"
fi
rm -f "$W/imp.json"
say ""
fi

# ---- the table ---------------------------------------------------------------------------
# row LABEL SAMPLES SCALE UNIT DIR TARGET [DROPS]: DIR is le or ge; TARGET in UNIT; with
# DROPS (a sample name), a run that dropped anything turns the verdict into a miss.
row() {
	_lbl=$1 _s=$2 _sc=$3 _u=$4 _dir=$5 _tg=$6 _drops=${7:-}
	_med=$(stat "$_s" median)
	_min=$(stat "$_s" min)
	_max=$(stat "$_s" max)
	_verdict=$(awk -v m="$_med" -v sc="$_sc" -v d="$_dir" -v t="$_tg" 'BEGIN {
		if (m == "nan") { print "not measured"; exit }
		v = m / sc
		if (t == "-") { print "(information)"; exit }
		if ((d == "le" && v <= t) || (d == "ge" && v >= t)) { print "meets"; exit }
		if (t == 0) { printf "misses (%g)\n", v; exit }
		printf "misses by %.0f%%\n", (d == "le" ? v - t : t - v) / t * 100 }')
	if [ -n "$_drops" ] && [ "$(sum "$_drops")" != 0 ]; then
		_verdict="misses: events dropped in $(awk '$1 != 0' "$W/s/$_drops" | wc -l) of $(wc -l <"$W/s/$_drops") runs"
	fi
	_tgt="-"
	[ "$_tg" != "-" ] && _tgt="$( [ "$_dir" = le ] && printf '<=' || printf '>=') $_tg"
	# a figure in ns is also given in floors (floor_tsc: two reads of the recorder's clock)
	_fl=$(stat floor_tsc median)
	awk -v l="$_lbl" -v m="$_med" -v a="$_min" -v b="$_max" -v sc="$_sc" -v u="$_u" -v t="$_tgt" -v v="$_verdict" -v fl="$_fl" 'BEGIN {
		if (m == "nan") { printf "%-52s %10s %-22s %-8s %-10s %s\n", l, "-", "", "", t, v; exit }
		f = (u == "ns" && fl != "nan" && fl > 0) ? sprintf("%.1f", m / sc / fl) : ""
		printf "%-52s %10.4g %-22s %-8s %-10s %s\n", l, m / sc, sprintf("(%.4g .. %.4g) %s", a / sc, b / sc, u), f, t, v }'
}

say "== results: median of $RUNS runs (min .. max); load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-52s %10s %-22s %-8s %-10s %s\n' "figure" "median" "(min .. max) unit" "floors" "target" "verdict"
if want floor; then
	row "floor: ns per two TSC reads" floor_tsc 1 ns - -
	row "  per two clock_gettime(CLOCK_MONOTONIC)" floor_mono 1 ns - -
fi
row "added ns per push+pop pair (4 names)" ov_add_pairs_ns 1 ns le 30
row "  the same, median 100k-pair batch" ov_add_pairs_batch_median_ns 1 ns le 30
row "  push+pop pair without the profiler" ov_plain_pairs_ns 1 ns - -
row "  push+pop pair with the profiler" ov_rec_pairs_ns 1 ns - -
row "added ns per pair, recorder loaded, TPROF_ENABLE=0" ov_off_pairs_ns 1 ns - -
row "added ns per pair, outside the capture window" ov_paused_pairs_ns 1 ns - -
row "added ns per push+pop pair (50 names)" ov_add_pairs50_ns 1 ns - -
row "added ns per tprof_mark" ov_add_marks_ns 1 ns - -
row "records/s, one thread, $BURST marks" burst_rate 1e6 M/s ge 20 burst_dropped
row "records/s, one thread, $LONG marks" long_rate 1e6 M/s ge 20 long_dropped
row "mix at full speed: records/s offered" mixlong_rate 1e6 M/s - -
row "  records of those $LONG dropped" mixlong_dropped 1e6 M - -
row "  records/s kept (kept / wall, exit included)" mixlong_e2e 1e6 M/s ge 20
row "mix paced at $PACE/s: records dropped" paced_dropped 1 "" le 0
row "  records/s achieved" paced_rate 1e6 M/s - -
row "bytes on disk per record, push/pop loop" bytes_pairs 1 B le 6
row "bytes on disk per record, realistic mix" bytes_mix 1 B le 6
row "analyze --summary, records/s ($TRACE)" an_mid_summary_rate 1e6 M/s ge 20
row "  the same in analyzer events/s" an_mid_summary_evrate 1e6 M/s - -
row "  CPU s per run" an_mid_summary_cpus 1 s - -
[ -n "$BASE" ] && row "  before: records/s" an_mid_summary_base_rate 1e6 M/s - -
[ -n "$BASE" ] && row "  before: CPU s per run" an_mid_summary_base_cpu 1 s - -
row "analyze --summary-format json, records/s" an_mid_sumjson_rate 1e6 M/s - -
row "analyze --diagnose, records/s" an_mid_diagnose_rate 1e6 M/s ge 5
row "  CPU s per run" an_mid_diagnose_cpus 1 s - -
row "analyze chrome -o /dev/null, records/s" an_mid_chrome_rate 1e6 M/s ge 5
row "  the same in analyzer events/s" an_mid_chrome_evrate 1e6 M/s - -
row "  CPU s per run" an_mid_chrome_cpus 1 s - -
[ -n "$BASE" ] && row "  before: records/s" an_mid_chrome_base_rate 1e6 M/s - -
[ -n "$BASE" ] && row "  before: CPU s per run" an_mid_chrome_base_cpu 1 s - -
row "analyze chrome -o .json.gz, records/s" an_mid_gz_rate 1e6 M/s ge 5
row "  the same in analyzer events/s" an_mid_gz_evrate 1e6 M/s - -
row "  CPU s per run" an_mid_gz_cpus 1 s - -
[ -n "$BASE" ] && row "  before: records/s" an_mid_gz_base_rate 1e6 M/s - -
[ -n "$BASE" ] && row "  before: CPU s per run" an_mid_gz_base_cpu 1 s - -
row "analyze perfetto -o .pftrace, records/s" an_mid_pf_rate 1e6 M/s ge 10
row "  the same in analyzer events/s" an_mid_pf_evrate 1e6 M/s - -
row "  CPU s per run" an_mid_pf_cpus 1 s - -
row "  .json.gz / .pftrace of the same trace" an_mid_pf_ratio 1 x ge 3
row "  .pftrace bytes per record" an_mid_pf_bpr 1 B - -
row "analyze otf2 -o DIR, records/s" an_mid_otf2_rate 1e6 M/s - -
row "  the same in analyzer events/s" an_mid_otf2_evrate 1e6 M/s - -
row "  CPU s per run" an_mid_otf2_cpus 1 s - -
[ -n "$BASE" ] && row "  before: records/s" an_mid_otf2_base_rate 1e6 M/s - -
[ -n "$BASE" ] && row "  before: CPU s per run" an_mid_otf2_base_cpu 1 s - -
row "analyze sqlite -o FILE, rows written/s" an_mid_sqlite_rowrate 1e6 M/s ge 1
row "  rows written" an_mid_sqlite_rows 1e6 M - -
row "  the same in records/s" an_mid_sqlite_rate 1e6 M/s - -
row "analyze peak RSS, --summary, $TRACE records" an_mid_summary_rss 1024 MiB - -
row "analyze peak RSS, --summary, $BIG records" an_big_summary_rss 1024 MiB le 1024
row "analyze peak RSS, --diagnose, $TRACE records" an_mid_diagnose_rss 1024 MiB - -
row "analyze peak RSS, chrome, $BIG records" an_big_chrome_rss 1024 MiB le 1024
row "analyze peak RSS, otf2, $TRACE records" an_mid_otf2_rss 1024 MiB - -
row "analyze --summary, records/s ($BIG)" an_big_summary_rate 1e6 M/s ge 20
row "analyze chrome -o /dev/null, records/s ($BIG)" an_big_chrome_rate 1e6 M/s ge 5
row ".json.gz / .pftrace, annotation-heavy ($ANNOT_THREADS x $ANNOT_RANGES nested ranges)" annot_pf_ratio 1 x ge 3
row "  .pftrace bytes per event" annot_pf_bpe 1 B - -
row "process start: CPU us, plain /bin/true" start_plain 1000 us - -
row "  added by an empty preloaded library (floor)" start_add_empty 1000 us - -
row "  recorder off (TPROF_ENABLE=0), over the empty lib" start_over_empty_off 1000 us le 30
row "  recording nothing, over the empty library" start_over_empty_rec 1000 us le 150
row "  one mark recorded, over the empty library" start_over_empty_mrec 1000 us - -
row "  recorder off (TPROF_ENABLE=0), over plain" start_add_off 1000 us - -
row "  recording nothing, over plain" start_add_rec 1000 us - -
row "  one mark recorded, over plain" start_add_mrec 1000 us - -
row "  a preloaded shell's fork + exec, recording nothing, over the empty library" start_fork_over_empty 1000 us - -
row "script of $((SCRIPT_LOOPS * 6)) processes: plain wall s" script_plain_wall 1 s - -
row "  plain CPU s (user + system, process tree)" script_plain_cpu 1 s - -
row "  tprof-inspect: wall recorded / plain" script_wall_rec 1 x le 1.15
row "  tprof-inspect: CPU recorded / plain" script_cpu_rec 1 x - -
row "  --sample all: wall recorded / plain" script_wall_samp 1 x - -
row "  --sample all: CPU recorded / plain" script_cpu_samp 1 x - -
if [ "${hip_ok:-0}" = 1 ]; then
	row "added ns per hipGetDevice (stand-in)" hip_add_getdevice 1 ns - -
	row "  hipGetDevice without the profiler" hip_plain_getdevice 1 ns - -
	row "  CPU added per call, calling thread" hip_tcpu_getdevice 1 ns - -
	row "  CPU added per call, whole process" hip_cpu_getdevice 1 ns - -
	row "added ns per hipLaunchKernel (stand-in)" hip_add_launch 1 ns - -
	row "  hipLaunchKernel without the profiler" hip_plain_launch 1 ns - -
	row "  CPU added per launch, calling thread" hip_tcpu_launch 1 ns - -
	row "  CPU added per launch, whole process" hip_cpu_launch 1 ns - -
	row "  launches given their device span (of $HIP_CALLS)" hip_timed 1 "" - -
	# Information only: the stand-in's stream thread, its event wake-ups and the recorder's
	# threads share two cores with the launching thread, and the difference swings by
	# hundreds of ns either way; the minimal runtime below gives the recorder's own work.
	row "recorder's own ns per launch (stand-in, noisy)" hip_own 1 ns - -
	row "  launch between two hipEventRecord, unrecorded" hip_bracketed 1 ns - -
	row "  two hipEventRecord by themselves, idle stream" hip_events 1 ns - -
fi
if [ "${hipmin_ok:-0}" = 1 ]; then
	row "recorder's own ns per launch (minimal runtime)" hipm_own 1 ns le 100
	row "  launch between two hipEventRecord, unrecorded" hipm_bracketed 1 ns - -
	row "  launches left untimed (of $HIP_CALLS)" hipm_untimed 1 "" le 0
	row "added ns per launch, runtime without events" hipn_add_launch 1 ns - -
	row "  launch without the profiler" hipn_plain_launch 1 ns - -
	row "  CPU added per launch, calling thread" hipn_tcpu_launch 1 ns le 100
	row "  CPU added per launch, whole process" hipn_cpu_launch 1 ns le 150
	row "  launches counted as untimed (of $HIP_CALLS)" hipn_untimed 1 "" - -
	row "  lookups of a missing function, $HIP_CALLS launches" hip_lookups 1 "" le 1
fi
if [ "${mpi_ok:-0}" = 1 ]; then
	row "added ns per MPI_Comm_rank" mpi_add_commrank 1 ns le 30
	row "  MPI_Comm_rank without the profiler" mpi_plain_commrank 1 ns - -
	row "  CPU added per call, whole job (mpirun's too)" mpi_cpu_commrank 1 ns - -
	row "added ns per MPI_Send+MPI_Recv pair" mpi_add_pingpong 1 ns - -
	row "  MPI_Send+MPI_Recv pair without the profiler" mpi_plain_pingpong 1 ns - -
	row "  CPU added per pair, whole job (2 ranks)" mpi_cpu_pingpong 1 ns - -
	row "added ns per unsuccessful MPI_Test" mpi_add_test 1 ns - -
	row "  MPI_Test without the profiler" mpi_plain_test 1 ns - -
	row "added ns per unsuccessful MPI_Testany (4 requests)" mpi_add_testany 1 ns - -
	row "  MPI_Testany without the profiler" mpi_plain_testany 1 ns - -
	row "added ns per unsuccessful MPI_Iprobe" mpi_add_iprobe 1 ns - -
	row "  MPI_Iprobe without the profiler" mpi_plain_iprobe 1 ns - -
	row "added ns per MPI_Irecv+MPI_Send+completing Testany" mpi_add_testhit 1 ns - -
	row "  the three without the profiler" mpi_plain_testhit 1 ns - -
	row "profile bytes per million unsuccessful MPI_Test" mpi_poll_bytes 1 B le 1000000
	row "halo exchange, polling: wall time recorded / plain" mpi_halo_ratio 1 x le 1.25
	row "  its unsuccessful and completing polls" mpi_halo_polls 1 "" - -
	if [ -s "$W/s/mpi_hpcc_ratio" ]; then
		row "hpcc -np 2 (1x2 grid): wall time recorded / plain" mpi_hpcc_ratio 1 x le 1.10
		row "  CPU of the job recorded / plain" mpi_hpcc_cpu 1 x - -
		row "  MPIRandomAccess GUP/s recorded / plain" mpi_hpcc_gups 1 x ge 0.95
		row "  MPIRandomAccess (LCG) GUP/s recorded / plain" mpi_hpcc_lcg 1 x ge 0.95
		row "  hpcc without the profiler" mpi_hpcc_plain 1 s - -
		row "  its profile" mpi_hpcc_bytes 1e6 MB - -
	fi
fi
if [ "${live_ok:-0}" = 1 ]; then
	row "halo, recorded, --live beside (every 2 s): wall / alone" live_ratio_2 1 x le 1.05
	row "  --live every 0.5 s: wall / alone" live_ratio_0.5 1 x - -
	row "  the halo alone, recorded" live_ns_alone 1e6 ms - -
	row "  views written, every 2 s" live_views_2 1 "" - -
	row "  views written, every 0.5 s" live_views_0.5 1 "" - -
fi
if [ "${nrt_ok:-0}" = 1 ]; then
	row "added ns per nrt_execute (stand-in, 0 us model)" nrt_add_execute 1 ns le 30
	row "  nrt_execute without the profiler" nrt_plain_execute 1 ns - -
	row "  CPU added per call, whole process" nrt_cpu_execute 1 ns - -
	row "added ns per nrt_tensor_read (stand-in, 64 B)" nrt_add_read 1 ns le 30
	row "  nrt_tensor_read without the profiler" nrt_plain_read 1 ns - -
fi
if [ "${nccl_ok:-0}" = 1 ]; then
	row "added ns per ncclCommCount (stand-in)" nccl_add_count 1 ns le 30
	row "  ncclCommCount without the profiler" nccl_plain_count 1 ns - -
	row "added ns per ncclAllReduce, host side (stand-in)" nccl_add_allreduce 1 ns - -
	row "  ncclAllReduce without the profiler" nccl_plain_allreduce 1 ns - -
	row "  CPU added per call, whole process" nccl_cpu_allreduce 1 ns - -
	row "  of which two hipEventRecord of the runtime" nccl_events 1 ns - -
fi
if want parallel; then
	row "parallel: records in the generated job ($PAR_RANKS ranks)" par_records 1e6 M - -
	row "  tprof-analyze --summary alone: wall" par_serial_wall 1 s - -
	row "    records/s" par_serial_rate 1e6 M/s - -
	row "    peak RSS" par_serial_rss 1024 MiB - -
	row "  mpirun -np 2 ... --parallel: wall" par_k2_wall 1 s - -
	row "    records/s" par_k2_rate 1e6 M/s - -
	row "    alone / parallel wall time" par_k2_speedup 1 x - -
	row "    peak RSS, the larger analysis process" par_k2_rss 1024 MiB - -
	row "    CPU s, the larger analysis process" par_k2_cpu 1 s - -
	row "    bytes sent, the larger" par_k2_sent 1e6 MB - -
	row "    bytes received, the larger" par_k2_received 1e6 MB - -
fi
if want import; then
	row "import --summary, events/s ($IMPORT_EVENTS events)" imp_summary_rate 1e6 M/s ge 2
	row "  peak RSS" imp_summary_rss 1024 MiB le 512
	row "import to perfetto, events/s" imp_pf_rate 1e6 M/s - -
	row "  peak RSS" imp_pf_rss 1024 MiB - -
	row "import --summary, events/s, torch-shaped trace" imp_torch_rate 1e6 M/s ge 2
	row "  peak RSS" imp_torch_rss 1024 MiB le 512
	row "  CPU time (user + sys)" imp_torch_cpu 1 s - -
	say "  (chrome2otf2, as published: about 0.022 M events/s and 1.8 GiB of memory at 10^6 events)"
fi
if want sample; then
	row "sampled at 99 Hz (BPF): wall time / plain" sample_ratio_b99 1 x le 1.01
	row "sampled at 999 Hz (BPF): wall time / plain" sample_ratio_b999 1 x le 1.03
	row "/proc sampler at 99 Hz: wall time / plain" sample_ratio_p99 1 x le 1.01
	row "recorder alone, TPROF_SAMPLE at 99 Hz: / plain" sample_ratio_r99 1 x le 1.01
	row "  cpuburn without the profiler" sample_plain 1e9 s - -
	row "sampler thread at 99 Hz (BPF), 2 busy threads" sample_cpu_b99 1 "% CPU" le 1
	row "sampler thread at 999 Hz (BPF)" sample_cpu_b999 1 "% CPU" - -
	row "sampler thread, /proc at 99 Hz" sample_cpu_p99 1 "% CPU" - -
	row "999 Hz for ${SAMPLE_LONG} s: samples lost" sample_long_lost 1 "" le 0
	row "  samples written / expected (999/s per busy CPU)" sample_long_share 1 x - -
	row "  samples written" sample_long_samples 1 "" - -
fi
say "SIGKILL: $(sum kill_lost) events lost in $(sum kill_cases) killed runs (target 0: $( [ "$(sum kill_lost)" = 0 ] && echo meets || echo MISSES))"
[ "$(sum kill_false_skip)" != 0 ] &&
	say "  ($(sum kill_false_skip) of those runs lost nothing but were reported with records skipped as damaged)"
say ""
if [ "$failures" -ne 0 ]; then
	say "!!! $failures BENCHMARK FAILURE(S): see the lines marked '!!!' above"
	exit 1
fi
say "all benchmarks ran; the verdicts above compare the medians with the targets"
exit 0

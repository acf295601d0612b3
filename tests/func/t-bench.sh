#!/bin/sh
# `make bench` still measures what it says it does: every part run at its smallest (one run,
# a few thousand calls, a few starts, small traces), then its table read back.  Each part's
# rows must be there, each with a number (median, min and max), and nothing may have failed.
# The figures themselves mean nothing at these sizes on a machine busy with other tests, and
# none is compared with its target: this checks that the bench runs and reports, not speed.
# Only where the machine cannot measure a row (the kernel probes without root or without
# BPF; HPC Challenge without Debian's hpcc) may it say "not measured", and the test says so.
. "$(dirname "$0")/lib.sh"
plan 6

# The smallest sizes run.sh takes (its header lists these variables).
BENCH_RUNS=1 BENCH_FLOOR_PAIRS=1e5 BENCH_PAIRS=1e5 BENCH_BURST=1e5 BENCH_LONG=2e5
BENCH_PACE=1e6 BENCH_TRACE=1e5 BENCH_BIG=2e5 BENCH_ANNOT_THREADS=2 BENCH_ANNOT_RANGES=100
BENCH_KILL_CASES=1000:1:0.1 BENCH_HIP_CALLS=1e3 BENCH_MPI_CALLS=1e3 BENCH_MPI_PAIRS=1e3
BENCH_MPI_POLLS=1e4 BENCH_MPI_HALO=100 BENCH_LIVE_HALO=100 BENCH_NRT_CALLS=1e3 BENCH_NCCL_CALLS=1e3
BENCH_SAMPLE_WORK=1e7 BENCH_SAMPLE_LONG=1 BENCH_STARTS=10 BENCH_SCRIPT_LOOPS=2
BENCH_IMPORT_EVENTS=1e4 BENCH_IMPORT_TORCH_EVENTS=1e4 BENCH_PAR_RANKS=8 BENCH_PAR_STEPS=50
BENCH_CACHE=$T/cache
export BENCH_RUNS BENCH_FLOOR_PAIRS BENCH_PAIRS BENCH_BURST BENCH_LONG BENCH_PACE BENCH_TRACE \
	BENCH_BIG BENCH_ANNOT_THREADS BENCH_ANNOT_RANGES BENCH_KILL_CASES BENCH_HIP_CALLS \
	BENCH_MPI_CALLS BENCH_MPI_PAIRS BENCH_MPI_POLLS BENCH_MPI_HALO BENCH_LIVE_HALO BENCH_NRT_CALLS \
	BENCH_NCCL_CALLS BENCH_SAMPLE_WORK BENCH_SAMPLE_LONG BENCH_STARTS BENCH_SCRIPT_LOOPS \
	BENCH_IMPORT_EVENTS BENCH_IMPORT_TORCH_EVENTS BENCH_PAR_RANKS BENCH_PAR_STEPS BENCH_CACHE
unset BENCH_ONLY BENCH_ANALYZE_BASE
TMPDIR=$T
export TMPDIR

make -s -C "$top_builddir/bench" bench >"$T/bench.out" 2>&1
rc=$?
[ "$rc" -eq 0 ] || diag "make bench exited with status $rc; its last lines:" "$(tail -n 15 "$T/bench.out")"
ok "$rc" "make bench ran every part and exited with status 0"

! grep -n '^!!!\|line [0-9]*:.*error\|: command not found\|unbound variable' "$T/bench.out" >"$T/bad"
ok $? "no benchmark failed and the script met no shell error"
[ -s "$T/bad" ] && diag "$(head -n 5 "$T/bad")"

# Rows that this machine may be unable to measure, and why.
allowed='^$'
if [ "$(id -u)" != 0 ] || [ "${BPF_STATUS:-}" != yes ]; then
	allowed='(BPF)'
	diag "the kernel probes' rows may say \"not measured\": not root, or built without BPF (${BPF_STATUS:-})"
fi
hpcc=yes
command -v hpcc >/dev/null 2>&1 && [ -r /usr/share/doc/hpcc/examples/_hpccinf.txt ] || {
	hpcc=no
	diag "Debian's hpcc is not installed: the bench leaves out its rows"
}

# The table: from its header to the SIGKILL line.  A measured row reads LABEL MEDIAN (MIN ..
# MAX) UNIT ...; an unmeasured one ends in "not measured".
sed -n '/^figure  *median/,/^SIGKILL:/p' "$T/bench.out" | sed '1d;$d' | grep -v '^  (' >"$T/table"
n=$(wc -l <"$T/table")
num='-?[0-9][0-9.]*(e[-+]?[0-9]+)?'
grep -Ev "  $num \\($num \\.\\. $num\\)" "$T/table" | grep -Ev "$allowed" >"$T/unmeasured"
test "$n" -ge 120 && ! [ -s "$T/unmeasured" ]
ok $? "every one of the table's $n rows has a median and a range"
[ -s "$T/unmeasured" ] && diag "rows without a figure:" "$(head -n 10 "$T/unmeasured")"

# Each part's first row (and one of its last), so that a part that stopped reporting fails.
missing=""
while IFS= read -r label; do
	[ -n "$label" ] || continue
	[ "$hpcc" = no ] && case $label in hpcc*) continue ;; esac
	grep -qF "$label" "$T/table" || missing="$missing
$label"
done <<'EOF'
floor: ns per two TSC reads
added ns per push+pop pair (4 names)
added ns per pair, outside the capture window
records/s, one thread, 1e5 marks
mix paced at 1e6/s: records dropped
bytes on disk per record, realistic mix
analyze --summary, records/s (1e5)
analyze sqlite -o FILE, rows written/s
analyze peak RSS, --summary, 2e5 records
.json.gz / .pftrace, annotation-heavy
process start: CPU us, plain /bin/true
a preloaded shell's fork + exec
tprof-inspect: wall recorded / plain
CPU added per launch, whole process
recorder's own ns per launch (minimal runtime)
added ns per MPI_Comm_rank
added ns per unsuccessful MPI_Testany (4 requests)
halo exchange, polling: wall time recorded / plain
halo, recorded, --live beside (every 2 s): wall / alone
hpcc -np 2 (1x2 grid): wall time recorded / plain
MPIRandomAccess GUP/s recorded / plain
added ns per nrt_execute
added ns per ncclAllReduce, host side
parallel: records in the generated job
  mpirun -np 2 ... --parallel: wall
import --summary, events/s (1e4 events)
import --summary, events/s, torch-shaped trace
sampled at 99 Hz (BPF): wall time / plain
recorder alone, TPROF_SAMPLE at 99 Hz: / plain
999 Hz for 1 s: samples lost
EOF
ok_none_missing "$missing" "each part's rows are in the table"

grep -q '^SIGKILL: [0-9]* events lost in 1 killed runs' "$T/bench.out"
ok $? "the SIGKILL part killed its one run and counted what it lost"

grep -q '^all benchmarks ran' "$T/bench.out"
ok $? "the bench says every benchmark ran"
finish

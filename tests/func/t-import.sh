#!/bin/sh
# tprof-analyze --import: framework traces merged with the profile and converted alone.
# apps/imp-writer records tprof steps and "op N" ranges and writes a Chrome trace of the same
# instants (ProfilerStep#N, aten::op) with Kineto's baseTimeNanoseconds, epoch timestamps or
# relative times: after the merge each imported slice must lie where its twin does (50 us by
# absolute time, 1 ms by steps, each widened by the longest tprof call imp-writer measured:
# a busy machine can preempt it inside one), on a framework track of the program's own
# process, ops inside their step.  A trace with every phase converts to Chrome, Perfetto and
# OTF2 with the counts it holds; damaged JSON is named with its offset and what came before is
# kept.
. "$(dirname "$0")/lib.sh"
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
plan 42

# merged TRACE_JSON MODE TOLERANCE_US: the checks of one merged Chrome trace.
merged() { "$PY" -B "$CHECKS" merged "$@"; }

# widened US OUT: US plus the longest tprof call imp-writer measured (its "slack_ns=" line
# in OUT), in us.
widened() {
	sed -n 's/^slack_ns=\([0-9]*\)$/\1/p' "$2" | awk -v us="$1" '{ print us + $1 / 1000 }'
}

# ---- by absolute time: found in the directory (baseTimeNanoseconds) ------------------------
"$INSPECT" -o "$T/base" -- "$APPS/imp-writer" "$T/base/w.pt.trace.json" base 6 3 \
	>"$T/base.out" 2>&1
ok $? "imp-writer under tprof-inspect writes its trace into the profile directory"
"$ANALYZE" "$T/base" -v -f chrome -o "$T/base.json" 2>"$T/base.err"
ok $? "tprof-analyze DIR merges it with no option"
grep -q "imported $T/base/w.pt.trace.json: 78 events in 2 process(es); placed by its absolute time" \
	"$T/base.err"
ok $? "-v names the file found, its events and how it was placed"
grep -q "its process [0-9]* is imp-writer" "$T/base.err"
ok $? "-v names the recorded process it belongs to"
merged "$T/base.json" base "$(widened 50 "$T/base.out")" 2>"$T/base.check"
ok $? "baseTimeNanoseconds: steps and ops within 50 us (+ slack) of their twins, on the program's framework track, ops inside steps"
[ -s "$T/base.check" ] && diag "$(cat "$T/base.check")"
pycheck "Kineto's GPU work: on the recorded process's track GPU 0 stream 1, 10 us after its op, "\
"ac2g flows ending there; no empty imported process" \
	gpu-work "$T/base.json" "$(widened 50 "$T/base.out")"

# ---- epoch timestamps, given with --import ---------------------------------------------------
"$INSPECT" -o "$T/epoch" -- "$APPS/imp-writer" "$T/epoch.json" epoch 6 3 >"$T/epoch.out" 2>&1
ok $? "imp-writer writes epoch timestamps"
"$ANALYZE" "$T/epoch" --import "$T/epoch.json" -f chrome -o "$T/epoch.trace.json" 2>"$T/epoch.err"
ok $? "--import FILE with DIR"
merged "$T/epoch.trace.json" epoch "$(widened 50 "$T/epoch.out")" 2>"$T/epoch.check"
ok $? "epoch timestamps: within 50 us (+ slack) of their twins"
[ -s "$T/epoch.check" ] && diag "$(cat "$T/epoch.check")"

# ---- relative times: placed by steps ---------------------------------------------------------
"$INSPECT" -o "$T/rel" -- "$APPS/imp-writer" "$T/rel.json" relative 6 3 >"$T/rel.out" 2>&1
ok $? "imp-writer writes relative times"
"$ANALYZE" "$T/rel" --import "$T/rel.json" -v -f chrome -o "$T/rel.trace.json" 2>"$T/rel.err"
ok $? "--import of a file without absolute time"
grep -q "placed by its steps" "$T/rel.err" &&
	grep -Eq "6 steps matched; the file's time 0 at -?[0-9.]+ us of the profile \(the median of the steps' offsets\), residual [0-9.]+ us RMS" "$T/rel.err"
ok $? "-v: placed by its 6 steps, with the residual"
# One step that started late (a preempted thread): ProfilerStep#3 4 ms later in the file.
"$PY" -B "$CHECKS" make-late-step "$T/rel.json" "$T/late.json" &&
	"$ANALYZE" "$T/rel" --import "$T/late.json" -v --summary >/dev/null 2>"$T/late.err"
at() { sed -n "s/.*the file's time 0 at \(-\{0,1\}[0-9.]*\) us of the profile.*/\1/p" "$1"; }
most() { sed -n 's/.*residual [0-9.]* us RMS, \([0-9.]*\) us at most.*/\1/p' "$1"; }
pycheck "a step 4 ms late: the file placed where its other steps put it (within 1 us + slack), "\
"the 4 ms in the residual" \
	late-step-placement "$(at "$T/rel.err")" "$(at "$T/late.err")" "$(most "$T/late.err")" \
	"$(widened 1 "$T/rel.out")"
[ -s "$T/late.err" ] && diag "$(grep matched "$T/late.err")"
merged "$T/rel.trace.json" relative "$(widened 1000 "$T/rel.out")" 2>"$T/rel.check"
ok $? "by steps: every ProfilerStep#N within 1 ms (+ slack) of tprof step N, ops with their ranges"
[ -s "$T/rel.check" ] && diag "$(cat "$T/rel.check")"
"$ANALYZE" "$T/rel" --import "$T/rel.json" --import-steps 'Nothing#([0-9]+)' --import-offset 250 \
	-v -f chrome -o "$T/off.json" 2>"$T/off.err"
ok $? "--import-steps that match nothing and --import-offset"
grep -q "placed by --import-offset" "$T/off.err" &&
	"$PY" -B "$CHECKS" offset-placement "$T/off.json"
ok $? "--import-offset 250: the file's first event 250 us after the profile's start (ts 0)"

# ---- runs on disk: the same trace --------------------------------------------------------------
TPROF_TEST_IMPORT_RUN_KB=1 "$ANALYZE" "$T/rel" --import "$T/rel.json" -f chrome \
	-o "$T/rel-runs.json" 2>"$T/rel-runs.err" &&
	cmp -s "$T/rel.trace.json" "$T/rel-runs.json"
ok $? "sorted in runs of 1 KiB merged from disk: the same Chrome trace as in one run"

# ---- the summary ---------------------------------------------------------------------------
"$ANALYZE" "$T/base" --summary=json >"$T/base.sum.json" 2>/dev/null
ok $? "--summary=json of a merged profile"
# Durations are compared with those the file gives: the op's total, the steps' median.
pycheck "Framework ops: aten::op 18 times for the file's durations (self = total), the steps "\
"not among them; not among the ranges" \
	framework-ops "$T/base.sum.json" "$T/base/w.pt.trace.json"
"$ANALYZE" --import "$T/rel.json" --summary=json >"$T/rel.sum.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" imported-steps "$T/rel.sum.json" "$T/rel.json"
ok $? "converted alone, the file's ProfilerStep#N are the Steps table's steps"
# --steps with the imported steps: converted alone, and merged with a profile whose process
# (the file's home) recorded no step of its own (the fallback to every imported step).
"$ANALYZE" --import "$T/rel.json" --steps 2:3 -f chrome -o "$T/rel-s23.json" 2>"$T/rel-s23.err" &&
	"$PY" -B "$CHECKS" steps-2-3 "$T/rel-s23.json"
ok $? "--import FILE --steps 2:3: the window of its ProfilerStep#2 and #3, their 6 ops"
"$INSPECT" -o "$T/nostep" -- "$APPS/imp-writer" "$T/nostep/w.pt.trace.json" base 4 2 nostep \
	>"$T/nostep.out" 2>&1 &&
	"$ANALYZE" "$T/nostep" --steps 3 -f chrome -o "$T/nostep.json" 2>"$T/nostep.err" &&
	"$PY" -B "$CHECKS" steps-3-only "$T/nostep.json"
ok $? "a profile without tprof steps: --steps 3 is the imported ProfilerStep#3, its 2 ops"
"$ANALYZE" "$T/base" --summary >"$T/base.sum" 2>/dev/null
grep -q "^Framework ops (imported slices by name" "$T/base.sum"
ok $? "the text summary has the Framework ops table"

# ---- conversion of a trace with every phase --------------------------------------------------
cat >"$T/all.json" <<'EOF'
{"traceEvents": [
 {"ph": "M", "name": "process_name", "pid": 7, "args": {"name": "trainer"}},
 {"ph": "M", "name": "thread_name", "pid": 7, "tid": 1, "args": {"name": "main"}},
 {"ph": "X", "name": "step", "cat": "user_annotation", "pid": 7, "tid": 1, "ts": 100.5, "dur": 1000.25, "args": {"n": 1, "s": "x", "f": 2.5, "b": true, "l": [1, "two", {"three": 3}]}},
 {"ph": "X", "name": "mm", "cat": "cpu_op", "pid": 7, "tid": 1, "ts": 200.001, "dur": 300},
 {"ph": "B", "name": "outer", "pid": 7, "tid": 2, "ts": 150},
 {"ph": "X", "name": "inner", "pid": 7, "tid": 2, "ts": 160, "dur": 100},
 {"ph": "E", "pid": 7, "tid": 2, "ts": 900},
 {"ph": "i", "name": "mark", "pid": 7, "tid": 1, "ts": 400, "s": "t"},
 {"ph": "I", "name": "mark2", "pid": 7, "tid": 2, "ts": 410},
 {"ph": "C", "name": "mem", "pid": 7, "ts": 300, "args": {"alloc": 10, "res": 20}},
 {"ph": "C", "name": "mem", "pid": 7, "ts": 700, "args": {"alloc": 15, "res": 25}},
 {"ph": "b", "name": "req", "cat": "async", "id": "0x1", "pid": 7, "tid": 1, "ts": 120},
 {"ph": "e", "name": "req", "cat": "async", "id": "0x1", "pid": 7, "tid": 2, "ts": 800},
 {"ph": "s", "name": "ac2g", "cat": "ac2g", "id": 7, "pid": 7, "tid": 1, "ts": 260},
 {"ph": "f", "name": "ac2g", "cat": "ac2g", "id": 7, "pid": 7, "tid": 2, "ts": 700, "bp": "e"},
 {"ph": "X", "name": "kernel", "cat": "kernel", "pid": 0, "tid": "stream 7", "ts": 300, "dur": 50}
], "displayTimeUnit": "ms"}
EOF
"$ANALYZE" --import "$T/all.json" -f chrome -o "$T/all.out.json" 2>"$T/all.err"
ok $? "--import without DIR converts to Chrome JSON"
pycheck "Chrome: 5 slices (X, B..E), 2 instants, 4 counter samples, async b/e, flow s/f; args, "\
"categories and ns kept" \
	every-phase-chrome "$T/all.out.json"
"$ANALYZE" --import "$T/all.json" -f perfetto -o "$T/all.pftrace" 2>/dev/null &&
	"$PY" "$PFTRACE" compare "$T/all.pftrace" "$T/all.out.json" >"$T/all.pf" 2>&1
ok $? "Perfetto: protoc decodes it and it holds what the Chrome trace does"
[ $? -eq 0 ] || diag "$(tail -n 5 "$T/all.pf")"
pycheck "Perfetto: 6 slices (5 and the async range), 2 instants, 4 counter samples, 1 flow" \
	every-phase-perfetto "$T/all.pf"
if command -v otf2-print >/dev/null 2>&1; then
	"$ANALYZE" --import "$T/all.json" -f otf2 -o "$T/all.otf2" 2>/dev/null &&
		otf2-print "$T/all.otf2/traces.otf2" >"$T/all.otf2.txt" 2>&1
	ok $? "OTF2: otf2-print reads the archive"
	pycheck "OTF2: 8 ENTER and 8 LEAVE (5 slices, 2 instants, the async range), 4 METRIC" \
		every-phase-otf2 "$T/all.otf2.txt"
else
	skip "otf2-print is not installed"
	skip "otf2-print is not installed"
fi
"$ANALYZE" --import "$T/all.json" --summary >"$T/all.sum" 2>&1
ok $? "--import without DIR: --summary"
grep -q "trainer (imported from all.json)" "$T/all.sum"
ok $? "the summary names the imported process after its process_name and file"

# args longer than a record holds: the slice is kept, its args said to be left out
"$PY" -B "$CHECKS" make-big-args "$T/bigargs.json" &&
	"$ANALYZE" --import "$T/bigargs.json" -f chrome -o "$T/bigargs.out.json" 2>"$T/bigargs.err" &&
	"$PY" -B "$CHECKS" big-args "$T/bigargs.out.json"
ok $? "args of 100 kB: the slice kept, its args said to be left out; the next event's args kept"

# ---- damage ----------------------------------------------------------------------------------
head -c 700 "$T/all.json" >"$T/cut.json"
"$ANALYZE" --import "$T/cut.json" --summary >"$T/cut.sum" 2>"$T/cut.err"
ok $? "a file cut inside an event: exit 0, what came before is read"
grep -Eq "cut.json: offset [0-9]+: " "$T/cut.err"
ok $? "the error names the file and the byte offset"
grep -q "step" "$T/cut.sum" && grep -q "mm" "$T/cut.sum"
ok $? "the events before the damage are in the summary"
sed 's/"name": "mm"/"name": mm/' "$T/all.json" >"$T/bad.json"
"$ANALYZE" --import "$T/bad.json" --summary >"$T/bad.sum" 2>"$T/bad.err"
ok $? "a damaged event in the middle: exit 0"
grep -Eq "warning: $T/bad.json: offset [0-9]+: " "$T/bad.err" && grep -q "outer" "$T/bad.sum"
ok $? "it is skipped with its offset; the events after it are read"
printf 'not json' >"$T/garbage.json"
"$ANALYZE" --import "$T/garbage.json" --summary >/dev/null 2>"$T/garbage.err"
[ $? -eq 1 ] && grep -q "garbage.json" "$T/garbage.err"
ok $? "a file that is not JSON: exit 1, the file named"

# ---- options ---------------------------------------------------------------------------------
"$ANALYZE" --import "$T/all.json" --import-offset abc >/dev/null 2>"$T/opt1.err"
[ $? -eq 2 ] && grep -q "import-offset: 'abc'" "$T/opt1.err"
ok $? "--import-offset abc: exit 2 naming the option and value"
"$ANALYZE" --import "$T/all.json" --import-steps '([' --summary >/dev/null 2>"$T/opt2.err"
grep -q "step pattern '(\['" "$T/opt2.err"
ok $? "a bad --import-steps pattern is named"
"$ANALYZE" --import "$T/all.json" -f chrome >/dev/null 2>"$T/opt3.err"
[ $? -eq 2 ] && grep -q "needs -o" "$T/opt3.err"
ok $? "converting without DIR: --format needs -o"
"$ANALYZE" --help | grep -q -- "--import FILE"
ok $? "--help describes --import"
finish

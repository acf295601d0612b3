#!/bin/sh
# Recording a Neuron runtime program: apps/nrt-threads (two models on NeuronCores 0 and 1, two
# threads executing them, tensors written and read, a few calls that fail on purpose) against
# the stand-in libnrt.so.1, under tprof-inspect.  What the recorder wrote is read back with
# tools/dump-records and checked against the program's own account of what it did and against
# the stand-in's trace file (what ran when): every call with its op, model, NeuronCore, bytes
# and status; each execution's span against the execution the stand-in ran; the runtime's
# properties; the API filters; and a failing program whose output and status do not change.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
plan 23

N=4
neff "$T/a.neff" resnet exec_us=50000 add=3 in=image:4096 in=bias:1024 out=logits:4096
neff "$T/b.neff" bert exec_us=60000 in=tokens:2048 out=hidden:2048
export STANDIN_NRT_INSTANCE="5,48,NCv3,2.0"
APP="$APPS/nrt-threads"

"$APP" -n $N -e "$T/a.neff" "$T/b.neff" >"$T/plain.out" 2>"$T/plain.err"
ok $? "nrt-threads runs without the recorder"
STANDIN_NRT_TRACE_FILE="$T/standin.%p" "$INSPECT" -o "$T/out" -- \
	"$APP" -n $N -e "$T/a.neff" "$T/b.neff" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect, with exit status 0"
pycheck "its output is unchanged (but for pids and tids)" same-output "$T/plain.out" "$T/rec.out"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/rec.err"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"

# The checks below share (nrt-record.py, with the readers of lib-nrt.py): the one image, its
# calls by name, the truth line.
pycheck "every NRT call the program makes is recorded once, with its op" every-call \
	"$T/dump.json" "$T/rec.out"

pycheck "each thread's executions: its model, NeuronCore, set bytes and tensors, status 0" \
	thread-executions "$T/dump.json" "$T/rec.out"

pycheck "loads: the NEFF name, the NeuronCore given, NEFF bytes; unloads name their model" \
	loads "$T/dump.json" "$T/rec.out" "$T/a.neff" "$T/b.neff"

pycheck "tensor calls: name, bytes, NeuronCore and device placement; set calls name the tensor" \
	tensor-calls "$T/dump.json" "$T/rec.out"

pycheck "the calls that failed are recorded with their status" failed-calls \
	"$T/dump.json" "$T/rec.out"

# ---- spans against what the stand-in ran -----------------------------------------------------
pycheck "every execution the stand-in ran is recorded, on its thread, with its model, core and \
status" standin-executions "$T/dump.json" "$T/rec.out" "$T/standin.*"
# The recorded span is the call as the program made it: it holds the stand-in's execution and
# lasts what the stand-in took from entry to return (the wrapper's own cost aside).  A loaded
# machine may stop the thread between the wrapper's clock and the stand-in's, so it is most
# spans, not every one, that must match within 5 %; every one must hold its call.
pycheck "each recorded span holds the execution the stand-in ran, and most match its call \
within 5%" span-times "$T/dump.json" "$T/rec.out" "$T/standin.*"

pycheck "the runtime's version and the instance are properties of the process" \
	runtime-props "$T/dump.json" "$T/rec.out"

"$ANALYZE" "$T/out" --summary >"$T/summary" 2>"$T/summary.err"
ok $? "tprof-analyze --summary reads the profile"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/chrome.err" &&
	"$PY" -B "$CHECKS" parses "$T/trace.json"
ok $? "tprof-analyze --format chrome writes JSON that parses"

# ---- the filters ---------------------------------------------------------------------------
rm -rf "$T/f1"
TPROF_NRT_API_FILTER=nrt_execute "$INSPECT" -o "$T/f1" -- "$APP" -n 2 "$T/a.neff" "$T/b.neff" \
	>"$T/f1.out" 2>"$T/f1.err" && "$DUMP" "$T/f1" >"$T/f1.json"
ok $? "with TPROF_NRT_API_FILTER=nrt_execute the program runs and is recorded"
pycheck "only the executions are recorded, and they still know their sets' bytes" \
	executions-only "$T/f1.json" "$T/f1.out"
rm -rf "$T/f2"
TPROF_NRT_API_FILTER_OUT=nrt_tensor,nrt_get "$INSPECT" -o "$T/f2" -- "$APP" -n 2 "$T/a.neff" "$T/b.neff" \
	>"$T/f2.out" 2>"$T/f2.err" && "$DUMP" "$T/f2" >"$T/f2.json"
ok $? "with TPROF_NRT_API_FILTER_OUT=nrt_tensor,nrt_get the program runs and is recorded"
pycheck "no tensor call and no query is recorded; the rest is" filtered-out \
	"$T/f2.json" "$T/f2.out"

# ---- a program that fails ------------------------------------------------------------------
neff "$T/bad.neff" future major=7
"$APP" "$T/a.neff" "$T/bad.neff" >"$T/bad-plain.out" 2>"$T/bad-plain.err"
prc=$?
"$INSPECT" -o "$T/bad" -- "$APP" "$T/a.neff" "$T/bad.neff" >"$T/bad-rec.out" 2>"$T/bad-rec.err"
rrc=$?
grep -v '^tprof-inspect: ' "$T/bad-rec.err" >"$T/bad-rec.err2"
check "a program failing in the runtime fails the same way under the recorder (status $prc)" \
	sh -c '[ "$1" -ne 0 ] && [ "$1" = "$2" ] && cmp -s "$3" "$4" && cmp -s "$5" "$6"' sh "$prc" "$rrc" \
	"$T/bad-plain.out" "$T/bad-rec.out" "$T/bad-plain.err" "$T/bad-rec.err2"
"$DUMP" "$T/bad" >"$T/bad.json"
pycheck "and its failing load is recorded with NRT_UNSUPPORTED_NEFF_VERSION" \
	unsupported-neff "$T/bad.json"

# ---- TPROF_CLOCK=monotonic: the same spans in nanoseconds directly -------------------------
rm -rf "$T/mono" "$T"/standin.*
TPROF_CLOCK=monotonic STANDIN_NRT_TRACE_FILE="$T/standin.%p" "$INSPECT" -o "$T/mono" -- \
	"$APP" -n 2 "$T/a.neff" "$T/b.neff" >"$T/mono.out" 2>"$T/mono.err" && "$DUMP" "$T/mono" >"$T/mono.json"
ok $? "with TPROF_CLOCK=monotonic the program runs and is recorded"
pycheck "and every recorded execution holds the stand-in's, in CLOCK_MONOTONIC" monotonic \
	"$T/mono.json" "$T/mono.out" "$T/standin.*"
finish

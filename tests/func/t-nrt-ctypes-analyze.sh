#!/bin/sh
# A Python program that reaches the Neuron runtime only through ctypes (apps/nrt-ctypes.py:
# dlopen of libnrt.so.1, dlsym in its handle), traced by tprof-inspect and analyzed: its
# executions on its process's "nc 0" track, named by the model, each from as long as the
# stand-in took for it to as long as the program timed the call, its tensor writes and reads
# there too; the calls on the Python thread; the summary's model row from the same spans.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
plan 5
RUNS=4

# Executions of tens of ms: the recorded span holds the stand-in's call, and only the
# wrapper's own time separates them (unbounded on a loaded machine, which may preempt the
# thread there: the program's own timing of the call bounds the span from above).
neff "$T/m.neff" ctypes-model exec_us=60000 add=2.5 &&
	STANDIN_NRT_TRACE_FILE="$T/standin.trace" "$INSPECT" -o "$T/out" -- \
		"$PY" "$top_srcdir/tests/apps/nrt-ctypes.py" "$T/m.neff" $RUNS 2.5 timed \
		>"$T/stdout" 2>"$T/stderr" &&
	grep -q "executions=$RUNS ok=1" "$T/stdout"
ok $? "the ctypes program runs under tprof-inspect, its outputs right"

"$ANALYZE" "$T/out" -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/an.err"
ok $? "tprof-analyze writes the Chrome trace and the summary"

pycheck "each execution on nc 0, named by the model, as long as the stand-in took; tensor I/O "\
"there too" \
	executions "$T/t.json" "$T/standin.trace" $RUNS "$T/stdout"

pycheck "every call the program made through ctypes is on its Python thread" \
	python-thread "$T/t.json"

pycheck "the summary: 4 executions of ctypes-model on core 0, equal to the Chrome trace's" \
	model-row "$T/t.json" "$T/sum.txt"
finish

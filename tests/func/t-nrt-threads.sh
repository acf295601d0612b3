#!/bin/sh
# The NRT acceptance test: apps/nrt-threads runs two models on NeuronCores 0 and 1 from two
# threads through the stand-in libnrt.so.1, under tprof-inspect, and makes a few calls that
# fail on purpose (-e).  Checked against the program's own truth line and the trace file the
# stand-in wrote of what it ran (STANDIN_NRT_TRACE_FILE): every execution on the nc track of
# its thread's core, named by its model, with the input and output sizes the program used;
# each one's duration from the stand-in's own time for that call to the program's timing of
# it (per execution, so that host scheduling cannot matter); the failures marked with their
# NRT_STATUS names; the summary's per-model figures equal to a recomputation from the Chrome
# trace and its busy share per core; no overlap on a core's track, no arrow back in time;
# --group-by neuroncore and --group-by instance laid out as documented.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
# A trn2 (family 5): the recorder writes it as the PROP nrt_instance, the analyzer names the
# host's group with it.
STANDIN_NRT_INSTANCE=5
export STANDIN_NRT_INSTANCE
plan 13
N=5

# Executions of tens of ms: the recorded span holds the stand-in's call, and only the
# wrapper's own time separates them (unbounded on a loaded machine, which may preempt the
# thread there: the program's own timing of the call bounds the span from above).
neff "$T/a.neff" mlp-small exec_us=60000 add=1 in=x:4096 in=y:4096 out=z:4096 &&
	neff "$T/b.neff" conv-big exec_us=100000 add=2 in=img:65536 out=map:32768
ok $? "two NEFF files are written"

STANDIN_NRT_TRACE_FILE="$T/standin.trace" "$INSPECT" -o "$T/prof" -- \
	"$APPS/nrt-threads" -n $N -e -t "$T/a.neff" "$T/b.neff" >"$T/truth.json" 2>"$T/err.txt"
rc=$?
grep -q '"ok":true' "$T/truth.json" && [ $rc -eq 0 ]
ok $? "nrt-threads runs under the profiler, its outputs right (exit $rc)"
[ $rc -eq 0 ] || diag "$(tail -n 5 "$T/err.txt")"

"$ANALYZE" "$T/prof" -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/an.err"
ok $? "tprof-analyze writes the Chrome trace and the summary"

TR=$T/truth.json
SN=$T/standin.trace
pycheck "every execution of each thread on the nc track of its core, named by its model, \
with its tensors" \
	placement "$T/t.json" "$TR" "$SN"
pycheck "each execution lasts from the stand-in's own time for it to the program's timing \
of the call" \
	durations "$T/t.json" "$TR" "$SN"
pycheck "each span on a core is its call's, which stays on its thread, with a flow; \
no track overlaps" \
	calls-and-flows "$T/t.json" "$TR" "$SN"

# The failures of -e, named as nrt_status.h names them.
pycheck "the calls that failed on purpose carry their NRT_STATUS names, the failed \
execution is marked, the summary counts them" \
	failures "$T/t.json" "$TR" "$SN" "$T/sum.txt" \
	"$top_srcdir/tests/stand-ins/include/nrt/nrt_status.h"
pycheck "the NRT models table equals its recomputation from the Chrome trace" \
	model-table "$T/t.json" "$T/sum.txt"
pycheck "the NeuronCores table: each core's executions and busy share" \
	cores-table "$T/t.json" "$TR" "$SN" "$T/sum.txt"
pycheck "no two spans on one NeuronCore track overlap; no arrow ends before it starts" \
	no-overlap "$T/t.json"

"$ANALYZE" "$T/prof" --group-by neuroncore -o "$T/nc.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" by-neuroncore "$T/nc.json" "$TR" "$SN"
ok $? "--group-by neuroncore: groups nc 0 and nc 1, the process a track in each, \
its threads with it"

"$ANALYZE" "$T/prof" --group-by instance -o "$T/in.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" by-instance "$T/in.json" "$TR" "$SN" "$(hostname)"
ok $? "--group-by instance: the host's group, named with its instance family, holds \
the process's threads and NeuronCores"

if [ -z "${OTF2_PRINT:-}" ] || [ "$OTF2_PRINT" = no ] ||
	! command -v "$OTF2_PRINT" >/dev/null 2>&1; then
	skip "no otf2-print (configure found none)"
else
	"$ANALYZE" "$T/prof" --format otf2 -o "$T/otf2" 2>/dev/null &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/defs.txt" 2>&1 &&
		"$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/events.txt" 2>&1 &&
		"$PY" -B "$CHECKS" otf2 "$T/defs.txt" "$T/events.txt" "$T/truth.json"
	ok $? "OTF2: each thread's executions on its NeuronCore's location, named by model, \
read by otf2-print"
fi
finish

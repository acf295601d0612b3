#!/bin/sh
# tprof-analyze's Neuron runtime outputs end to end, on the trace of a synthetic job written
# by apps/nrt-synth (two processes on two hosts, two threads driving three NeuronCores, a model
# on two cores, a failed execution, tensor traffic on device and host tensors, work from two
# threads overlapping on one core), checked against the truth it prints: every execution and
# device tensor call on its process's "nc N" track(s), named by model, with the call's exact
# times and arguments and a flow from the call on its thread; host calls only on the thread;
# no two spans of one track overlapping; the summary's figures equal to a recomputation from
# the Chrome trace; --group-by neuroncore, instance and domain laid out as documented; the
# OTF2 archive with a location per NeuronCore, read by otf2-print.
. "$(dirname "$0")/lib.sh"
SYNTH="$APPS/nrt-synth"
[ -x "$SYNTH" ] || skip_all "apps/nrt-synth was not built"
plan 14

"$SYNTH" "$T/job" >"$T/truth.json"
ok $? "the synthetic job is written"

"$ANALYZE" "$T/job" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

# The Chrome trace against the truth the program printed (the NRT helpers of
# lib-nrt-analyze.py).
pycheck "every execution and device tensor call on its process's nc N track(s), named by model \
or call, with its exact times" core-tracks "$T/t.json" "$T/truth.json"
pycheck "executions carry model, handle, bytes, tensors, status, thread, repeat, cores; tensor \
calls bytes, tensor, placement, GB/s; failures marked" span-args "$T/t.json" "$T/truth.json"
pycheck "every call stays on its thread (host-only calls only there), with a flow to each core \
it occupied" thread-calls "$T/t.json" "$T/truth.json"
pycheck "no track holds overlapping spans (a second lane 'nc 0 (2)'), NeuronCores sort after \
the threads" lanes "$T/t.json"

# The summary against the Chrome trace.
pycheck "the NRT models table equals its recomputation from the Chrome trace (executions, \
times, failures, bytes, GB/s, cores)" model-table "$T/t.json" "$T/sum.txt"

pycheck "busy share per NeuronCore, tensor traffic by operation and placement, failures and \
the NRT API table" summary-tables "$T/t.json" "$T/sum.txt" "$T/truth.json"

# --group-by
"$ANALYZE" "$T/job" --group-by neuroncore -o "$T/nc.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" by-neuroncore "$T/nc.json"
ok $? "--group-by neuroncore: groups nc 0..2 first, a track per process in each, threads by process"

"$ANALYZE" "$T/job" --group-by instance -o "$T/in.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" by-instance "$T/in.json"
ok $? "--group-by instance: a group per host named with its instance type, each process's threads then cores"

"$ANALYZE" "$T/job" --group-by domain -o "$T/dom.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" by-domain "$T/dom.json"
ok $? "--group-by domain: NeuronCores and API calls each in a group of their own"

"$ANALYZE" "$T/job" --group-by cores -o "$T/x.json" 2>"$T/bad.txt"
rc=$?
[ $rc -eq 2 ] && grep -q "'cores'" "$T/bad.txt" && grep -q "neuroncore" "$T/bad.txt" && grep -q "instance" "$T/bad.txt"
ok $? "a bad --group-by value is refused, naming itself and the known ones"

# OTF2
if [ -z "${OTF2_PRINT:-}" ] || [ "$OTF2_PRINT" = no ] || ! command -v "$OTF2_PRINT" >/dev/null 2>&1; then
	skip "no otf2-print (configure found none)"
else
	"$ANALYZE" "$T/job" --format otf2 -o "$T/otf2" 2>/dev/null &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/defs.txt" 2>&1 && "$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/events.txt" 2>&1 &&
		"$PY" -B "$CHECKS" otf2-cores "$T/defs.txt" "$T/events.txt" "$T/truth.json"
	ok $? "OTF2: a location per NeuronCore (process, nc), every execution and device call entered there, read by otf2-print"
fi

[ ! -s "$T/err.txt" ] || ! grep -v "Chrome trace written" "$T/err.txt" | grep -q .
ok $? "no warnings reading the trace"
finish

#!/bin/sh
# 16 threads record known numbers of events; the Chrome trace and the summary must hold
# exactly those, one track per thread, with ranges properly nested.
. "$(dirname "$0")/lib.sh"
plan 6

out="$T/out"
"$INSPECT" -o "$out" -- "$APPS/threads" 16 1000 >"$T/stdout" 2>"$T/stderr"
ok $? "tprof-inspect runs the program and returns its status"
check "the program's own output is unchanged" grep -qx 'threads=16 iterations=1000' "$T/stdout"
"$ANALYZE" "$out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"
pycheck "the trace is valid JSON with the exact event counts" exact-counts "$T/trace.json"
pycheck "every inner range nests inside an outer range of its thread" ranges-nest "$T/trace.json"
"$ANALYZE" "$out" --summary >"$T/summary" 2>>"$T/analyze.err"
pycheck "the summary counts the same calls" summary-counts "$T/summary"
finish

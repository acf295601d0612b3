#!/bin/sh
# TPROF_HIP_API_FILTER chooses which HIP calls are recorded (substrings, comma-separated);
# _FILTER_OUT removes some; the device work is recorded whatever the filter says.
. "$(dirname "$0")/lib.sh"
need_hip hip-multi
plan 6

export STANDIN_HIP_KERNEL_US="default:200"
run() {
	rm -rf "$T/out"
	"$INSPECT" -o "$T/out" -- "$APPS/hip-multi" 5 >"$T/stdout" 2>"$T/stderr" &&
		"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
}
counts='
import json, sys, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
calls = collections.Counter(e["name"] for e in ev if e["ph"] == "X" and e.get("cat") == "hip")
kernels = sum(1 for e in ev if e["ph"] == "X" and e.get("cat") == "kernel")
copies = sum(1 for e in ev if e["ph"] == "X" and e.get("cat") == "copy")
'

TPROF_HIP_API_FILTER=hipMemcpy run
ok $? "with TPROF_HIP_API_FILTER=hipMemcpy the program and the analyzer run"
check "only the memcpy calls are recorded" py "$counts
if set(calls) != {'hipMemcpyAsync'} or calls['hipMemcpyAsync'] != 4: sys.exit('calls %s' % calls)
" "$T/trace.json"
check "and every kernel and copy still has its device span" py "$counts
if (kernels, copies) != (20, 4): sys.exit('kernels %d copies %d' % (kernels, copies))
" "$T/trace.json"

TPROF_HIP_API_FILTER_OUT=Launch,CallConfiguration run
ok $? "with TPROF_HIP_API_FILTER_OUT=Launch,CallConfiguration the program and the analyzer run"
check "no launch call is recorded, the other calls are" py "$counts
if any('Launch' in n or 'CallConfiguration' in n for n in calls): sys.exit('calls %s' % calls)
for n in ('hipSetDevice', 'hipMalloc', 'hipStreamCreate', 'hipMemcpyAsync', 'hipStreamSynchronize', 'hipFree'):
    if not calls[n]: sys.exit('%s missing: %s' % (n, calls))
" "$T/trace.json"
check "and every kernel and copy still has its device span" py "$counts
if (kernels, copies) != (20, 4): sys.exit('kernels %d copies %d' % (kernels, copies))
" "$T/trace.json"
finish

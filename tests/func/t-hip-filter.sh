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

TPROF_HIP_API_FILTER=hipMemcpy run
ok $? "with TPROF_HIP_API_FILTER=hipMemcpy the program and the analyzer run"
pycheck "only the memcpy calls are recorded" only-memcpy "$T/trace.json"
pycheck "and every kernel and copy still has its device span" device-spans "$T/trace.json"

TPROF_HIP_API_FILTER_OUT=Launch,CallConfiguration run
ok $? "with TPROF_HIP_API_FILTER_OUT=Launch,CallConfiguration the program and the analyzer run"
pycheck "no launch call is recorded, the other calls are" no-launch "$T/trace.json"
pycheck "and every kernel and copy still has its device span" device-spans "$T/trace.json"
finish

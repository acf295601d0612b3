#!/bin/sh
# TPROF_CALLSTACK=1 records each launch's host stack, shown in the call's arguments and used
# by the summary to name the launching function; --group-by domain gathers API calls,
# kernels and copies into groups across processes.  libunwind is loaded only into processes
# that ask for call stacks.
. "$(dirname "$0")/lib.sh"
need_hip hip-gaps hip-multi
plan 8

export STANDIN_HIP_KERNEL_US="warmup:20000,default:100"
TPROF_CALLSTACK=1 "$INSPECT" -o "$T/cs" -- "$APPS/hip-gaps" >"$T/stdout" 2>"$T/stderr"
ok $? "with TPROF_CALLSTACK=1 the program runs"
"$ANALYZE" "$T/cs" --format chrome -o "$T/cs.json" --summary >"$T/cs.summary" 2>"$T/analyze.err"
pycheck "each launch carries its stack, with the launching function above any kernel stub, main() below" \
	launch-stacks "$T/cs.json"
pycheck "the summary names burst(), gap() and main() as the functions that launched the kernels" \
	launching-functions "$T/cs.summary"

"$INSPECT" -o "$T/gb" -- "$APPS/hip-multi" 2 >/dev/null 2>&1 &&
	"$ANALYZE" "$T/gb" --format chrome --group-by domain -o "$T/gb.json" 2>"$T/analyze.err"
ok $? "--group-by domain writes a trace"
pycheck "API calls, kernels and copies each sit in their own group, tracks named with their process" \
	domain-groups "$T/gb.json"
pycheck "flow arrows still join each launch to its kernel across the groups" \
	flows-joined "$T/gb.json"

record_env "$T/maps" cat /proc/self/maps >"$T/maps.off" 2>"$T/maps.err" &&
	grep -q libtrace_preload "$T/maps.off" && ! grep -q libunwind "$T/maps.off"
ok $? "a process recorded without TPROF_CALLSTACK does not load libunwind"
record_env "$T/maps" env TPROF_CALLSTACK=1 cat /proc/self/maps >"$T/maps.on" 2>"$T/maps.err" &&
	grep -q libunwind "$T/maps.on" && [ ! -s "$T/maps.err" ]
ok $? "with TPROF_CALLSTACK=1 it does, and says nothing"
finish

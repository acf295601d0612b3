#!/bin/sh
# A Python program that reaches the HIP runtime only through ctypes (dlopen, then dlsym in
# the library's own handle) is traced like a linked one: its calls, their arguments, and the
# copies on the device.
. "$(dirname "$0")/lib.sh"
need_hip
plan 5

out="$T/out"
"$INSPECT" -o "$out" -- "$PY" "$top_srcdir/tests/apps/hip-ctypes.py" >"$T/stdout" 2>"$T/stderr"
ok $? "the Python program runs under tprof-inspect"
check "its output is unchanged" grep -qx 'devices=2 copied=2097152' "$T/stdout"
"$ANALYZE" "$out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"
pycheck "every HIP call the program made is in the trace, in order, with its arguments" \
	calls-in-order "$T/trace.json"
pycheck "both copies ran on device 1, timed, each linked to its call" copies-linked "$T/trace.json"
finish

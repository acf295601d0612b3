#!/bin/sh
# A Python program that reaches NCCL only through ctypes (dlopen, then dlsym in the library's
# own handle) is traced like a linked one: its calls with their arguments, numbering and
# groups, and the device spans of its collectives, timed with the HIP events of the runtime
# the library loaded privately.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl.sh"
need_nccl
plan 5

"$INSPECT" -o "$T/out" -- env STANDIN_NCCL_TRACE_FILE="$T/trace.%p" \
	"$PY" "$top_srcdir/tests/apps/nccl-ctypes.py" >"$T/stdout" 2>"$T/stderr"
ok $? "the Python program runs under tprof-inspect"
check "its output is unchanged; the recorder says nothing" sh -c \
	'grep -qx "version=[0-9]* reduced=4096" "$1" && ! grep -q "^tprof\[" "$2"' sh "$T/stdout" "$T/stderr"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"
pycheck "every NCCL call, in order, with its arguments, numbers and group" \
	calls-in-order "$T/dump.json"
pycheck "the collectives and the group ran on the device, each span holding the stand-in's run" \
	device-spans "$T/dump.json" "$T"
finish

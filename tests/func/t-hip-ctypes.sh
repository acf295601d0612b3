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
check "every HIP call the program made is in the trace, in order, with its arguments" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
calls = sorted((e for e in ev if e["ph"] == "X" and e.get("cat") == "hip"), key=lambda e: e["ts"])
names = [e["name"] for e in calls]
want = ["hipGetDeviceCount", "hipSetDevice", "hipMalloc", "hipMemcpy", "hipMemcpy",
        "hipDeviceSynchronize", "hipFree"]
if names != want: sys.exit("calls %s" % names)
m = calls[2]["args"]
if m.get("bytes") != 1 << 20 or m.get("ptr", "0x0") == "0x0": sys.exit("hipMalloc args %s" % m)
kinds = [(c["args"].get("kind"), c["args"].get("bytes")) for c in calls[3:5]]
if kinds != [("HtoD", 1 << 20), ("DtoH", 1 << 20)]: sys.exit("hipMemcpy args %s" % kinds)
if calls[1]["args"].get("device") != 1: sys.exit("hipSetDevice args %s" % calls[1]["args"])
procs = [e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"]
if not any("hip-ctypes.py" in p for p in procs): sys.exit("process names %s" % procs)
' "$T/trace.json"
check "both copies ran on device 1, timed, each linked to its call" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
copies = [e for e in ev if e["ph"] == "X" and e.get("cat") == "copy"]
calls = {e["args"]["correlation"]: e for e in ev if e["ph"] == "X" and e["name"] == "hipMemcpy"}
if len(copies) != 2: sys.exit("%d copies" % len(copies))
for c in copies:
    a = c["args"]
    if a["device"] != 1 or a["bytes"] != 1 << 20 or a["correlation"] not in calls or c["dur"] <= 0:
        sys.exit("copy %s" % c)
' "$T/trace.json"
finish

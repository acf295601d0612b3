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
check "each launch carries its stack, with the launching function above any kernel stub, main() below" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
launches = [e for e in ev if e["ph"] == "X" and e["name"] == "hipLaunchKernel"]
if len(launches) != 33: sys.exit("%d launches" % len(launches))
fns = {"busy": "burst", "warmup": "main", "timer": "gap"}
for l in launches:
    st = [f for f in l["args"].get("stack", []) if not f.startswith("__device_stub__")]
    want = next(f for k, f in fns.items() if l["args"]["kernel"].startswith(k))
    if not st or not st[0].startswith(want) or not any(f.startswith("main") for f in st):
        sys.exit("stack %s for %s" % (l["args"].get("stack"), l["args"]["kernel"]))
for k in (e for e in ev if e.get("cat") == "kernel"):
    want = next(f for p, f in fns.items() if k["name"].startswith(p))
    if not k["args"].get("caller", "").startswith(want): sys.exit("caller of %s: %s" % (k["name"], k["args"].get("caller")))
' "$T/cs.json"
check "the summary names burst(), gap() and main() as the functions that launched the kernels" py '
import re, sys
s = open(sys.argv[1]).read()
part = s.split("Kernels by launching function", 1)
if len(part) < 2: sys.exit(s)
for fn, n in (("burst", 23), ("gap", 9), ("main", 1)):
    if not re.search(r"^\s*\S+ %.*\s" + str(n) + r"\s.*\s" + fn + r"(\(.*)?$", part[1], re.M): sys.exit("%s:\n%s" % (fn, s))
' "$T/cs.summary"

"$INSPECT" -o "$T/gb" -- "$APPS/hip-multi" 2 >/dev/null 2>&1 &&
	"$ANALYZE" "$T/gb" --format chrome --group-by domain -o "$T/gb.json" 2>"$T/analyze.err"
ok $? "--group-by domain writes a trace"
check "API calls, kernels and copies each sit in their own group, tracks named with their process" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
group = {"hip": "API calls", "kernel": "GPU", "copy": "copies"}
for e in ev:
    if e["ph"] == "X" and e.get("cat") in group:
        if procs.get(e["pid"]) != group[e["cat"]]: sys.exit("%s in %s" % (e["cat"], procs.get(e["pid"])))
        if not threads.get((e["pid"], e["tid"]), "").startswith("hip-multi ("): sys.exit("track %s" % threads.get((e["pid"], e["tid"])))
if sorted(v for v in procs.values() if v in group.values()) != ["API calls", "GPU", "copies"]: sys.exit(procs)
' "$T/gb.json"
check "flow arrows still join each launch to its kernel across the groups" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
s = {e["id"] for e in ev if e["ph"] == "s"}
f = {e["id"] for e in ev if e["ph"] == "f"}
if len(s) != 12 or s != f: sys.exit("%d starts, %d ends" % (len(s), len(f)))
' "$T/gb.json"

record_env "$T/maps" cat /proc/self/maps >"$T/maps.off" 2>"$T/maps.err" &&
	grep -q libtrace_preload "$T/maps.off" && ! grep -q libunwind "$T/maps.off"
ok $? "a process recorded without TPROF_CALLSTACK does not load libunwind"
record_env "$T/maps" env TPROF_CALLSTACK=1 cat /proc/self/maps >"$T/maps.on" 2>"$T/maps.err" &&
	grep -q libunwind "$T/maps.on" && [ ! -s "$T/maps.err" ]
ok $? "with TPROF_CALLSTACK=1 it does, and says nothing"
finish

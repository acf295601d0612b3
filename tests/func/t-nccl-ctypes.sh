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
check "every NCCL call, in order, with its arguments, numbers and group" ncheck '
ps = list(procs(sys.argv[1]).values())
if len(ps) != 1: fail("%d processes" % len(ps))
p = ps[0]
names = [r["name"] for r in p.calls]
want = ["ncclGetVersion", "ncclGetUniqueId", "ncclCommInitRank", "ncclAllReduce", "ncclBroadcast",
        "ncclGroupStart", "ncclAllReduce", "ncclAllReduce", "ncclGroupEnd", "ncclCommDestroy"]
if names != want: fail("calls %s" % names)
a = [r["nccl"] for r in p.calls]
uid = a[1]["comm"]
if a[2]["comm"] != uid or (a[2]["rank"], a[2]["nranks"]) != (0, 1) or uid < 16: fail("init %s" % a[2])
got = [(x["op"], x["count"], x["bytes"], x["seq"], x["comm"], x["peer"], x["flags"]) for x in (a[3], a[4], a[6], a[7])]
if got != [(16, 4096, 16384, 1, uid, -1, F_INPLACE), (17, 4096, 16384, 2, uid, 0, F_INPLACE),
           (16, 2048, 8192, 3, uid, -1, F_INPLACE | F_GROUPED), (16, 1024, 4096, 4, uid, -1, F_INPLACE | F_GROUPED)]:
    fail("collectives %s" % got)
g = corr(p.calls[5])
if [x["aux"] for x in a[5:9]] != [g] * 4: fail("group %s" % a[5:9])
if p.props.get("nccl_events") != "HIP" or not p.props.get("nccl_library", "").endswith("libnccl.so.2"): fail("%s" % p.props)
' "$T/dump.json"
check "the collectives and the group ran on the device, each span holding the stand-in's run" ncheck '
p = list(procs(sys.argv[1]).values())[0]
trace = standin(sys.argv[2] + "/trace.*")
d = sorted((x["name"], x["arg"], x["dev"]["coll"]["nops"]) for x in p.devs)
c = {r["name"] + str(i): corr(r) for i, r in enumerate(p.calls)}
if d != sorted([("ncclAllReduce", c["ncclAllReduce3"], 1), ("ncclBroadcast", c["ncclBroadcast4"], 1),
                ("ncclGroupEnd", c["ncclGroupEnd8"], 2)]): fail("device records %s" % d)
for x in p.devs:
    ops = ops_of(p, x, trace)
    s, e = min(o["start_ns"] for _, o in ops), max(o["end_ns"] for _, o in ops)
    o = x["dev"]
    if o["end_ns"] - o["start_ns"] < e - s - 2000 or o["start_ns"] > s + 1000000 or o["end_ns"] < e - 1000000:
        fail("%s: [%d, %d] for the run [%d, %d]" % (x["name"], o["start_ns"], o["end_ns"], s, e))
' "$T/dump.json" "$T"
finish

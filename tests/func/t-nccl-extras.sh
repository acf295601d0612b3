#!/bin/sh
# Recording NCCL ranks made by fork (no MPI): apps/nccl-extras on 3 ranks — ncclBcast recorded
# once (the library's own ncclBroadcast is not), a group over two streams (one DEVICE record
# per stream, timed from the ncclGroupEnd that launches it 20 ms after its calls), nested groups (one record for the outermost, counting every operation), the
# all-to-all of NCCL and of RCCL — then the same program over CUDA streams, whose collectives
# must be timed with the CUDA runtime's events (the stand-in libcudart logs each call) and
# show no HIP call, and the stand-in's own apps/nccl-fork.  Device spans are checked against
# the stand-in's trace of what it ran.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl.sh"
need_nccl apps/nccl-extras apps/rccl-extras apps/nccl-cuda apps/nccl-fork
plan 26

NP=3
TOL_NS=1000000   # as in t-nccl-record.sh

run_app() { # APP OUT
	mkdir -p "$2.tr"
	STANDIN_NCCL_TRACE_FILE="$2.tr/trace.%p" STANDIN_CUDART_TRACE_FILE="$2.tr/cudart.%p" \
		"$INSPECT" -o "$2" -- "$APPS/$1" $NP >"$2.out" 2>"$2.err" &&
		"$DUMP" "$2" >"$2.json"
}

# What every rank of nccl-extras calls, in order (the parent alone made the unique id, before
# it forked: the children are process images of their own).
WANT_CALLS='ncclCommInitRank ncclBcast ncclGroupStart ncclAllReduce ncclAllReduce ncclGroupEnd
ncclGroupStart ncclGroupStart ncclSend ncclRecv ncclGroupEnd ncclAllGather ncclGroupEnd
ALLTOALL ncclAllReduce ncclCommDestroy'
PY_X='
ps = procs(sys.argv[1])
R = sorted(ps.values(), key=lambda p: p.pid)
n = 3
def by_name(p, name):
    return [r for r in p.calls if r["name"] == name]
'
xcheck() { _s=$1; shift; ncheck "$PY_X$_s" "$@"; }

# The checks every variant passes; ALLTOALL: the name of its all-to-all call.
common_checks() { # OUT ALLTOALL WHAT
	check "$3: every rank makes its calls once, in order, ncclBcast without ncclBroadcast" xcheck '
want = sys.argv[2].replace("ALLTOALL", sys.argv[3]).split()
if len(R) != n: fail("%d processes" % len(R))
for i, p in enumerate(R):
    got = [r["name"] for r in p.calls]
    if got != (["ncclGetUniqueId"] if i == 0 else []) + want: fail("pid %d: %s" % (p.pid, got))
' "$1.json" "$WANT_CALLS" "$2"
	check "$3: ranks, communicator and numbers agree across ranks; ncclBcast in place, root 0" xcheck '
uid = by_name(R[0], "ncclGetUniqueId")[0]["nccl"]["comm"]
for p in R:
    coll = [r["nccl"] for r in p.calls if r["nccl"]["op"] >= 16 and r["nccl"]["op"] not in (SEND, RECV)]
    if [(a["seq"], a["comm"], a["nranks"]) for a in coll] != [(i, uid, n) for i in range(1, 7)]:
        fail("pid %d: %s" % (p.pid, coll))
    b = by_name(p, "ncclBcast")[0]["nccl"]
    if (b["op"], b["count"], b["bytes"], b["dtype"], b["peer"], b["redop"], b["flags"] & ~F_RCCL) != (17, 1024, 4096, 7, 0, 255, F_INPLACE):
        fail("pid %d bcast %s" % (p.pid, b))
ranks = sorted(by_name(p, "ncclCommInitRank")[0]["nccl"]["rank"] for p in R)
if ranks != list(range(n)): fail("ranks %s" % ranks)
' "$1.json"
	check "$3: groups: one DEVICE record per stream of the two-stream group, one for the nested groups" xcheck '
for p in R:
    starts = [corr(r) for r in by_name(p, "ncclGroupStart")]
    ends = [corr(r) for r in by_name(p, "ncclGroupEnd")]
    g1 = [d for d in p.devs if d["dev"]["coll"]["group"] == starts[0]]
    g2 = [d for d in p.devs if d["dev"]["coll"]["group"] == starts[1]]
    ar = by_name(p, "ncclAllReduce")
    if len(g1) != 2 or len(set(d["dev"]["stream"] for d in g1)) != 2: fail("pid %d: first group %s" % (p.pid, g1))
    for d, r in zip(sorted(g1, key=lambda d: d["dev"]["bytes"]), ar[:2]):
        c = d["dev"]["coll"]
        if (d["arg"], d["name"], c["nops"], c["op"], c["seq"], d["dev"]["stream"], d["dev"]["bytes"]) != \
           (ends[0], "ncclAllReduce", 1, 16, r["nccl"]["seq"], r["nccl"]["stream"], r["nccl"]["bytes"]):
            fail("pid %d: %s for %s" % (p.pid, d, r))
    if len(g2) != 1: fail("pid %d: nested groups %s" % (p.pid, g2))
    c = g2[0]["dev"]["coll"]
    if (g2[0]["arg"], g2[0]["name"], c["nops"], c["op"], g2[0]["dev"]["bytes"]) != (ends[2], "ncclGroupEnd", 3, GROUP_END, 2048 + 2048 + 256 * 4):
        fail("pid %d: nested %s (ends %s)" % (p.pid, g2, ends))
    i = p.calls.index(by_name(p, "ncclGroupStart")[1])
    inner = [(r["name"], r["nccl"]["aux"]) for r in p.calls[i:i + 7]]
    if [a for _, a in inner] != [starts[1]] * 7 or inner[-1][0] != "ncclGroupEnd": fail("pid %d: nested %s" % (p.pid, inner))
' "$1.json"
	check "$3: the two-stream group's spans start at the ncclGroupEnd that launches it, not at its calls 20 ms earlier" xcheck '
trace = standin(sys.argv[2] + ".tr/trace.*")
tol = int(sys.argv[3])
for p in R:
    first = corr(by_name(p, "ncclGroupStart")[0])
    g = [d for d in p.devs if d["dev"]["coll"]["group"] == first]
    # ncclGroupEnd comes at least 20 ms after the broadcast before the group ended
    bcast = [o for o in trace if o["pid"] == p.pid and o["kind"] == "broadcast"]
    if len(g) != 2 or len(bcast) != 1: fail("pid %d: %d spans, %d broadcasts" % (p.pid, len(g), len(bcast)))
    for d in g:
        early = bcast[0]["end_ns"] + 20000000 - d["dev"]["start_ns"]
        if early > tol:
            fail("pid %d %s: starts %d us before its ncclGroupEnd can have been called" % (p.pid, d["name"], early // 1000))
' "$1.json" "$1" "$TOL_NS"
	check "$3: every collective outside a group has its DEVICE record; spans hold the stand-in's runs" xcheck '
trace = standin(sys.argv[2] + ".tr/trace.*")
tol = int(sys.argv[3])
seen = 0
for p in R:
    alone = [r for r in p.calls if r["nccl"]["op"] >= 16 and not r["nccl"]["flags"] & F_GROUPED]
    devs = {d["arg"]: d for d in p.devs if not d["dev"]["coll"]["group"]}
    if sorted(devs) != sorted(corr(r) for r in alone) or len(p.devs) != len(alone) + 3:
        fail("pid %d: %d records for %d calls" % (p.pid, len(p.devs), len(alone)))
    if p.drops or any(r["nccl"]["flags"] & F_UNTIMED for r in p.calls): fail("pid %d: untimed or lost" % p.pid)
    for d in p.devs:
        ops = ops_of(p, d, trace)
        s, e = min(o["start_ns"] for _, o in ops), max(o["end_ns"] for _, o in ops)
        o = d["dev"]
        if o["end_ns"] - o["start_ns"] < e - s - 2000 or o["start_ns"] > s + tol or o["end_ns"] < e - tol:
            fail("pid %d %s: [%d, %d] for the run [%d, %d]" % (p.pid, d["name"], o["start_ns"], o["end_ns"], s, e))
        seen += len(ops)
if seen != len(trace): fail("%d operations checked, the stand-in ran %d" % (seen, len(trace)))
' "$1.json" "$1" "$TOL_NS"
}

# ---- NCCL over HIP streams ----------------------------------------------------------------
"$APPS/nccl-extras" $NP >"$T/plain.out" 2>"$T/plain.err"
ok $? "nccl-extras runs on $NP forked ranks without the recorder"
run_app nccl-extras "$T/n"
ok $? "and under tprof-inspect, its results checked; dump-records reads the profile"
check "its verdict is unchanged; the recorder says nothing" sh -c \
	'[ "$(tail -n 1 "$1")" = "$(tail -n 1 "$2")" ] && ! grep -q "^tprof\[" "$3"' \
	sh "$T/plain.out" "$T/n.out" "$T/n.err"
common_checks "$T/n" ncclAlltoAll NCCL
check "NCCL: timed with HIP events, no call flagged RCCL" xcheck '
for p in R:
    if p.props.get("nccl_events") != "HIP" or not p.props.get("nccl_library", "").endswith("libnccl.so.2"): fail("%s" % p.props)
    if any(r["nccl"]["flags"] & F_RCCL for r in p.calls): fail("pid %d: RCCL flag" % p.pid)
' "$T/n.json"

# ---- RCCL ---------------------------------------------------------------------------------
run_app rccl-extras "$T/r"
ok $? "rccl-extras runs under tprof-inspect"
common_checks "$T/r" ncclAllToAll RCCL
check "RCCL: every call flagged, the library is librccl, timed with HIP events" xcheck '
for p in R:
    if p.props.get("nccl_events") != "HIP" or not p.props.get("nccl_library", "").endswith("librccl.so.1"): fail("%s" % p.props)
    if any(not r["nccl"]["flags"] & F_RCCL for r in p.calls): fail("pid %d: a call not flagged" % p.pid)
    a2a = by_name(p, "ncclAllToAll")[0]["nccl"]
    if (a2a["op"], a2a["count"], a2a["bytes"], a2a["nranks"]) != (21, 128, 512, n): fail("%s" % a2a)
' "$T/r.json"

# ---- NCCL over CUDA streams -----------------------------------------------------------------
run_app nccl-cuda "$T/c"
ok $? "nccl-cuda (CUDA streams, the stand-in libcudart) runs under tprof-inspect"
common_checks "$T/c" ncclAlltoAll CUDA
check "CUDA: timed with the CUDA runtime's events: two cudaEventRecord per DEVICE record on its stream" xcheck '
import re
for p in R:
    if p.props.get("nccl_events") != "CUDA": fail("pid %d: %s" % (p.pid, p.props))
    rec = collections.Counter()
    for line in open(sys.argv[2] + ".tr/cudart.%d" % p.pid):
        m = re.search(r"\] cudaEventRecord\(event=\S+, stream=(0x[0-9a-f]+|\(nil\))\) = 0$", line)
        if m and m.group(1) != "(nil)": rec[int(m.group(1), 16)] += 1
    want = collections.Counter()
    for d in p.devs: want[d["dev"]["stream"]] += 2
    # the anchor events go on a private stream of the recorder
    extra = {s: c for s, c in rec.items() if s not in want}
    if any(rec[s] != c for s, c in want.items()) or len(extra) > 1: fail("pid %d: records %s, want %s" % (p.pid, rec, want))
' "$T/c.json" "$T/c"
check "CUDA: no HIP call is recorded (the stand-in CUDA runtime is not HIP to the profiler)" xcheck '
if any(p.hip for p in R): fail("%s" % [r["name"] for p in R for r in p.hip][:10])
' "$T/c.json"

# ---- the stand-in's fork program ------------------------------------------------------------
STANDIN_NCCL_TRACE_FILE="$T/f.tr.%p" "$INSPECT" -o "$T/f" -- "$APPS/nccl-fork" 4 >"$T/f.out" 2>"$T/f.err" &&
	"$DUMP" "$T/f" >"$T/f.json"
ok $? "nccl-fork (4 ranks by fork) runs under tprof-inspect"
check "nccl-fork: each rank's all-reduces matched by communicator and number, each with its device span" ncheck '
ps = procs(sys.argv[1])
if len(ps) != 4: fail("%d processes" % len(ps))
seqs = set()
for p in ps.values():
    ar = [r["nccl"] for r in p.calls if r["name"] == "ncclAllReduce"]
    seqs.add(tuple((a["comm"], a["seq"], a["count"], a["dtype"]) for a in ar))
    if sorted(d["arg"] for d in p.devs) != sorted(corr(r) for r in p.calls if r["name"] == "ncclAllReduce"): fail("pid %d" % p.pid)
if len(seqs) != 1 or [s[1] for s in list(seqs)[0]] != [1, 2, 3]: fail("%s" % seqs)
' "$T/f.json"
finish

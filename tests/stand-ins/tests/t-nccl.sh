#!/bin/sh
# The stand-in NCCL/RCCL on its own, without the profiler.  Its exports (sonames, every
# nccl* weak with a strong pncclX alias, each library's own spelling of all-to-all); test-nccl
# and test-rccl with ranks as forked processes: every collective, datatype and reduction
# checked against values computed on the host, groups (nothing of one starts before its
# outermost ncclGroupEnd, in the trace file), asynchrony (a call returns before its
# peers have called), argument errors, a peer that never calls (the stream is released with
# ncclSystemError after STANDIN_NCCL_TIMEOUT_S), a peer that exits or aborts
# (ncclRemoteError), split, non-blocking initialisation, ncclCommInitAll, a lone rank timing
# out, nothing left in /dev/shm; runtime events around collectives; apps/nccl-fork.  Under
# mpirun (when there is MPI): 4 ranks of apps/nccl-ranks and apps/rccl-ranks get correct
# results, and the trace file (STANDIN_NCCL_TRACE_FILE) has one line per operation per rank,
# the same numbers on every rank, one ready time per collective (the latest start), and ends
# no earlier than latency + bytes / bandwidth after it; test-nccl-mpi runs the whole matrix
# on 4 MPI ranks.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] ||
	skip_all "HIP headers not found (Debian: libamdhip64-dev): no stand-in HIP, no stand-in NCCL"
B="$top_builddir/tests"
LIBS="$STANDIN_LIBDIR"
for f in "$LIBS/libnccl.so.2" "$LIBS/librccl.so.1" "$B/stand-ins/tests/test-nccl" \
	"$B/stand-ins/tests/test-rccl" "$B/apps/nccl-fork"; do
	[ -e "$f" ] || skip_all "$f was not built"
done
LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
STANDIN_NCCL_TIMEOUT_S=60
export LD_LIBRARY_PATH STANDIN_NCCL_TIMEOUT_S
unset STANDIN_NCCL_TRACE_FILE STANDIN_NCCL_GBPS STANDIN_NCCL_LATENCY_US STANDIN_NCCL_CHUNK_BYTES
# Ranks waiting in MPI yield the CPU instead of spinning: more ranks than cores here.
OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_mpi_yield_when_idle
plan 37

# ---- exports
for lib in libnccl.so.2 librccl.so.1; do
	soname=$(readelf -d "$LIBS/$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	check "$lib has the soname $lib" test "$soname" = "$lib"
done
nm -D --defined-only "$LIBS/libnccl.so.2" | awk '{ print $2, $3 }' | sort -k2 >"$T/nccl.syms"
nm -D --defined-only "$LIBS/librccl.so.1" | awk '{ print $2, $3 }' | sort -k2 >"$T/rccl.syms"
py '
import sys
def syms(path):
    return {name: kind for kind, name in (l.split() for l in open(path))}
common = """ncclGetVersion ncclGetUniqueId ncclCommInitRank ncclCommInitRankConfig ncclCommInitAll
ncclCommSplit ncclCommFinalize ncclCommDestroy ncclCommAbort ncclCommGetAsyncError ncclCommCount
ncclCommCuDevice ncclCommUserRank ncclGetErrorString ncclGetLastError ncclAllReduce ncclBroadcast
ncclBcast ncclReduce ncclAllGather ncclReduceScatter ncclGather ncclScatter ncclSend ncclRecv
ncclGroupStart ncclGroupEnd ncclRedOpCreatePreMulSum ncclRedOpDestroy ncclMemAlloc ncclMemFree
ncclCommRegister ncclCommDeregister""".split()
want = {"nccl": common + ["ncclAlltoAll", "ncclCommInitRankScalable"],
        "rccl": common + ["ncclAllToAll", "ncclAllToAllv"]}
bad = []
for lib, path in (("nccl", sys.argv[1]), ("rccl", sys.argv[2])):
    s = syms(path)
    for n in want[lib]:
        if s.get(n) != "W" or s.get("p" + n) != "T":
            bad.append("%s: %s is %s, p%s is %s" % (lib, n, s.get(n), n, s.get("p" + n)))
    extra = sorted(n for n in s if n.lstrip("p") not in want[lib])
    if extra:
        bad.append("%s exports more: %s" % (lib, " ".join(extra)))
if bad:
    sys.exit("; ".join(bad))
' "$T/nccl.syms" "$T/rccl.syms"
ok $? "each library exports its API, ncclX weak and pncclX strong, and nothing else"

# ---- test-nccl / test-rccl: run SCENARIO [ENV...] with ranks as processes (or threads)
# (built with the sanitizers: with leak checking, which lib.sh turns off for the recorder)
LEAKS=
[ "${SANITIZERS:-no}" = yes ] && LEAKS="ASAN_OPTIONS=detect_leaks=1:abort_on_error=0"

scenario() {
	_prog=$1 _mode=$2 _n=$3 _sc=$4
	shift 4
	env $LEAKS "$@" "$B/stand-ins/tests/$_prog" "$_mode" "$_n" "$_sc" >"$T/out" 2>"$T/err"
	_rc=$?
	if [ $_rc -ne 0 ]; then
		sed 's/^/# /' "$T/err" | head -30
		cat "$T/out" | sed 's/^/# /'
	fi
	return $_rc
}
check "test-nccl: every collective, datatype and reduction on 4 processes (staging cut in 4 KiB steps)" \
	scenario test-nccl fork 4 matrix STANDIN_NCCL_CHUNK_BYTES=4096
diag "$(cat "$T/out")"
check "test-rccl: the same, and ncclAllToAllv, with librccl.so.1 on 3 processes" \
	scenario test-rccl fork 3 matrix STANDIN_NCCL_CHUNK_BYTES=4096
check "test-nccl: ranks as threads of one process, each on its own device" \
	scenario test-nccl threads 4 matrix STANDIN_NCCL_CHUNK_BYTES=65536 STANDIN_HIP_DEVICES=4
check "groups: nested, collectives and send/recv together, two communicators" \
	scenario test-nccl fork 4 group STANDIN_NCCL_TRACE_FILE="$T/group.%p"
# NCCL launches a group's work at its outermost ncclGroupEnd: each rank waits 20 ms before
# calling it, and none of its operations may start before.
cat "$T"/group.* >"$T/grouptrace" 2>/dev/null
py '
import sys
end = {}
for l in open(sys.argv[1]):
    if l.startswith("groupend "):
        d = dict(kv.split("=") for kv in l.split()[1:])
        end[int(d["pid"])] = int(d["ns"])
ops = [dict(kv.split("=", 1) for kv in l.split()[1:]) for l in open(sys.argv[2])]
if len(end) != 4 or len(ops) != 16 or {int(o["pid"]) for o in ops} != set(end):
    sys.exit("%d ranks said when they ended the group, %d operations traced" % (len(end), len(ops)))
early = [(o["pid"], o["seq"], (end[int(o["pid"])] - int(o["start_ns"])) / 1e3) for o in ops
         if int(o["start_ns"]) < end[int(o["pid"])]]
if early:
    sys.exit("operations started before their ncclGroupEnd (pid, seq, us early): %s" % early)
' "$T/out" "$T/grouptrace"
ok $? "groups: no operation starts before the outermost ncclGroupEnd that launches it"
check "asynchrony: ncclAllReduce returns before its peers call it; the stream is still busy" \
	scenario test-nccl fork 4 async
check "argument errors, errors in groups, a mismatched collective, a destroyed communicator" \
	scenario test-nccl fork 4 errors
grep -q "collective #2 is allreduce(count 5" "$T/err"
ok $? "a mismatched collective is reported on stderr"
check "a peer that never calls: ncclSystemError after STANDIN_NCCL_TIMEOUT_S, not a hang" \
	scenario test-nccl fork 2 timeout STANDIN_NCCL_TIMEOUT_S=1
grep -q "timed out after 1 s waiting for rank 1" "$T/err"
ok $? "the timeout is reported on stderr: $(head -1 "$T/err")"
check "a peer that exited: ncclRemoteError" scenario test-nccl fork 2 peer-exit
check "a peer that aborted: ncclRemoteError" scenario test-nccl fork 2 abort
check "ncclCommSplit: colors, reversed keys, NCCL_SPLIT_NOCOLOR" scenario test-nccl fork 4 split
check "non-blocking initialisation: ncclInProgress, then ncclSuccess" \
	scenario test-nccl fork 3 nonblocking
check "ncclCommInitAll and ncclCommInitRank in a group, from one thread" \
	scenario test-nccl fork 1 initall STANDIN_HIP_DEVICES=4
check "a rank alone times out in ncclCommInitRank with ncclSystemError" \
	scenario test-nccl fork 1 init-timeout STANDIN_NCCL_TIMEOUT_S=1
# What a profiler sees: runtime events recorded around each all-reduce on its stream measure
# at least what the stand-in says the operation took (the event interval also holds the
# stream's own delay in starting it) and at least the model.
STANDIN_NCCL_TRACE_FILE="$T/ev.%p" STANDIN_NCCL_GBPS=5 STANDIN_NCCL_LATENCY_US=300 \
	"$B/stand-ins/tests/test-nccl" fork 4 events >"$T/events" 2>"$T/err"
ok $? "events: six all-reduces timed with runtime events on 4 processes"
cat "$T"/ev.* >"$T/evtrace" 2>/dev/null
py '
import sys
ev = {}
for l in open(sys.argv[1]):
    if l.startswith("event "):
        d = dict(kv.split("=") for kv in l.split()[1:])
        ev[(int(d["pid"]), int(d["seq"]))] = int(d["ns"])
tr = {}
for l in open(sys.argv[2]):
    d = dict(kv.split("=", 1) for kv in l.split()[1:])
    tr[(int(d["pid"]), int(d["seq"]))] = d
if len(ev) != 24 or set(ev) != set(tr):
    sys.exit("%d events, %d trace lines, keys differ: %s" % (len(ev), len(tr), set(ev) ^ set(tr)))
worst = 0
for k, ns in ev.items():
    d = tr[k]
    dur = int(d["end_ns"]) - int(d["start_ns"])
    model = 300000 + int(d["bytes"]) / 5
    if ns + 1000 < dur or ns < model:
        sys.exit("%s: events %d ns, trace %d ns, model %d ns" % (k, ns, dur, model))
    worst = max(worst, ns - dur)
print("# events exceed the trace by at most %.0f us" % (worst / 1000))
' "$T/events" "$T/evtrace"
ok $? "events around each all-reduce span at least its traced duration and its model"
"$B/apps/nccl-fork" 4 >"$T/out" 2>"$T/err"
ok $? "apps/nccl-fork: 4 forked ranks all-reduce correctly $(cat "$T/err")"

# ---- MPI
if [ -z "${MPIRUN:-}" ] || [ "$MPIRUN" = no ] || [ ! -x "$B/apps/nccl-ranks" ] ||
	[ ! -x "$B/apps/rccl-ranks" ] || [ ! -x "$B/stand-ins/tests/test-nccl-mpi" ]; then
	for i in $(seq 15); do skip "no mpirun, or the MPI test programs were not built"; done
	finish
	exit
fi
MPIRUN_FLAGS="--allow-run-as-root --oversubscribe"
GBPS=2 LAT=200
# shellcheck disable=SC2086
STANDIN_NCCL_TRACE_FILE="$T/trace.%p" STANDIN_NCCL_GBPS=$GBPS STANDIN_NCCL_LATENCY_US=$LAT \
	"$MPIRUN" $MPIRUN_FLAGS -np 4 "$B/apps/nccl-ranks" >"$T/truth" 2>"$T/err"
rc=$?
ok $rc "apps/nccl-ranks on 4 MPI ranks: every result correct (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$T/err" | head -20
cat "$T"/trace.* >"$T/trace" 2>/dev/null
check "4 trace files, one per rank" test "$(ls "$T"/trace.* 2>/dev/null | wc -l)" -eq 4

# The checks of the trace against the truth the program printed.
PY_TRACE='
import collections, json, sys
truth = json.loads(open(sys.argv[1]).read())
gbps, lat = float(sys.argv[3]), float(sys.argv[4]) * 1000
ops = []
for line in open(sys.argv[2]):
    f = line.split()
    d = dict(kv.split("=", 1) for kv in f[1:])
    d["op"] = f[0]
    for k in ("rank", "nranks", "seq", "count", "bytes", "start_ns", "end_ns", "ready_ns",
              "root", "peer", "nops", "pid", "device"):
        d[k] = int(d[k])
    ops.append(d)
p2p = [o for o in ops if o["op"] in ("send", "recv")]
colls = [o for o in ops if o["op"] not in ("send", "recv")]
n = truth["ranks"]
def fail(msg):
    sys.exit(msg)
'
py "$PY_TRACE"'
if len(colls) != n * len(truth["collectives"]):
    fail("%d collective lines, want %d ranks x %d" % (len(colls), n, len(truth["collectives"])))
if len(p2p) != n * truth["p2p"]:
    fail("%d send/recv lines, want %d x %d" % (len(p2p), n, truth["p2p"]))
bad = [o for o in ops if o["status"] != "ok"]
if bad:
    fail("not ok: %s" % bad[0])
comms = collections.Counter(o["comm"] for o in colls)
if len(comms) != 3:
    fail("%d communicators, want 3 (world and two halves): %s" % (len(comms), comms))
' "$T/truth" "$T/trace" $GBPS $LAT
ok $? "one trace line per operation per rank, all ok, on 3 communicators"
py "$PY_TRACE"'
groups = collections.defaultdict(list)
for o in colls:
    groups[(o["comm"], o["seq"])].append(o)
for key, g in groups.items():
    if sorted(o["rank"] for o in g) != list(range(g[0]["nranks"])):
        fail("collective %s: ranks %s" % (key, sorted(o["rank"] for o in g)))
    for f in ("op", "count", "dtype", "bytes", "root", "redop", "ready_ns"):
        if len({o[f] for o in g}) != 1:
            fail("collective %s: %s differs between ranks: %s" % (key, f, [o[f] for o in g]))
    if g[0]["ready_ns"] != max(o["start_ns"] for o in g):
        fail("collective %s: ready_ns is not the latest start" % (key,))
# each rank numbers its collectives 1, 2, ... on each communicator
per = collections.defaultdict(list)
for o in colls:
    per[(o["comm"], o["rank"])].append(o["seq"])
for k, seqs in per.items():
    if sorted(seqs) != list(range(1, len(seqs) + 1)):
        fail("%s: numbers %s" % (k, sorted(seqs)))
' "$T/truth" "$T/trace" $GBPS $LAT
ok $? "every collective is found on all of its ranks with the same number, op, size and ready time"
py "$PY_TRACE"'
w = [c for c in truth["collectives"] if c["comm"] == "world"]
mine = sorted((o for o in colls if o["rank"] == 0 and o["nranks"] == n), key=lambda o: o["seq"])
if [(c["op"], c["count"], c["dtype"], c["seq"]) for c in w] != \
   [(o["op"], o["count"], o["dtype"], o["seq"]) for o in mine]:
    fail("rank 0 world: trace %s, truth %s" % ([(o["op"], o["count"]) for o in mine],
                                               [(c["op"], c["count"]) for c in w]))
for o in colls:
    size = 4 if o["dtype"] in ("float32", "int32") else 0
    want = o["count"] * size * (o["nranks"] if o["op"] in ("allgather", "reducescatter") else 1)
    if o["bytes"] != want:
        fail("%s count %d on %d ranks: bytes %d, want %d" % (o["op"], o["count"], o["nranks"],
                                                           o["bytes"], want))
' "$T/truth" "$T/trace" $GBPS $LAT
ok $? "the trace has the program's collectives in order, bytes = the nccl-tests size"
py "$PY_TRACE"'
for o in ops:
    model = lat + o["bytes"] / gbps
    if o["end_ns"] - o["ready_ns"] < model:
        fail("%s #%d of rank %d lasted %d ns after ready, model %d" %
             (o["op"], o["seq"], o["rank"], o["end_ns"] - o["ready_ns"], model))
    if not o["start_ns"] <= o["ready_ns"] <= o["end_ns"]:
        fail("%s: start %d, ready %d, end %d" % (o["op"], o["start_ns"], o["ready_ns"], o["end_ns"]))
' "$T/truth" "$T/trace" $GBPS $LAT
ok $? "every operation ends no earlier than latency + bytes / bandwidth after it was ready"
py "$PY_TRACE"'
sends = {(o["comm"], o["rank"], o["peer"], o["seq"]): o for o in p2p if o["op"] == "send"}
recvs = {(o["comm"], o["peer"], o["rank"], o["seq"]): o for o in p2p if o["op"] == "recv"}
if set(sends) != set(recvs):
    fail("unmatched: %s" % (set(sends) ^ set(recvs)))
for k, s in sends.items():
    r = recvs[k]
    if s["bytes"] != r["bytes"] or s["ready_ns"] != r["ready_ns"]:
        fail("send %s and its receive differ: %s / %s" % (k, s, r))
    if s["ready_ns"] != max(s["start_ns"], r["start_ns"]):
        fail("send %s: ready is not the later start" % (k,))
' "$T/truth" "$T/trace" $GBPS $LAT
ok $? "every send meets its receive: same number, bytes and ready time"
py '
import json, sys
t = json.loads(open(sys.argv[1]).read())
c = t["collectives"]
want = ["allreduce"] * 3 + ["broadcast", "allgather", "reducescatter", "reduce", "allreduce", "allreduce"]
got = [x["op"] for x in c if x["comm"] == "world"]
if t["ranks"] != 4 or got != want or [x["op"] for x in c if x["comm"] == "split"] != want:
    sys.exit("truth: %s" % t)
if t["version"] != 22803 or t["p2p"] != 4:
    sys.exit("version %d, p2p %d" % (t["version"], t["p2p"]))
' "$T/truth"
ok $? "the truth line: 4 ranks, the documented sequence on both communicators, NCCL 2.28.3"

# shellcheck disable=SC2086
"$MPIRUN" $MPIRUN_FLAGS -np 4 "$B/apps/rccl-ranks" >"$T/truth" 2>"$T/err"
rc=$?
ok $rc "apps/rccl-ranks (librccl.so.1) on 4 MPI ranks: every result correct (exit $rc)"
py 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["version"] != 22105)' "$T/truth"
ok $? "apps/rccl-ranks sees RCCL 2.21.5"
ldd "$B/apps/rccl-ranks" | grep -q "librccl.so.1 => $LIBS/librccl.so.1"
ok $? "apps/rccl-ranks loads librccl.so.1 and not libnccl"
! ldd "$B/apps/rccl-ranks" | grep -q libnccl
ok $? "... and no libnccl"
# shellcheck disable=SC2086
STANDIN_NCCL_CHUNK_BYTES=4096 "$MPIRUN" $MPIRUN_FLAGS -np 4 \
	"$B/stand-ins/tests/test-nccl-mpi" mpi 4 matrix >"$T/out" 2>"$T/err"
rc=$?
ok $rc "test-nccl-mpi: every collective, datatype and reduction on 4 MPI ranks (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$T/err" | head -20
# shellcheck disable=SC2086
"$MPIRUN" $MPIRUN_FLAGS -np 2 "$B/stand-ins/tests/test-nccl-mpi" mpi 2 async >"$T/out" 2>"$T/err"
ok $? "test-nccl-mpi: asynchrony between MPI ranks"
# shellcheck disable=SC2086
"$MPIRUN" $MPIRUN_FLAGS -np 4 "$B/stand-ins/tests/test-nccl-mpi" mpi 4 group >"$T/out" 2>"$T/err"
ok $? "test-nccl-mpi: groups between MPI ranks"
finish

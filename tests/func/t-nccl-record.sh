#!/bin/sh
# Recording an NCCL job: apps/nccl-ranks on 4 ranks (mpirun, under tprof-inspect) with the
# stand-in NCCL, then apps/rccl-ranks with the stand-in RCCL.  What the recorder wrote is read
# back with tools/dump-records and checked against the program's own account of its calls (the
# JSON line rank 0 prints) and against the stand-in's trace of what it ran: every call with
# its op, count, datatype, bytes, root, reduction, rank, size and communicator; communicator
# ids equal across ranks, different between the world and the two halves of its split;
# collective numbers equal across ranks; sends paired with receives; one DEVICE record per
# collective on its stream, one per (group, stream) for grouped ones, each lasting at least
# what the stand-in ran and holding it in time; RCCL flagged.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl.sh"
need_mpi apps/nccl-ranks apps/rccl-ranks
need_nccl
plan 24

NP=4
# Device spans against the stand-in's times: the spans come from the runtime's events and
# an anchor pinned to the host clock within tens of microseconds; 1 ms covers a descheduled
# anchor on a loaded machine.  Durations are compared exactly (device time only).
TOL_NS=1000000

run_job() { # APP OUT TRACEDIR
	mkdir -p "$3"
	STANDIN_NCCL_TRACE_FILE="$3/trace.%p" \
		"$INSPECT" -o "$2" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/$1" >"$2.out" 2>"$2.err"
}

"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/nccl-ranks" >"$T/plain.out" 2>"$T/plain.err"
ok $? "nccl-ranks runs on $NP ranks without the recorder"
run_job nccl-ranks "$T/out" "$T/tr"
ok $? "and under tprof-inspect -- mpirun, with exit status 0 (its results checked)"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/out.out"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/out.err"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"

# The checks share: the profile by rank, the truth, and the communicators each rank used.
PY_JOB='
ps = procs(sys.argv[1])
truth = json.loads(open(sys.argv[2]).read().strip().splitlines()[-1])
n = truth["ranks"]
R = {p.rank: p for p in ps.values()}
def world_split(k):
    init = [r for r in R[k].calls if r["nccl"]["op"] == COMM_INIT]
    split = [r for r in R[k].calls if r["nccl"]["op"] == COMM_SPLIT]
    if len(init) != 1 or len(split) != 1: fail("rank %d: %d inits, %d splits" % (k, len(init), len(split)))
    return init[0]["nccl"]["comm"], split[0]["nccl"]["comm"]
def colls(k):
    return [r for r in R[k].calls if r["nccl"]["op"] >= 16 and r["nccl"]["op"] not in (SEND, RECV)]
'
jcheck() { _s=$1; shift; ncheck "$PY_JOB$_s" "$@"; }

check "one profile per rank, each describing the library (libnccl, its version, HIP events)" jcheck '
if sorted(R) != list(range(n)) or len(ps) != n: fail("ranks %s" % sorted(R))
for k, p in R.items():
    if not p.props.get("nccl_library", "").endswith("libnccl.so.2"): fail("rank %d: %s" % (k, p.props))
    if p.props.get("nccl_version") != truth["version"] or p.props.get("nccl_events") != "HIP":
        fail("rank %d: %s" % (k, p.props))
' "$T/dump.json" "$T/out.out"

check "every NCCL call is recorded once, with its end" jcheck '
NAME = {"allreduce": "ncclAllReduce", "broadcast": "ncclBroadcast", "allgather": "ncclAllGather",
        "reducescatter": "ncclReduceScatter", "reduce": "ncclReduce"}
for k in range(n):
    got = collections.Counter(r["name"] for r in R[k].calls)
    want = collections.Counter(NAME[c["op"]] for c in truth["collectives"])
    want.update({"ncclGetVersion": 1, "ncclCommInitRank": 1, "ncclCommSplit": 1, "ncclCommUserRank": 2,
        "ncclCommCount": 2, "ncclCommCuDevice": 2, "ncclCommDestroy": 2, "ncclSend": truth["p2p"] // 2,
        "ncclRecv": truth["p2p"] // 2, "ncclGetUniqueId": int(k == 0),
        # per iteration and communicator: a group of two all-reduces, a group of send and receive
        "ncclGroupStart": 4 * truth["iterations"], "ncclGroupEnd": 4 * truth["iterations"]})
    want = +want
    if got != want: fail("rank %d: extra %s, missing %s" % (k, got - want, want - got))
    if any(r["t1"] < r["t0"] or r["t1"] == 0 or r["arg"] >> 48 for r in R[k].calls):
        fail("rank %d: a call without its end, or failed" % k)
' "$T/dump.json" "$T/out.out"

check "collectives carry op, count, datatype, bytes, root, reduction, size and number as called" jcheck '
for k in range(n):
    got = colls(k)
    if len(got) != len(truth["collectives"]): fail("rank %d: %d collectives" % (k, len(got)))
    for r, c in zip(got, truth["collectives"]):
        a = r["nccl"]
        want = (KIND[c["op"]], c["count"], DTYPE[c["dtype"]], c["bytes"], c["root"], REDOP[c["redop"]],
                c["nranks"], c["seq"], bool(c["group"]))
        have = (a["op"], a["count"], a["dtype"], a["bytes"], a["peer"], a["redop"], a["nranks"], a["seq"],
                bool(a["flags"] & F_GROUPED))
        if have != want: fail("rank %d %s: %s, want %s" % (k, r["name"], have, want))
        if a["flags"] & (F_RCCL | F_UNTIMED): fail("rank %d %s: flags %d" % (k, r["name"], a["flags"]))
' "$T/dump.json" "$T/out.out"

check "communicator ids: the world the same on every rank (as ncclGetUniqueId said), split halves apart" jcheck '
ids = {k: world_split(k) for k in range(n)}
uid = [r for r in R[0].calls if r["name"] == "ncclGetUniqueId"][0]["nccl"]["comm"]
if any(ids[k][0] != uid for k in range(n)): fail("world ids %s, unique id %d" % (ids, uid))
half = n // 2
for k in range(n):
    if ids[k][1] != ids[0 if k < half else half][1]: fail("split ids %s" % ids)
if ids[0][1] == ids[half][1] or ids[0][1] == uid or min(ids[0][1], ids[half][1], uid) < 16: fail("ids %s" % ids)
for k in range(n):
    sp = [r for r in R[k].calls if r["nccl"]["op"] == COMM_SPLIT][0]["nccl"]
    if sp["aux"] != uid or (sp["rank"], sp["nranks"]) != (k % half, half): fail("rank %d split %s" % (k, sp))
' "$T/dump.json" "$T/out.out"

check "each call names its communicator with this rank in it, size and device" jcheck '
half = n // 2
for k in range(n):
    w, s = world_split(k)
    for r in colls(k) + [r for r in R[k].calls if r["nccl"]["op"] in (SEND, RECV)]:
        a = r["nccl"]
        want = (w, k, n) if a["comm"] == w else (s, k % half, half)
        if (a["comm"], a["rank"], a["nranks"]) != want: fail("rank %d %s: %s" % (k, r["name"], a))
        if a["device"] < 0 or a["stream"] == 0: fail("rank %d %s: device/stream %s" % (k, r["name"], a))
    names = [("w" if r["nccl"]["comm"] == w else "s") for r in colls(k)]
    if names != [c["comm"][0] for c in truth["collectives"]]: fail("rank %d comms %s" % (k, names))
' "$T/dump.json" "$T/out.out"

check "the same collective has the same (communicator, number) on every rank" jcheck '
seqs = {k: [(r["nccl"]["comm"], r["nccl"]["seq"], r["nccl"]["op"], r["nccl"]["bytes"]) for r in colls(k)] for k in range(n)}
half = n // 2
for k in range(n):
    ref = seqs[0 if k < half else half]
    if [x[1:] for x in seqs[k]] != [x[1:] for x in seqs[0]] or seqs[k] != ref: fail("rank %d: %s" % (k, seqs[k]))
    for comm in set(x[0] for x in seqs[k]):
        nums = [x[1] for x in seqs[k] if x[0] == comm]
        if nums != list(range(1, len(nums) + 1)): fail("rank %d comm %d numbers %s" % (k, comm, nums))
' "$T/dump.json" "$T/out.out"

check "every send is paired with the receive of the same number on its peer" jcheck '
msgs = collections.Counter()
for k in range(n):
    for r in R[k].calls:
        a = r["nccl"]
        if a["op"] == SEND: msgs[(a["comm"], a["rank"], a["peer"], a["seq"], a["bytes"])] += 1
        if a["op"] == RECV: msgs[(a["comm"], a["peer"], a["rank"], a["seq"], a["bytes"])] -= 1
if not msgs or any(msgs.values()): fail("unpaired %s" % {m: v for m, v in msgs.items() if v})
sends = sum(1 for k in range(n) for r in R[k].calls if r["nccl"]["op"] == SEND)
if sends != n * truth["p2p"] // 2: fail("%d sends" % sends)
' "$T/dump.json" "$T/out.out"

check "grouped calls carry their group: the correlation id of its ncclGroupStart" jcheck '
for k in range(n):
    group = 0
    for r in R[k].calls:
        a = r["nccl"]
        if a["op"] == GROUP_START:
            if group or a["aux"] != corr(r): fail("rank %d start %s" % (k, a))
            group = corr(r)
        elif a["op"] == GROUP_END:
            if a["aux"] != group: fail("rank %d end %s" % (k, a))
            group = 0
        elif a["op"] >= 16:
            if bool(a["flags"] & F_GROUPED) != bool(group) or a["aux"] != group:
                fail("rank %d %s seq %d: flags %d aux %d in group %d" % (k, r["name"], a["seq"], a["flags"], a["aux"], group))
' "$T/dump.json" "$T/out.out"

check "each collective outside a group: one DEVICE record on its stream, linked to its call" jcheck '
for k in range(n):
    devs = {d["arg"]: d for d in R[k].devs if not d["dev"]["coll"]["group"]}
    alone = [r for r in R[k].calls if r["nccl"]["op"] >= 16 and not r["nccl"]["flags"] & F_GROUPED]
    if len(devs) != len(alone) or len(devs) != sum(1 for d in R[k].devs if not d["dev"]["coll"]["group"]):
        fail("rank %d: %d DEVICE records for %d calls" % (k, len(devs), len(alone)))
    for r in alone:
        a, d = r["nccl"], devs.get(corr(r))
        if not d: fail("rank %d: no DEVICE record for %s seq %d" % (k, r["name"], a["seq"]))
        c, o = d["dev"]["coll"], d["dev"]
        if (d["name"], o["stream"], o["bytes"], c["comm"], c["seq"], c["op"], c["dtype"], c["nops"], c["rank"], c["nranks"]) != \
           (r["name"], a["stream"], a["bytes"], a["comm"], a["seq"], a["op"], a["dtype"], 1, a["rank"], a["nranks"]):
            fail("rank %d: %s for %s" % (k, d, r))
        if o["device"] != a["device"] or o["launch_t0"] != r["t0"] or o["end_ns"] < o["start_ns"]:
            fail("rank %d: %s for %s" % (k, o, r))
' "$T/dump.json" "$T/out.out"

check "each group: one DEVICE record per stream, linked to its ncclGroupEnd, counting its operations" jcheck '
for k in range(n):
    ends = {r["nccl"]["aux"]: r for r in R[k].calls if r["nccl"]["op"] == GROUP_END}
    members = collections.defaultdict(list)
    for r in R[k].calls:
        if r["nccl"]["flags"] & F_GROUPED: members[(r["nccl"]["aux"], r["nccl"]["stream"])].append(r)
    devs = [d for d in R[k].devs if d["dev"]["coll"]["group"]]
    if sorted((d["dev"]["coll"]["group"], d["dev"]["stream"]) for d in devs) != sorted(members):
        fail("rank %d: group records %s for %s" % (k, [(d["dev"]["coll"]["group"], d["dev"]["stream"]) for d in devs], list(members)))
    for d in devs:
        c = d["dev"]["coll"]
        ms = members[(c["group"], d["dev"]["stream"])]
        first = ms[0]["nccl"]
        want = (corr(ends[c["group"]]), len(ms), ms[0]["name"] if len(ms) == 1 else "ncclGroupEnd",
                first["op"] if len(ms) == 1 else GROUP_END, first["seq"], first["comm"], sum(m["nccl"]["bytes"] for m in ms))
        have = (d["arg"], c["nops"], d["name"], c["op"], c["seq"], c["comm"], d["dev"]["bytes"])
        if have != want: fail("rank %d: group record %s, want %s" % (k, have, want))
' "$T/dump.json" "$T/out.out"

check "no HIP call is recorded inside an NCCL call (the library's own runtime calls)" jcheck '
for k in range(n):
    spans = [(r["stream"], r["t0"], r["t1"]) for r in R[k].calls]
    inside = [h["name"] for h in R[k].hip if any(h["stream"] == st and a <= h["t0"] <= b for st, a, b in spans)]
    if inside: fail("rank %d: %s" % (k, inside[:5]))
    if not R[k].hip: fail("rank %d: no HIP call at all (the program makes some)" % k)
' "$T/dump.json" "$T/out.out"

check "nothing untimed, nothing lost" jcheck '
for k in range(n):
    if R[k].drops: fail("rank %d drops %s" % (k, R[k].drops))
    if any(r["nccl"]["flags"] & F_UNTIMED for r in R[k].calls): fail("rank %d: untimed calls" % k)
' "$T/dump.json" "$T/out.out"

check "each device span lasts at least what the stand-in ran, and holds it in time" jcheck '
trace = standin(sys.argv[3] + "/trace.*")
tol = int(sys.argv[4])
checked = 0
for k in range(n):
    for d in R[k].devs:
        ops = ops_of(R[k], d, trace)
        if not ops: fail("rank %d: no stand-in operation for %s" % (k, d))
        s, e = min(o["start_ns"] for _, o in ops), max(o["end_ns"] for _, o in ops)
        o = d["dev"]
        if o["end_ns"] - o["start_ns"] < e - s - 2000:
            fail("rank %d %s: device span %d ns, the stand-in ran %d ns" % (k, d["name"], o["end_ns"] - o["start_ns"], e - s))
        if o["start_ns"] > s + tol or o["end_ns"] < e - tol:
            fail("rank %d %s: span [%d, %d] misses the run [%d, %d]" % (k, d["name"], o["start_ns"], o["end_ns"], s, e))
        if any(op["stream"] != o["stream"] or op["status"] != "ok" for _, op in ops): fail("rank %d: %s" % (k, ops))
        checked += len(ops)
if checked != len(trace): fail("%d operations checked, the stand-in ran %d" % (checked, len(trace)))
' "$T/dump.json" "$T/out.out" "$T/tr" "$TOL_NS"

# ---- the same job over RCCL ----------------------------------------------------------------
"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/rccl-ranks" >"$T/rplain.out" 2>"$T/rplain.err"
ok $? "rccl-ranks runs on $NP ranks without the recorder"
run_job rccl-ranks "$T/rout" "$T/rtr"
ok $? "and under tprof-inspect -- mpirun"
check "its output is unchanged" cmp -s "$T/rplain.out" "$T/rout.out"
"$DUMP" "$T/rout" >"$T/rdump.json"
ok $? "dump-records reads the profile"
check "every call is flagged RCCL, the library is librccl, timed with HIP events" jcheck '
for k in range(n):
    if not R[k].props.get("nccl_library", "").endswith("librccl.so.1") or R[k].props.get("nccl_events") != "HIP":
        fail("rank %d: %s" % (k, R[k].props))
    if not R[k].calls or any(not r["nccl"]["flags"] & F_RCCL for r in R[k].calls): fail("rank %d: a call not flagged" % k)
' "$T/rdump.json" "$T/rout.out"
check "its collectives match across ranks, each with its device span" jcheck '
half = n // 2
for k in range(n):
    mine = [(r["nccl"]["seq"], r["nccl"]["op"], r["nccl"]["bytes"]) for r in colls(k)]
    if mine != [(c["seq"], KIND[c["op"]], c["bytes"]) for c in truth["collectives"]]: fail("rank %d: %s" % (k, mine))
    if world_split(k) != (world_split(0)[0], world_split(0 if k < half else half)[1]):
        fail("rank %d: communicator ids" % k)
    alone = sum(1 for r in R[k].calls if r["nccl"]["op"] >= 16 and not r["nccl"]["flags"] & F_GROUPED)
    if sum(1 for d in R[k].devs if not d["dev"]["coll"]["group"]) != alone: fail("rank %d: device records" % k)
' "$T/rdump.json" "$T/rout.out"
finish

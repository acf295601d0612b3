#!/bin/sh
# Recording an MPI program: apps/mpi-pattern on 4 ranks, under tprof-inspect running mpirun
# and under mpirun running tprof-inspect.  What the recorder wrote is read back with
# tools/dump-records and checked against the program (its calls, peers, tags, bytes, and the
# ground truth it prints): one profile per rank and none for mpirun, communicator ids, receive
# completions, receive and collective numbering, clock offsets to rank 0.  Then apps/mpi-comms
# (communicators made every way, every collective, every send mode), the API filter, a rank
# on another host (simulated), and tprof-inspect instances sharing one output directory.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 39

APP="$APPS/mpi-pattern"
NP=4

# The records of a dump, by rank, and what the checks below share.
PY_MPI='
import collections, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
truth = json.loads(open(sys.argv[2]).read()) if len(sys.argv) > 2 else None
n = truth["ranks"] if truth else 4
SEND, RECV, SENDRECV, ISEND, IRECV, PROBE, WAIT, COLL, ICOLL, COMM, START = 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
F_NB, F_PERSISTENT, F_CANCELLED, F_INPLACE, F_PROCNULL, F_STARTED = 1, 2, 4, 8, 16, 32
pids = collections.defaultdict(set)
calls = collections.defaultdict(list)      # rank -> MPI CALL records, in order
stream = collections.defaultdict(list)     # rank -> CALL and MPIREQ records, in order
comms = collections.defaultdict(dict)      # rank -> comm id -> COMM def (members joined)
csyncs = collections.defaultdict(list)
polled = collections.defaultdict(set)      # rank -> functions in runs of unsuccessful polls
props = collections.defaultdict(dict)
for r in recs:
    k = r["rank"]
    pids[k].add(r["pid"])
    if r["kind"] == "call" and r["flags"] == 2:
        calls[k].append(r)
        stream[k].append(r)
    elif r["kind"] == "mpireq":
        stream[k].append(r)
    elif r["kind"] == "comm":
        c = r["comm"]
        d = comms[k].setdefault(c["id"], dict(c, members=[], name=r["name"]))
        d["members"] += c["members"]
        d["name"] = r["name"] or d["name"]
    elif r["kind"] == "csync":
        csyncs[k].append(r)
    elif r["kind"] == "poll":
        polled[k].update(f["name"] for f in r["polls"])
    elif r["kind"] == "prop":
        props[k][r["name"]] = r["value"]
def fail(msg):
    sys.exit(msg)
def named(k, name):
    return [c for c in calls[k] if c["name"] == name]
def world(k, cid, rank):
    if rank < 0:
        return rank
    return comms[k][cid]["members"][rank]
'

# mpicheck SNIPPET DUMP [TRUTH]: runs a check with the helpers above.
mpicheck() { _s=$1; shift; "$PY" -c "$PY_MPI$_s" "$@"; }

# ---- tprof-inspect -o OUT -- mpirun -np 4 apps/mpi-pattern ---------------------------------
"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$T/plain.out" 2>"$T/plain.err"
ok $? "mpi-pattern runs on $NP ranks without the recorder"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect -- mpirun, with exit status 0"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec.out"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/rec.err"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"
check "one profile per rank (0..3), none for mpirun" mpicheck '
files = [f for f in __import__("os").listdir(sys.argv[3]) if f.endswith(".tpf")]
if len(files) != n: fail("%d profiles: %s" % (len(files), files))
if sorted(pids) != list(range(n)) or any(len(p) != 1 for p in pids.values()):
    fail("ranks and pids: %s" % dict(pids))
for k in range(n):
    if props[k].get("rank") != k or props[k].get("world_size") != n: fail("props %s" % props[k])
' "$T/dump.json" "$T/plain.out" "$T/out"

check "every MPI call the program makes is recorded, once" mpicheck '
for k in range(n):
    want = collections.Counter({"MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1,
        "MPI_Send": 1 + (k > 0) + (k == 1), "MPI_Recv": 1 + (n - 1 + 1 if k == 0 else 0),
        "MPI_Irecv": 4 + (k == 0), "MPI_Isend": 4, "MPI_Waitall": 1, "MPI_Waitany": 1,
        "MPI_Waitsome": 1, "MPI_Cancel": k == 0, "MPI_Sendrecv": 1, "MPI_Probe": k == 0,
        "MPI_Bcast": 2, "MPI_Allreduce": 2, "MPI_Barrier": 2, "MPI_Comm_split": 1,
        "MPI_Iallreduce": 1, "MPI_Wait": 1 + 3 * (k <= 1), "MPI_Send_init": k == 0,
        "MPI_Recv_init": k == 1, "MPI_Start": 3 * (k <= 1), "MPI_Request_free": k <= 1,
        "MPI_Comm_free": 1, "MPI_Reduce": 1, "MPI_Finalize": 1})
    want = collections.Counter({a: int(b) for a, b in want.items() if b})
    got = collections.Counter(c["name"] for c in calls[k])
    polled = {"MPI_Testall": 1, "MPI_Test": k == 0}   # called until done: at least once
    for name, least in polled.items():
        if got.pop(name, 0) < least: fail("rank %d: %s" % (k, name))
    if got != want: fail("rank %d: extra %s, missing %s" % (k, got - want, want - got))
    if any(c["t1"] < c["t0"] or c["t1"] == 0 for c in calls[k]): fail("rank %d: a call without its end" % k)
' "$T/dump.json" "$T/plain.out"

check "WORLD, SELF and the split communicators are described alike on their members" mpicheck '
ids = {}
for k in range(n):
    w, s = comms[k].get(1), comms[k].get(2)
    if not w or w["members"] != list(range(n)) or w["my_rank"] != k or w["size"] != n: fail("WORLD on %d: %s" % (k, w))
    if not s or s["members"] != [k] or s["size"] != 1: fail("SELF on %d: %s" % (k, s))
    mine = [c for i, c in comms[k].items() if i not in (1, 2)]
    if len(mine) != 1: fail("rank %d: communicators %s" % (k, comms[k]))
    c = mine[0]
    if c["parent"] != 1 or c["members"] != list(range(k % 2, n, 2)) or c["my_rank"] != k // 2:
        fail("rank %d: split %s" % (k, c))
    ids[k] = c["id"]
if any(ids[k] != ids[k % 2] for k in range(n)) or ids[0] == ids[1] or ids[0] in (0, 1, 2):
    fail("split ids %s" % ids)
' "$T/dump.json" "$T/plain.out"

check "calls carry their communicator: WORLD, or the split one (its id from MPI_Comm_split)" mpicheck '
for k in range(n):
    split = named(k, "MPI_Comm_split")[0]
    sid = split["mpi2"]["req"]
    if sid not in comms[k] or split["mpi"]["comm"] != 1 or split["mpi"]["op"] != COMM: fail("split call %s" % split)
    for name in ("MPI_Bcast", "MPI_Allreduce", "MPI_Barrier"):
        cs = [c["mpi"]["comm"] for c in named(k, name)]
        if cs != [1, sid]: fail("rank %d %s on %s" % (k, name, cs))
    if named(k, "MPI_Comm_free")[0]["mpi"]["comm"] != sid: fail("comm_free")
    for c in calls[k]:
        if c["name"] in ("MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Sendrecv", "MPI_Probe", "MPI_Iallreduce", "MPI_Reduce", "MPI_Comm_rank") and c["mpi"]["comm"] != 1:
            fail("rank %d %s comm %d" % (k, c["name"], c["mpi"]["comm"]))
' "$T/dump.json" "$T/plain.out"

check "point-to-point peers, tags and bytes are those the program used" mpicheck '
for k in range(n):
    right, left = (k + 1) % n, (k - 1) % n
    m = lambda c: (c["mpi"]["peer"], c["mpi"]["tag"], c["mpi"]["bytes"])
    sends, recvs = named(k, "MPI_Send"), named(k, "MPI_Recv")
    if m(sends[0]) != (right, 1, 16) or m(recvs[0]) != (left, 1, 16): fail("ring on %d" % k)
    irecvs = [(left, 10, 64), (right, 11, 64), (left, 60, 4), (left, 61, 4)] + [(1, 99, 4)] * (k == 0)
    if [m(c) for c in named(k, "MPI_Irecv")] != irecvs: fail("irecv on %d" % k)
    if [m(c) for c in named(k, "MPI_Isend")] != [(right, 10, 64), (left, 11, 64), (right, 60, 4), (right, 61, 4)]:
        fail("isend on %d" % k)
    sr = named(k, "MPI_Sendrecv")[0]
    if m(sr) != (right, 30, 16) or (sr["mpi2"]["peer"], sr["mpi2"]["tag"], sr["mpi2"]["bytes"]) != (left, 30, 16):
        fail("sendrecv on %d: %s" % (k, sr))
    if k:
        if m(sends[1]) != (0, 20 + k, 12): fail("send to 0 from %d" % k)
    else:
        got = sorted(m(c) for c in recvs[1:n])
        if got != [(i, 20 + i, 12) for i in range(1, n)]: fail("any-source receives %s" % got)
        if m(named(0, "MPI_Probe")[0]) != (1, 40, 7) or m(recvs[n]) != (1, 40, 7): fail("probe")
    if k == 1 and m(sends[2]) != (0, 40, 7): fail("probe send")
' "$T/dump.json" "$T/plain.out"

check "collectives: roots, bytes sent and received, MPI_IN_PLACE-free, nonblocking flagged" mpicheck '
for k in range(n):
    b = lambda c: (c["mpi"]["peer"], c["mpi"]["bytes"], c["mpi2"]["bytes"])
    bc = named(k, "MPI_Bcast")
    if b(bc[0]) != ((0, 20, 0) if k == 0 else (0, 0, 20)): fail("world bcast on %d: %s" % (k, b(bc[0])))
    if b(bc[1]) != ((0, 20, 0) if k < 2 else (0, 0, 20)): fail("split bcast on %d: %s" % (k, b(bc[1])))
    if any(b(c) != (-1, 16, 16) for c in named(k, "MPI_Allreduce")): fail("allreduce on %d" % k)
    if any(b(c) != (-1, 0, 0) for c in named(k, "MPI_Barrier")): fail("barrier on %d" % k)
    ia = named(k, "MPI_Iallreduce")[0]
    if b(ia) != (-1, 16, 16) or ia["mpi"]["op"] != ICOLL or not ia["mpi"]["flags"] & F_NB or not ia["mpi2"]["req"]:
        fail("iallreduce on %d: %s" % (k, ia))
    if b(named(k, "MPI_Reduce")[0]) != ((0, 8, 8) if k == 0 else (0, 8, 0)): fail("reduce on %d" % k)
    if any(c["mpi"]["flags"] & F_INPLACE for c in calls[k]): fail("in place?")
' "$T/dump.json" "$T/plain.out"

check "each collective has the same seq on every member of its communicator, counted as the program did" mpicheck '
seqs = collections.defaultdict(dict)
for k in range(n):
    per = collections.defaultdict(list)
    for c in calls[k]:
        if c["mpi"]["op"] in (COLL, ICOLL):
            per[c["mpi"]["comm"]].append((c["name"], c["mpi"]["seq"]))
    for cid, l in per.items():
        if [s for _, s in l] != list(range(1, len(l) + 1)): fail("rank %d comm %d seqs %s" % (k, cid, l))
        seqs[cid][k] = l
for cid, by in seqs.items():
    members = comms[min(by)][cid]["members"]
    if sorted(by) != sorted(members) or len(set(map(tuple, by.values()))) != 1: fail("comm %d: %s" % (cid, by))
    want = truth["collectives"]["world" if cid == 1 else "split"]
    if len(next(iter(by.values()))) != want: fail("comm %d: %d collectives, the program made %d" % (cid, len(next(iter(by.values()))), want))
if len(seqs) != 3: fail("communicators with collectives: %s" % list(seqs))
' "$T/dump.json" "$T/plain.out"

check "every Irecv completes in one MPIREQ after the call that completed it: source, tag, bytes, post number" mpicheck '
for k in range(n):
    posted = {c["mpi2"]["req"]: c for c in named(k, "MPI_Irecv")}
    done, current = {}, None
    for r in stream[k]:
        if r["kind"] == "call":
            current = r
            current["_seen"] = 0
        else:
            current["_seen"] += 1
            if not (current["t0"] <= r["t0"] <= current["t1"]) or r["arg"] != current["arg"] & ((1 << 48) - 1):
                fail("rank %d: MPIREQ outside its call %s" % (k, r))
            if r["mpi"]["op"] == IRECV and r["name"] == "MPI_Irecv":
                done.setdefault(r["mpi2"]["req"], []).append((r, current["name"]))
    for c in calls[k]:
        if c["mpi"]["nreq"] != c.get("_seen", 0): fail("rank %d %s: nreq %d, %d MPIREQ" % (k, c["name"], c["mpi"]["nreq"], c.get("_seen", 0)))
    # A request handle may come back for a later post: pair posts and completions in order.
    posts = collections.defaultdict(list)
    for c in named(k, "MPI_Irecv"):
        posts[c["mpi2"]["req"]].append(c)
    if sorted((h, len(l)) for h, l in posts.items()) != sorted((h, len(l)) for h, l in done.items()):
        fail("rank %d: posts %s, completions %s" % (k, posts, done))
    by_tag = {10: ("MPI_Waitall", 64, 0), 11: ("MPI_Waitall", 64, 0), 60: ("MPI_Wait", 4, 0),
              61: ("MPI_Wait", 4, 0), 99: ("MPI_Test", 0, F_CANCELLED)}
    for h in posts:
        for c, (r, where) in zip(posts[h], done[h]):
            d, t = r["mpi"], c["mpi"]["tag"]
            call, size, cancelled = by_tag[t]
            if not where.startswith(call) or d["flags"] & F_CANCELLED != cancelled: fail("rank %d tag %d in %s" % (k, t, where))
            got = (d["tag"], d["bytes"], d["seq"], d["comm"]) if not cancelled else (t, 0, d["seq"], 1)
            if got != (t, size, c["mpi"]["seq"], 1) or not cancelled and d["peer"] != c["mpi"]["peer"]:
                fail("rank %d: irecv %s completed as %s" % (k, c["mpi"], d))
' "$T/dump.json" "$T/plain.out"

check "persistent requests: three starts and three completions, receive numbers per start" mpicheck '
for k in (0, 1):
    reqs = [r for r in stream[k] if r["kind"] == "mpireq" and r["mpi"]["flags"] & F_PERSISTENT]
    started = [r for r in reqs if r["mpi"]["flags"] & F_STARTED]
    completed = [r for r in reqs if not r["mpi"]["flags"] & F_STARTED]
    op = ISEND if k == 0 else IRECV
    if len(started) != 3 or len(completed) != 3 or any(r["mpi"]["op"] != op for r in reqs): fail("rank %d: %s" % (k, reqs))
    if any((r["mpi"]["peer"], r["mpi"]["tag"], r["mpi"]["bytes"]) != (1 - k, 50, 24) for r in reqs): fail("rank %d args" % k)
    if k == 1 and [r["mpi"]["seq"] for r in started] != [r["mpi"]["seq"] for r in completed]: fail("seqs")
    if any(r["name"] != ("MPI_Send_init" if k == 0 else "MPI_Recv_init") for r in reqs): fail("names")
' "$T/dump.json" "$T/plain.out"

check "receive post numbers count 1, 2, 3... in posting order" mpicheck '
for k in range(n):
    nums = []
    for r in stream[k]:
        m = r["mpi"]
        if r["kind"] == "call" and m["op"] in (RECV, IRECV): nums.append(m["seq"])
        if r["kind"] == "call" and m["op"] == SENDRECV: nums.append(r["mpi2"]["seq"])
        if r["kind"] == "mpireq" and m["op"] == IRECV and m["flags"] & F_STARTED: nums.append(m["seq"])
    if nums != list(range(1, len(nums) + 1)): fail("rank %d: %s" % (k, nums))
' "$T/dump.json" "$T/plain.out"

# Every message sent is received once: the sends (blocking, posted, started) against the
# receives as completed, by (communicator, source, destination, tag, bytes).
MATCH='
sends, recvs = collections.Counter(), collections.Counter()
for k in range(n):
    for r in stream[k]:
        m = r["mpi"]
        if m["flags"] & F_PROCNULL: continue
        if r["kind"] == "call" and m["op"] in (SEND, ISEND, SENDRECV) or r["kind"] == "mpireq" and m["op"] == ISEND and m["flags"] & F_STARTED:
            sends[(m["comm"], k, world(k, m["comm"], m["peer"]), m["tag"], m["bytes"])] += 1
        if r["kind"] == "call" and m["op"] == RECV:
            recvs[(m["comm"], world(k, m["comm"], m["peer"]), k, m["tag"], m["bytes"])] += 1
        if r["kind"] == "call" and m["op"] == SENDRECV:
            b = r["mpi2"]
            recvs[(m["comm"], world(k, m["comm"], b["peer"]), k, b["tag"], b["bytes"])] += 1
        if r["kind"] == "mpireq" and m["op"] == IRECV and not m["flags"] & (F_STARTED | F_CANCELLED):
            recvs[(m["comm"], world(k, m["comm"], m["peer"]), k, m["tag"], m["bytes"])] += 1
'
check "messages sent: as many as the program counted, and each received once" mpicheck "$MATCH"'
if sum(sends.values()) != truth["messages"]: fail("%d sends recorded, the program sent %d" % (sum(sends.values()), truth["messages"]))
if sends != recvs: fail("unmatched: sent %s, received %s" % (sends - recvs, recvs - sends))
' "$T/dump.json" "$T/plain.out"

check "ranks 1..3 measured their clock offset to rank 0 at init and at finalize" mpicheck '
if csyncs[0]: fail("rank 0 measured itself")
host0 = [r["value"] for r in recs if r["rank"] == 0 and r["kind"] == "prop" and r["name"] == "host"][0]
for k in range(1, n):
    cs = csyncs[k]
    if [c["flags"] for c in cs] != [0, 1]: fail("rank %d: %s" % (k, cs))
    for c in cs:
        s = c["csync"]
        if s["ref_pid"] != list(pids[0])[0] or s["ref_rank"] != 0 or s["rank"] != k or not 20 <= s["rounds"] <= 200:
            fail("rank %d: %s" % (k, s))
        if not (0 < c["arg"]) or c["name"] != host0 or not c["t0"] or not c["t1"]: fail("rank %d: %s" % (k, c))
init = {k: [c for c in calls[k] if c["name"] == "MPI_Init"][0] for k in range(n)}
if any(csyncs[k][0]["t0"] < init[k]["t1"] for k in range(1, n)): fail("measured inside MPI_Init")
' "$T/dump.json" "$T/plain.out"
check "nothing is left in a spool" sh -c '! ls "$1"/*.spool >/dev/null 2>&1' sh "$T/out"

# ---- mpirun -np 4 tprof-inspect -o OUT -- apps/mpi-pattern ---------------------------------
"$MPIRUN" $MPIRUN_FLAGS -np $NP "$INSPECT" -o "$T/out2" -- "$APP" >"$T/rec2.out" 2>"$T/rec2.err"
ok $? "mpirun -np $NP tprof-inspect -- mpi-pattern: exit status 0"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec2.out"
check "each instance reports the profile" test "$(grep -c 'profile written to' "$T/rec2.err")" -eq $NP
"$DUMP" "$T/out2" >"$T/dump2.json"
check "one profile per rank, and every message sent is received" mpicheck "$MATCH"'
if sorted(pids) != list(range(n)) or any(len(p) != 1 for p in pids.values()): fail("ranks %s" % dict(pids))
if sum(sends.values()) != truth["messages"] or sends != recvs: fail("messages %s %s" % (sends, recvs))
' "$T/dump2.json" "$T/plain.out"
check "nothing is left in a spool" sh -c '! ls "$1"/*.spool >/dev/null 2>&1' sh "$T/out2"

# ---- apps/mpi-comms: communicators made every way, every collective, the rest -------------
if [ -x "$APPS/mpi-comms" ]; then
	"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/mpi-comms" >"$T/comms.plain" 2>"$T/comms.err"
	"$INSPECT" -o "$T/outc" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/mpi-comms" \
		>"$T/comms.out" 2>"$T/comms.err"
	ok $? "mpi-comms runs under tprof-inspect -- mpirun"
	"$DUMP" "$T/outc" >"$T/dumpc.json"
	check "every communicator has one id, described alike on exactly its members" mpicheck '
desc = collections.defaultdict(dict)
for r in recs:
    if r["kind"] == "comm" and r["comm"]["first"] == 0:
        c = r["comm"]
        desc[c["id"]][r["rank"]] = (c["size"], c["remote_size"], r["flags"], frozenset(c["members"]), c["parent"])
if len(desc) != 2 + 15: fail("%d communicators: %s" % (len(desc), desc))
for cid, by in desc.items():
    if cid == 2: continue
    if len(set(by.values())) != 1: fail("%x described differently: %s" % (cid, by))
    if set(by) != set(next(iter(by.values()))[3]): fail("%x on %s" % (cid, by))
for k in range(n):
    for c in calls[k]:
        m = c["mpi"]
        if m["comm"] and m["comm"] not in comms[k]: fail("rank %d: %s on unknown %x" % (k, c["name"], m["comm"]))
        if m["op"] == COMM and c["name"] not in ("MPI_Comm_free", "MPI_Comm_idup") and c["mpi2"]["req"] and c["mpi2"]["req"] not in comms[k]:
            fail("rank %d: %s made %x" % (k, c["name"], c["mpi2"]["req"]))
named_ = [d for k in range(n) for d in comms[k].values() if d["name"] == "the duplicate"]
if len(named_) != n: fail("named %s" % named_)
' "$T/dumpc.json"
	check "collective numbers agree on every communicator, inter-communicators too" mpicheck '
seqs = collections.defaultdict(dict)
for k in range(n):
    per = collections.defaultdict(list)
    for c in calls[k]:
        if c["mpi"]["op"] in (COLL, ICOLL): per[c["mpi"]["comm"]].append((c["name"], c["mpi"]["seq"]))
    for cid, l in per.items():
        if [s for _, s in l] != list(range(1, len(l) + 1)): fail("rank %d: %s" % (k, l))
        seqs[cid][k] = l
for cid, by in seqs.items():
    if len(set(map(tuple, by.values()))) != 1: fail("%x: %s" % (cid, by))
    if sorted(by) != sorted(set(comms[min(by)][cid]["members"])): fail("%x members %s" % (cid, sorted(by)))
if len(seqs) < 5: fail("%d communicators with collectives" % len(seqs))
icoll = sum(1 for k in range(n) for c in calls[k] if c["mpi"]["op"] == ICOLL)
done = sum(1 for k in range(n) for r in stream[k] if r["kind"] == "mpireq" and r["mpi"]["op"] == ICOLL)
if icoll != done or icoll != 4 * 6 * 3 + 2 * 6: fail("%d nonblocking collectives, %d completions" % (icoll, done))
' "$T/dumpc.json"
	check "collective bytes, MPI_IN_PLACE flagged" mpicheck '
for k in range(n):
    dup = [i for i, d in comms[k].items() if d["name"] == "the duplicate"][0]
    on = lambda name: [c for c in named(k, name) if c["mpi"]["comm"] == dup][0]
    b = lambda c: (c["mpi"]["bytes"], c["mpi2"]["bytes"])
    want = {"MPI_Gatherv": (8, 32 if k == 0 else 0), "MPI_Scatterv": (32 if k == 0 else 0, 8),
            "MPI_Allgatherv": (8, 32), "MPI_Alltoallv": (32, 32), "MPI_Alltoallw": (32, 32),
            "MPI_Reduce_scatter": (32, 8), "MPI_Reduce_scatter_block": (32, 8), "MPI_Scan": (12, 12),
            "MPI_Iallgather": (4, 16), "MPI_Allreduce": (16, 16), "MPI_Reduce": (16, 16 if k == 0 else 0)}
    for name, w in want.items():
        if b(on(name)) != w: fail("rank %d %s: %s, want %s" % (k, name, b(on(name)), w))
    inplace = lambda name: bool(on(name)["mpi"]["flags"] & F_INPLACE)
    if not inplace("MPI_Allreduce") or inplace("MPI_Reduce") != (k == 0) or inplace("MPI_Gather"): fail("in place on %d" % k)
' "$T/dumpc.json"
	check "its messages: probes, matched probes, all send modes, persistent pairs, each received once" mpicheck "$MATCH"'
if sum(sends.values()) != truth["messages"] or sends != recvs: fail("sent %s, received %s" % (sends, recvs))
for name in ("MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Mprobe", "MPI_Mrecv", "MPI_Improbe", "MPI_Imrecv", "MPI_Testany", "MPI_Startall", "MPI_Sendrecv_replace", "MPI_Iprobe"):
    if not any(named(k, name) or name in polled[k] for k in range(n)): fail("no %s" % name)
mrecv = named(1, "MPI_Mrecv")[0]["mpi"]
if mrecv["seq"] != named(1, "MPI_Mprobe")[0]["mpi"]["seq"] or (mrecv["peer"], mrecv["tag"], mrecv["bytes"], mrecv["comm"]) != (0, 74, 16, 1):
    fail("mrecv %s" % mrecv)
' "$T/dumpc.json" "$T/comms.plain"
else
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
fi

# ---- the filter: calls left out, communicators still known --------------------------------
TPROF_MPI_API_FILTER_OUT=MPI_Comm_,MPI_Wait "$INSPECT" -o "$T/out3" -- \
	"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$T/rec3.out" 2>"$T/rec3.err"
ok $? "with TPROF_MPI_API_FILTER_OUT=MPI_Comm_,MPI_Wait the program runs"
"$DUMP" "$T/out3" >"$T/dump3.json"
check "no MPI_Comm_* or MPI_Wait* call is recorded; the split communicator and completions are" mpicheck '
for k in range(n):
    names = set(c["name"] for c in calls[k])
    if any(x.startswith("MPI_Comm_") or x.startswith("MPI_Wait") for x in names): fail("rank %d: %s" % (k, names))
    if "MPI_Send" not in names or "MPI_Bcast" not in names: fail("rank %d: %s" % (k, names))
    if len(comms[k]) != 3: fail("rank %d comms %s" % (k, comms[k]))
    if len([r for r in stream[k] if r["kind"] == "mpireq" and r["name"] == "MPI_Irecv"]) != 4 + (k == 0):
        fail("completions")
ids = [[i for i in comms[k] if i > 2][0] for k in range(n)]
if ids[0] != ids[2] or ids[1] != ids[3] or ids[0] == ids[1]: fail("ids %s" % ids)
' "$T/dump3.json" "$T/plain.out"
check "TPROF_MPI_API_FILTER=MPI_Barrier,MPI_Bcast records those alone" sh -c '
	TPROF_MPI_API_FILTER=MPI_Barrier,MPI_Bcast "$1" -o "$2/out4" -- "$3" $4 -np 2 "$5" >/dev/null 2>&1 &&
	"$6" "$2/out4" | "$7" -c "
import json, sys
names = set(r[\"name\"] for r in map(json.loads, sys.stdin) if r[\"kind\"] == \"call\")
sys.exit(0 if names == {\"MPI_Barrier\", \"MPI_Bcast\"} else str(names))"' sh "$INSPECT" "$T" "$MPIRUN" "$MPIRUN_FLAGS" "$APP" "$DUMP" "$PY"

# ---- ranks on another host ---------------------------------------------------------------
# Simulated: mpirun starts its daemon for "otherhost" through a launch agent that runs it
# here in a clean environment, as ssh would there, so rank 1 gets only what mpirun passes on.
cat >"$T/fake-ssh" <<'AGENT'
#!/bin/sh
shift
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
exec env -i PATH=/usr/bin:/bin HOME=/ /bin/sh -c "$*"
AGENT
chmod +x "$T/fake-ssh"
cat >"$T/envp" <<'PROBE'
#!/bin/sh
echo "rank $OMPI_COMM_WORLD_RANK ${TPROF_ENABLE:-no}${LD_PRELOAD:+ preload} ${FOO:-}"
PROBE
chmod +x "$T/envp"
REMOTE="--mca plm_rsh_agent $T/fake-ssh --host $(hostname),otherhost --map-by node -np 2"
TPROF_ENABLE=1 "$MPIRUN" $MPIRUN_FLAGS $REMOTE "$T/envp" 2>"$T/remote0.err" | sort >"$T/remote0.out"
check "(the simulated other host gets only what mpirun passes on)" \
	test "$(cat "$T/remote0.out")" = "$(printf 'rank 0 1 \nrank 1 no ')"
"$INSPECT" -o "$T/out5" -- "$MPIRUN" $MPIRUN_FLAGS $REMOTE "$APP" >"$T/rec5.out" 2>"$T/rec5.err"
ok $? "tprof-inspect -- mpirun with a rank on another host: exit status 0"
"$DUMP" "$T/out5" >"$T/dump5.json"
check "both ranks are recorded: tprof-inspect passed the recorder's variables with -x" mpicheck '
if sorted(pids) != [0, 1] or not calls[1]: fail("ranks %s" % dict(pids))
' "$T/dump5.json"
"$INSPECT" -o "$T/out6" -- "$MPIRUN" $MPIRUN_FLAGS -x FOO=bar $REMOTE "$T/envp" 2>"$T/remote6.err" |
	sort >"$T/remote6.out"
check "the program's own -x options still work beside them" \
	test "$(cat "$T/remote6.out")" = "$(printf 'rank 0 1 preload bar\nrank 1 1 preload bar')"
FOO=baz OMPI_MCA_mca_base_env_list="FOO" "$INSPECT" -o "$T/out7" -- \
	"$MPIRUN" $MPIRUN_FLAGS $REMOTE "$T/envp" 2>"$T/remote7.err" | sort >"$T/remote7.out"
check "with mca_base_env_list set, its names are added to it instead" \
	test "$(cat "$T/remote7.out")" = "$(printf 'rank 0 1 preload baz\nrank 1 1 preload baz')"
# PYTHONPATH, which leads to tprof's Python module, goes with them.  Each rank writes its line
# in one write: mpirun forwards the ranks' output as it comes, and print's pieces of two ranks
# were once interleaved ("rankrank 1 True").
cat >"$T/pyprobe" <<PROBE
#!/bin/sh
exec ${SYSTEM_PYTHON3:-/usr/bin/python3} -B -c 'import os, sys, tprof; sys.stdout.write("rank %s %s\\n" % (os.environ["OMPI_COMM_WORLD_RANK"], tprof.enabled())); sys.stdout.flush()'
PROBE
chmod +x "$T/pyprobe"
"$INSPECT" -o "$T/out8" -- "$MPIRUN" $MPIRUN_FLAGS $REMOTE "$T/pyprobe" 2>"$T/remote8.err" |
	sort >"$T/remote8.out"
test "$(cat "$T/remote8.out")" = "$(printf 'rank 0 True\nrank 1 True')"
rc=$?
ok $rc "a Python rank on the other host imports tprof too, and records (PYTHONPATH passed with -x)"
[ $rc -eq 0 ] || diag "ranks said: $(cat "$T/remote8.out")" "$(head -n 20 "$T/remote8.err")"

# ---- tprof-inspect instances sharing a directory leave each other's spools alone ----------
# (another job's: written before jobs were recorded, hence --append.)  A spool whose buffers are all written out (so its process looks done) beside the output of
# a short run: kept while its process lives, tidied once it is gone.
mkdir -p "$T/shared"
sleep 30 &
live=$!
spool() {
	"$PY" -c '
import struct, sys, zlib
h = b"TPROF\0SP" + struct.pack("<HHIQII", 1, 4096, 0x01020304, 1, int(sys.argv[2]), 4096 + 64) + struct.pack("<Q", 0) + bytes(20)
h += struct.pack("<I", zlib.crc32(h))
slot = struct.pack("<II", 0x4c535054, 0) + bytes(56) + bytes(4096)   # one free buffer
open(sys.argv[1], "wb").write(h + bytes(4096 - len(h)) + slot)
' "$1" "$2"
}
host=$(hostname | tr / _)
spool "$T/shared/$host.$live.0000beef.spool" "$live"
"$INSPECT" -o "$T/shared" --append -- true >/dev/null 2>&1
check "a finished run keeps the spool of a process still running" test -e "$T/shared/$host.$live.0000beef.spool"
kill "$live"
wait "$live" 2>/dev/null
"$INSPECT" -o "$T/shared" --append -- true >/dev/null 2>&1
check "and tidies it once that process is gone" test ! -e "$T/shared/$host.$live.0000beef.spool"
finish

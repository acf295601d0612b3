"""mpi-record.py — the checks of func/t-mpi-record.sh.  Most are given DUMP, what
tools/dump-records read from a profile directory (one JSON record a line), and TRUTH, what
apps/mpi-pattern or apps/mpi-comms printed (its ground truth, JSON: ranks, messages,
collectives); a few are given the dump alone, on 4 ranks.  write-spool and tprof-enabled-rank
are not checks but tools of the test: a spool file of a live process, and a Python rank."""
import collections
import json
import os
import struct
import sys
import zlib

from checklib import fail, main

SEND, RECV, SENDRECV, ISEND, IRECV, PROBE, WAIT, COLL, ICOLL, COMM, START = range(3, 14)
F_NB, F_PERSISTENT, F_CANCELLED, F_INPLACE, F_PROCNULL, F_STARTED = 1, 2, 4, 8, 16, 32


class _Mpi:
    """The records of a dump, by rank, and what the checks share."""

    def __init__(self, dump, truth=None):
        self.recs = [json.loads(line) for line in open(dump)]
        self.truth = json.loads(open(truth).read()) if truth else None
        self.n = self.truth["ranks"] if self.truth else 4
        self.pids = collections.defaultdict(set)
        self.calls = collections.defaultdict(list)    # rank -> MPI CALL records, in order
        self.stream = collections.defaultdict(list)   # rank -> CALL and MPIREQ records, in order
        self.comms = collections.defaultdict(dict)    # rank -> comm id -> COMM def (members joined)
        self.csyncs = collections.defaultdict(list)
        self.polled = collections.defaultdict(set)    # rank -> functions in runs of failed polls
        self.props = collections.defaultdict(dict)
        for r in self.recs:
            k = r["rank"]
            self.pids[k].add(r["pid"])
            if r["kind"] == "call" and r["flags"] == 2:
                self.calls[k].append(r)
                self.stream[k].append(r)
            elif r["kind"] == "mpireq":
                self.stream[k].append(r)
            elif r["kind"] == "comm":
                c = r["comm"]
                d = self.comms[k].setdefault(c["id"], dict(c, members=[], name=r["name"]))
                d["members"] += c["members"]
                d["name"] = r["name"] or d["name"]
            elif r["kind"] == "csync":
                self.csyncs[k].append(r)
            elif r["kind"] == "poll":
                self.polled[k].update(f["name"] for f in r["polls"])
            elif r["kind"] == "prop":
                self.props[k][r["name"]] = r["value"]

    def named(self, k, name):
        return [c for c in self.calls[k] if c["name"] == name]

    def world(self, k, cid, rank):
        if rank < 0:
            return rank
        return self.comms[k][cid]["members"][rank]


def _messages(d):
    """Every message sent is received once: the sends (blocking, posted, started) against the
    receives as completed, by (communicator, source, destination, tag, bytes).  Returns the
    two counters."""
    sends, recvs = collections.Counter(), collections.Counter()
    world = d.world
    for k in range(d.n):
        for r in d.stream[k]:
            m = r["mpi"]
            if m["flags"] & F_PROCNULL:
                continue
            if (r["kind"] == "call" and m["op"] in (SEND, ISEND, SENDRECV) or
                    r["kind"] == "mpireq" and m["op"] == ISEND and m["flags"] & F_STARTED):
                sends[(m["comm"], k, world(k, m["comm"], m["peer"]), m["tag"], m["bytes"])] += 1
            if r["kind"] == "call" and m["op"] == RECV:
                recvs[(m["comm"], world(k, m["comm"], m["peer"]), k, m["tag"], m["bytes"])] += 1
            if r["kind"] == "call" and m["op"] == SENDRECV:
                b = r["mpi2"]
                recvs[(m["comm"], world(k, m["comm"], b["peer"]), k, b["tag"], b["bytes"])] += 1
            if (r["kind"] == "mpireq" and m["op"] == IRECV and
                    not m["flags"] & (F_STARTED | F_CANCELLED)):
                recvs[(m["comm"], world(k, m["comm"], m["peer"]), k, m["tag"], m["bytes"])] += 1
    return sends, recvs


# ---- tprof-inspect -o OUT -- mpirun -np 4 apps/mpi-pattern ---------------------------------

def profile_per_rank(dump, truth, outdir):
    """One profile per rank (0..3) in OUTDIR, none for mpirun."""
    d = _Mpi(dump, truth)
    n, pids, props = d.n, d.pids, d.props
    files = [f for f in os.listdir(outdir) if f.endswith(".tpf")]
    if len(files) != n:
        fail("%d profiles: %s" % (len(files), files))
    if sorted(pids) != list(range(n)) or any(len(p) != 1 for p in pids.values()):
        fail("ranks and pids: %s" % dict(pids))
    for k in range(n):
        if props[k].get("rank") != k or props[k].get("world_size") != n:
            fail("props %s" % props[k])


def every_call_once(dump, truth):
    d = _Mpi(dump, truth)
    n, calls = d.n, d.calls
    for k in range(n):
        want = collections.Counter({
            "MPI_Init": 1, "MPI_Comm_rank": 1, "MPI_Comm_size": 1,
            "MPI_Send": 1 + (k > 0) + (k == 1), "MPI_Recv": 1 + (n - 1 + 1 if k == 0 else 0),
            "MPI_Irecv": 4 + (k == 0), "MPI_Isend": 4, "MPI_Waitall": 1, "MPI_Waitany": 1,
            "MPI_Waitsome": 1, "MPI_Cancel": k == 0, "MPI_Sendrecv": 1, "MPI_Probe": k == 0,
            "MPI_Bcast": 2, "MPI_Allreduce": 2, "MPI_Barrier": 2, "MPI_Comm_split": 1,
            "MPI_Iallreduce": 1, "MPI_Wait": 1 + 3 * (k <= 1), "MPI_Send_init": k == 0,
            "MPI_Recv_init": k == 1, "MPI_Start": 3 * (k <= 1), "MPI_Request_free": k <= 1,
            "MPI_Comm_free": 1, "MPI_Reduce": 1, "MPI_Finalize": 1,
            "MPI_Get_count": k == 0, "MPI_Test_cancelled": k == 0})
        want = collections.Counter({a: int(b) for a, b in want.items() if b})
        got = collections.Counter(c["name"] for c in calls[k])
        polled = {"MPI_Testall": 1, "MPI_Test": k == 0}   # called until done: at least once
        for name, least in polled.items():
            if got.pop(name, 0) < least:
                fail("rank %d: %s" % (k, name))
        if got != want:
            fail("rank %d: extra %s, missing %s" % (k, got - want, want - got))
        if any(c["t1"] < c["t0"] or c["t1"] == 0 for c in calls[k]):
            fail("rank %d: a call without its end" % k)


def communicators_alike(dump, truth):
    """WORLD, SELF and the split communicators are described alike on their members."""
    d = _Mpi(dump, truth)
    n, comms = d.n, d.comms
    ids = {}
    for k in range(n):
        w, s = comms[k].get(1), comms[k].get(2)
        if not w or w["members"] != list(range(n)) or w["my_rank"] != k or w["size"] != n:
            fail("WORLD on %d: %s" % (k, w))
        if not s or s["members"] != [k] or s["size"] != 1:
            fail("SELF on %d: %s" % (k, s))
        mine = [c for i, c in comms[k].items() if i not in (1, 2)]
        if len(mine) != 1:
            fail("rank %d: communicators %s" % (k, comms[k]))
        c = mine[0]
        if c["parent"] != 1 or c["members"] != list(range(k % 2, n, 2)) or c["my_rank"] != k // 2:
            fail("rank %d: split %s" % (k, c))
        ids[k] = c["id"]
    if any(ids[k] != ids[k % 2] for k in range(n)) or ids[0] == ids[1] or ids[0] in (0, 1, 2):
        fail("split ids %s" % ids)


def calls_communicator(dump, truth):
    """Calls carry their communicator: WORLD, or the split one (its id from MPI_Comm_split)."""
    d = _Mpi(dump, truth)
    n, calls, comms, named = d.n, d.calls, d.comms, d.named
    for k in range(n):
        split = named(k, "MPI_Comm_split")[0]
        sid = split["mpi2"]["req"]
        if sid not in comms[k] or split["mpi"]["comm"] != 1 or split["mpi"]["op"] != COMM:
            fail("split call %s" % split)
        for name in ("MPI_Bcast", "MPI_Allreduce", "MPI_Barrier"):
            cs = [c["mpi"]["comm"] for c in named(k, name)]
            if cs != [1, sid]:
                fail("rank %d %s on %s" % (k, name, cs))
        if named(k, "MPI_Comm_free")[0]["mpi"]["comm"] != sid:
            fail("comm_free")
        for c in calls[k]:
            if c["name"] in ("MPI_Send", "MPI_Recv", "MPI_Isend", "MPI_Irecv", "MPI_Sendrecv",
                             "MPI_Probe", "MPI_Iallreduce", "MPI_Reduce", "MPI_Comm_rank") and \
                    c["mpi"]["comm"] != 1:
                fail("rank %d %s comm %d" % (k, c["name"], c["mpi"]["comm"]))


def point_to_point(dump, truth):
    """Point-to-point peers, tags and bytes are those the program used."""
    d = _Mpi(dump, truth)
    n, named = d.n, d.named
    for k in range(n):
        right, left = (k + 1) % n, (k - 1) % n

        def m(c):
            return (c["mpi"]["peer"], c["mpi"]["tag"], c["mpi"]["bytes"])
        sends, recvs = named(k, "MPI_Send"), named(k, "MPI_Recv")
        if m(sends[0]) != (right, 1, 16) or m(recvs[0]) != (left, 1, 16):
            fail("ring on %d" % k)
        irecvs = ([(left, 10, 64), (right, 11, 64), (left, 60, 4), (left, 61, 4)] +
                  [(1, 99, 4)] * (k == 0))
        if [m(c) for c in named(k, "MPI_Irecv")] != irecvs:
            fail("irecv on %d" % k)
        if [m(c) for c in named(k, "MPI_Isend")] != [(right, 10, 64), (left, 11, 64),
                                                      (right, 60, 4), (right, 61, 4)]:
            fail("isend on %d" % k)
        sr = named(k, "MPI_Sendrecv")[0]
        if m(sr) != (right, 30, 16) or \
                (sr["mpi2"]["peer"], sr["mpi2"]["tag"], sr["mpi2"]["bytes"]) != (left, 30, 16):
            fail("sendrecv on %d: %s" % (k, sr))
        if k:
            if m(sends[1]) != (0, 20 + k, 12):
                fail("send to 0 from %d" % k)
        else:
            got = sorted(m(c) for c in recvs[1:n])
            if got != [(i, 20 + i, 12) for i in range(1, n)]:
                fail("any-source receives %s" % got)
            if m(named(0, "MPI_Probe")[0]) != (1, 40, 7) or m(recvs[n]) != (1, 40, 7):
                fail("probe")
        if k == 1 and m(sends[2]) != (0, 40, 7):
            fail("probe send")


def collectives(dump, truth):
    """Collectives: roots, bytes sent and received, MPI_IN_PLACE-free, nonblocking flagged."""
    d = _Mpi(dump, truth)
    n, calls, named = d.n, d.calls, d.named

    def b(c):
        return (c["mpi"]["peer"], c["mpi"]["bytes"], c["mpi2"]["bytes"])
    for k in range(n):
        bc = named(k, "MPI_Bcast")
        if b(bc[0]) != ((0, 20, 0) if k == 0 else (0, 0, 20)):
            fail("world bcast on %d: %s" % (k, b(bc[0])))
        if b(bc[1]) != ((0, 20, 0) if k < 2 else (0, 0, 20)):
            fail("split bcast on %d: %s" % (k, b(bc[1])))
        if any(b(c) != (-1, 16, 16) for c in named(k, "MPI_Allreduce")):
            fail("allreduce on %d" % k)
        if any(b(c) != (-1, 0, 0) for c in named(k, "MPI_Barrier")):
            fail("barrier on %d" % k)
        ia = named(k, "MPI_Iallreduce")[0]
        if b(ia) != (-1, 16, 16) or ia["mpi"]["op"] != ICOLL or not ia["mpi"]["flags"] & F_NB or \
                not ia["mpi2"]["req"]:
            fail("iallreduce on %d: %s" % (k, ia))
        if b(named(k, "MPI_Reduce")[0]) != ((0, 8, 8) if k == 0 else (0, 8, 0)):
            fail("reduce on %d" % k)
        if any(c["mpi"]["flags"] & F_INPLACE for c in calls[k]):
            fail("in place?")


def collective_seqs(dump, truth):
    """Each collective has the same seq on every member of its communicator, counted as the
    program did."""
    d = _Mpi(dump, truth)
    n, calls, comms, truth = d.n, d.calls, d.comms, d.truth
    seqs = collections.defaultdict(dict)
    for k in range(n):
        per = collections.defaultdict(list)
        for c in calls[k]:
            if c["mpi"]["op"] in (COLL, ICOLL):
                per[c["mpi"]["comm"]].append((c["name"], c["mpi"]["seq"]))
        for cid, l in per.items():
            if [s for _, s in l] != list(range(1, len(l) + 1)):
                fail("rank %d comm %d seqs %s" % (k, cid, l))
            seqs[cid][k] = l
    for cid, by in seqs.items():
        members = comms[min(by)][cid]["members"]
        if sorted(by) != sorted(members) or len(set(map(tuple, by.values()))) != 1:
            fail("comm %d: %s" % (cid, by))
        want = truth["collectives"]["world" if cid == 1 else "split"]
        if len(next(iter(by.values()))) != want:
            fail("comm %d: %d collectives, the program made %d" %
                 (cid, len(next(iter(by.values()))), want))
    if len(seqs) != 3:
        fail("communicators with collectives: %s" % list(seqs))


def irecv_completions(dump, truth):
    """Every Irecv completes in one MPIREQ after the call that completed it: source, tag,
    bytes, post number."""
    d = _Mpi(dump, truth)
    n, calls, stream, named = d.n, d.calls, d.stream, d.named
    for k in range(n):
        done, current = {}, None
        for r in stream[k]:
            if r["kind"] == "call":
                current = r
                current["_seen"] = 0
            else:
                current["_seen"] += 1
                if not (current["t0"] <= r["t0"] <= current["t1"]) or \
                        r["arg"] != current["arg"] & ((1 << 48) - 1):
                    fail("rank %d: MPIREQ outside its call %s" % (k, r))
                if r["mpi"]["op"] == IRECV and r["name"] == "MPI_Irecv":
                    done.setdefault(r["mpi2"]["req"], []).append((r, current["name"]))
        for c in calls[k]:
            if c["mpi"]["nreq"] != c.get("_seen", 0):
                fail("rank %d %s: nreq %d, %d MPIREQ" %
                     (k, c["name"], c["mpi"]["nreq"], c.get("_seen", 0)))
        # A request handle may come back for a later post: pair posts and completions in order.
        posts = collections.defaultdict(list)
        for c in named(k, "MPI_Irecv"):
            posts[c["mpi2"]["req"]].append(c)
        if sorted((h, len(l)) for h, l in posts.items()) != \
                sorted((h, len(l)) for h, l in done.items()):
            fail("rank %d: posts %s, completions %s" % (k, posts, done))
        by_tag = {10: ("MPI_Waitall", 64, 0), 11: ("MPI_Waitall", 64, 0), 60: ("MPI_Wait", 4, 0),
                  61: ("MPI_Wait", 4, 0), 99: ("MPI_Test", 0, F_CANCELLED)}
        for h in posts:
            for c, (r, where) in zip(posts[h], done[h]):
                dm, t = r["mpi"], c["mpi"]["tag"]
                call, size, cancelled = by_tag[t]
                if not where.startswith(call) or dm["flags"] & F_CANCELLED != cancelled:
                    fail("rank %d tag %d in %s" % (k, t, where))
                got = ((dm["tag"], dm["bytes"], dm["seq"], dm["comm"]) if not cancelled
                       else (t, 0, dm["seq"], 1))
                if got != (t, size, c["mpi"]["seq"], 1) or \
                        not cancelled and dm["peer"] != c["mpi"]["peer"]:
                    fail("rank %d: irecv %s completed as %s" % (k, c["mpi"], dm))


def persistent_requests(dump, truth):
    """Persistent requests: three starts and three completions, receive numbers per start."""
    d = _Mpi(dump, truth)
    stream = d.stream
    for k in (0, 1):
        reqs = [r for r in stream[k] if r["kind"] == "mpireq" and r["mpi"]["flags"] & F_PERSISTENT]
        started = [r for r in reqs if r["mpi"]["flags"] & F_STARTED]
        completed = [r for r in reqs if not r["mpi"]["flags"] & F_STARTED]
        op = ISEND if k == 0 else IRECV
        if len(started) != 3 or len(completed) != 3 or any(r["mpi"]["op"] != op for r in reqs):
            fail("rank %d: %s" % (k, reqs))
        if any((r["mpi"]["peer"], r["mpi"]["tag"], r["mpi"]["bytes"]) != (1 - k, 50, 24)
               for r in reqs):
            fail("rank %d args" % k)
        if k == 1 and [r["mpi"]["seq"] for r in started] != [r["mpi"]["seq"] for r in completed]:
            fail("seqs")
        if any(r["name"] != ("MPI_Send_init" if k == 0 else "MPI_Recv_init") for r in reqs):
            fail("names")


def receive_numbers(dump, truth):
    """Receive post numbers count 1, 2, 3... in posting order."""
    d = _Mpi(dump, truth)
    for k in range(d.n):
        nums = []
        for r in d.stream[k]:
            m = r["mpi"]
            if r["kind"] == "call" and m["op"] in (RECV, IRECV):
                nums.append(m["seq"])
            if r["kind"] == "call" and m["op"] == SENDRECV:
                nums.append(r["mpi2"]["seq"])
            if r["kind"] == "mpireq" and m["op"] == IRECV and m["flags"] & F_STARTED:
                nums.append(m["seq"])
        if nums != list(range(1, len(nums) + 1)):
            fail("rank %d: %s" % (k, nums))


def messages_counted(dump, truth):
    """Messages sent: as many as the program counted, and each received once."""
    d = _Mpi(dump, truth)
    sends, recvs = _messages(d)
    if sum(sends.values()) != d.truth["messages"]:
        fail("%d sends recorded, the program sent %d" % (sum(sends.values()), d.truth["messages"]))
    if sends != recvs:
        fail("unmatched: sent %s, received %s" % (sends - recvs, recvs - sends))


def clock_offsets(dump, truth):
    """Ranks 1..3 measured their clock offset to rank 0 at init and at finalize."""
    d = _Mpi(dump, truth)
    n, recs, calls, csyncs, pids = d.n, d.recs, d.calls, d.csyncs, d.pids
    if csyncs[0]:
        fail("rank 0 measured itself")
    host0 = [r["value"] for r in recs
             if r["rank"] == 0 and r["kind"] == "prop" and r["name"] == "host"][0]
    for k in range(1, n):
        cs = csyncs[k]
        if [c["flags"] for c in cs] != [0, 1]:
            fail("rank %d: %s" % (k, cs))
        for c in cs:
            s = c["csync"]
            if s["ref_pid"] != list(pids[0])[0] or s["ref_rank"] != 0 or s["rank"] != k or \
                    not 20 <= s["rounds"] <= 200:
                fail("rank %d: %s" % (k, s))
            if not (0 < c["arg"]) or c["name"] != host0 or not c["t0"] or not c["t1"]:
                fail("rank %d: %s" % (k, c))
    init = {k: [c for c in calls[k] if c["name"] == "MPI_Init"][0] for k in range(n)}
    if any(csyncs[k][0]["t0"] < init[k]["t1"] for k in range(1, n)):
        fail("measured inside MPI_Init")


# ---- mpirun -np 4 tprof-inspect -o OUT -- apps/mpi-pattern ---------------------------------

def ranks_and_messages(dump, truth):
    """One profile per rank, and every message sent is received."""
    d = _Mpi(dump, truth)
    sends, recvs = _messages(d)
    if sorted(d.pids) != list(range(d.n)) or any(len(p) != 1 for p in d.pids.values()):
        fail("ranks %s" % dict(d.pids))
    if sum(sends.values()) != d.truth["messages"] or sends != recvs:
        fail("messages %s %s" % (sends, recvs))


# ---- apps/mpi-comms: communicators made every way, every collective, the rest -------------

def comms_described(dump):
    """Every communicator has one id, described alike on exactly its members."""
    d = _Mpi(dump)
    n, recs, calls, comms = d.n, d.recs, d.calls, d.comms
    desc = collections.defaultdict(dict)
    for r in recs:
        if r["kind"] == "comm" and r["comm"]["first"] == 0:
            c = r["comm"]
            desc[c["id"]][r["rank"]] = (c["size"], c["remote_size"], r["flags"],
                                        frozenset(c["members"]), c["parent"])
    if len(desc) != 2 + 15:
        fail("%d communicators: %s" % (len(desc), desc))
    for cid, by in desc.items():
        if cid == 2:
            continue
        if len(set(by.values())) != 1:
            fail("%x described differently: %s" % (cid, by))
        if set(by) != set(next(iter(by.values()))[3]):
            fail("%x on %s" % (cid, by))
    for k in range(n):
        for c in calls[k]:
            m = c["mpi"]
            if m["comm"] and m["comm"] not in comms[k]:
                fail("rank %d: %s on unknown %x" % (k, c["name"], m["comm"]))
            if m["op"] == COMM and c["name"] not in ("MPI_Comm_free", "MPI_Comm_idup") and \
                    c["mpi2"]["req"] and c["mpi2"]["req"] not in comms[k]:
                fail("rank %d: %s made %x" % (k, c["name"], c["mpi2"]["req"]))
    named_ = [c for k in range(n) for c in comms[k].values() if c["name"] == "the duplicate"]
    if len(named_) != n:
        fail("named %s" % named_)


def comms_collective_seqs(dump):
    """Collective numbers agree on every communicator, inter-communicators too."""
    d = _Mpi(dump)
    n, calls, stream, comms = d.n, d.calls, d.stream, d.comms
    seqs = collections.defaultdict(dict)
    for k in range(n):
        per = collections.defaultdict(list)
        for c in calls[k]:
            if c["mpi"]["op"] in (COLL, ICOLL):
                per[c["mpi"]["comm"]].append((c["name"], c["mpi"]["seq"]))
        for cid, l in per.items():
            if [s for _, s in l] != list(range(1, len(l) + 1)):
                fail("rank %d: %s" % (k, l))
            seqs[cid][k] = l
    for cid, by in seqs.items():
        if len(set(map(tuple, by.values()))) != 1:
            fail("%x: %s" % (cid, by))
        if sorted(by) != sorted(set(comms[min(by)][cid]["members"])):
            fail("%x members %s" % (cid, sorted(by)))
    if len(seqs) < 5:
        fail("%d communicators with collectives" % len(seqs))
    icoll = sum(1 for k in range(n) for c in calls[k] if c["mpi"]["op"] == ICOLL)
    done = sum(1 for k in range(n) for r in stream[k]
               if r["kind"] == "mpireq" and r["mpi"]["op"] == ICOLL)
    if icoll != done or icoll != 4 * 6 * 3 + 2 * 6:
        fail("%d nonblocking collectives, %d completions" % (icoll, done))


def comms_collective_bytes(dump):
    """Collective bytes, MPI_IN_PLACE flagged."""
    d = _Mpi(dump)
    n, comms, named = d.n, d.comms, d.named

    def b(c):
        return (c["mpi"]["bytes"], c["mpi2"]["bytes"])
    for k in range(n):
        dup = [i for i, c in comms[k].items() if c["name"] == "the duplicate"][0]

        def on(name):
            return [c for c in named(k, name) if c["mpi"]["comm"] == dup][0]
        want = {"MPI_Gatherv": (8, 32 if k == 0 else 0), "MPI_Scatterv": (32 if k == 0 else 0, 8),
                "MPI_Allgatherv": (8, 32), "MPI_Alltoallv": (32, 32), "MPI_Alltoallw": (32, 32),
                "MPI_Reduce_scatter": (32, 8), "MPI_Reduce_scatter_block": (32, 8),
                "MPI_Scan": (12, 12), "MPI_Iallgather": (4, 16), "MPI_Allreduce": (16, 16),
                "MPI_Reduce": (16, 16 if k == 0 else 0)}
        for name, w in want.items():
            if b(on(name)) != w:
                fail("rank %d %s: %s, want %s" % (k, name, b(on(name)), w))

        def inplace(name):
            return bool(on(name)["mpi"]["flags"] & F_INPLACE)
        if not inplace("MPI_Allreduce") or inplace("MPI_Reduce") != (k == 0) or \
                inplace("MPI_Gather"):
            fail("in place on %d" % k)


def comms_messages(dump, truth):
    """Its messages: probes, matched probes, all send modes, persistent pairs, each received
    once."""
    d = _Mpi(dump, truth)
    n, named, polled = d.n, d.named, d.polled
    sends, recvs = _messages(d)
    if sum(sends.values()) != d.truth["messages"] or sends != recvs:
        fail("sent %s, received %s" % (sends, recvs))
    for name in ("MPI_Ssend", "MPI_Bsend", "MPI_Rsend", "MPI_Mprobe", "MPI_Mrecv", "MPI_Improbe",
                 "MPI_Imrecv", "MPI_Testany", "MPI_Startall", "MPI_Sendrecv_replace",
                 "MPI_Iprobe"):
        if not any(named(k, name) or name in polled[k] for k in range(n)):
            fail("no %s" % name)
    mrecv = named(1, "MPI_Mrecv")[0]["mpi"]
    if mrecv["seq"] != named(1, "MPI_Mprobe")[0]["mpi"]["seq"] or \
            (mrecv["peer"], mrecv["tag"], mrecv["bytes"], mrecv["comm"]) != (0, 74, 16, 1):
        fail("mrecv %s" % mrecv)


# ---- the filter: calls left out, communicators still known --------------------------------

def filtered_out(dump, truth):
    """No MPI_Comm_* or MPI_Wait* call is recorded; the split communicator and completions
    are."""
    d = _Mpi(dump, truth)
    n, calls, stream, comms = d.n, d.calls, d.stream, d.comms
    for k in range(n):
        names = set(c["name"] for c in calls[k])
        if any(x.startswith("MPI_Comm_") or x.startswith("MPI_Wait") for x in names):
            fail("rank %d: %s" % (k, names))
        if "MPI_Send" not in names or "MPI_Bcast" not in names:
            fail("rank %d: %s" % (k, names))
        if len(comms[k]) != 3:
            fail("rank %d comms %s" % (k, comms[k]))
        if len([r for r in stream[k] if r["kind"] == "mpireq" and r["name"] == "MPI_Irecv"]) != \
                4 + (k == 0):
            fail("completions")
    ids = [[i for i in comms[k] if i > 2][0] for k in range(n)]
    if ids[0] != ids[2] or ids[1] != ids[3] or ids[0] == ids[1]:
        fail("ids %s" % ids)


def barrier_bcast_only():
    """The calls of the dump on standard input are MPI_Barrier and MPI_Bcast alone."""
    names = set(r["name"] for r in map(json.loads, sys.stdin) if r["kind"] == "call")
    if names != {"MPI_Barrier", "MPI_Bcast"}:
        fail(str(names))


# ---- ranks on another host ---------------------------------------------------------------

def two_ranks(dump):
    """Both ranks are recorded."""
    d = _Mpi(dump)
    if sorted(d.pids) != [0, 1] or not d.calls[1]:
        fail("ranks %s" % dict(d.pids))


def tprof_enabled_rank():
    """Not a check: a Python rank prints "rank N ENABLED" from the tprof module it imports,
    in one write (mpirun forwards the ranks' output as it comes, and print's pieces of two
    ranks were once interleaved: "rankrank 1 True")."""
    import tprof
    sys.stdout.write("rank %s %s\n" % (os.environ["OMPI_COMM_WORLD_RANK"], tprof.enabled()))
    sys.stdout.flush()


# ---- tprof-inspect instances sharing a directory leave each other's spools alone ----------

def write_spool(path, pid):
    """Not a check: writes at PATH the spool of process PID, its one buffer free (all written
    out, so that its process looks done)."""
    h = b"TPROF\0SP" + struct.pack("<HHIQII", 1, 4096, 0x01020304, 1, int(pid), 4096 + 64) + \
        struct.pack("<Q", 0) + bytes(20)
    h += struct.pack("<I", zlib.crc32(h))
    slot = struct.pack("<II", 0x4c535054, 0) + bytes(56) + bytes(4096)   # one free buffer
    open(path, "wb").write(h + bytes(4096 - len(h)) + slot)


main(globals())

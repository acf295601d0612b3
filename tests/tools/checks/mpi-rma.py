"""mpi-rma.py — the checks of func/t-mpi-rma.sh: apps/mpi-rma prints what every rank did as
one JSON line (the truth): its calls of each kind on its window, their bytes, and its
transfers by where each was complete at its target.  Each check reads it beside what tprof
made of the run: the summary as JSON (--summary=json), the Chrome trace, otf2-print's event
listing."""
import collections
import json
import re
from importlib import import_module

from checklib import fail, main
from chrome_trace import events as chrome_events, load

otf2 = import_module("lib-otf2")


def _truth(path):
    with open(path) as f:
        t = json.loads(f.read().strip().splitlines()[-1])
    if not t["ok"]:
        fail("the program says its window held other data than its neighbours wrote")
    return t


def summary(truth, summary_json):
    """The one-sided table: one row for the window, with every rank's epochs, operations and
    bytes; every transfer linked to where it was complete at its target."""
    t = _truth(truth)
    with open(summary_json) as f:
        rma = json.load(f)["mpi"]["rma"]
    rows = {r["window"]: r for r in rma["rows"]}
    if set(rows) != {t["window"]}:
        fail("windows %s, not %s" % (sorted(rows), t["window"]))
    r = rows[t["window"]]
    for key, n in t["per_rank"].items():
        if key in ("rputs", "target_locks"):
            continue
        got = rma[key] if key == "linked" else r[key]
        if got != n * t["ranks"]:
            fail("%s: %d, not %d" % (key, got, n * t["ranks"]))
    if rma["unlinked"]:
        fail("%d transfers not linked" % rma["unlinked"])


def _slices(d):
    by = collections.defaultdict(list)
    for e in chrome_events(d):
        if e.get("ph") == "X":
            by[(e["pid"], e["tid"])].append(e)
    return by


def _inside(slices, where, ts, names):
    return any(s["ts"] <= ts <= s["ts"] + s["dur"] and s["name"] in names
               for s in slices.get(where, []))


# Where a transfer is complete at its target: the target's call that ended the epoch there,
# or (lock epochs) the end of the origin's call that ended it.
ORIGIN_ENDS = ("MPI_Win_unlock", "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all")
EPOCH_ENDS = ("MPI_Win_fence", "MPI_Win_complete")
MOVES = ("MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Rput", "MPI_Fetch_and_op",
         "MPI_Compare_and_swap")


def _end_of(slices, s, f):
    """Where the arrow from s to f ends, by the origin's first call after s that ends an
    epoch: its unlock or flush, when f lies in an MPI call of the target at or after the
    moment that returned; else the target's fence or MPI_Win_wait that f lies in."""
    after = sorted((x for where, ss in slices.items() if where[0] == s["pid"] for x in ss
                    if x["ts"] > s["ts"] and x["name"] in ORIGIN_ENDS + EPOCH_ENDS),
                   key=lambda x: x["ts"])
    if after and after[0]["name"] in ORIGIN_ENDS:
        x = after[0]
        if f["ts"] >= x["ts"] + x["dur"] - 0.002 and _inside(
                slices, (f["pid"], f["tid"]), f["ts"],
                {y["name"] for y in slices.get((f["pid"], f["tid"]), [])
                 if y["name"].startswith("MPI_")}):
            return x["name"]
        return None
    if _inside(slices, (f["pid"], f["tid"]), f["ts"], ("MPI_Win_fence",)):
        return "MPI_Win_fence"
    if _inside(slices, (f["pid"], f["tid"]), f["ts"], ("MPI_Win_wait",)):
        # every rank runs the same access and exposure epochs: the origin's k-th
        # MPI_Win_start meets the target's k-th MPI_Win_wait
        k = sum(1 for where, ss in slices.items() if where[0] == s["pid"] for x in ss
                if x["name"] == "MPI_Win_start" and x["ts"] < s["ts"])
        waits = sorted(x["ts"] for where, ss in slices.items() if where[0] == f["pid"]
                       for x in ss if x["name"] == "MPI_Win_wait")
        if 0 < k <= len(waits) and sum(1 for w in waits if w <= f["ts"]) == k:
            return "MPI_Win_wait"
    return None


def chrome(truth, trace):
    """Each transfer is an arrow from the origin's call (MPI_Put, MPI_Get, MPI_Accumulate,
    MPI_Rput, the atomic ones) to another rank, where it was complete: inside the target's
    MPI_Win_fence or MPI_Win_wait that ended its epoch, or, in a lock epoch, in the target's
    MPI call at (or after) the moment the origin's unlock or flush returned; as many of each
    as the truth's ends, with the bytes of its linked_bytes, per operation and rank."""
    t = _truth(truth)
    d = load(trace)
    slices = _slices(d)
    starts, ends = {}, {}
    for e in chrome_events(d):
        if e.get("name") == "rma" and e.get("ph") in ("s", "f"):
            (starts if e["ph"] == "s" else ends)[e["id"]] = e
    want = t["per_rank"]["linked"] * t["ranks"]
    if len(starts) != want or set(starts) != set(ends):
        fail("%d arrows (%d ends), not %d" % (len(starts), len(ends), want))
    ops, by_end = collections.Counter(), collections.Counter()
    for i, s in starts.items():
        f = ends[i]
        if not _inside(slices, (s["pid"], s["tid"]), s["ts"], MOVES):
            fail("arrow %s does not leave a put, get or atomic operation: %s" % (i, s))
        end = _end_of(slices, s, f)
        if not end:
            fail("arrow %s ends neither in the target's fence or MPI_Win_wait nor in its call "
                 "when or after the origin's unlock or flush returned: %s" % (i, f))
        if f["pid"] == s["pid"]:
            fail("arrow %s ends on its own rank" % i)
        by_end[end] += 1
        ops[s["args"]["op"]] += 1
        ops[s["args"]["op"] + " bytes"] += s["args"]["bytes"]
    n = t["ranks"]
    if by_end != {k: v * n for k, v in t["ends"].items()}:
        fail("arrows by where they end: %s, not %s per rank" % (dict(by_end), t["ends"]))
    want = collections.Counter()
    for op, b in t["linked_bytes"].items():
        want[op + " bytes"] = b * n
    for op in t["linked_bytes"]:
        want[op] = ops[op]   # how many of each: by the ends above; bytes: exact
    if ops != want:
        fail("arrows by operation: %s, not %s" % (dict(ops), dict(want)))


def otf2_rma(truth, events_path):
    """OTF2's RMA records: a window made and freed on every rank, every fence a collective
    begin and end, every lock acquired and released, each put, get and atomic operation
    with its bytes, each completed remotely exactly once (and locally where its request
    completed)."""
    t = _truth(truth)
    n, p = t["ranks"], t["per_rank"]
    ev = otf2.events(events_path)
    count = collections.Counter(r for r, _, _, _ in ev if r.startswith("RMA_"))
    want = {"RMA_WIN_CREATE": n, "RMA_WIN_DESTROY": n, "RMA_COLLECTIVE_BEGIN": p["fences"] * n,
            "RMA_COLLECTIVE_END": p["fences"] * n,
            "RMA_ACQUIRE_LOCK": p["target_locks"] * n,
            "RMA_RELEASE_LOCK": p["target_locks"] * n, "RMA_PUT": p["puts"] * n,
            "RMA_GET": p["gets"] * n, "RMA_ATOMIC": p["atomics"] * n,
            "RMA_OP_COMPLETE_NON_BLOCKING": p["rputs"] * n,
            "RMA_OP_COMPLETE_REMOTE": (p["puts"] + p["gets"] + p["atomics"]) * n}
    if dict(count) != want:
        fail("RMA records %s, not %s" % (dict(count), want))
    mid = re.compile(r"Matching: (\d+)")
    issued, done = collections.Counter(), collections.Counter()
    sent = collections.Counter()
    for r, loc, _, x in ev:
        if r in ("RMA_PUT", "RMA_GET", "RMA_ATOMIC"):
            issued[(loc, int(mid.search(x).group(1)))] += 1
            m = re.search(r"Bytes: (\d+)", x) or re.search(r"Sent: (\d+)", x)
            sent[r] += int(m.group(1))
            if r == "RMA_ATOMIC":
                sent[r] += int(re.search(r"Received: (\d+)", x).group(1))
        elif r == "RMA_OP_COMPLETE_REMOTE":
            done[(loc, int(mid.search(x).group(1)))] += 1
    if issued != done or set(issued.values()) != {1}:
        fail("operations issued %d, completed remotely %d, not each once" % (len(issued),
                                                                             len(done)))
    if sent != {"RMA_PUT": p["put_bytes"] * n, "RMA_GET": p["get_bytes"] * n,
                "RMA_ATOMIC": p["atomic_bytes"] * n}:
        fail("bytes %s" % dict(sent))


main(globals())

"""otf2.py — the checks of func/t-otf2.sh on the OTF2 archive tprof-analyze wrote of the
synthetic MPI job of tests/unit/test-mpi-trace.c (4 ranks on two hosts, 3 rounds): what
otf2-print printed of it, its events (OUT) and global definitions (OUT.defs), read with the
helpers of lib-otf2.py; and the archive itself, read with the otf2 module of Debian's own
python3."""
import collections
import importlib
import os
import re
import sys

from checklib import fail, main

lib = importlib.import_module("lib-otf2")

# The trace starts at node-b's first sample: 1.7e18 - 5000 ns (its clock reads 5 us later).
START = 1700000000000000000 - 5000


def record_counts(path):
    """Per round and rank: 2 blocking sends (ring, sendrecv), 3 nonblocking (Waitall, Wait,
    persistent); as many receives; 3 collectives; one Iallreduce; one cancelled Irecv."""
    c = collections.Counter(r for r, _, _, _ in lib.events(path))
    R = 3 * 4
    want = {"MPI_SEND": 2 * R, "MPI_RECV": 2 * R, "MPI_ISEND": 3 * R, "MPI_IRECV": 3 * R,
            "MPI_ISEND_COMPLETE": 3 * R, "MPI_IRECV_REQUEST": 4 * R, "MPI_REQUEST_CANCELLED": R,
            "MPI_COLLECTIVE_BEGIN": 3 * R, "MPI_COLLECTIVE_END": 3 * R,
            "NON_BLOCKING_COLLECTIVE_REQUEST": R, "NON_BLOCKING_COLLECTIVE_COMPLETE": R,
            "METRIC": R, "PARAMETER_UINT64": R}
    bad = {k: (c[k], v) for k, v in want.items() if c[k] != v}
    if bad:
        fail("(got, want): %s" % bad)


def messages(path):
    """Send and receive records each equal the job's 60 messages."""
    c = collections.Counter(r for r, _, _, _ in lib.events(path))
    sends, recvs = c["MPI_SEND"] + c["MPI_ISEND"], c["MPI_RECV"] + c["MPI_IRECV"]
    if sends != 60 or recvs != 60:
        fail("%d sends, %d receives; the job sent 60 messages" % (sends, recvs))


def inside_calls(path):
    """Where each record is: MPI records inside MPI calls, completions inside the Wait that
    completed them (also where the completion was recorded before its call), the receive of
    a blocking MPI_Recv at its end, device work on the device streams."""
    stack = collections.defaultdict(list)
    bad = []
    for rec, loc, t, text in lib.events(path):
        if rec == "ENTER":
            stack[loc].append(lib.name(text))
        elif rec == "LEAVE":
            stack[loc].pop()
        elif rec.startswith("MPI_") or rec.startswith("NON_BLOCKING"):
            top = stack[loc][-1] if stack[loc] else None
            want = {"MPI_ISEND_COMPLETE": ("MPI_Wait", "MPI_Waitall"),
                    "MPI_IRECV": ("MPI_Wait", "MPI_Waitall"),
                    "MPI_REQUEST_CANCELLED": ("MPI_Wait",),
                    "NON_BLOCKING_COLLECTIVE_COMPLETE": ("MPI_Wait",),
                    "MPI_RECV": ("MPI_Recv", "MPI_Sendrecv"),
                    "MPI_SEND": ("MPI_Send", "MPI_Sendrecv"),
                    "MPI_ISEND": ("MPI_Isend", "MPI_Startall"),
                    "MPI_IRECV_REQUEST": ("MPI_Irecv", "MPI_Startall")}.get(rec)
            if (want and top not in want) or not (top or "").startswith("MPI_"):
                bad.append("%s on location %d inside %s" % (rec, loc, top))
    if bad:
        fail("\n".join(bad[:10]))


def clock(path):
    """Clock properties: nanoseconds, the offset at the trace start on the realtime axis."""
    d = lib.defs(path)
    cl = [t for k, _, t in d if k == "CLOCK_PROPERTIES"]
    if (not cl or "Ticks per Seconds: 1000000000," not in cl[0] or
            "Global Offset: %s," % START not in cl[0]):
        fail("clock properties: %s" % cl)


def process_groups(path):
    """One location group per process, ranks in order, id = rank, named as in Chrome."""
    d = lib.defs(path)
    groups = [(int(i), lib.name(t)) for k, i, t in d
              if k == "LOCATION_GROUP" and "Type: PROCESS" in t]
    want = [(r, "rank %d (%s, pid %d) mpi-app" % (r, "node-a" if r < 2 else "node-b", 1000 + r))
            for r in range(4)]
    if groups != want:
        fail("process groups %s" % groups)


def communicators(path):
    """MPI: a location per world rank (its main thread), WORLD, SELF and the split's two
    halves."""
    d = lib.defs(path)
    locs = {int(i): t for k, i, t in d if k == "LOCATION"}
    cl = [t for k, i, t in d if k == "GROUP" and "COMM_LOCATIONS" in t]
    ids = [int(x) for x in re.findall(r"<(\d+)>", cl[0].split("Members:")[1])] if cl else []
    ranks = [re.search(r"Group: \"rank (\d+) ", locs[i]).group(1) for i in ids if i in locs]
    threads = [lib.loc_what(locs[i]) for i in ids if i in locs]
    if ranks != ["0", "1", "2", "3"] or threads != ["mpi-app"] * 4:
        fail("COMM_LOCATIONS members %s: ranks %s, threads %s" % (ids, ranks, threads))
    comms = [lib.name(t) for k, i, t in d if k == "COMM"]
    if comms != ["MPI_COMM_WORLD", "MPI_COMM_SELF", "evens", "MPI_Comm 0x5157a11e00000001"]:
        fail("communicators %s" % comms)
    groups = [t for k, i, t in d if k == "GROUP" and "COMM_GROUP" in t]
    if (not any("4 Members: 0 (" in g for g in groups) or
            not any("2 Members: 0 (" in g and ", 2 (" in g for g in groups)):
        fail("communicator groups %s" % groups)


def device_regions(defs_path, path):
    """Device streams in accelerator groups; kernels, copies, marks, steps, ranges as
    regions."""
    d = lib.defs(defs_path)
    streams = [lib.loc_what(t) for k, i, t in d if k == "LOCATION" and "ACCELERATOR_STREAM" in t]
    accel = [lib.name(t) for k, i, t in d if k == "LOCATION_GROUP" and "Type: ACCELERATOR" in t]
    if (streams != ["GPU 0 stream 1"] * 4 or len(accel) != 4 or
            not accel[0].startswith("GPU 0, rank 0 ")):
        fail("streams %s, groups %s" % (streams, accel))
    regions = collections.Counter(lib.name(t) for r, l, _, t in lib.events(path) if r == "ENTER")
    if (regions["vadd"] != 12 or regions["copy HtoD"] != 12 or regions["checkpoint"] != 12 or
            regions["handoff"] != 12 or regions["step"] != 12 or regions["compute"] != 12):
        fail("regions %s" % regions)


def never_closed(path):
    """A call that never returned and a range never closed end with their process, nested."""
    ev = lib.events(path)
    fin = [(l, t) for r, l, t, x in ev if r == "ENTER" and lib.name(x) == "MPI_Finalize"]
    outer = [l for r, l, t, x in ev if r == "ENTER" and lib.name(x) == "outer"]
    if len(fin) != 4 or len(outer) != 1 or outer[0] not in [l for l, _ in fin]:
        fail("finalize %s, outer %s" % (fin, outer))


def _otf2_module():
    """The otf2 module (of Debian's own python3), not this file, which has its name."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    return importlib.import_module("otf2")


def has_otf2_module():
    """Passes when this interpreter has the otf2 module."""
    _otf2_module()


def module_matches(archive):
    """With the otf2 module: every send has its receive (communicator, ends, tag, size), every
    request completes."""
    otf2 = _otf2_module()
    sends, recvs = collections.Counter(), collections.Counter()
    open_req = collections.defaultdict(dict)
    bad = []
    with otf2.reader.open(archive) as t:
        for loc, e in t.events:
            if isinstance(e, (otf2.events.MpiSend, otf2.events.MpiIsend)):
                dst = e.communicator.group.members[e.receiver]
                sends[(e.communicator.name, loc.name, loc.group.name, dst.group.name, e.msg_tag,
                       e.msg_length)] += 1
            if isinstance(e, (otf2.events.MpiRecv, otf2.events.MpiIrecv)):
                src = e.communicator.group.members[e.sender]
                recvs[(e.communicator.name, src.name, src.group.name, loc.group.name, e.msg_tag,
                       e.msg_length)] += 1
            if isinstance(e, (otf2.events.MpiIsend, otf2.events.MpiIrecvRequest,
                              otf2.events.NonBlockingCollectiveRequest)):
                open_req[loc][e.request_id] = type(e).__name__
            if isinstance(e, (otf2.events.MpiIsendComplete, otf2.events.MpiIrecv,
                              otf2.events.MpiRequestCancelled,
                              otf2.events.NonBlockingCollectiveComplete)):
                if open_req[loc].pop(e.request_id, None) is None:
                    bad.append("%s of request %d on %s: never posted" %
                               (type(e).__name__, e.request_id, loc))
    left = {l.name: r for l, r in open_req.items() if r}
    if sends != recvs or bad or left or sum(sends.values()) != 60:
        fail("unmatched sends %s, receives %s; %s; left %s" %
             (sends - recvs, recvs - sends, bad[:5], left))


def window(path):
    """--start 101.2 --end 201.1: one round's records, all within the window, nested."""
    ev = lib.events(path)
    bad = lib.nesting(ev)
    c = collections.Counter(r for r, _, _, _ in ev)
    lo, hi = START + 101200, START + 201100
    out = [(r, t) for r, _, t, _ in ev if not lo <= t <= hi]
    if bad or out or c["MPI_SEND"] != 8 or c["MPI_ISEND"] != 12:
        fail("nesting %s, outside %s, counts %s" % (bad[:5], out[:5], c))


def step_2(path):
    """--steps 2: step 2 of each rank (and what overlaps it), nested."""
    ev = lib.events(path)
    bad = lib.nesting(ev)
    steps = collections.Counter(re.search(r"Value: (\d+)", t).group(1) for r, _, _, t in ev
                                if r == "PARAMETER_UINT64")
    # from the first rank to start step 2 to the last to end it (ranks start 3 ns apart, and
    # node-b 5 us early): that reaches into step 1 of three ranks and step 3 of three
    if bad or steps != {"1": 3, "2": 4, "3": 3}:
        fail("nesting %s, steps %s" % (bad[:5], steps))


main(globals())

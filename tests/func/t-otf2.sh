#!/bin/sh
# tprof-analyze --format otf2 on a synthetic MPI job (tests/unit/test-mpi-trace.c: 4 ranks on
# two hosts, 20 messages a round in every form MPI has: blocking, sendrecv, nonblocking,
# persistent, plus collectives, a cancelled receive, a send to MPI_PROC_NULL, HIP calls and
# device work, ranges, marks, counters, steps; then one message per rank on a communicator
# the trace does not describe).  otf2-print must read the archive without a word of
# complaint; the MPI records, their definitions and the nesting of every location are
# checked against what the job did; with /usr/bin/python3's otf2 module every message is
# matched with its receive.  Then windows, and the errors of -o and of writing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 26

GEN="$top_builddir/tests/unit/test-mpi-trace"
mkdir "$T/job" && "$GEN" "$T/job" 3
ok $? "a synthetic trace of 4 ranks, 3 rounds"

"$ANALYZE" "$T/job" --format otf2 -o "$T/a" 2>"$T/a.err"
ok $? "tprof-analyze --format otf2 succeeds"
grep -q "warning: OTF2: 8 MPI records left out: their communicator is not described" "$T/a.err" &&
	! grep -q "never seen posted" "$T/a.err"
ok $? "the message on a communicator the trace does not describe is left out, with a warning"
grep -q "OTF2 archive written to $T/a/traces.otf2" "$T/a.err" && [ -f "$T/a/traces.otf2" ]
ok $? "it says where the anchor file is, and it is there"
otf2_print "$T/a/traces.otf2" "$T/a.txt"
ok $? "otf2-print reads events and definitions without an error or a warning"
[ -s "$T/a.txt.err" ] && diag "$(cat "$T/a.txt.err")"

# A location's records are kept back until it is worth a writer, or until the records kept
# pass a cap (then the locations keeping the most get theirs): the archive is the same
# whichever way each location went (cap 0: all at once; 1 KiB: by the cap, over and over).
for kb in 0 1; do
	TPROF_TEST_OTF2_KEPT_KB=$kb "$ANALYZE" "$T/job" --format otf2 -o "$T/k$kb" 2>/dev/null &&
		otf2_print "$T/k$kb/traces.otf2" "$T/k$kb.txt" && cmp "$T/a.txt" "$T/k$kb.txt" &&
		cmp "$T/a.txt.defs" "$T/k$kb.txt.defs"
	ok $? "the same archive with TPROF_TEST_OTF2_KEPT_KB=$kb"
done

# Per round and rank: 2 blocking sends (ring, sendrecv), 3 nonblocking (Waitall, Wait,
# persistent); as many receives; 3 collectives; one Iallreduce; one cancelled Irecv.
pyo '
ev = events(sys.argv[1])
c = collections.Counter(r for r, _, _, _ in ev)
R = 3 * 4
want = {"MPI_SEND": 2 * R, "MPI_RECV": 2 * R, "MPI_ISEND": 3 * R, "MPI_IRECV": 3 * R,
        "MPI_ISEND_COMPLETE": 3 * R, "MPI_IRECV_REQUEST": 4 * R, "MPI_REQUEST_CANCELLED": R,
        "MPI_COLLECTIVE_BEGIN": 3 * R, "MPI_COLLECTIVE_END": 3 * R,
        "NON_BLOCKING_COLLECTIVE_REQUEST": R, "NON_BLOCKING_COLLECTIVE_COMPLETE": R,
        "METRIC": R, "PARAMETER_UINT64": R}
bad = {k: (c[k], v) for k, v in want.items() if c[k] != v}
if bad:
    sys.exit("(got, want): %s" % bad)
' "$T/a.txt"
ok $? "MPI records: as many of each kind as the job made"
pyo '
ev = events(sys.argv[1])
c = collections.Counter(r for r, _, _, _ in ev)
sends, recvs = c["MPI_SEND"] + c["MPI_ISEND"], c["MPI_RECV"] + c["MPI_IRECV"]
if sends != 60 or recvs != 60:
    sys.exit("%d sends, %d receives; the job sent 60 messages" % (sends, recvs))
' "$T/a.txt"
ok $? "send and receive records each equal the job's 60 messages"
pyo '
bad = nesting(events(sys.argv[1]))
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/a.txt"
ok $? "every location: times never go back, every Enter has its Leave, properly nested"

# Where each record is: MPI records inside MPI calls, completions inside the Wait that
# completed them (also where the completion was recorded before its call), the receive of a
# blocking MPI_Recv at its end, device work on the device streams.
pyo '
ev = events(sys.argv[1])
stack = collections.defaultdict(list)
bad = []
for rec, loc, t, text in ev:
    if rec == "ENTER":
        stack[loc].append(name(text))
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
    sys.exit("\n".join(bad[:10]))
' "$T/a.txt"
ok $? "MPI records sit inside the calls they belong to"

# Definitions: clock, processes in rank order, communicators, the rank list.
start=$("$PY" -c '
import sys
# the trace starts at node-b first sample: E18 - 5000 ns (its clock reads 5 us later)
print(1700000000000000000 - 5000)')
pyo '
d = defs(sys.argv[1])
clock = [t for k, _, t in d if k == "CLOCK_PROPERTIES"]
if not clock or "Ticks per Seconds: 1000000000," not in clock[0] or \
        "Global Offset: %s," % sys.argv[2] not in clock[0]:
    sys.exit("clock properties: %s" % clock)
' "$T/a.txt.defs" "$start"
ok $? "clock properties: nanoseconds, offset at the trace start on the realtime axis"
pyo '
d = defs(sys.argv[1])
groups = [(int(i), name(t)) for k, i, t in d if k == "LOCATION_GROUP" and "Type: PROCESS" in t]
want = [(r, "rank %d (%s, pid %d) mpi-app" % (r, "node-a" if r < 2 else "node-b", 1000 + r))
        for r in range(4)]
if groups != want:
    sys.exit("process groups %s" % groups)
' "$T/a.txt.defs"
ok $? "one location group per process, ranks in order, id = rank, named as in Chrome"
pyo '
d = defs(sys.argv[1])
locs = {int(i): t for k, i, t in d if k == "LOCATION"}
cl = [t for k, i, t in d if k == "GROUP" and "COMM_LOCATIONS" in t]
ids = [int(x) for x in re.findall(r"<(\d+)>", cl[0].split("Members:")[1])] if cl else []
ranks = [re.search(r"Group: \"rank (\d+) ", locs[i]).group(1) for i in ids if i in locs]
threads = [loc_what(locs[i]) for i in ids if i in locs]
if ranks != ["0", "1", "2", "3"] or threads != ["mpi-app"] * 4:
    sys.exit("COMM_LOCATIONS members %s: ranks %s, threads %s" % (ids, ranks, threads))
comms = [name(t) for k, i, t in d if k == "COMM"]
if comms != ["MPI_COMM_WORLD", "MPI_COMM_SELF", "evens", "MPI_Comm 0x5157a11e00000001"]:
    sys.exit("communicators %s" % comms)
groups = [t for k, i, t in d if k == "GROUP" and "COMM_GROUP" in t]
if not any("4 Members: 0 (" in g for g in groups) or not any("2 Members: 0 (" in g and ", 2 (" in g for g in groups):
    sys.exit("communicator groups %s" % groups)
' "$T/a.txt.defs"
ok $? "MPI: a location per world rank (its main thread), WORLD, SELF and the split's two halves"
pyo '
d = defs(sys.argv[1])
streams = [loc_what(t) for k, i, t in d if k == "LOCATION" and "ACCELERATOR_STREAM" in t]
accel = [name(t) for k, i, t in d if k == "LOCATION_GROUP" and "Type: ACCELERATOR" in t]
if streams != ["GPU 0 stream 1"] * 4 or len(accel) != 4 or not accel[0].startswith("GPU 0, rank 0 "):
    sys.exit("streams %s, groups %s" % (streams, accel))
ev = events(sys.argv[2])
regions = collections.Counter(name(t) for r, l, _, t in ev if r == "ENTER")
if regions["vadd"] != 12 or regions["copy HtoD"] != 12 or regions["checkpoint"] != 12 or \
        regions["handoff"] != 12 or regions["step"] != 12 or regions["compute"] != 12:
    sys.exit("regions %s" % regions)
' "$T/a.txt.defs" "$T/a.txt"
ok $? "device streams in accelerator groups; kernels, copies, marks, steps, ranges as regions"
pyo '
ev = events(sys.argv[1])
fin = [(l, t) for r, l, t, x in ev if r == "ENTER" and name(x) == "MPI_Finalize"]
outer = [l for r, l, t, x in ev if r == "ENTER" and name(x) == "outer"]
if len(fin) != 4 or len(outer) != 1 or outer[0] not in [l for l, _ in fin]:
    sys.exit("finalize %s, outer %s" % (fin, outer))
' "$T/a.txt"
ok $? "a call that never returned and a range never closed end with their process, nested"

# A deeper look with the otf2 Python module of Debian's own interpreter, where it is.
if [ "${SYSTEM_PYTHON3:-no}" != no ] && "$SYSTEM_PYTHON3" -c "import otf2" 2>/dev/null; then
	"$SYSTEM_PYTHON3" -c '
import collections, sys, otf2
sends, recvs = collections.Counter(), collections.Counter()
open_req = collections.defaultdict(dict)
bad = []
with otf2.reader.open(sys.argv[1]) as t:
    for loc, e in t.events:
        if isinstance(e, (otf2.events.MpiSend, otf2.events.MpiIsend)):
            dst = e.communicator.group.members[e.receiver]
            sends[(e.communicator.name, loc.name, loc.group.name, dst.group.name, e.msg_tag, e.msg_length)] += 1
        if isinstance(e, (otf2.events.MpiRecv, otf2.events.MpiIrecv)):
            src = e.communicator.group.members[e.sender]
            recvs[(e.communicator.name, src.name, src.group.name, loc.group.name, e.msg_tag, e.msg_length)] += 1
        if isinstance(e, (otf2.events.MpiIsend, otf2.events.MpiIrecvRequest,
                          otf2.events.NonBlockingCollectiveRequest)):
            open_req[loc][e.request_id] = type(e).__name__
        if isinstance(e, (otf2.events.MpiIsendComplete, otf2.events.MpiIrecv,
                          otf2.events.MpiRequestCancelled, otf2.events.NonBlockingCollectiveComplete)):
            if open_req[loc].pop(e.request_id, None) is None:
                bad.append("%s of request %d on %s: never posted" % (type(e).__name__, e.request_id, loc))
left = {l.name: r for l, r in open_req.items() if r}
if sends != recvs or bad or left or sum(sends.values()) != 60:
    sys.exit("unmatched sends %s, receives %s; %s; left %s" % (sends - recvs, recvs - sends, bad[:5], left))
' "$T/a/traces.otf2"
	ok $? "otf2 module: every send has its receive (communicator, ends, tag, size), every request completes"
else
	skip "no otf2 module for /usr/bin/python3 (Debian: python3-otf2)"
fi

# Windows: ranges begun before the window are entered at its start, only if they reach it.
"$ANALYZE" "$T/job" --format otf2 -o "$T/w" --start 101.2 --end 201.1 2>"$T/w.err" &&
	otf2_print "$T/w/traces.otf2" "$T/w.txt"
ok $? "--start/--end: the archive reads without complaint"
pyo '
ev = events(sys.argv[1])
bad = nesting(ev)
c = collections.Counter(r for r, _, _, _ in ev)
lo, hi = 1700000000000000000 - 5000 + 101200, 1700000000000000000 - 5000 + 201100
out = [(r, t) for r, _, t, _ in ev if not lo <= t <= hi]
if bad or out or c["MPI_SEND"] != 8 or c["MPI_ISEND"] != 12:
    sys.exit("nesting %s, outside %s, counts %s" % (bad[:5], out[:5], c))
' "$T/w.txt"
ok $? "--start/--end: one round's records, all within the window, nested"
"$ANALYZE" "$T/job" --format otf2 -o "$T/s" --steps 2 2>"$T/s.err" &&
	otf2_print "$T/s/traces.otf2" "$T/s.txt" &&
	pyo '
ev = events(sys.argv[1])
bad = nesting(ev)
steps = collections.Counter(re.search(r"Value: (\d+)", t).group(1) for r, _, _, t in ev
                            if r == "PARAMETER_UINT64")
# from the first rank to start step 2 to the last to end it (ranks start 3 ns apart, and
# node-b 5 us early): that reaches into step 1 of three ranks and step 3 of three
if bad or steps != {"1": 3, "2": 4, "3": 3}:
    sys.exit("nesting %s, steps %s" % (bad[:5], steps))
' "$T/s.txt"
ok $? "--steps 2: step 2 of each rank (and what overlaps it), nested, readable"

# -o: required, a directory, new or empty; nothing of the user's is touched.
"$ANALYZE" "$T/job" --format otf2 >/dev/null 2>"$T/e1.err"
[ $? -eq 2 ] && grep -q "needs -o DIR" "$T/e1.err"
ok $? "--format otf2 without -o: a usage error"
mkdir "$T/full" && echo keep >"$T/full/mine.txt"
"$ANALYZE" "$T/job" --format otf2 -o "$T/full" >/dev/null 2>"$T/e2.err"
[ $? -ne 0 ] && grep -q "not empty" "$T/e2.err" && [ "$(cat "$T/full/mine.txt")" = keep ] &&
	[ "$(ls "$T/full")" = mine.txt ]
ok $? "a directory that is not empty is refused and left as it was"
echo data >"$T/file"
"$ANALYZE" "$T/job" --format otf2 -o "$T/file" >/dev/null 2>"$T/e3.err"
[ $? -ne 0 ] && grep -q "not a directory" "$T/e3.err" && [ "$(cat "$T/file")" = data ]
ok $? "a file is refused and left as it was"
mkdir "$T/empty" && "$ANALYZE" "$T/job" --format otf2 -o "$T/empty" 2>/dev/null &&
	otf2_print "$T/empty/traces.otf2" "$T/empty.txt"
ok $? "an empty directory takes the archive"
"$ANALYZE" "$T/job" --format otf2 -o - >/dev/null 2>"$T/e4.err"
[ $? -eq 2 ] && grep -q "'-o -' is not possible" "$T/e4.err"
ok $? "'-o -' is a usage error for otf2"
# A write that fails (here: past a file size limit) is an error that says so.
mkdir "$T/long" && "$GEN" "$T/long" 3000 &&
	(ulimit -f 1000 && trap '' XFSZ && "$ANALYZE" "$T/long" --format otf2 -o "$T/lim") \
		>/dev/null 2>"$T/e5.err"
[ $? -eq 1 ] && grep -q "File is too large (POSIX: $T/lim.tprof-tmp-[0-9a-f-]*[A-Za-z0-9]*/traces/" \
	"$T/e5.err" && grep -q "the OTF2 archive is incomplete: $T/lim was not written" "$T/e5.err" &&
	[ ! -e "$T/lim" ] && [ -z "$(ls "$T" | grep "^lim")" ]
ok $? "a failed write: exit status 1, the file named, the archive said to be incomplete and removed"
finish

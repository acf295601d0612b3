#!/bin/sh
# NCCL end to end: 4 MPI ranks all-reducing, broadcasting, all-gathering, reduce-scattering,
# reducing, in groups and in a ring of sends, on the world communicator and on its two halves,
# through the stand-in NCCL over the stand-in HIP runtime (apps/nccl-ranks checks every
# result and exits 0 only when all are right, and rank 0 prints the truth: its collectives in
# call order).  Recorded both ways (tprof-inspect around mpirun, and mpirun around
# tprof-inspect), then analyzed: every collective of the truth is found on all the ranks of
# its communicator and linked, each device span lies on its (device, stream) track with the
# arrow from its call, sends are linked to their receives, no two spans of a stream overlap
# and no arrow goes back in time (in Chrome and in OTF2), and the summary's bandwidths and
# waits are nccl-tests' formulas on the recorded bytes and times.  Then ranks made by fork
# (apps/nccl-fork), RCCL (apps/rccl-ranks), --group-by domain and the OTF2 archive.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl-analyze.sh"
[ -x "$APPS/nccl-ranks" ] || skip_all "apps/nccl-ranks was not built (it needs mpicc, mpirun and the stand-in NCCL)"
need_mpi apps/nccl-ranks
[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] ||
	skip_all "no stand-in NCCL or HIP runtime (configure found no usable HIP headers)"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
plan 14
NP=4

"$INSPECT" -o "$T/p1" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/nccl-ranks" >"$T/out1.txt" 2>"$T/err1.txt"
rc=$?
grep '^{"ranks"' "$T/out1.txt" >"$T/truth.json"
[ $rc -eq 0 ] && [ -s "$T/truth.json" ]
ok $? "tprof-inspect -- mpirun -np $NP nccl-ranks: every result right (exit $rc), the truth printed"
[ $rc -eq 0 ] || { diag "$(tail -5 "$T/err1.txt")"; }

"$ANALYZE" "$T/p1" -v -f chrome -o "$T/t1.json" -s >"$T/sum1.txt" 2>"$T/aerr1.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

# Instances a truth entry is in: its rank-0 span (the operation's arguments on a span of its
# own, or in the ops of a group span) and the instance's other spans.
TRUTH_PY='
OPS = {"allreduce": "AllReduce", "broadcast": "Broadcast", "allgather": "AllGather",
       "reducescatter": "ReduceScatter", "reduce": "Reduce", "alltoall": "AlltoAll",
       "gather": "Gather", "scatter": "Scatter"}
def truth_check(d, truth, nprocs):
    bad = []
    inst = instances(d)
    found = set()
    for c in truth["collectives"]:
        want = {"op": OPS[c["op"]], "count": c["count"], "dtype": c["dtype"], "bytes": c["bytes"], "seq": c["seq"]}
        hit = None
        for k, v in inst.items():
            for e in v:
                a = e["args"]
                if a.get("rank") != 0 or a.get("nranks") != c["nranks"]:
                    continue
                ops = a["ops"] if "ops" in a else [a]
                if any(all(o.get(x) == y for x, y in want.items()) for o in ops) and bool("ops" in a) == c["group"]:
                    hit = k
            if hit is not None:
                break
        if hit is None:
            bad.append("not found: %s" % c)
            continue
        v = inst[hit]
        found.add(hit)
        if len(v) != c["nranks"] or len({e["pid"] for e in v}) != c["nranks"] or \
           sorted(e["args"]["rank"] for e in v) != list(range(c["nranks"])) or \
           any(not e["args"]["matched"] or e["args"]["ranks_seen"] != c["nranks"] for e in v):
            bad.append("%s: instance %s has %s" % (c, hit, [(e["pid"], e["args"]["rank"], e["args"]["matched"]) for e in v]))
    incomplete = [k for k, v in inst.items() if not all(e["args"]["matched"] for e in v)]
    if incomplete:
        bad.append("incomplete instances: %s" % incomplete[:5])
    if len({e["pid"] for e in spans(d)}) != nprocs:
        bad.append("spans on %d processes" % len({e["pid"] for e in spans(d)}))
    return bad, inst
'

pyn "$TRUTH_PY"'
d = load(sys.argv[1]); truth = json.loads(open(sys.argv[2]).read())
bad, inst = truth_check(d, truth, int(sys.argv[3]))
s, f = flows(d, "collective")
want = sum(len(v) - 1 for v in inst.values() if has_coll(v))
# The stand-in runs the part of each rank on its own: under load one can end before the last
# rank starts, an arrow the analyzer leaves out and counts (-v).
m = re.search(r"NCCL: (\d+) arrows between ranks not drawn", open(sys.argv[4]).read())
want -= int(m.group(1)) if m else 0
if len(s) != want or set(s) != set(f):
    bad.append("%d collective arrows (%d ends), want %d" % (len(s), len(f), want))
if bad:
    sys.exit("\n".join(bad[:10]))
print("# %d instances" % len(inst))
' "$T/t1.json" "$T/truth.json" $NP "$T/aerr1.txt"
ok $? "every collective of the truth is on all the ranks of its communicator, one instance, linked"

pyn '
d = load(sys.argv[1])
bad = launch_ok(d)
names = {(m["pid"], m["tid"]): m["args"]["name"] for m in d["traceEvents"] if m["ph"] == "M" and m["name"] == "thread_name"}
bycorr = {(e["pid"], e["args"].get("correlation")): e for e in calls(d)}
for e in spans(d):
    a = e["args"]
    if not re.fullmatch("GPU %d stream [0-9]+" % a["device"], names.get((e["pid"], e["tid"]), "")):
        bad.append("span %s on track %s" % (e["name"], names.get((e["pid"], e["tid"]))))
    c = bycorr.get((e["pid"], a.get("correlation")))
    if c is None:
        bad.append("span %s: no call with correlation %s" % (e["name"], a.get("correlation")))
    elif "ops" not in a and (c["args"].get("stream") != a["stream"] or c["args"].get("device") != a["device"]):
        bad.append("span %s on stream %s device %s, its call says %s %s" % (e["name"], a["stream"], a["device"], c["args"].get("stream"), c["args"].get("device")))
    elif "ops" in a and c["name"] != "ncclGroupEnd":
        bad.append("group span launched by %s" % c["name"])
# one stream track per (process, device, stream)
tracks = collections.defaultdict(set)
for e in spans(d):
    tracks[(e["pid"], e["args"]["device"], e["args"]["stream"])].add(e["tid"])
if any(len(v) != 1 for v in tracks.values()):
    bad.append("a stream on several tracks")
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t1.json"
ok $? "each device span on its (device, stream) track, with the arrow from its call (groups: ncclGroupEnd)"

pyn '
d = load(sys.argv[1]); truth = json.loads(open(sys.argv[2]).read()); n = int(sys.argv[3])
s, f = flows(d, "send")
want = n * truth["p2p"] // 2
sp = spans(d)
bad = []
if len(s) != want or set(s) != set(f):
    bad.append("%d send arrows, want %d" % (len(s), want))
for i in s:
    a, b = s[i], f[i]
    src = [e for e in sp if (e["pid"], e["tid"]) == (a["pid"], a["tid"]) and within(e, ns(a["ts"]))]
    dst = [e for e in sp if (e["pid"], e["tid"]) == (b["pid"], b["tid"]) and within(e, ns(b["ts"]))]
    if not src or not dst or src[0]["args"]["rank"] != a["args"]["src"] or dst[0]["args"]["rank"] != a["args"]["dst"]:
        bad.append("send arrow %s" % i)
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t1.json" "$T/truth.json" $NP
ok $? "each send is an arrow from the sender's span to the receiver's"

pyn '
d = load(sys.argv[1]); text = open(sys.argv[2]).read()
bad = bw_check(d, text)
if not sum_rows(text):
    bad.append("no rows")
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t1.json" "$T/sum1.txt"
ok $? "summary: every row's algbw, busbw and wait are nccl-tests formulas on the recorded bytes and times"

grep -q "instances:   [0-9,]*, 0 incomplete" "$T/sum1.txt" && grep -q "^NCCL API" "$T/sum1.txt" &&
	grep -q "ncclCommInitRank" "$T/sum1.txt" && grep -q "^NCCL send/receive" "$T/sum1.txt"
ok $? "summary: NCCL API, no incomplete instance, the send/receive pairs"

"$MPIRUN" $MPIRUN_FLAGS -np $NP "$INSPECT" -o "$T/p2" -- "$APPS/nccl-ranks" >"$T/out2.txt" 2>"$T/err2.txt" &&
	grep -q '^{"ranks"' "$T/out2.txt" &&
	"$ANALYZE" "$T/p2" -f chrome -o "$T/t2.json" 2>/dev/null && pyn "$TRUTH_PY"'
d = load(sys.argv[1]); truth = json.loads(open(sys.argv[2]).read())
bad, inst = truth_check(d, truth, int(sys.argv[3]))
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t2.json" "$T/truth.json" $NP
ok $? "mpirun -np $NP tprof-inspect -- nccl-ranks: the same, matched across the four profiles"

if [ -x "$APPS/nccl-fork" ]; then
	"$INSPECT" -o "$T/p3" -- "$APPS/nccl-fork" $NP >"$T/out3.txt" 2>"$T/err3.txt" &&
		"$ANALYZE" "$T/p3" -f chrome -o "$T/t3.json" -s >"$T/sum3.txt" 2>/dev/null && pyn '
d = load(sys.argv[1]); n = int(sys.argv[2])
inst = instances(d)
bad = []
if not inst:
    bad.append("no instance")
# A child ends with _exit: device work it finished just before may never be resolved, so a
# span can be missing; its call is still in the instance (ranks_seen), which is then unmatched.
for k, v in inst.items():
    if len({e["pid"] for e in v}) != len(v) or any(e["args"]["ranks_seen"] != n for e in v) or \
       all(e["args"]["matched"] for e in v) != (len(v) == n) or {e["args"]["op"] for e in v} != {"AllReduce"}:
        bad.append("instance %s: %s" % (k, [(e["pid"], e["args"].get("op"), e["args"]["matched"], e["args"]["ranks_seen"]) for e in v]))
bad += bw_check(d, open(sys.argv[3]).read(), all(len(v) == n for v in inst.values()))
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t3.json" $NP "$T/sum3.txt"
	ok $? "ranks made by fork (nccl-fork $NP): every AllReduce found on all $NP processes, bandwidth as the formulas give"
else
	skip "apps/nccl-fork was not built"
fi

if [ -x "$APPS/rccl-ranks" ] && [ -e "$STANDIN_LIBDIR/librccl.so.1" ]; then
	"$INSPECT" -o "$T/p4" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/rccl-ranks" >"$T/out4.txt" 2>"$T/err4.txt" &&
		grep '^{"ranks"' "$T/out4.txt" >"$T/truth4.json" &&
		"$ANALYZE" "$T/p4" -f chrome -o "$T/t4.json" 2>/dev/null && pyn "$TRUTH_PY"'
d = load(sys.argv[1]); truth = json.loads(open(sys.argv[2]).read())
bad, inst = truth_check(d, truth, int(sys.argv[3]))
c = [e for e in calls(d) if e["args"].get("op") == "AllReduce"]
if not c or any(e["args"].get("library") != "RCCL" for e in c):
    bad.append("RCCL calls not flagged")
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t4.json" "$T/truth4.json" $NP
	ok $? "RCCL (rccl-ranks over librccl.so.1): the same, calls flagged RCCL"
else
	skip "apps/rccl-ranks or the stand-in librccl.so.1 was not built"
fi

"$ANALYZE" "$T/p1" -f chrome -o "$T/dom.json" --group-by domain 2>/dev/null && pyn '
d = load(sys.argv[1]); d1 = load(sys.argv[2])
names = {m["pid"]: m["args"]["name"] for m in d["traceEvents"] if m["ph"] == "M" and m["name"] == "process_name"}
sp = spans(d)
if len(sp) != len(spans(d1)) or any(names.get(e["pid"]) != "GPU" for e in sp):
    sys.exit("%d spans (want %d) in %s" % (len(sp), len(spans(d1)), {names.get(e["pid"]) for e in sp}))
bad = launch_ok(d)
if bad or len(flows(d, "collective")[0]) != len(flows(d1, "collective")[0]):
    sys.exit("\n".join(bad[:5]) or "collective arrows differ")
' "$T/dom.json" "$T/t1.json"
ok $? "--group-by domain: the same spans in the GPU group, the same arrows"

pyn '
d = load(sys.argv[1])
bad = overlaps(d) + backward(d)
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t1.json"
ok $? "no two spans on one stream overlap; no arrow ends before it starts (groups: none before ncclGroupEnd)"

if [ "${OTF2_PRINT:-no}" != no ] && [ -x "${OTF2_PRINT:-}" ]; then
	. "$(dirname "$0")/lib-otf2.sh"
	"$ANALYZE" "$T/p1" -f otf2 -o "$T/otf2" 2>/dev/null &&
		"$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/otf2.txt" 2>"$T/otf2.err" && ! grep -q . "$T/otf2.err" &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/otf2.defs" 2>>"$T/otf2.err" && ! grep -q . "$T/otf2.err" &&
		grep -q 'Name: "ncclAllReduce".*Descr.: "NCCL call"' "$T/otf2.defs" &&
		grep -q 'Name: "ncclGroupEnd".*Descr.: "device collective"' "$T/otf2.defs" &&
		grep -q 'Name: "ncclAllReduce".*Descr.: "device collective"' "$T/otf2.defs"
	ok $? "OTF2: otf2-print reads the archive; NCCL calls and device collectives are regions"
	otf2_print "$T/otf2/traces.otf2" "$T/o.txt" && pyo '
bad = device_spans(sys.argv[1], sys.argv[2])
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/o.txt" "$T/t1.json"
	ok $? "OTF2: on each stream one collective after the other, at the times of the Chrome trace"
else
	skip "otf2-print not found (configure looks for it)"
	skip "otf2-print not found (configure looks for it)"
fi
finish

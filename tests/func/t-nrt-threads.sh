#!/bin/sh
# The NRT acceptance test: apps/nrt-threads runs two models on NeuronCores 0 and 1 from two
# threads through the stand-in libnrt.so.1, under tprof-inspect, and makes a few calls that
# fail on purpose (-e).  Checked against the program's own truth line and the trace file the
# stand-in wrote of what it ran (STANDIN_NRT_TRACE_FILE): every execution on the nc track of
# its thread's core, named by its model, with the input and output sizes the program used;
# each one's duration from the stand-in's own time for that call to the program's timing of
# it (per execution, so that host scheduling cannot matter); the failures marked with their
# NRT_STATUS names; the summary's per-model figures equal to a recomputation from the Chrome
# trace and its busy share per core; no overlap on a core's track, no arrow back in time;
# --group-by neuroncore and --group-by instance laid out as documented.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
. "$(dirname "$0")/lib-nrt-analyze.sh"
need_nrt
# A trn2 (family 5): the recorder writes it as the PROP nrt_instance, the analyzer names the
# host's group with it.
STANDIN_NRT_INSTANCE=5
export STANDIN_NRT_INSTANCE
plan 13
N=5

# Executions of tens of ms: the recorded span holds the stand-in's call, and only the
# wrapper's own time separates them (unbounded on a loaded machine, which may preempt the
# thread there: the program's own timing of the call bounds the span from above).
neff "$T/a.neff" mlp-small exec_us=60000 add=1 in=x:4096 in=y:4096 out=z:4096 &&
	neff "$T/b.neff" conv-big exec_us=100000 add=2 in=img:65536 out=map:32768
ok $? "two NEFF files are written"

STANDIN_NRT_TRACE_FILE="$T/standin.trace" "$INSPECT" -o "$T/prof" -- \
	"$APPS/nrt-threads" -n $N -e -t "$T/a.neff" "$T/b.neff" >"$T/truth.json" 2>"$T/err.txt"
rc=$?
grep -q '"ok":true' "$T/truth.json" && [ $rc -eq 0 ]
ok $? "nrt-threads runs under the profiler, its outputs right (exit $rc)"
[ $rc -eq 0 ] || diag "$(tail -n 5 "$T/err.txt")"

"$ANALYZE" "$T/prof" -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/an.err"
ok $? "tprof-analyze writes the Chrome trace and the summary"

# The program's truth and the stand-in's executions, by thread.
THREADS_PY="$NRT_PY"'
truth = json.loads(open(sys.argv[2]).readline())
sn = [json.loads(l) for l in open(sys.argv[3])]
sn_exec = [l for l in sn if l["event"] == "exec" and l["pid"] == truth["pid"]]
bytid = {t["tid"]: t for t in truth["threads"]}
def tid_of(e):
    return int(re.search(r"\(tid (-?\d+)\)$", e["args"]["thread"]).group(1))
def core_execs(d):
    return [e for e in core_spans(d) if e["args"]["call"].startswith("nrt_execute")]
'

pyc "$THREADS_PY"'
d = load(sys.argv[1]); names = tracknames(d); real = realpid(d)
ex = [e for e in core_execs(d) if tid_of(e) in bytid]
for tid, t in bytid.items():
    mine = [e for e in ex if tid_of(e) == tid]
    if len(mine) != t["executions"]:
        sys.exit("thread %d: %d executions on NeuronCore tracks, ran %d" % (tid, len(mine), t["executions"]))
    for e in mine:
        track = names[(e["pid"], e["tid"])]
        if real[e["pid"]] != truth["pid"] or track.split(" (")[0] != "nc %d" % t["nc"] or e["args"]["nc"] != t["nc"]:
            sys.exit("thread %d ran on nc %d; an execution is on %s: %s" % (tid, t["nc"], track, e))
        a = e["args"]
        if e["name"] != t["model"] or a["model"] != t["model"] or a["status"] != "NRT_SUCCESS":
            sys.exit("execution named %s (%s), model %s" % (e["name"], a["status"], t["model"]))
        if (a["input_bytes"], a["output_bytes"], a["input_tensors"], a["output_tensors"]) != \
           (t["in_bytes"], t["out_bytes"], t["in_tensors"], t["out_tensors"]):
            sys.exit("execution args %s, truth %s" % (a, t))
' "$T/t.json" "$T/truth.json" "$T/standin.trace"
ok $? "every execution of each thread on the nc track of its core, named by its model, with its tensors"

pyc "$THREADS_PY"'
d = load(sys.argv[1])
ex = core_execs(d)
worst = 0
for tid in bytid:
    mine = sorted((e for e in ex if tid_of(e) == tid), key=lambda e: e["ts"])
    ran = sorted((l for l in sn_exec if l["tid"] == tid), key=lambda l: l["entry_ns"])
    timed = bytid[tid]["spans_ns"]
    if not len(mine) == len(ran) == len(timed):
        sys.exit("thread %d: %d spans, the stand-in ran %d, the program timed %d" %
                 (tid, len(mine), len(ran), len(timed)))
    for e, l, app in zip(mine, ran, timed):
        real = l["return_ns"] - l["entry_ns"]
        got = ns(e["dur"])
        # The hook is between the two: its span holds the stand-in'"'"'s call and lies within
        # the program'"'"'s (a rounding of the clocks'"'"' conversion either side).
        slack = 20000 + 0.002 * real
        if not real - slack <= got <= app + slack:
            sys.exit("thread %d: span %d ns; the stand-in took %d ns, the program timed %d ns" %
                     (tid, got, real, app))
        worst = max(worst, abs(got - real) / real)
print("# worst difference from the stand-in'"'"'s own time %.3f%%" % (100 * worst))
' "$T/t.json" "$T/truth.json" "$T/standin.trace"
ok $? "each execution lasts from the stand-in's own time for it to the program's timing of the call"

pyc "$THREADS_PY"'
d = load(sys.argv[1])
names = tracknames(d)
calls = {(e["pid"], e["tid"], e["ts"], e["dur"]): e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nrt"}
s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == "nrt"}
f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == "nrt"}
spans = core_spans(d)
if len(s) != len(spans) or set(s) != set(f):
    sys.exit("%d flows for %d spans on NeuronCores" % (len(s), len(spans)))
for e in spans:
    twin = [c for c in calls.values() if c["name"] == e["args"]["call"] and c["ts"] == e["ts"] and c["dur"] == e["dur"]]
    if len(twin) != 1 or names[(twin[0]["pid"], twin[0]["tid"])].startswith("nc "):
        sys.exit("no call on a thread for %s" % e)
if overlaps(d):
    sys.exit(overlaps(d))
' "$T/t.json" "$T/truth.json" "$T/standin.trace"
ok $? "each span on a core is its call's, which stays on its thread, with a flow; no track overlaps"

# The failures of -e, named as nrt_status.h names them.
pyc "$THREADS_PY"'
d = load(sys.argv[1]); text = open(sys.argv[4]).read()
status = dict((int(v), k) for k, v in re.findall(r"^\s*(NRT_\w+) = (\d+),", open(sys.argv[5]).read(), re.M))
calls = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nrt"]
for err in truth["errors"]:
    name = status[err["status"]]
    hit = [e for e in calls if e["name"] == err["call"] and e["args"].get("status") == name and e["args"].get("failed") is True]
    if not hit:
        sys.exit("no failed %s with status %s" % (err["call"], name))
    if not re.search(r"\n +1  %s +%s\n" % (name, err["call"]), text):
        sys.exit("the summary has no row for %s %s" % (err["call"], name))
bad = [e for e in core_execs(d) if e["args"].get("failed")]
if len(bad) != 1 or bad[0].get("cname") != "terrible" or bad[0]["args"]["status"] != status[1002]:
    sys.exit("failed executions on cores: %s" % bad)
' "$T/t.json" "$T/truth.json" "$T/standin.trace" "$T/sum.txt" "$top_srcdir/tests/stand-ins/include/nrt/nrt_status.h"
ok $? "the calls that failed on purpose carry their NRT_STATUS names, the failed execution is marked, the summary counts them"

pyc "$NRT_PY"'
err = model_table_errors(load(sys.argv[1]), open(sys.argv[2]).read())
if err:
    sys.exit(err)
' "$T/t.json" "$T/sum.txt"
ok $? "the NRT models table equals its recomputation from the Chrome trace"

pyc "$THREADS_PY"'
d = load(sys.argv[1]); text = open(sys.argv[4]).read()
cov = re.search(r"\nNeuronCores: busy share of the covered time \(([\d.]+ \w+)\)\n(.*?)\n\n", text, re.S)
covered = dur_of(cov.group(1))
rows = cov.group(2).splitlines()[1:]
for t in truth["threads"]:
    ex = sorted((e for e in core_execs(d) if e["args"]["nc"] == t["nc"]), key=lambda e: e["ts"])
    busy = sum(ns(e["dur"]) for e in ex)   # one execution at a time on a core
    row = [r for r in rows if re.search(r"  nc %d of .*pid %d\)" % (t["nc"], truth["pid"]), r)]
    m = re.match(r"\s*([\d.]+) % +([\d.]+ \w+) +(\d+)  nc", row[0]) if len(row) == 1 else None
    if not m or int(m.group(3)) != len(ex) or abs(dur_of(m.group(2)) - busy) > 0.0005 * busy + 1 \
       or abs(float(m.group(1)) - 100.0 * busy / covered) > 0.051:
        sys.exit("nc %d: %s; want %d executions, busy %d ns of %d" % (t["nc"], row, len(ex), busy, covered))
' "$T/t.json" "$T/truth.json" "$T/standin.trace" "$T/sum.txt"
ok $? "the NeuronCores table: each core's executions and busy share"

pyc '
d = load(sys.argv[1])
bad = overlaps(d) + backward(d)
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/t.json"
ok $? "no two spans on one NeuronCore track overlap; no arrow ends before it starts"

"$ANALYZE" "$T/prof" --group-by neuroncore -o "$T/nc.json" 2>/dev/null &&
	pyc "$THREADS_PY"'
d = load(sys.argv[1]); groups = groupnames(d); names = tracknames(d); label = {p: n for p, (n, r) in procs(d).items()}
cores = {p: n for p, n in groups.items() if re.match(r"nc \d+$", n)}
if sorted(cores.values()) != ["nc 0", "nc 1"]:
    sys.exit("core groups %s" % groups)
me = [n for p, (n, r) in procs(d).items() if r == truth["pid"]][0]
for t in truth["threads"]:
    g = [p for p, n in cores.items() if n == "nc %d" % t["nc"]][0]
    tracks = {n for (p, tid), n in names.items() if p == g}
    if tracks != {me}:
        sys.exit("tracks of nc %d: %s, want %s" % (t["nc"], tracks, me))
    ex = [e for e in core_execs(d) if e["pid"] == g]
    if len(ex) < t["executions"] or any(e["name"] != t["model"] for e in ex if not e["args"].get("failed")):
        sys.exit("nc %d holds %s" % (t["nc"], sorted({e["name"] for e in ex})))
for tid in bytid:
    if not any(p not in cores and t == tid for (p, t) in names):
        sys.exit("thread %d not with its process" % tid)
' "$T/nc.json" "$T/truth.json" "$T/standin.trace"
ok $? "--group-by neuroncore: groups nc 0 and nc 1, the process a track in each, its threads with it"

"$ANALYZE" "$T/prof" --group-by instance -o "$T/in.json" 2>/dev/null &&
	pyc "$THREADS_PY"'
d = load(sys.argv[1]); groups = groupnames(d); names = tracknames(d)
host = sys.argv[4]
hg = [p for p, n in groups.items() if n == host + " (trn2)"]
if len(hg) != 1:
    sys.exit("no group for host %s: %s" % (host, groups))
me = [n for p, (n, r) in procs(d).items() if r == truth["pid"]][0]
tracks = sorted(n for (p, t), n in names.items() if p == hg[0])
want = {"%s: nc 0" % me, "%s: nc 1" % me}
if not want <= set(tracks) or sum(1 for n in tracks if n.startswith(me + ": ")) < 4:
    sys.exit("tracks of %s: %s" % (groups[hg[0]], tracks))
if any(e["pid"] != hg[0] for e in events(d) if e["ph"] == "X" and e.get("cat") in ("nrt", "neuroncore")):
    sys.exit("NRT spans outside the host group")
' "$T/in.json" "$T/truth.json" "$T/standin.trace" "$(hostname)"
ok $? "--group-by instance: the host's group, named with its instance family, holds the process's threads and NeuronCores"

if [ -z "${OTF2_PRINT:-}" ] || [ "$OTF2_PRINT" = no ] || ! command -v "$OTF2_PRINT" >/dev/null 2>&1; then
	skip "no otf2-print (configure found none)"
else
	"$ANALYZE" "$T/prof" --format otf2 -o "$T/otf2" 2>/dev/null &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/defs.txt" 2>&1 &&
		"$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/events.txt" 2>&1 &&
		"$PY" - "$T/defs.txt" "$T/events.txt" "$T/truth.json" <<'EOF2'
import collections, json, re, sys
defs = open(sys.argv[1]).read(); truth = json.loads(open(sys.argv[3]).readline())
locs = {int(m.group(1)): m.group(2) for m in re.finditer(r'^LOCATION +(\d+) +Name: "(?:pid \d+(?: on [^:"]*)?: )?([^"]*)" <\d+>, Type: ACCELERATOR_STREAM', defs, re.M)}
enters = collections.Counter()
for line in open(sys.argv[2]):
    m = re.match(r'ENTER +(\d+) +\d+ +Region: "([^"]*)"', line)
    if m and int(m.group(1)) in locs:
        enters[(locs[int(m.group(1))], m.group(2))] += 1
for t in truth["threads"]:
    if enters[("nc %d" % t["nc"], t["model"])] < t["executions"]:
        sys.exit("OTF2: %d executions of %s on nc %d, want %d: %s" % (enters[("nc %d" % t["nc"], t["model"])], t["model"], t["nc"], t["executions"], dict(enters)))
EOF2
	ok $? "OTF2: each thread's executions on its NeuronCore's location, named by model, read by otf2-print"
fi
finish

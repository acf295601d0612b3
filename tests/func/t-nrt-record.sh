#!/bin/sh
# Recording a Neuron runtime program: apps/nrt-threads (two models on NeuronCores 0 and 1, two
# threads executing them, tensors written and read, a few calls that fail on purpose) against
# the stand-in libnrt.so.1, under tprof-inspect.  What the recorder wrote is read back with
# tools/dump-records and checked against the program's own account of what it did and against
# the stand-in's trace file (what ran when): every call with its op, model, NeuronCore, bytes
# and status; each execution's span against the execution the stand-in ran; the runtime's
# properties; the API filters; and a failing program whose output and status do not change.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
plan 23

N=4
neff "$T/a.neff" resnet exec_us=50000 add=3 in=image:4096 in=bias:1024 out=logits:4096
neff "$T/b.neff" bert exec_us=60000 in=tokens:2048 out=hidden:2048
export STANDIN_NRT_INSTANCE="5,48,NCv3,2.0"
APP="$APPS/nrt-threads"

"$APP" -n $N -e "$T/a.neff" "$T/b.neff" >"$T/plain.out" 2>"$T/plain.err"
ok $? "nrt-threads runs without the recorder"
STANDIN_NRT_TRACE_FILE="$T/standin.%p" "$INSPECT" -o "$T/out" -- \
	"$APP" -n $N -e "$T/a.neff" "$T/b.neff" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect, with exit status 0"
check "its output is unchanged (but for pids and tids)" py '
import json, sys
def strip(path):
    d = json.loads(open(path).read())
    d.pop("pid")
    for t in d["threads"]:
        t.pop("tid")
    return d
a, b = strip(sys.argv[1]), strip(sys.argv[2])
if a != b or not a["ok"]: sys.exit("%s\n%s" % (a, b))
' "$T/plain.out" "$T/rec.out"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/rec.err"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"

# The checks below share: the one image, its calls by name, the truth line.
PY_REC='
imgs = images(sys.argv[1])
if len(imgs) != 1: fail("%d process images" % len(imgs))
img = list(imgs.values())[0]
truth = json.loads(open(sys.argv[2]).read())
calls = img["calls"]
by = collections.defaultdict(list)
for c in calls:
    by[c["name"]].append(c)
threads = truth["threads"]
'
check "every NRT call the program makes is recorded once, with its op" nrtpy "$PY_REC"'
n = threads[0]["executions"]
tensors = sum(t["in_tensors"] + t["out_tensors"] for t in threads)
want = {"nrt_init": (1, INIT), "nrt_load": (3, LOAD), "nrt_get_model_tensor_info": (2, OTHER),
        "nrt_free_model_tensor_info": (2, OTHER), "nrt_allocate_tensor_set": (5, SET),
        "nrt_destroy_tensor_set": (5, SET), "nrt_tensor_allocate": (tensors, ALLOC),
        "nrt_add_tensor_to_tensor_set": (tensors, SET), "nrt_tensor_free": (tensors, FREE),
        "nrt_execute": (2 * n + 1, EXECUTE),
        "nrt_tensor_write": (sum(t["in_tensors"] for t in threads) * n, WRITE),
        "nrt_tensor_read": (sum(t["out_tensors"] for t in threads) * n + 1, READ),
        "nrt_unload": (2, UNLOAD), "nrt_close": (1, CLOSE)}
got = {k: (len(v), sorted({op(c) for c in v})) for k, v in by.items()}
exp = {k: (v[0], [v[1]]) for k, v in want.items()}
if got != exp: fail("calls %s\nwant %s" % (got, exp))
if any(c["t1"] < c["t0"] or not c["t1"] for c in calls): fail("a call without its end")
' "$T/dump.json" "$T/rec.out"

check "each thread's executions: its model, NeuronCore, set bytes and tensors, status 0" nrtpy "$PY_REC"'
for t in threads:
    s = img["streams"].get(t["tid"])
    ex = [c for c in by["nrt_execute"] if c["stream"] == s]
    if len(ex) != t["executions"]: fail("%d executions on stream %s for %s" % (len(ex), s, t))
    for c in ex:
        a = nrt(c)
        want = dict(name=t["model"], nc=t["nc"], in_bytes=t["in_bytes"], out_bytes=t["out_bytes"],
                    in_tensors=t["in_tensors"], out_tensors=t["out_tensors"], model_nc_count=1,
                    bytes=t["in_bytes"] + t["out_bytes"], extra=0)
        got = {k: a[k] for k in want}
        if got != want or status(c) != 0 or c["ext"] != 2 or not a["handle"]:
            fail("execution %s, want %s, status %d" % (a, want, status(c)))
' "$T/dump.json" "$T/rec.out"

check "loads: the NEFF name, the NeuronCore given, NEFF bytes; unloads name their model" nrtpy "$PY_REC"'
import os
sizes = [os.path.getsize(p) for p in sys.argv[3:5]]
ld = [c for c in by["nrt_load"] if status(c) == 0]
got = [(nrt(c)["name"], nrt(c)["nc"], nrt(c)["bytes"], nrt(c)["extra"]) for c in ld]
want = [(t["model"], t["nc"], sizes[i], 1) for i, t in enumerate(threads)]
if got != want: fail("loads %s, want %s" % (got, want))
handles = {nrt(c)["name"]: nrt(c)["handle"] for c in ld}
un = [(nrt(c)["name"], nrt(c)["nc"], nrt(c)["handle"]) for c in by["nrt_unload"]]
if sorted(un) != sorted((t["model"], t["nc"], handles[t["model"]]) for t in threads): fail("unloads %s" % un)
ex = {nrt(c)["handle"] for c in by["nrt_execute"]}
if ex != set(handles.values()): fail("executions of handles %s, loads %s" % (ex, handles))
' "$T/dump.json" "$T/rec.out" "$T/a.neff" "$T/b.neff"

check "tensor calls: name, bytes, NeuronCore and device placement; set calls name the tensor" nrtpy "$PY_REC"'
nc_of = {}
for c in by["nrt_tensor_allocate"]:
    a = nrt(c)
    if status(c) or a["placement"] != 0 or a["bytes"] not in (1024, 2048, 4096) or not a["handle"]:
        fail("allocation %s" % a)
    nc_of[a["handle"]] = (a["name"], a["nc"], a["bytes"])
names = {v[0] for v in nc_of.values()}
if names != {"image", "bias", "logits", "tokens", "hidden"}: fail("tensor names %s" % names)
for kind in ("nrt_tensor_write", "nrt_tensor_read", "nrt_tensor_free", "nrt_add_tensor_to_tensor_set"):
    for c in by[kind]:
        a = nrt(c)
        if kind == "nrt_add_tensor_to_tensor_set":
            if (a["name"], a["nc"], a["bytes"]) not in nc_of.values(): fail("%s %s" % (kind, a))
            continue
        if status(c):
            continue
        if (a["name"], a["nc"], a["bytes"]) != nc_of.get(a["handle"]) or a["placement"] != 0:
            fail("%s %s, allocated as %s" % (kind, a, nc_of.get(a["handle"])))
for t in threads:
    s = img["streams"][t["tid"]]
    moved = [c for c in by["nrt_tensor_write"] + by["nrt_tensor_read"] if c["stream"] == s]
    if not moved or any(nrt(c)["nc"] != t["nc"] for c in moved): fail("thread of %s moves data elsewhere" % t)
' "$T/dump.json" "$T/rec.out"

check "the calls that failed are recorded with their status" nrtpy "$PY_REC"'
want = {e["call"]: e["status"] for e in truth["errors"]}
if want != {"nrt_execute": 1002, "nrt_tensor_read": 2, "nrt_load": 2}: fail("truth %s" % want)
bad = [(c["name"], status(c)) for c in calls if status(c)]
if sorted(bad) != sorted(want.items()): fail("failed calls %s, want %s" % (bad, want))
e = [c for c in by["nrt_execute"] if status(c)][0]
if (nrt(e)["name"], nrt(e)["in_tensors"], nrt(e)["out_tensors"]) != ("resnet", 0, 1): fail("%s" % nrt(e))
l = [c for c in by["nrt_load"] if status(c)][0]
if not nrt(l)["name"].startswith("neff-") or nrt(l)["bytes"] != 2048 or nrt(l)["handle"]:
    fail("failed load %s" % nrt(l))
' "$T/dump.json" "$T/rec.out"

# ---- spans against what the stand-in ran -----------------------------------------------------
PY_SPANS='
st = [e for e in trace(sys.argv[3]) if e["event"] == "exec"]
pairs = []
for tid in sorted({e["tid"] for e in st}):
    s = img["streams"].get(tid)
    mine = [e for e in st if e["tid"] == tid]
    rec = [c for c in by["nrt_execute"] if c["stream"] == s]
    if len(mine) != len(rec): fail("tid %d: %d executions in the stand-in, %d recorded" % (tid, len(mine), len(rec)))
    pairs += list(zip(mine, rec))
if len(pairs) != 2 * threads[0]["executions"] + 1: fail("%d executions" % len(pairs))
'
check "every execution the stand-in ran is recorded, on its thread, with its model, core and status" \
	nrtpy "$PY_REC$PY_SPANS"'
for e, c in pairs:
    if (e["model"], e["nc"], e["status"]) != (nrt(c)["name"], nrt(c)["nc"], status(c)): fail("%s vs %s" % (e, nrt(c)))
' "$T/dump.json" "$T/rec.out" "$T/standin.*"
# The recorded span is the call as the program made it: it holds the stand-in's execution and
# lasts what the stand-in took from entry to return (the wrapper's own cost aside).  A loaded
# machine may stop the thread between the wrapper's clock and the stand-in's, so it is most
# spans, not every one, that must match within 5 %; every one must hold its call.
check "each recorded span holds the execution the stand-in ran, and most match its call within 5%" \
	nrtpy "$PY_REC$PY_SPANS"'
diffs = []
for e, c in pairs:
    if not e["ran"]: continue
    t0, t1 = ns(img, c["t0"]), ns(img, c["t1"])
    slack = 20000   # ns: the tick-to-ns conversion
    if not (t0 - slack <= e["entry_ns"] and e["return_ns"] <= t1 + slack):
        fail("recorded [%d, %d] does not hold the call [%d, %d]" % (t0, t1, e["entry_ns"], e["return_ns"]))
    if not (t0 - slack <= e["start_ns"] and e["end_ns"] <= t1 + slack): fail("execution outside the span")
    rec, real = t1 - t0, e["return_ns"] - e["entry_ns"]
    diffs.append(abs(rec - real) / real)
diffs.sort()
close = sum(d <= 0.05 for d in diffs)
if not diffs or close < 0.75 * len(diffs):
    fail("%d of %d recorded durations within 5%% of the stand-in call" % (close, len(diffs)))
print("# %d of %d within 5%%; median difference %.3f%%, worst %.3f%%"
      % (close, len(diffs), 100 * diffs[len(diffs) // 2], 100 * diffs[-1]))
' "$T/dump.json" "$T/rec.out" "$T/standin.*"

check "the runtime's version and the instance are properties of the process" nrtpy "$PY_REC"'
p = img["props"]
want = {"nrt_version": "2.28.0.0", "nrt_instance": "trn2", "nrt_instance_family": 5,
        "nrt_instance_size": 48, "nrt_arch": "NCv3", "nrt_device_revision": "2.0", "nrt_nc_count": 4}
got = {k: p.get(k) for k in want}
if got != want: fail("props %s" % got)
' "$T/dump.json" "$T/rec.out"

"$ANALYZE" "$T/out" --summary >"$T/summary" 2>"$T/summary.err"
ok $? "tprof-analyze --summary reads the profile"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/chrome.err" &&
	py 'import json, sys; json.load(open(sys.argv[1]))' "$T/trace.json"
ok $? "tprof-analyze --format chrome writes JSON that parses"

# ---- the filters ---------------------------------------------------------------------------
rm -rf "$T/f1"
TPROF_NRT_API_FILTER=nrt_execute "$INSPECT" -o "$T/f1" -- "$APP" -n 2 "$T/a.neff" "$T/b.neff" \
	>"$T/f1.out" 2>"$T/f1.err" && "$DUMP" "$T/f1" >"$T/f1.json"
ok $? "with TPROF_NRT_API_FILTER=nrt_execute the program runs and is recorded"
check "only the executions are recorded, and they still know their sets' bytes" nrtpy "$PY_REC"'
if set(by) != {"nrt_execute"} or len(calls) != 4: fail("calls %s" % {k: len(v) for k, v in by.items()})
for t in threads:
    ex = [c for c in calls if c["stream"] == img["streams"][t["tid"]]]
    if [(nrt(c)["name"], nrt(c)["nc"], nrt(c)["in_bytes"], nrt(c)["out_bytes"]) for c in ex] != \
       [(t["model"], t["nc"], t["in_bytes"], t["out_bytes"])] * 2: fail("executions %s" % [nrt(c) for c in ex])
' "$T/f1.json" "$T/f1.out"
rm -rf "$T/f2"
TPROF_NRT_API_FILTER_OUT=nrt_tensor,nrt_get "$INSPECT" -o "$T/f2" -- "$APP" -n 2 "$T/a.neff" "$T/b.neff" \
	>"$T/f2.out" 2>"$T/f2.err" && "$DUMP" "$T/f2" >"$T/f2.json"
ok $? "with TPROF_NRT_API_FILTER_OUT=nrt_tensor,nrt_get the program runs and is recorded"
check "no tensor call and no query is recorded; the rest is" nrtpy "$PY_REC"'
if any(k.startswith("nrt_tensor") or k.startswith("nrt_get") for k in by): fail("calls %s" % sorted(by))
for k in ("nrt_init", "nrt_load", "nrt_execute", "nrt_add_tensor_to_tensor_set", "nrt_unload", "nrt_close"):
    if not by[k]: fail("no %s: %s" % (k, sorted(by)))
' "$T/f2.json" "$T/f2.out"

# ---- a program that fails ------------------------------------------------------------------
neff "$T/bad.neff" future major=7
"$APP" "$T/a.neff" "$T/bad.neff" >"$T/bad-plain.out" 2>"$T/bad-plain.err"
prc=$?
"$INSPECT" -o "$T/bad" -- "$APP" "$T/a.neff" "$T/bad.neff" >"$T/bad-rec.out" 2>"$T/bad-rec.err"
rrc=$?
grep -v '^tprof-inspect: ' "$T/bad-rec.err" >"$T/bad-rec.err2"
check "a program failing in the runtime fails the same way under the recorder (status $prc)" \
	sh -c '[ "$1" -ne 0 ] && [ "$1" = "$2" ] && cmp -s "$3" "$4" && cmp -s "$5" "$6"' sh "$prc" "$rrc" \
	"$T/bad-plain.out" "$T/bad-rec.out" "$T/bad-plain.err" "$T/bad-rec.err2"
"$DUMP" "$T/bad" >"$T/bad.json"
check "and its failing load is recorded with NRT_UNSUPPORTED_NEFF_VERSION" nrtpy '
img = list(images(sys.argv[1]).values())[0]
ld = [c for c in img["calls"] if c["name"] == "nrt_load"]
if [(nrt(c)["name"], status(c)) for c in ld] != [("resnet", 0), ("future", 10)]: fail("%s" % [nrt(c) for c in ld])
' "$T/bad.json"

# ---- TPROF_CLOCK=monotonic: the same spans in nanoseconds directly -------------------------
rm -rf "$T/mono" "$T"/standin.*
TPROF_CLOCK=monotonic STANDIN_NRT_TRACE_FILE="$T/standin.%p" "$INSPECT" -o "$T/mono" -- \
	"$APP" -n 2 "$T/a.neff" "$T/b.neff" >"$T/mono.out" 2>"$T/mono.err" && "$DUMP" "$T/mono" >"$T/mono.json"
ok $? "with TPROF_CLOCK=monotonic the program runs and is recorded"
check "and every recorded execution holds the stand-in's, in CLOCK_MONOTONIC" nrtpy "$PY_REC"'
if img["props"].get("clock") != 2: fail("clock %s" % img["props"].get("clock"))
st = [e for e in trace(sys.argv[3]) if e["event"] == "exec"]
ex = by["nrt_execute"]
if len(st) != len(ex) or len(ex) != 4: fail("%d executions, %d in the stand-in" % (len(ex), len(st)))
for e in st:
    if not any(c["t0"] <= e["entry_ns"] and e["return_ns"] <= c["t1"] for c in ex): fail("no span holds %s" % e)
' "$T/mono.json" "$T/mono.out" "$T/standin.*"
finish

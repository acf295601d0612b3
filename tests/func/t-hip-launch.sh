#!/bin/sh
# A program compiled by hipcc launches kernels on 2 devices x 2 streams from 2 host threads
# (the stand-in runs them for a configured time): every launch has exactly one device span,
# on the track of its device and stream, starting no earlier than the launch, in order
# within its stream, with a flow arrow from the launch; the spans last what the stand-in
# was told, within 5%; the summary counts them as kernels.  Then 800 short kernels (and 4
# copies) back to back: the recorder's DEVICE records of a stream never overlap (float
# milliseconds round the times of consecutive ones differently), nor do the Chrome trace's
# spans of a track, and no arrow ends before it starts.
. "$(dirname "$0")/lib.sh"
need_hip hip-multi
plan 14

# Kernels of milliseconds, each stream opened by a 300 ms "hold" kernel: the kernels after it
# are queued before their stream gets to them, so their start events are reached when the
# kernel before them ends, not when a (possibly descheduled) host thread launches them.  On
# an idle stream the span would also hold the time from the start event to the launch.
export STANDIN_HIP_KERNEL_US="scale_a:2000,shift_b:3000,hold:300000"
out="$T/out"
"$INSPECT" -o "$out" -- "$APPS/hip-multi" 5 hold >"$T/stdout" 2>"$T/stderr"
ok $? "the program runs under tprof-inspect against the stand-in"
check "its output is unchanged" grep -qx 'launches=24' "$T/stdout"
"$ANALYZE" "$out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"

# Shared by the checks below: launches and device spans by correlation id.
cat >"$T/load.py" <<'EOF'
import json, sys, collections
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
         if e["ph"] == "M" and e["name"] == "thread_name"}
launches = [e for e in ev if e["ph"] == "X" and e["name"] == "hipLaunchKernel"]
spans = [e for e in ev if e["ph"] == "X" and e.get("cat") == "kernel"]
by_corr = collections.defaultdict(list)
for s in spans:
    by_corr[s["args"]["correlation"]].append(s)
def fail(msg):
    sys.exit(msg)
EOF
pycheck() { _s=$1; shift; "$PY" -c "exec(open('$T/load.py').read())
$_s" "$@"; }

check "24 launches, each with exactly one device span (and no span without a launch)" pycheck '
if len(launches) != 24: fail("%d launches" % len(launches))
corrs = [l["args"]["correlation"] for l in launches]
if len(set(corrs)) != 24: fail("correlation ids are not unique")
if sorted(corrs) != sorted(by_corr): fail("launches %s, spans %s" % (sorted(corrs), sorted(by_corr)))
if any(len(v) != 1 for v in by_corr.values()): fail("a launch with several spans")
' "$T/trace.json"

check "each span is on the track of its launch's device and stream; 4 tracks, 2 launching threads" pycheck '
tracks = set()
for l in launches:
    s = by_corr[l["args"]["correlation"]][0]
    if (s["args"]["device"], s["args"]["stream"]) != (l["args"]["device"], l["args"]["stream"]):
        fail("span %s vs launch %s" % (s["args"], l["args"]))
    if s["pid"] != l["pid"]: fail("span in another process")
    name = names.get((s["pid"], s["tid"]), "")
    if not name.startswith("GPU %d stream " % s["args"]["device"]): fail("span on track %r" % name)
    tracks.add((s["pid"], s["tid"], s["args"]["device"], s["args"]["stream"]))
if len(tracks) != 4 or len({t[:2] for t in tracks}) != 4: fail("tracks %s" % tracks)
if len({(l["pid"], l["tid"]) for l in launches}) != 2: fail("launches not from 2 threads")
if {l["args"]["device"] for l in launches} != {0, 1}: fail("not both devices")
' "$T/trace.json"

check "no span starts before its launch" pycheck '
for l in launches:
    s = by_corr[l["args"]["correlation"]][0]
    if s["ts"] < l["ts"]: fail("span at %s before launch at %s" % (s["ts"], l["ts"]))
' "$T/trace.json"

check "within each stream the spans follow launch order and do not overlap" pycheck '
per = collections.defaultdict(list)
for l in launches:
    s = by_corr[l["args"]["correlation"]][0]
    per[(s["pid"], s["tid"])].append((l["ts"], round(s["ts"] * 1000), round((s["ts"] + s["dur"]) * 1000)))
for k, v in per.items():
    v.sort()
    for a, b in zip(v, v[1:]):
        if b[1] < a[2]: fail("stream %s: %s overlaps %s" % (k, b, a))
' "$T/trace.json"

check "a flow arrow from each launch (bound inside the call) to its span" pycheck '
starts = {e["id"]: e for e in ev if e["ph"] == "s" and e.get("cat") == "launch"}
ends = {e["id"]: e for e in ev if e["ph"] == "f" and e.get("cat") == "launch"}
for l in launches:
    s = by_corr[l["args"]["correlation"]][0]
    fid = "%d:%d" % (l["pid"], l["args"]["correlation"])
    a, b = starts.get(fid), ends.get(fid)
    if not a or not b: fail("no flow %s" % fid)
    if (a["pid"], a["tid"]) != (l["pid"], l["tid"]) or not l["ts"] <= a["ts"] <= l["ts"] + l["dur"]:
        fail("flow start %s outside launch %s" % (a, l))
    if (b["pid"], b["tid"]) != (s["pid"], s["tid"]) or b.get("bp") != "e" or not s["ts"] <= b["ts"] <= s["ts"] + s["dur"]:
        fail("flow end %s not bound to span %s" % (b, s))
' "$T/trace.json"

check "span durations match the stand-in (2000 and 3000 us) within 5%" pycheck '
want = {"scale_a": 2000.0, "shift_b": 3000.0}
for s in spans:
    w = want.get(s["name"].split("(")[0])
    if w is None: continue   # the holds
    if abs(s["dur"] - w) > 0.05 * w: fail("%s lasted %.3f us, want %.0f" % (s["name"], s["dur"], w))
' "$T/trace.json"

"$ANALYZE" "$out" --summary >"$T/summary" 2>>"$T/analyze.err"
check "the summary's kernel table counts 10 of each kernel, with their mean times" py '
import re, sys
s = open(sys.argv[1]).read()
for name, us in (("scale_a", 2000), ("shift_b", 3000)):
    m = re.search(r"^\s*\S+ %\s+\S+ \S+\s+10\s+([\d.]+) (us|ms)\s.*\s" + name + r"\(", s, re.M)
    if not m: sys.exit("no row for %s:\n%s" % (name, s))
    v = float(m.group(1)) * (1000 if m.group(2) == "ms" else 1)
    if abs(v - us) > 0.05 * us: sys.exit("%s avg %s" % (name, v))
' "$T/summary"

# 200 kernels per stream, queued faster than they run: each starts when the one before ends,
# both times taken against the anchor through float milliseconds.
STANDIN_HIP_KERNEL_US="scale_a:20,shift_b:30" "$INSPECT" -o "$T/busy" -- "$APPS/hip-multi" 200 \
	>"$T/busy.out" 2>"$T/busy.err" && grep -qx 'launches=800' "$T/busy.out" && "$DUMP" "$T/busy" >"$T/busy.dump"
ok $? "800 short kernels back to back: recorded, and dump-records reads the profile"
check "the recorder: on each stream, in the order written, no DEVICE record starts before the one before ends" py '
import collections, json, sys
per = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["kind"] == "device":
        per[(r["pid"], r["dev"]["device"], r["dev"]["stream"])].append((r["t0"], r["dev"]["start_ns"], r["dev"]["end_ns"]))
bad = []
for k, v in per.items():
    v.sort()
    bad += ["%s: [%d, %d] after [%d, %d]" % (k, b[1], b[2], a[1], a[2]) for a, b in zip(v, v[1:]) if b[1] < a[2]]
if sum(len(v) for v in per.values()) != 804 or bad:
    sys.exit("%d records, %d overlaps: %s" % (sum(len(v) for v in per.values()), len(bad), bad[:5]))
' "$T/busy.dump"
"$ANALYZE" "$T/busy" --format chrome -o "$T/busy.json" 2>>"$T/analyze.err"
ok $? "tprof-analyze writes their Chrome trace"
check "no two spans on one device track overlap; no arrow ends before it starts" pyc '
d = load(sys.argv[1])
bad = overlaps(d) + backward(d)
if bad or len([e for e in events(d) if e["ph"] == "s"]) != 804:
    sys.exit("\n".join(bad[:10]) or "not 804 arrows")
' "$T/busy.json"
finish

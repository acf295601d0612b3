#!/bin/sh
# CPU samples (SI_SAMPLE) in every format, on items made by hand (unit/sample-items): stacks
# of 1, 3, 5 (two kernel frames) and 120 frames (a recursion among them), a stack repeated,
# two stacks that share their callers, a thread with nothing but samples, a sample without a
# stack; each format read by its own reader: python3 json (Chrome), protoc through
# tools/pftrace.py (Perfetto: every callstack interned once per sequence, resolving to the
# right frames in order; and again inside a range drawn after them, held back and written in
# time order), otf2-print (calling contexts, their unwind distances, the
# interrupt generator, inside the thread's regions), sqlite3 (samples, callsites, views).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 11

ITEMS="$top_builddir/tests/unit/sample-items"
for f in chrome perfetto otf2 sqlite; do
	"$ITEMS" $f "$T/out.$f" 2>"$T/$f.err" || { diag "$f: $(cat "$T/$f.err")"; echo fail >"$T/failed"; }
done
[ ! -e "$T/failed" ]
ok $? "the samples are written in every format"

# What was drawn: (thread, time, CPU, stack innermost first, kernel frames).
WANT='
import re, sys
deep = ["d%03d" % i if not 10 <= i < 20 else "rec" for i in range(120)]
WANT = [("main", 150, 2, ["vadd_host", "compute", "main"], 0),
        ("main", 200, 3, ["vadd_host", "compute", "main"], 0),
        ("main", 250, 1, ["do_syscall_64", "entry_SYSCALL_64", "write", "log", "main"], 2),
        ("main", 400, 0, ["main"], 0),
        ("main", 450, 2, ["other", "compute", "main"], 0),
        ("worker", 500, 5, deep, 0), ("worker", 600, 5, deep, 0), ("idle", 700, 4, [], 0)]
def differ(got, want):
    if got == want:
        return None
    return "got %d, want %d; first difference: %s" % (len(got), len(want),
        next(((g, w) for g, w in zip(got, want) if g != w), (got[len(want):], want[len(got):])))
'

py "$WANT"'
import json
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
ns = lambda x: int(round(x * 1000))
got = [(names[(e["pid"], e["tid"])], ns(e["ts"]), e["args"]["cpu"], e["args"]["stack"], e["args"]["kernel_frames"])
       for e in ev if e.get("cat") == "sample"]
bad = [e for e in ev if e.get("cat") == "sample" and (e["ph"] != "i" or e["s"] != "t" or
       e["name"] != (e["args"]["stack"][0] if e["args"]["stack"] else "[no stack]"))]
err = differ(got, WANT) or (bad and "not thread instants named by their innermost frame: %s" % bad[:2])
if err:
    sys.exit(err)
' "$T/out.chrome"
ok $? "Chrome: each sample a thread instant named by its innermost function, with its CPU and stack"

"$PY" "$top_srcdir/tests/tools/pftrace.py" samples "$T/out.perfetto" >"$T/pf.json" 2>"$T/pf.err"
ok $? "Perfetto: protoc decodes the trace; every callstack, frame, name and mapping resolves, once per sequence"
[ -s "$T/pf.err" ] && diag "$(head -5 "$T/pf.err")"

# pftrace.py samples' output against WANT
PF_SAMPLES='
import json
s = json.load(open(sys.argv[1]))
tid = {700: "main", 701: "worker", 702: "idle"}
got = [(tid.get(x["tid"]), x["ts"], x["cpu"], [f for f, m in x["stack"]],
        sum(m == "[kernel.kallsyms]" for f, m in x["stack"])) for x in s]
user = [m for x in s for f, m in x["stack"][:len(x["stack"])] if m not in ("[user]", "[kernel.kallsyms]")]
modes = [x["mode"] for x in s]
want_modes = ["MODE_KERNEL" if w[4] else "MODE_USER" for w in WANT]
err = differ(got, WANT) or (user and "mappings %s" % user) or (modes != want_modes and "modes %s" % modes)
if err:
    sys.exit(err)
'
py "$WANT$PF_SAMPLES" "$T/pf.json"
ok $? "Perfetto: PerfSamples on their threads (pid, tid of the thread descriptor), frames in order, kernel frames in [kernel.kallsyms]"

py '
import sys
import sys
sys.path.insert(0, sys.argv[2])
import pftrace
t = pftrace.load(sys.argv[1])
seqs = {x["seq"] for x in [dict(s) for s in t.samples]}
per = {sid: len(t.seqs[sid].interned["callstacks"]) for sid in seqs}
frames = {sid: len(t.seqs[sid].interned["frames"]) for sid in seqs}
# main: 4 stacks (one repeated) of 8 distinct frames; worker: 1 stack of 111 distinct frames
# (rec ten times, one frame); idle: none
if sorted(per.values()) != [0, 1, 4] or sorted(frames.values()) != [0, 8, 111]:
    sys.exit("callstacks per sequence %s, frames %s" % (per, frames))
' "$T/out.perfetto" "$top_srcdir/tests/tools"
ok $? "Perfetto: a repeated stack is interned once, a frame once per sequence however often it recurs"

# The same inside a range drawn after what it encloses (as the scene draws ranges): held back
# by the writer, then written in time order, new callstacks in packets of their own before.
"$ITEMS" perfetto-nested "$T/out.nested" 2>"$T/nested.err" &&
	"$PY" "$top_srcdir/tests/tools/pftrace.py" samples "$T/out.nested" >"$T/pfn.json" \
		2>"$T/pfn.err" &&
	py "$WANT$PF_SAMPLES" "$T/pfn.json" && py '
import sys
sys.path.insert(0, sys.argv[2])
import pftrace
t = pftrace.load(sys.argv[1])
got = sorted((e["type"], e["name"], e["ts"]) for e in t.events)
want = sorted([("TYPE_SLICE_BEGIN", "outer", 50), ("TYPE_SLICE_BEGIN", "hipLaunchKernel", 100),
               ("TYPE_SLICE_END", None, 300), ("TYPE_INSTANT", "checkpoint", 420),
               ("TYPE_SLICE_END", None, 480)])
if got != want:
    sys.exit("events %s" % got)
main = [(x["i"], x["ts"]) for x in t.samples if x["tid"] == 700]
main += [(e["i"], e["ts"]) for e in t.events]
ts = [x for _, x in sorted(main)]
if ts != sorted(ts):
    sys.exit("main: times in packet order %s" % ts)
' "$T/out.nested" "$top_srcdir/tests/tools"
ok $? "Perfetto, inside a range drawn after them: the same samples, main's packets in time order"
[ -s "$T/pfn.err" ] && diag "$(head -5 "$T/pfn.err")"

otf2_print "$T/out.otf2/traces.otf2" "$T/o.txt"
ok $? "OTF2: otf2-print reads the archive without complaint"
[ -s "$T/o.txt.err" ] && diag "$(head -5 "$T/o.txt.err")"

# the stack of each calling context, innermost first, from the definitions
CTX='
d = defs(sys.argv[1] + ".defs")
region = {int(i): (name(t), t) for k, i, t in d if k == "REGION"}
ctx = {}
for k, i, t in d:
    if k == "CALLING_CONTEXT":
        m = re.search(r"Region: \"[^\"]*\" <(\d+)>.*Parent: (UNDEFINED|\"[^\"]*\" <(\d+)>)", t)
        ctx[int(i)] = (int(m.group(1)), None if m.group(2) == "UNDEFINED" else int(m.group(3)))
def stack(c):
    out = []
    while c is not None:
        out.append(region[ctx[c][0]])
        c = ctx[c][1]
    return out
loc = {int(i): loc_what(t) for k, i, t in d if k == "LOCATION"}
T0 = 1700000000000001000
ev = events(sys.argv[1])
samples = [(l, t, x) for r, l, t, x in ev if r == "CALLING_CONTEXT_SAMPLE"]
'

pyo "$WANT$CTX"'
got = []
for l, t, x in samples:
    c = int(re.search(r"Calling Context: \"[^\"]*\" <(\d+)>", x).group(1))
    cpu = int(re.search(r"\(\"cpu\" <\d+>; UINT32; (\d+)\)", x).group(1))
    st = stack(c)
    got.append((loc[l], t - T0, cpu, [n for n, _ in st], sum("sampled kernel function" in r for _, r in st)))
want = [w for w in WANT if w[3]]
err = differ(got, want)
if err:
    sys.exit(err)
' "$T/o.txt"
ok $? "OTF2: a CallingContextSample per sample with a stack, its context the stack, kernel frames in regions of their own kind, the CPU as attribute"

pyo "$CTX"'
dist = [int(re.search(r"Unwind Distance: (\d+)", x).group(1)) for l, t, x in samples]
gen = [t for k, i, t in defs(sys.argv[1] + ".defs") if k == "INTERRUPT_GENERATOR"]
inside = [(r, t - T0) for r, l, t, x in ev if loc[l] == "main" and r in ("ENTER", "LEAVE", "CALLING_CONTEXT_SAMPLE")]
bad = nesting(ev)
# the distance: frames new since the thread'"'"'s sample before, plus one (the first: all, plus one)
if dist != [4, 1, 5, 1, 3, 121, 1] or len(gen) != 1 or "\"CPU sampling\"" not in gen[0] or \
        "Mode: TIME" not in gen[0] or "Exponent: -9" not in gen[0] or "Period: 50," not in gen[0] + "," or \
        inside[:5] != [("ENTER", 100), ("CALLING_CONTEXT_SAMPLE", 150), ("CALLING_CONTEXT_SAMPLE", 200),
                       ("CALLING_CONTEXT_SAMPLE", 250), ("LEAVE", 300)] or bad:
    sys.exit("distances %s, generator %s, main %s, nesting %s" % (dist, gen, inside, bad[:3]))
' "$T/o.txt"
ok $? "OTF2: unwind distances, the interrupt generator (period: the median interval), samples inside the call they interrupted"

py "$WANT"'
import sqlite3
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""
  WITH RECURSIVE up(sample, callsite, k) AS (
    SELECT id, callsite_id, 0 FROM samples
    UNION ALL SELECT up.sample, c.parent_id, k + 1 FROM up JOIN callsites c ON c.id = up.callsite
      WHERE c.parent_id IS NOT NULL)
  SELECT s.id, t.name, s.ts_ns, s.cpu, t.kind, n.function, n.frames,
    (SELECT group_concat(x.string, ",") FROM (SELECT st.string FROM up JOIN callsites c ON c.id = up.callsite
       JOIN strings st ON st.id = c.name_id WHERE up.sample = s.id ORDER BY up.k) x),
    (SELECT COUNT(*) FROM up JOIN callsites c ON c.id = up.callsite WHERE up.sample = s.id AND c.is_kernel)
  FROM samples s JOIN tracks t ON t.id = s.track_id JOIN named_samples n ON n.id = s.id ORDER BY s.id""").fetchall()
got = [(r[1], r[2], r[3], r[7].split(",") if r[7] else [], r[8]) for r in rows]
err = differ(got, WANT)
bad = [r for r in rows if r[4] != "thread" or r[5] != (r[7].split(",")[0] if r[7] else None) or
       (r[6] or 0) != (len(r[7].split(",")) if r[7] else 0)]
if err or bad:
    sys.exit(err or "named_samples: %s" % bad[:2])
' "$T/out.sqlite"
ok $? "SQLite: a row per sample on its thread track, its stack from its callsite up, named_samples with its function"

py '
import sys
import sqlite3
db = sqlite3.connect(sys.argv[1])
n = db.execute("SELECT COUNT(*), COUNT(DISTINCT IFNULL(parent_id, 0) || \",\" || name_id || \",\" || is_kernel) FROM callsites").fetchone()
orphans = db.execute("SELECT COUNT(*) FROM callsites c WHERE parent_id IS NOT NULL AND (parent_id >= id OR"
                     " depth != (SELECT depth + 1 FROM callsites p WHERE p.id = c.parent_id))").fetchone()[0]
f = {r[0]: r[1:] for r in db.execute("SELECT function, is_kernel, self_samples, total_samples FROM sample_functions")}
# main, compute, vadd_host; log, write, 2 kernel; other; 120 deep: 128 callsites
want = {"main": (0, 1, 5), "compute": (0, 0, 3), "vadd_host": (0, 2, 2), "rec": (0, 0, 2),
        "d000": (0, 2, 2), "do_syscall_64": (1, 1, 1), "entry_SYSCALL_64": (1, 0, 1)}
bad = {k: f.get(k) for k, v in want.items() if f.get(k) != v}
if n != (128, 128) or orphans or bad:
    sys.exit("callsites %s, bad parents %d, sample_functions %s" % (n, orphans, bad))
' "$T/out.sqlite"
ok $? "SQLite: a callsite per distinct frame and caller, parents first; sample_functions counts self and total samples"
finish

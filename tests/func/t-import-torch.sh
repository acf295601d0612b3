#!/bin/sh
# A PyTorch training loop (apps/python-torch.py: tprof.torch.profile around 6 steps, run by
# Debian's python3 with python3-torch) under tprof-inspect, and tprof-analyze on its profile
# directory with no option: PyTorch's trace, found there, is merged.  Every ProfilerStep#N
# must lie within 1 ms of tprof's step N (plus the time the program took to begin the step, or
# the median step's, which a busy machine stretches), on a framework track of the program's
# own process
# right under the loop's thread, and PyTorch's ops of that thread inside their step (but for
# those record_function makes for the step marker itself, just before the step).
. "$(dirname "$0")/lib.sh"
need_torch
plan 8

APP="$top_srcdir/tests/apps/python-torch.py"
export PYTHONDONTWRITEBYTECODE=1
"$INSPECT" -o "$T/out" -- "$SYS_PY" "$APP" "$T/facts.json" >"$T/run.out" 2>"$T/run.err"
rc=$?
ok $rc "the training loop runs under tprof-inspect"
[ $rc -eq 0 ] || diag "$(tail -n 5 "$T/run.err")"
"$ANALYZE" "$T/out" -v -f chrome -o "$T/merged.json" 2>"$T/an.err"
ok $? "tprof-analyze DIR merges PyTorch's trace with no option"
grep -Eq "imported $T/out/.*\.pt\.trace\.json: [0-9]+ events in [0-9]+ process\(es\); placed by its steps" \
	"$T/an.err"
ok $? "-v: the file found in the directory, placed by its steps"
grep -Eq "7 steps matched; .* residual [0-9.]+ us RMS" "$T/an.err"
ok $? "-v: steps 0 to 6 matched, with the residual"
grep -q "its process [0-9]* is python3" "$T/an.err"
ok $? "-v: the file's process is the recorded python3"

pyc '
f = json.load(open(sys.argv[2]))
d = load(sys.argv[1])
ev = events(d)
names = tracknames(d)
pn = procs(d)
steps = numbered(ev, "step ")
ps = numbered(ev, "ProfilerStep#")
fail = []
# Step N begins d_N after ProfilerStep#N, 0 <= d_N <= begin_us[N]; the import takes out the
# median of the d_N, which is at most the median of begin_us.
took = f["begin_us"]
mid = sorted(took)[len(took) // 2]
print("# each step took to begin, us: %s" % ", ".join("%.1f" % x for x in took))
if sorted(ps) != list(range(f["steps"] + 1)):
    fail.append("ProfilerStep numbers %s" % sorted(ps))
for n, e in sorted(ps.items()):
    if n not in steps:
        fail.append("no tprof step %d" % n)
    elif abs(e["ts"] - steps[n]["ts"]) > 1000 + max(took[n:n + 1] + [mid]):
        fail.append("ProfilerStep#%d at %.3f us, tprof step %d at %.3f us" % (n, e["ts"], n, steps[n]["ts"]))
tracks = {(e["pid"], e["tid"]) for e in ps.values()}
if len(tracks) != 1:
    fail.append("ProfilerSteps on %s" % tracks)
else:
    t = tracks.pop()
    label, pid = pn.get(t[0], ("?", None))
    if pid != f["pid"] or not names.get(t, "").endswith(" framework"):
        fail.append("steps on %r of %r (want pid %d)" % (names.get(t), label, f["pid"]))
    ops = [e for e in ev if e["ph"] == "X" and (e["pid"], e["tid"]) == t and e["name"].startswith("aten::")]
    # record_function("ProfilerStep#N") makes its handle (aten::zeros, empty, zero_) just
    # before the step it marks begins: those are the only ops allowed between steps (how
    # long before depends on the load of the machine: anywhere after the step before it)
    ends = sorted((e["ts"], e["ts"] + e["dur"]) for e in ps.values())
    gaps = [(ends[i - 1][1] if i else float("-inf"), ends[i][0]) for i in range(len(ends))]
    marker = lambda o: o["name"] in ("aten::zeros", "aten::empty", "aten::zero_") and any(
        a <= o["ts"] and o["ts"] + o["dur"] <= b for a, b in gaps)
    outside = [o["name"] for o in ops if not marker(o) and
               not any(s["ts"] <= o["ts"] and o["ts"] + o["dur"] <= s["ts"] + s["dur"] for s in ps.values())]
    if len(ops) < 10 or outside:
        fail.append("%d aten:: ops on the loop thread, outside every step: %s" % (len(ops), outside[:5]))
if fail:
    sys.exit("; ".join(fail[:6]))
' "$T/merged.json" "$T/facts.json" 2>"$T/check.err"
ok $? "every ProfilerStep#N within 1 ms (and the slack) of tprof step N, on the loop thread's framework track of the python3 process, aten:: ops inside their step"
[ -s "$T/check.err" ] && diag "$(cat "$T/check.err")"
"$ANALYZE" "$T/out" --summary >"$T/sum.txt" 2>/dev/null
ok $? "--summary of the merged profile"
grep -q "^Framework ops" "$T/sum.txt" && grep -Eq "aten::(mm|linear|addmm|mse_loss)" "$T/sum.txt"
ok $? "the summary's Framework ops table holds PyTorch's ops"
finish

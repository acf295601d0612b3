"""import-torch.py — the check of func/t-import-torch.sh on the Chrome trace tprof-analyze
wrote of apps/python-torch.py's profile directory (PyTorch's trace merged), with the facts
the program wrote (JSON: its pid, its steps, how long each step took to begin)."""
import json

from checklib import fail, main
from chrome_trace import events, load, numbered, procs, tracknames


def steps_placed(trace, facts):
    """Every ProfilerStep#N within 1 ms (and the slack) of tprof step N, on the loop thread's
    framework track of the python3 process, aten:: ops inside their step."""
    f = json.load(open(facts))
    d = load(trace)
    ev = events(d)
    names = tracknames(d)
    pn = procs(d)
    steps = numbered(ev, "step ")
    ps = numbered(ev, "ProfilerStep#")
    problems = []
    # Step N begins d_N after ProfilerStep#N, 0 <= d_N <= begin_us[N]; the import takes out
    # the median of the d_N, which is at most the median of begin_us.
    took = f["begin_us"]
    mid = sorted(took)[len(took) // 2]
    print("# each step took to begin, us: %s" % ", ".join("%.1f" % x for x in took))
    if sorted(ps) != list(range(f["steps"] + 1)):
        problems.append("ProfilerStep numbers %s" % sorted(ps))
    for n, e in sorted(ps.items()):
        if n not in steps:
            problems.append("no tprof step %d" % n)
        elif abs(e["ts"] - steps[n]["ts"]) > 1000 + max(took[n:n + 1] + [mid]):
            problems.append("ProfilerStep#%d at %.3f us, tprof step %d at %.3f us" %
                            (n, e["ts"], n, steps[n]["ts"]))
    tracks = {(e["pid"], e["tid"]) for e in ps.values()}
    if len(tracks) != 1:
        problems.append("ProfilerSteps on %s" % tracks)
    else:
        t = tracks.pop()
        label, pid = pn.get(t[0], ("?", None))
        if pid != f["pid"] or not names.get(t, "").endswith(" framework"):
            problems.append("steps on %r of %r (want pid %d)" % (names.get(t), label, f["pid"]))
        ops = [e for e in ev if e["ph"] == "X" and (e["pid"], e["tid"]) == t and
               e["name"].startswith("aten::")]
        # record_function("ProfilerStep#N") makes its handle (aten::zeros, empty, zero_) just
        # before the step it marks begins: those are the only ops allowed between steps (how
        # long before depends on the load of the machine: anywhere after the step before it)
        ends = sorted((e["ts"], e["ts"] + e["dur"]) for e in ps.values())
        gaps = [(ends[i - 1][1] if i else float("-inf"), ends[i][0]) for i in range(len(ends))]

        def marker(o):
            return o["name"] in ("aten::zeros", "aten::empty", "aten::zero_") and any(
                a <= o["ts"] and o["ts"] + o["dur"] <= b for a, b in gaps)

        outside = [o["name"] for o in ops if not marker(o) and
                   not any(s["ts"] <= o["ts"] and o["ts"] + o["dur"] <= s["ts"] + s["dur"]
                           for s in ps.values())]
        if len(ops) < 10 or outside:
            problems.append("%d aten:: ops on the loop thread, outside every step: %s" %
                            (len(ops), outside[:5]))
    if problems:
        fail("; ".join(problems[:6]))


main(globals())

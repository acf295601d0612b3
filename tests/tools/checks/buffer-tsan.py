"""buffer-tsan.py — the checks of func/t-buffer-tsan.sh on the Chrome trace of what
unit/test-buffer-tsan recorded, against what it printed (KIND=COUNT words)."""
import json

from checklib import fail, main


def every_event(trace, printed):
    """Every range, mark and counter sample the program counted is in the trace."""
    want = dict(kv.split("=") for kv in open(printed).read().split())
    ev = json.load(open(trace))["traceEvents"]
    got = {"ranges": sum(1 for e in ev if e["ph"] == "X" and e["cat"] == "range"),
           "marks": sum(1 for e in ev if e["ph"] == "i"),
           "counters": sum(1 for e in ev if e["ph"] == "C")}
    want = {k: int(v) for k, v in want.items()}
    if got != want:
        fail("got %s, want %s" % (got, want))


main(globals())

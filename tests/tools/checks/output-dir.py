"""output-dir.py — the checks of func/t-output-dir.sh on the Chrome trace that tprof-analyze
wrote of a profile recorded onto a disk that filled."""
import collections

from checklib import fail, main
from chrome_trace import events, load


def intact_marks(trace):
    """Full disk: the Chrome trace of what was kept is valid JSON with intact marks."""
    d = load(trace)
    c = collections.Counter(e["name"] for e in events(d) if e["ph"] == "i")
    if set(c) != {"tick"} or c["tick"] == 0:
        fail("marks: %s" % dict(c))


main(globals())

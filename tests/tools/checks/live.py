"""live.py — the checks of func/t-live.sh, on what tprof-analyze made of a profile read while
its process still ran and once it had ended: a JSON summary (on standard input) and Chrome
traces, whose marks count-marks prints."""
import collections
import json
import sys

from checklib import main
from chrome_trace import events, load


def live_no_final_flush():
    """The JSON summary on standard input says live, no final flush."""
    p = json.load(sys.stdin)["header"]["process_list"][0]
    if not (p["live"] is True and p["final_flush"] is False):
        sys.exit(1)


def count_marks(trace):
    """Not a check: prints the numbers of marks named "mark" and "busy" in a Chrome trace."""
    d = load(trace)
    c = collections.Counter(e["name"] for e in events(d) if e["ph"] == "i")
    print(c["mark"], c["busy"])


main(globals())

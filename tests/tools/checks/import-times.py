"""import-times.py — the checks of func/t-import-times.sh on what tprof-analyze --import made
of traces with extreme times and numbers: Chrome traces and JSON summaries."""
import json

from checklib import fail, main
from chrome_trace import events, load


def _causes(path):
    """The summary's header.import.causes as {cause: count}."""
    return {x["cause"]: x["count"] for x in json.load(open(path))["header"]["import"]["causes"]}


def reads_back(*paths):
    """Each file is JSON that reads back."""
    for p in paths:
        json.load(open(p))


def one_member_bad(path):
    c = _causes(path)
    if c.get("member_bad") != 1:
        fail(str(c))


def two_time_range(path):
    c = _causes(path)
    if c.get("time_range") != 2:
        fail(str(c))


def exact_numbers(path):
    """Numbers beyond 64-bit integers are written exactly as they were read."""
    ev = events(load(path))
    late = [e for e in ev if e["name"] == "late"][0]["args"]
    c = sorted(e["args"]["value"] for e in ev if e["ph"] == "C")
    ok = (late["big"] == 1e300 and late["small"] == -1e300 and late["edge"] == 9.3e18 and
          late["int"] == -9223372036854775808 and c == [-1e300, 1.8446744073709552e19, 1e300])
    if not ok:
        fail("%s %s" % (late, c))


def far_slices(path, offset):
    """The slices near +-2^63 ns keep their order, the one between its duration (offset: the
    --import-offset given, or empty)."""
    d = {e["name"]: e for e in events(load(path))}
    e, m, l = d["early"], d["mid"], d["late"]
    if not (e["dur"] == 5 and m["dur"] == 1000 and e["ts"] < m["ts"] < l["ts"]):
        fail("offset %s: %s" % (offset or "none", [e, m, l]))


def only_time_range(path, count):
    """The causes are count slices held at the range's ends, nothing else."""
    c = _causes(path)
    if c != {"time_range": int(count)}:
        fail(str(c))


def held_to_end(path):
    """The slice lasts to the end of the range, the slices inside it as they were."""
    d = {e["name"]: e for e in events(load(path))}
    l, i, a = d["long"], d["inner"], d["after"]
    if not (l["dur"] > 2.3e15 and (i["ts"] - l["ts"], i["dur"]) == (10, 5) and
            (a["ts"] - l["ts"], a["dur"]) == (30, 5)):
        fail(str([l, i, a]))


def undated(path):
    """The summary's header says it has no date."""
    dated = json.load(open(path))["header"]["dated"]
    if dated is not False:
        fail("header.dated is %r" % (dated,))


main(globals())

"""signals.py — the checks of func/t-signals.sh on the JSON summary of apps/signals's profile,
given the handlers and loops the program said it ran."""
import json

from checklib import fail, main


def _tables(path):
    """The summary, its marks {name: count} and its ranges {name: calls}."""
    d = json.load(open(path))
    marks = {r["name"]: r["count"] for r in d["marks"]["rows"]}
    ranges = {r["name"]: r["calls"] for r in d["ranges"]["rows"]}
    return d, marks, ranges


def handler_records(path, handlers):
    """Each handler made 3 records (mark, push, pop): kept + counted as reentered == 3 * H,
    and nothing else lost."""
    d, marks, ranges = _tables(path)
    h = int(handlers)
    dr = d["header"]["dropped"]
    lost = dr.get("reentered", 0)
    kept = marks.get("signal", 0) + 2 * ranges.get("handler", 0)
    print("# handlers %d: %d signal marks, %d handler ranges, %d counted as lost (%d in all "
          "lost)" % (h, marks.get("signal", 0), ranges.get("handler", 0), lost, dr["total"]))
    ok = kept + lost == 3 * h and marks.get("signal", 0) <= h and ranges.get("handler", 0) <= h
    ok = ok and dr["total"] == lost
    if not ok:
        fail("%d kept and %d lost of %d handler records" % (kept, lost, 3 * h))


def main_loop(path, loops):
    """The main loop's ranges and marks are all there, none cut or unmatched."""
    d, marks, ranges = _tables(path)
    loops = int(loops)
    print("# %d loops: %d work ranges, %d main marks" %
          (loops, ranges.get("work", 0), marks.get("main", 0)))
    if not (ranges.get("work") == loops and marks.get("main") == loops and
            d["header"].get("cut", {"total": 0})["total"] == 0 and
            d["header"]["skipped"]["unmatched_pops"] == 0):
        fail("the main loop's records are not all there")


main(globals())

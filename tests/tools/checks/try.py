"""try.py — the check of func/t-try.sh on the Chrome trace (gzipped) that scripts/try.sh
wrote for one runtime."""
import collections

from checklib import fail, main
from chrome_trace import events, load


def chrome_events(path, *wants):
    """A Chrome trace with at least 100 events, and at least N of each PH:CATEGORY:N asked
    for."""
    ev = events(load(path))
    c = collections.Counter((e["ph"], e.get("cat", "")) for e in ev)
    if len(ev) < 100:
        fail("%d events" % len(ev))
    for w in wants:
        ph, cat, n = w.split(":")
        if c[(ph, cat)] < int(n):
            fail("%d events %s of category %s, not %s or more" % (c[(ph, cat)], ph, cat, n))


main(globals())

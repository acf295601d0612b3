"""devtime-anchor.py — the check of func/t-devtime-anchor.sh on the records of a profile
(tools/dump-records: one JSON object a line) beside what unit/test-devtime-anchor printed of
where the operation's events really were (start_ns=N end_ns=N)."""
import json

from checklib import fail, main


def where_events_were(records, truth, scenario):
    """The DEVICE record is where the operation's events were, to within 1 ms; prints by how
    much it is off, as a TAP comment."""
    want = dict((k, int(v)) for k, v in (kv.split("=") for kv in open(truth).read().split()))
    dev = [r for r in (json.loads(l) for l in open(records)) if r["kind"] == "device"]
    if len(dev) != 1 or dev[0]["arg"] != 7:
        fail("device records: %s" % dev)
    d = dev[0]["dev"]
    err = (d["start_ns"] - want["start_ns"], d["end_ns"] - want["end_ns"])
    print("# %s: off by %+d ns at the start, %+d ns at the end" % (scenario, err[0], err[1]))
    if max(abs(x) for x in err) > 1000000:
        fail("recorded [%d, %d], the events were at [%d, %d]" % (
            d["start_ns"], d["end_ns"], want["start_ns"], want["end_ns"]))


main(globals())

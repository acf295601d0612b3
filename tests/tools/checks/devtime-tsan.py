"""devtime-tsan.py — the check of func/t-devtime-tsan.sh on the records of a profile
(tools/dump-records: one JSON object a line) beside what unit/test-devtime-tsan printed of
the operations it ended (ops=N corr_sum=N)."""
import json

from checklib import fail, main


def one_record_per_op(records, truth):
    """One DEVICE record per operation ended, none for those given up, none lost."""
    want = dict(kv.split("=") for kv in open(truth).read().split())
    recs = [json.loads(l) for l in open(records)]
    dev = [r for r in recs if r["kind"] == "device"]
    drops = [r for r in recs if r["kind"] == "drop"]
    if len(dev) != int(want["ops"]) or sum(r["arg"] for r in dev) != int(want["corr_sum"]):
        fail("%d records, corr sum %d; want %s" % (len(dev), sum(r["arg"] for r in dev), want))
    if len(set(r["arg"] for r in dev)) != len(dev):
        fail("an operation written twice")
    bad = [r for r in dev
           if r["dev"]["end_ns"] < r["dev"]["start_ns"] or r["dev"]["bytes"] != r["arg"]]
    if bad:
        fail("bad records %s" % bad[:3])
    if drops:
        fail("drops %s" % drops)


main(globals())

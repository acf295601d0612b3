"""perfetto.py — the checks of func/t-perfetto.sh on what `tools/pftrace.py compare` printed
of a Perfetto trace against its Chrome twin (the JSON summary, TAG.sum) and, for
nested-order, on the Perfetto trace itself (TAG.pftrace)."""
import collections
import json

from checklib import fail, main
import pftrace


def _summary(path):
    with open(path) as f:
        return json.load(f)


def every_message_arrow(summary):
    """The arrows themselves: one per message, plus the collectives'."""
    s = _summary(summary)
    if s["flows"] < 10:
        fail("only %d arrows" % s["flows"])


def steps_counts(summary):
    """steps: 10 counter samples, 20 marks, 10 steps and 13 ranges."""
    s = _summary(summary)
    if (s["counters"], s["instants"], s["slices"]) != (10, 20, 23):
        fail("found %s" % s)


def nested_order(trace, summary):
    """Ranges nested two deep with a mark inside, on 4 threads: the scene draws a range when
    it closes, after what it encloses; the writer holds a thread's packets back while ranges
    are open there and writes them in time order once the outermost closes (its names in
    packets of their own before them), so that every packet's time is a delta from the one
    before on its sequence, never a full timestamp."""
    s = _summary(summary)
    if s["slices"] < 1600 or s["instants"] != 800:
        fail("found %s" % s)
    flat = pftrace.expand(open(trace, "rb").read())[0]
    full = back = 0
    for p in pftrace.parse_text(pftrace.protoc_decode(flat)):
        if not p.has("track_event"):
            continue
        full += p.has("timestamp_clock_id")
    t = pftrace.load(trace)
    per = collections.defaultdict(list)
    for e in t.events:
        per[e["track"]].append((e["i"], e["ts"]))
    for evs in per.values():
        ts = [x for _, x in sorted(evs)]
        back += sum(a > b for a, b in zip(ts, ts[1:]))
    if full or back:
        fail("%d full timestamps, %d packets earlier than the one before" % (full, back))


main(globals())

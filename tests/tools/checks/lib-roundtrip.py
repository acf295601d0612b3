"""lib-roundtrip.py — the check of func/lib-roundtrip.sh (the round trip of the tests' Chrome
traces, TPROF_TEST_ROUNDTRIP) on what tools/pftrace.py check printed of the Perfetto
conversion (JSON counts) and the Chrome conversion of the same import."""
import collections
import decimal
import json

from checklib import fail, main


def perfetto_counts(pf, chrome):
    """The Perfetto conversion holds the Chrome one's slices, instants, counter samples and
    arrows, and as many arrow ends in no slice; times read as exact decimals (a double holds
    no nanoseconds beyond 2^53 ns, 104 days)."""
    p = json.load(open(pf))
    d = json.load(open(chrome), parse_float=decimal.Decimal)
    ev = d["traceEvents"] if isinstance(d, dict) else d
    c = collections.Counter(e["ph"] for e in ev)
    ends = {e["id"] for e in ev if e["ph"] == "s"} & {e["id"] for e in ev if e["ph"] == "f"}
    spans = collections.defaultdict(list)
    for e in ev:
        if e["ph"] == "X":
            spans[e["pid"], e["tid"]].append((e["ts"], e["ts"] + e.get("dur", 0)))
    outside = sum(1 for e in ev if e["ph"] in "sf" and e["id"] in ends and
                  not any(a <= e["ts"] <= z for a, z in spans[e["pid"], e["tid"]]))
    want = {"slices": c["X"] + c["b"], "instants": c["i"], "counters": c["C"],
            "flows": len(ends), "unanchored": outside}
    got = {k: p[k] for k in want}
    if got != want:
        fail("Perfetto %s, Chrome %s" % (got, want))


main(globals())

"""sample.py — the checks of func/t-sample.sh on what tprof-analyze and tools/dump-records
made of profiles sampled from /proc: the JSON summary beside the Chrome trace, and the
records (one JSON object a line)."""
import json

from checklib import fail, main


def numbered(summary, trace):
    """tprof-inspect's child before its exec is followed but not sampled: it takes no
    number, so the processes shown are 1, 2, ... in the summary and the Chrome trace
    alike."""
    s = json.load(open(summary))["header"]["process_list"]
    c = json.load(open(trace))["traceEvents"]
    shown = sorted(e["pid"] for e in c if e["ph"] == "M" and e["name"] == "process_name")
    idx = [p["index"] for p in s]
    if idx != list(range(1, len(s) + 1)) or shown != idx:
        fail("summary %s, Chrome %s" % (idx, shown))


def mem_at_7hz(records):
    """TPROF_SAMPLE=mem TPROF_SAMPLE_HZ=7: the profile's properties say a system image of
    mem at 7 Hz (RECORDS: /dev/stdin when piped)."""
    p = {r["name"]: r["value"] for r in map(json.loads, open(records)) if r["kind"] == "prop"}
    if not (p.get("sample") == "mem" and p.get("sample_hz") == 7 and p.get("counter_hz") == 7):
        fail("properties %s" % p)


main(globals())

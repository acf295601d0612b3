# chrome-check.py — what tools/chrome-count prints for a Chrome trace-event JSON file, computed
# independently with python3's json module (numbers as Decimal: exact), for func/t-chrome-read.sh
# to compare.  A bare array without its closing ']' is read as Chrome reads it.
#   python3 chrome-check.py [-e] FILE
import gzip
import json
import sys
from decimal import ROUND_HALF_UP, Decimal

PHASES = "XBEiIRCbenstfMONDP"
MASK = (1 << 64) - 1


def fnv(s):
    h = 0xcbf29ce484222325
    for b in s.encode("utf-8"):
        h = ((h ^ b) * 0x100000001b3) & MASK
    return "%016x" % h


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    text = data.decode("utf-8")
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        t = text.rstrip().rstrip(",")
        if not t.lstrip().startswith("["):
            raise
        return json.loads(t + "]", parse_float=Decimal)


def present(e, k):
    return k in e and e[k] is not None


def ns(v):
    return int((Decimal(v) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def ref(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return "s" + fnv(v)
    return "n%d" % int(v)


def str_or_dash(v):
    return fnv(v) if isinstance(v, str) else "-"


def ident(e):
    """(kind, text) of the event's id, as the reader gives it."""
    def text(v):
        return v if isinstance(v, str) else str(v)
    if present(e, "id"):
        return "p", text(e["id"])
    id2 = e.get("id2")
    if isinstance(id2, dict):
        for k in id2:
            if k in ("local", "global"):
                return k[0], text(id2[k])
    return "-", None


def line(e):
    ph = e.get("ph")
    ph = ph if isinstance(ph, str) and len(ph) == 1 else "-"
    ts = str(ns(e["ts"])) if present(e, "ts") else "-"
    dur = str(ns(e["dur"])) if present(e, "dur") else "-"
    kind, idt = ident(e)
    s = e.get("s")
    s = s[0] if isinstance(s, str) and s[:1] in ("g", "p", "t") else "-"
    bp = "e" if e.get("bp") == "e" else "-"
    args = e.get("args")
    nargs = str(len(args)) if isinstance(args, dict) else "-"
    return "ev %s %s %s %s %s %s %s %s %s %s %s %s" % (
        ph, ref(e.get("pid")), ref(e.get("tid")), ts, dur, kind,
        fnv(idt) if idt is not None else "-", str_or_dash(e.get("name")),
        str_or_dash(e.get("cat")), s, bp, nargs)


def main():
    lines = sys.argv[1] == "-e"
    d = load(sys.argv[-1])
    evs = d["traceEvents"] if isinstance(d, dict) else d
    out = []
    counts = {}
    ts_sum = dur_sum = ids = 0
    for e in evs:
        ph = e.get("ph")
        ph = ph if isinstance(ph, str) and len(ph) == 1 and ph in PHASES else "?"
        counts[ph] = counts.get(ph, 0) + 1
        if present(e, "ts"):
            ts_sum += ns(e["ts"])
        if present(e, "dur"):
            dur_sum += ns(e["dur"])
        if ident(e)[1] is not None:
            ids += 1
        if lines:
            out.append(line(e))
    out.append("form %s" % ("object" if isinstance(d, dict) else "array"))
    out.append("events %d" % len(evs))
    for p in PHASES + "?":
        if counts.get(p):
            out.append("ph %s %d" % (p, counts[p]))
    out.append("ts_sum %d" % (ts_sum & MASK))
    out.append("dur_sum %d" % (dur_sum & MASK))
    out.append("ids %d" % ids)
    if isinstance(d, dict):
        if "baseTimeNanoseconds" in d:
            out.append("base_time_ns %d" % d["baseTimeNanoseconds"])
        di = d.get("distributedInfo")
        if isinstance(di, dict):
            out.append("rank %d" % di.get("rank", -1))
            out.append("world_size %d" % di.get("world_size", -1))
            out.append("backend %s" % di.get("backend", "-"))
        if isinstance(d.get("deviceProperties"), list):
            out.append("device_count %d" % len(d["deviceProperties"]))
        for key, name in (("displayTimeUnit", "display_time_unit"), ("traceName", "trace_name"),
                          ("schemaVersion", "schema_version")):
            if key in d:
                out.append("%s %s" % (name, d[key]))
        if isinstance(d.get("tprof"), dict):
            out.append("tprof_host %s" % d["tprof"].get("host", "-"))
    print("\n".join(out))


main()

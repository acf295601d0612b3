"""chrome_trace.py — helpers for the end-to-end tests' checks of Chrome traces, which the
checkers of tests/tools/checks import.

  load(path)    the parsed trace (json module; gzip when the name ends in .gz)
  events(d)     every event that is not metadata
  procs(d)      {chrome pid: (label, real pid)} from the process_name metadata
  tracknames(d) {(chrome pid, tid): name} from the thread_name metadata
  numbered(ev, prefix) {N: the X event named PREFIX followed by N} ("step ", "ProfilerStep#")
  ns(x)         a Chrome microsecond value as integer nanoseconds
  overlaps(d)   two device spans on one track (a GPU stream, a NeuronCore lane) that overlap
  backward(d)   flow arrows that end before they start, or lack an end
  calls(d, cat) {(chrome pid, tid): [X events of category cat]}
  enclosing(by, e) the event of by (calls) on e's track that holds e's time, or None
  flows(d, name) ({id: "s" event}, {id: "f" event}) of the flows called name
"""
import collections, gzip, json, re, sys
def load(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
def events(d):
    return [e for e in d["traceEvents"] if e["ph"] != "M"]
def procs(d):
    out = {}
    for e in d["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name":
            m = re.search(r"pid (-?\d+)\)", e["args"]["name"])
            out[e["pid"]] = (e["args"]["name"], int(m.group(1)) if m else None)
    return out
def tracknames(d):
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in d["traceEvents"]
            if e["ph"] == "M" and e["name"] == "thread_name"}
def numbered(ev, prefix):
    return {int(e["name"][len(prefix):]): e for e in ev
            if e["ph"] == "X" and e["name"].startswith(prefix) and e["name"][len(prefix):].isdigit()}
def ns(x):
    return int(round(x * 1000))
DEVICE_CATS = ("kernel", "copy", "memset", "graph", "collective", "device", "neuroncore")
def overlaps(d):
    per = collections.defaultdict(list)
    for e in events(d):
        if e["ph"] == "X" and e.get("cat") in DEVICE_CATS:
            per[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
    bad = []
    for k, v in per.items():
        v.sort()
        bad += ["track %s: %s at [%d, %d] overlaps %s at [%d, %d]" % (k, b[2], b[0], b[1], a[2], a[0], a[1])
                for a, b in zip(v, v[1:]) if b[0] < a[1]]
    return bad
def backward(d):
    ends = {}
    for e in events(d):
        if e["ph"] == "f":
            ends[(e["cat"], e["name"], e["id"])] = e
    bad = []
    for e in events(d):
        if e["ph"] == "s":
            f = ends.get((e["cat"], e["name"], e["id"]))
            if f is None or ns(f["ts"]) < ns(e["ts"]):
                bad.append("%s arrow %s: from %s to %s" % (e["name"], e["id"], e["ts"], f and f["ts"]))
    return bad
def calls(d, cat):
    by = collections.defaultdict(list)
    for e in events(d):
        if e["ph"] == "X" and e.get("cat") == cat:
            by[(e["pid"], e["tid"])].append(e)
    return by
def enclosing(by, e):
    t = ns(e["ts"])
    for c in by[(e["pid"], e["tid"])]:
        if ns(c["ts"]) <= t <= ns(c["ts"]) + ns(c["dur"]):
            return c
    return None
def flows(d, name):
    s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == name}
    f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == name}
    return s, f

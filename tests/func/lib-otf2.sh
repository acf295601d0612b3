# lib-otf2.sh — sourced by the OTF2 tests after lib.sh: otf2-print (found by configure) and
# Python helpers that read what it prints.
OTF2PRINT="${OTF2_PRINT:-no}"
[ "$OTF2PRINT" != no ] && [ -x "$OTF2PRINT" ] ||
	skip_all "otf2-print not found (configure looks for it; on Debian: apt-get install otf2-tools)"

# otf2_print ARCHIVE OUT: the events (OUT) and global definitions (OUT.defs) as otf2-print
# prints them; fails when otf2-print fails or warns about anything (OUT.err holds what it
# said).
otf2_print() {
	"$OTF2PRINT" "$1" >"$2" 2>"$2.err" && "$OTF2PRINT" -G "$1" >"$2.defs" 2>>"$2.err" &&
		! grep -q . "$2.err"
}

# Python helpers, put in front of the script by pyo:
#   events(path)   [(record, location, time, text)] from otf2-print's event listing (text
#                  with the record's attributes, when it has any)
#   defs(path)     [(definition, id, text)] from otf2-print -G
#   nesting(ev)    problems with Enter/Leave nesting or time order, per location
#   regions(ev)    [(location, name, enter time, leave time)] of every region, as it closes
#   device_spans(path, chrome)  problems with the regions of the accelerator streams: one
#                  entered on its stream before the one before it left, or the lot not the
#                  device spans of the Chrome trace (JSON file) of the same profile
#   name(text)     the first quoted name in a record's text
#   loc_what(text) a LOCATION's name less its process ("rank 2: ", "pid 12: ") and its
#                  thread's tid (" (tid 12)") or repeat number (" #2"): its track's name
#                  in the Chrome trace
PY_OTF2='
import collections, re, sys
REC = re.compile(r"^([A-Z][A-Z0-9_]+)\s+(\d+)\s+(\d+)\s*(.*)$")
DEF = re.compile(r"^([A-Z][A-Z0-9_]+)\s+(\d*)\s+(.*)$")
def events(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = REC.match(line)
            if m:
                out.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
            elif out and line.lstrip().startswith("ADDITIONAL ATTRIBUTES:"):
                r, l, t, x = out[-1]
                out[-1] = (r, l, t, x + " " + line.strip())
    return out
def defs(path):
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = DEF.match(line)
            if m and not line.startswith("Definition"):
                out.append((m.group(1), m.group(2), m.group(3)))
    return out
def name(text):
    m = re.search(r"\"([^\"]*)\"", text)
    return m.group(1) if m else None
def loc_what(text):
    n = re.sub(r"^(rank -?\d+|pid -?\d+( on [^:]*)?|MPI): ", "", name(text))
    return re.sub(r"( \(tid -?\d+\)| #\d+)$", "", n)
def regions(ev):
    out = []
    stack = collections.defaultdict(list)
    for rec, loc, t, text in ev:
        if rec == "ENTER":
            stack[loc].append((name(text), t))
        elif rec == "LEAVE" and stack[loc]:
            n, t0 = stack[loc].pop()
            out.append((loc, n, t0, t))
    return out
def device_spans(path, chrome):
    import json
    locs = {int(i) for k, i, t in defs(path + ".defs") if k == "LOCATION" and "ACCELERATOR_STREAM" in t}
    per = collections.defaultdict(list)
    for loc, n, a, b in regions(events(path)):
        if loc in locs:
            per[loc].append((a, b, n))
    bad, got = [], []
    for loc, v in per.items():
        v.sort()
        bad += ["stream location %d: %s at %d before %s left at %d" % (loc, y[2], y[0], x[2], x[1])
                for x, y in zip(v, v[1:]) if y[0] < x[1]]
        got += [(a, b) for a, b, _ in v]
    with open(chrome) as f:
        d = json.load(f)
    t0 = d["otherData"]["trace_start_realtime_ns"]
    ns = lambda x: int(round(x * 1000))
    want = [(t0 + ns(e["ts"]), t0 + ns(e["ts"]) + ns(e["dur"])) for e in d["traceEvents"] if e["ph"] == "X"
            and e.get("cat") in ("kernel", "copy", "memset", "graph", "collective", "device")]
    if sorted(got) != sorted(want):
        bad.append("%d regions on streams, %d device spans in Chrome, %d differ" % (
            len(got), len(want), len(set(got) ^ set(want))))
    return bad
def nesting(ev):
    bad = []
    stack = collections.defaultdict(list)
    last = {}
    for rec, loc, t, text in ev:
        if t < last.get(loc, 0):
            bad.append("location %d: time goes back at %s %s" % (loc, rec, text))
        last[loc] = t
        if rec == "ENTER":
            stack[loc].append(name(text))
        elif rec == "LEAVE":
            top = stack[loc].pop() if stack[loc] else None
            if top != name(text):
                bad.append("location %d: leaves %s, but %s is open" % (loc, name(text), top))
    for loc, s in stack.items():
        if s:
            bad.append("location %d: never left %s" % (loc, s))
    return bad
'
# pyo SCRIPT ARGS...: like py, with the helpers above defined.
pyo() { _s=$1; shift; "$PY" -c "$PY_OTF2$_s" "$@"; }

# split-check.py — checks a trace written with --split against the same trace written whole.
# Usage: split-check.py FULL INDEX [--size BYTES] [--break CHECK]
# Prints one line per check, "PASS name" or "FAIL name: why", and exits 1 when one failed:
#   parse      the index and every part it lists parse as JSON; no part is missing
#   union      the parts' events (all but metadata) are the whole trace's, none lost or repeated
#   flows      every arrow of a part has both ends in it, and its end binds to a slice there
#              when it binds to one in the whole trace
#   meta       each part names (process_name, process_sort_index) every process it uses, and
#              (thread_name, thread_sort_index) every track of it the whole trace names
#   index      the parts' ranges follow each other without a gap from the trace's start to
#              its end; their counts and sizes are those of the files
#   placement  every item lies in its part's range by its key (a slice's end, an instant's
#              time), but those the index counts as late (before) or ending after it
#   steps      the step slices of each part are the steps the index gives it
#   size       (with --size) every part's events, uncompressed and without the metadata
#              written at its end, come to at most BYTES + 15 % + 2 kB not counting the
#              arrows from launches before its range, and but for the last part to at
#              least half of BYTES: a part is cut when it reaches the size, then still gets
#              what reaches the analyzer late for its range: arrows of messages matched
#              after the cut (100 bytes an end), device spans recorded later, NCCL spans
#              held until their collective is known; then its metadata.  The arrows from
#              before are as many as the kernels queued at its start, more on a busy
#              machine, whatever the size
# --break CHECK changes what was read so that CHECK must fail: the test that each can.
import collections, gzip, json, os, sys

def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)

def content_size(path, start_ns=None):
    """The bytes of a part but for its metadata (one event a line, "M" events at the end)
    and, given the part's start, the arrows from before it (both ends): a kernel's arrow is
    drawn in the kernel's part, so a part holds one for each launch of an earlier part whose
    kernel ends in it, as many as the device had queued at the cut, whatever the size."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    lines = raw.split(b"\n")
    meta = sum(len(l) + 1 for l in lines if l.startswith(b'{"ph":"M"'))
    back = 0
    if start_ns is not None:
        ends = {}
        for l in lines:
            if l.startswith((b'{"ph":"s"', b'{"ph":"f"')):
                e = json.loads(l.rstrip(b","))
                ends.setdefault(flow_id(e), []).append((e["ph"], ns(e["ts"]), len(l) + 1))
        for v in ends.values():
            if any(ph == "s" and t < start_ns for ph, t, _ in v):
                back += sum(n for _, _, n in v)
    return len(raw) - meta - back

def ns(x):
    return int(round(x * 1000))

def events(d):
    return [e for e in d["traceEvents"] if e["ph"] != "M"]

def is_sample(e):
    """A CPU sample: an instant whose arguments are its CPU and stack."""
    return e["ph"] == "i" and "stack" in e.get("args", {}) and "cpu" in e.get("args", {})

def canon(e):
    return json.dumps(e, sort_keys=True)

def x_end(e):
    return ns(e["ts"]) + ns(e.get("dur", 0))

def key(e, asyncs):
    """What decides an item's part: a slice's end, an instant's time (+1 ns: at a boundary,
    the part after it); an async range's end (its "e")."""
    t0 = ns(e["ts"])
    if e["ph"] == "X":
        t1 = x_end(e)
        return t1 if t1 > t0 else t0 + 1
    if e["ph"] == "b":
        t1 = asyncs.get((e["pid"], e["id"], e["name"]), t0)
        return t1 if t1 > t0 else t0 + 1
    return t0 + 1

class Tracks:
    """Slices by track, to find the one an arrow's end binds to."""
    def __init__(self, evs):
        self.by = collections.defaultdict(list)
        for e in evs:
            if e["ph"] == "X":
                self.by[(e["pid"], e["tid"])].append((ns(e["ts"]), x_end(e)))
    def binds(self, f):
        t = ns(f["ts"])
        return any(a <= t <= b for a, b in self.by.get((f["pid"], f["tid"]), ()))

def flow_id(e):
    return (e["cat"], e["name"], str(e["id"]))

class Split:
    def __init__(self, full, index, brk):
        self.full = load(full)
        self.index_path = index
        self.index = load(index)
        self.dir = os.path.dirname(index)
        self.bad = []
        self.parts = []
        for p in self.index["parts"]:
            try:
                self.parts.append(load(os.path.join(self.dir, p["file"])))
            except (OSError, ValueError) as e:
                self.bad.append("%s: %s" % (p["file"], e))
                self.parts.append({"traceEvents": []})
        self.brk = brk
        if brk:
            self.breaks(brk)

    def breaks(self, what):
        """Mutations, each of which one check must notice."""
        ps, ix = self.parts, self.index["parts"]
        big = max(range(len(ps)), key=lambda i: len(events(ps[i])))
        evs = ps[big]["traceEvents"]
        if what == "parse":        # a part that is not there
            self.bad.append("%s: gone" % ix[-1]["file"])
            ix[-1]["file"] += ".gone"
        elif what == "union":      # an event repeated in another part
            e = next(e for e in evs if e["ph"] == "X")
            ps[(big + 1) % len(ps)]["traceEvents"].append(dict(e))
        elif what == "flows":      # an arrow's end moved to another part
            f = next(e for p in ps for e in p["traceEvents"] if e["ph"] == "f")
            for p in ps:
                if f in p["traceEvents"]:
                    p["traceEvents"].remove(f)
                    other = ps[(ps.index(p) + 1) % len(ps)]
                    other["traceEvents"].append(f)
                    break
        elif what == "meta":       # a thread's name lost
            m = next(e for e in evs if e["ph"] == "M" and e["name"] == "thread_name" and
                     any(x["ph"] == "X" and (x["pid"], x["tid"]) == (e["pid"], e["tid"]) for x in evs))
            evs.remove(m)
        elif what == "index":      # a gap between two parts
            ix[-1]["start_ns"] += 1000
        elif what == "placement":  # a slice put in the part before its own
            i = next(i for i in range(1, len(ps)) if any(e["ph"] == "X" for e in events(ps[i])))
            e = next(e for e in ps[i]["traceEvents"] if e["ph"] == "X" and x_end(e) > ix[i]["start_ns"] + 1)
            ps[i]["traceEvents"].remove(e)
            ps[i - 1]["traceEvents"].append(e)
        elif what == "steps":      # a part said to hold other steps
            p = next(p for p in ix if p["first_step"] is not None)
            p["first_step"] += 1
        elif what == "size":       # a part bigger than it should be
            self.extra = 10 ** 9

    def check_parse(self):
        names = [p["file"] for p in self.index["parts"]]
        if [p["part"] for p in self.index["parts"]] != list(range(1, len(names) + 1)):
            return "parts not numbered 1..%d" % len(names)
        missing = [n for n in names if not os.path.exists(os.path.join(self.dir, n))]
        if missing or self.bad:
            return "missing: %s; unreadable: %s" % (missing, self.bad)
        return None

    def check_union(self):
        want = collections.Counter(canon(e) for e in events(self.full))
        have = collections.Counter(canon(e) for p in self.parts for e in events(p))
        if want != have:
            lost, extra = want - have, have - want
            return "%d lost (%s), %d extra (%s)" % (sum(lost.values()), list(lost)[:2],
                                                   sum(extra.values()), list(extra)[:2])
        return None

    def check_flows(self):
        full = events(self.full)
        ft = Tracks(full)
        binding = {flow_id(e) for e in full if e["ph"] == "f" and ft.binds(e)}
        bad = []
        for i, p in enumerate(self.parts):
            evs = events(p)
            s = collections.Counter(flow_id(e) for e in evs if e["ph"] == "s")
            f = {flow_id(e): e for e in evs if e["ph"] == "f"}
            if set(s) != set(f) or max(s.values(), default=1) > 1:
                bad.append("part %d: arrows without both ends: %s" % (i + 1, list(set(s) ^ set(f))[:3]))
            tr = Tracks(evs)
            for k, e in f.items():
                if k in binding and not tr.binds(e):
                    bad.append("part %d: arrow %s ends outside any slice of the part" % (i + 1, k))
        return "; ".join(bad[:4]) if bad else None

    def check_meta(self):
        named = {(e["pid"], e["tid"]) for e in self.full["traceEvents"]
                 if e["ph"] == "M" and e["name"] == "thread_name"}
        bad = []
        for i, p in enumerate(self.parts):
            meta = collections.defaultdict(set)
            for e in p["traceEvents"]:
                if e["ph"] == "M":
                    meta[e["name"]].add((e["pid"], e.get("tid")))
            pm = {pid for pid, _ in meta["process_name"]} & {pid for pid, _ in meta["process_sort_index"]}
            tm = meta["thread_name"] & meta["thread_sort_index"]
            for e in events(p):
                if e["pid"] not in pm:
                    bad.append("part %d: process %s unnamed" % (i + 1, e["pid"]))
                t = (e["pid"], e["tid"])
                if t in named and t not in tm:
                    bad.append("part %d: track %s unnamed" % (i + 1, t))
        return "; ".join(sorted(set(bad))[:4]) if bad else None

    def check_index(self):
        ix = self.index["parts"]
        bad = []
        if ix[0]["start_ns"] != self.index["start_ns"] or ix[-1]["end_ns"] != self.index["end_ns"]:
            bad.append("parts cover %d..%d, the trace %d..%d" % (ix[0]["start_ns"], ix[-1]["end_ns"],
                       self.index["start_ns"], self.index["end_ns"]))
        for a, b in zip(ix, ix[1:]):
            if a["end_ns"] != b["start_ns"] or a["start_ns"] > a["end_ns"]:
                bad.append("part %d ends at %d, part %d starts at %d" % (a["part"], a["end_ns"], b["part"], b["start_ns"]))
        t0 = self.index["trace_start_realtime_ns"]
        full = events(self.full)
        first = min((ns(e["ts"]) for e in full), default=0)
        last = max((x_end(e) if e["ph"] == "X" else ns(e["ts"]) for e in full), default=0)
        if self.index["start_ns"] > first or self.index["end_ns"] < last:
            bad.append("the index covers %d..%d, the trace's events %d..%d" % (
                self.index["start_ns"], self.index["end_ns"], first, last))
        for p, d in zip(ix, self.parts):
            evs = events(d)
            c = collections.Counter("sample" if is_sample(e) else e["ph"] for e in evs)
            got = {"slices": c["X"], "instants": c["i"], "counters": c["C"], "async": c["b"], "flows": c["s"],
                   "samples": c["sample"]}
            want = {k: p[k] for k in got}
            if got != want:
                bad.append("part %d holds %s, the index says %s" % (p["part"], got, want))
            if p["start_realtime_ns"] != t0 + p["start_ns"] or p["end_realtime_ns"] != t0 + p["end_ns"]:
                bad.append("part %d: realtime bounds do not match" % p["part"])
            size = os.path.getsize(os.path.join(self.dir, p["file"]))
            if p["bytes"] != size:
                bad.append("part %d: %d bytes, the index says %d" % (p["part"], size, p["bytes"]))
        return "; ".join(bad[:4]) if bad else None

    def check_placement(self):
        bad = []
        for p, d in zip(self.index["parts"], self.parts):
            evs = events(d)
            asyncs = {(e["pid"], e["id"], e["name"]): ns(e["ts"]) for e in evs if e["ph"] == "e"}
            items = [e for e in evs if e["ph"] in "XiCb"]
            lo, hi = p["start_ns"], p["end_ns"]
            first = p["part"] == 1
            last = p["part"] == len(self.parts)
            before = sum(1 for e in items if not first and key(e, asyncs) <= lo)
            after = sum(1 for e in items if not last and key(e, asyncs) > hi)
            began = sum(1 for e in items if e["ph"] == "X" and not first and key(e, asyncs) > lo and ns(e["ts"]) < lo)
            back = sum(1 for e in evs if e["ph"] == "s" and ns(e["ts"]) < lo)
            got = (before, after, began, back)
            want = (p["late"], p["end_after"], p["began_before"], p["flows_from_before"])
            if got != want:
                bad.append("part %d (%d..%d]: before/after/began before/arrows from before %s, index %s" %
                           (p["part"], lo, hi, got, want))
        return "; ".join(bad[:4]) if bad else None

    def check_steps(self):
        bad = []
        spec = self.index["split"]
        ranges = []
        for p, d in zip(self.index["parts"], self.parts):
            st = sorted(e["args"]["step"] for e in events(d) if e.get("cat") == "step")
            a, b = p["first_step"], p["last_step"]
            if spec.startswith("size:"):
                if (a, b) != ((st[0], st[-1]) if st else (None, None)):
                    bad.append("part %d: steps %s..%s drawn, the index says %s..%s" % (p["part"], st[:1], st[-1:], a, b))
            else:
                ranges.append((a, b))
                out = [s for s in st if not a <= s <= b]
                if out:
                    bad.append("part %d (steps %d..%d) holds steps %s" % (p["part"], a, b, out[:5]))
        if ranges:
            every = sorted({e["args"]["step"] for e in events(self.full) if e.get("cat") == "step"})
            listed = [s for s in every if any(a <= s <= b for a, b in ranges)]
            n = int(spec.split(":")[1])
            if listed != every or any(x[1] >= y[0] for x, y in zip(ranges, ranges[1:])):
                bad.append("step ranges %s do not cover steps %s in order" % (ranges, every))
            # N recorded steps a part (fewer in the last).
            counts = [sum(1 for s in every if a <= s <= b) for a, b in ranges]
            if any(c != n for c in counts[:-1]) or not 1 <= counts[-1] <= n:
                bad.append("steps a part: %s, want %d" % (counts, n))
        return "; ".join(bad[:4]) if bad else None

    def check_size(self, want):
        extra = getattr(self, "extra", 0)
        paths = [os.path.join(self.dir, p["file"]) for p in self.index["parts"]]
        starts = [None] + [p["start_ns"] for p in self.index["parts"][1:]]
        own = [content_size(f, t) + extra for f, t in zip(paths, starts)]
        whole = [content_size(f) + extra for f in paths]
        most = want * 1.15 + 2000
        over = [(i + 1, s) for i, s in enumerate(own) if s > most]
        under = [(i + 1, s) for i, s in enumerate(whole[:-1]) if s < want / 2]
        if over or under:
            return "parts over %d bytes %s, under %d %s" % (most, over, want / 2, under)
        return None

def main():
    args = sys.argv[1:]
    size = brk = None
    files = []
    while args:
        if args[0] == "--size":
            size = int(args[1])
        elif args[0] == "--break":
            brk = args[1]
        else:
            files.append(args[0])
            args = args[1:]
            continue
        args = args[2:]
    s = Split(files[0], files[1], brk)
    checks = ["parse", "union", "flows", "meta", "index", "placement", "steps"]
    if size is not None:
        checks.append("size")
    failed = 0
    for c in checks:
        try:
            why = s.check_size(size) if c == "size" else getattr(s, "check_" + c)()
        except Exception as e:  # a check that cannot run has failed
            why = "%s: %s" % (type(e).__name__, e)
        print("PASS %s" % c if why is None else "FAIL %s: %s" % (c, why))
        failed += why is not None
    sys.exit(1 if failed else 0)

main()

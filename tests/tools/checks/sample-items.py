"""sample-items.py — the checks of func/t-sample-items.sh on the CPU samples that
unit/sample-items wrote by hand in every format, each read by its own reader: the Chrome trace
(JSON), what `tools/pftrace.py samples` printed of the Perfetto trace (JSON) and the Perfetto
trace itself, otf2-print's event listing OUT (its definitions in OUT.defs), and the SQLite
database."""
import json
import re
import sqlite3
from importlib import import_module

from checklib import fail, main
import pftrace

otf2 = import_module("lib-otf2")

# What was drawn: (thread, time, CPU, stack innermost first, kernel frames).
DEEP = ["d%03d" % i if not 10 <= i < 20 else "rec" for i in range(120)]
WANT = [("main", 150, 2, ["vadd_host", "compute", "main"], 0),
        ("main", 200, 3, ["vadd_host", "compute", "main"], 0),
        ("main", 250, 1, ["do_syscall_64", "entry_SYSCALL_64", "write", "log", "main"], 2),
        ("main", 400, 0, ["main"], 0),
        ("main", 450, 2, ["other", "compute", "main"], 0),
        ("worker", 500, 5, DEEP, 0), ("worker", 600, 5, DEEP, 0), ("idle", 700, 4, [], 0)]
T0 = 1700000000000001000


def _differ(got, want):
    if got == want:
        return None
    return "got %d, want %d; first difference: %s" % (len(got), len(want), next(
        ((g, w) for g, w in zip(got, want) if g != w), (got[len(want):], want[len(got):])))


def chrome_samples(path):
    """Chrome: each sample a thread instant named by its innermost function, with its CPU
    and stack."""
    d = json.load(open(path))
    ev = d["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "thread_name"}

    def ns(x):
        return int(round(x * 1000))
    got = [(names[(e["pid"], e["tid"])], ns(e["ts"]), e["args"]["cpu"], e["args"]["stack"],
            e["args"]["kernel_frames"]) for e in ev if e.get("cat") == "sample"]
    bad = [e for e in ev if e.get("cat") == "sample" and (
        e["ph"] != "i" or e["s"] != "t" or
        e["name"] != (e["args"]["stack"][0] if e["args"]["stack"] else "[no stack]"))]
    err = _differ(got, WANT) or (
        bad and "not thread instants named by their innermost frame: %s" % bad[:2])
    if err:
        fail(err)


def perfetto_samples(path):
    """What pftrace.py samples printed: PerfSamples on their threads (pid, tid of the thread
    descriptor), frames in order, kernel frames in [kernel.kallsyms]."""
    s = json.load(open(path))
    tid = {700: "main", 701: "worker", 702: "idle"}
    got = [(tid.get(x["tid"]), x["ts"], x["cpu"], [f for f, m in x["stack"]],
            sum(m == "[kernel.kallsyms]" for f, m in x["stack"])) for x in s]
    user = [m for x in s for f, m in x["stack"][:len(x["stack"])]
            if m not in ("[user]", "[kernel.kallsyms]")]
    modes = [x["mode"] for x in s]
    want_modes = ["MODE_KERNEL" if w[4] else "MODE_USER" for w in WANT]
    err = (_differ(got, WANT) or (user and "mappings %s" % user) or
           (modes != want_modes and "modes %s" % modes))
    if err:
        fail(err)


def perfetto_interned(path):
    """Perfetto: a repeated stack is interned once, a frame once per sequence however often
    it recurs."""
    t = pftrace.load(path)
    seqs = {x["seq"] for x in [dict(s) for s in t.samples]}
    per = {sid: len(t.seqs[sid].interned["callstacks"]) for sid in seqs}
    frames = {sid: len(t.seqs[sid].interned["frames"]) for sid in seqs}
    # main: 4 stacks (one repeated) of 8 distinct frames; worker: 1 stack of 111 distinct
    # frames (rec ten times, one frame); idle: none
    if sorted(per.values()) != [0, 1, 4] or sorted(frames.values()) != [0, 8, 111]:
        fail("callstacks per sequence %s, frames %s" % (per, frames))


def perfetto_nested_order(path):
    """The samples inside a range drawn after what it encloses (as the scene draws ranges):
    held back by the writer, then written in time order, new callstacks in packets of their
    own before."""
    t = pftrace.load(path)
    got = sorted((e["type"], e["name"], e["ts"]) for e in t.events)
    want = sorted([("TYPE_SLICE_BEGIN", "outer", 50),
                   ("TYPE_SLICE_BEGIN", "hipLaunchKernel", 100),
                   ("TYPE_SLICE_END", None, 300), ("TYPE_INSTANT", "checkpoint", 420),
                   ("TYPE_SLICE_END", None, 480)])
    if got != want:
        fail("events %s" % got)
    on_main = [(x["i"], x["ts"]) for x in t.samples if x["tid"] == 700]
    on_main += [(e["i"], e["ts"]) for e in t.events]
    ts = [x for _, x in sorted(on_main)]
    if ts != sorted(ts):
        fail("main: times in packet order %s" % ts)


class _Contexts:
    """The OTF2 listing: the stack of each calling context, innermost first, from the
    definitions; the locations' names; the events and the samples among them."""

    def __init__(self, path):
        d = otf2.defs(path + ".defs")
        self.defs = d
        self.region = {int(i): (otf2.name(t), t) for k, i, t in d if k == "REGION"}
        self.ctx = {}
        for k, i, t in d:
            if k == "CALLING_CONTEXT":
                m = re.search(r"Region: \"[^\"]*\" <(\d+)>.*"
                              r"Parent: (UNDEFINED|\"[^\"]*\" <(\d+)>)", t)
                self.ctx[int(i)] = (int(m.group(1)),
                                    None if m.group(2) == "UNDEFINED" else int(m.group(3)))
        self.loc = {int(i): otf2.loc_what(t) for k, i, t in d if k == "LOCATION"}
        self.ev = otf2.events(path)
        self.samples = [(l, t, x) for r, l, t, x in self.ev if r == "CALLING_CONTEXT_SAMPLE"]

    def stack(self, c):
        out = []
        while c is not None:
            out.append(self.region[self.ctx[c][0]])
            c = self.ctx[c][1]
        return out


def otf2_samples(path):
    """OTF2: a CallingContextSample per sample with a stack, its context the stack, kernel
    frames in regions of their own kind, the CPU as attribute."""
    c = _Contexts(path)
    got = []
    for l, t, x in c.samples:
        cc = int(re.search(r"Calling Context: \"[^\"]*\" <(\d+)>", x).group(1))
        cpu = int(re.search(r"\(\"cpu\" <\d+>; UINT32; (\d+)\)", x).group(1))
        st = c.stack(cc)
        got.append((c.loc[l], t - T0, cpu, [n for n, _ in st],
                    sum("sampled kernel function" in r for _, r in st)))
    want = [w for w in WANT if w[3]]
    err = _differ(got, want)
    if err:
        fail(err)


def otf2_distances(path):
    """OTF2: unwind distances, the interrupt generator (period: the median interval),
    samples inside the call they interrupted."""
    c = _Contexts(path)
    dist = [int(re.search(r"Unwind Distance: (\d+)", x).group(1)) for l, t, x in c.samples]
    gen = [t for k, i, t in c.defs if k == "INTERRUPT_GENERATOR"]
    inside = [(r, t - T0) for r, l, t, x in c.ev
              if c.loc[l] == "main" and r in ("ENTER", "LEAVE", "CALLING_CONTEXT_SAMPLE")]
    bad = otf2.nesting(c.ev)
    # the distance: frames new since the thread's sample before, plus one (the first: all,
    # plus one)
    if (dist != [4, 1, 5, 1, 3, 121, 1] or len(gen) != 1 or "\"CPU sampling\"" not in gen[0] or
            "Mode: TIME" not in gen[0] or "Exponent: -9" not in gen[0] or
            "Period: 50," not in gen[0] + "," or
            inside[:5] != [("ENTER", 100), ("CALLING_CONTEXT_SAMPLE", 150),
                           ("CALLING_CONTEXT_SAMPLE", 200), ("CALLING_CONTEXT_SAMPLE", 250),
                           ("LEAVE", 300)] or bad):
        fail("distances %s, generator %s, main %s, nesting %s" % (dist, gen, inside, bad[:3]))


def sqlite_samples(path):
    """SQLite: a row per sample on its thread track, its stack from its callsite up,
    named_samples with its function."""
    db = sqlite3.connect(path)
    rows = db.execute("""
  WITH RECURSIVE up(sample, callsite, k) AS (
    SELECT id, callsite_id, 0 FROM samples
    UNION ALL SELECT up.sample, c.parent_id, k + 1 FROM up JOIN callsites c ON c.id = up.callsite
      WHERE c.parent_id IS NOT NULL)
  SELECT s.id, t.name, s.ts_ns, s.cpu, t.kind, n.function, n.frames,
    (SELECT group_concat(x.string, ",") FROM (SELECT st.string FROM up
       JOIN callsites c ON c.id = up.callsite
       JOIN strings st ON st.id = c.name_id WHERE up.sample = s.id ORDER BY up.k) x),
    (SELECT COUNT(*) FROM up JOIN callsites c ON c.id = up.callsite
       WHERE up.sample = s.id AND c.is_kernel)
  FROM samples s JOIN tracks t ON t.id = s.track_id JOIN named_samples n ON n.id = s.id
  ORDER BY s.id""").fetchall()
    got = [(r[1], r[2], r[3], r[7].split(",") if r[7] else [], r[8]) for r in rows]
    err = _differ(got, WANT)
    bad = [r for r in rows if r[4] != "thread" or
           r[5] != (r[7].split(",")[0] if r[7] else None) or
           (r[6] or 0) != (len(r[7].split(",")) if r[7] else 0)]
    if err or bad:
        fail(err or "named_samples: %s" % bad[:2])


def sqlite_callsites(path):
    """SQLite: a callsite per distinct frame and caller, parents first; sample_functions
    counts self and total samples."""
    db = sqlite3.connect(path)
    n = db.execute("SELECT COUNT(*), COUNT(DISTINCT IFNULL(parent_id, 0) || \",\" || name_id"
                   " || \",\" || is_kernel) FROM callsites").fetchone()
    orphans = db.execute(
        "SELECT COUNT(*) FROM callsites c WHERE parent_id IS NOT NULL AND (parent_id >= id OR"
        " depth != (SELECT depth + 1 FROM callsites p WHERE p.id = c.parent_id))").fetchone()[0]
    f = {r[0]: r[1:] for r in db.execute(
        "SELECT function, is_kernel, self_samples, total_samples FROM sample_functions")}
    # main, compute, vadd_host; log, write, 2 kernel; other; 120 deep: 128 callsites
    want = {"main": (0, 1, 5), "compute": (0, 0, 3), "vadd_host": (0, 2, 2), "rec": (0, 0, 2),
            "d000": (0, 2, 2), "do_syscall_64": (1, 1, 1), "entry_SYSCALL_64": (1, 0, 1)}
    bad = {k: f.get(k) for k, v in want.items() if f.get(k) != v}
    if n != (128, 128) or orphans or bad:
        fail("callsites %s, bad parents %d, sample_functions %s" % (n, orphans, bad))


main(globals())

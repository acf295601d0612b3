"""lib-nrt-analyze.py — helpers for the checks of tprof-analyze's NRT outputs: the NeuronCore
tracks of a Chrome trace (d: as chrome_trace.load reads it) and the NRT tables of the
summary.  A checker imports it (importlib.import_module("lib-nrt-analyze")).

    groupnames(d)     {pid: group (process) name}
    sortidx(d, what)  thread_sort_index by (pid, tid), process_sort_index by pid
    realpid(d)        {chrome pid: process id}
    core_spans(d)     the spans on NeuronCore tracks ("cat":"neuroncore")
    overlaps(d)       a message naming two spans of one track that overlap without nesting,
                      or None
    model_table_errors(d, text)   what the summary's NRT models table (text: the summary)
                      gets wrong against a recomputation from the Chrome trace d, or None
"""
import collections
import re

from checklib import main  # first: it puts tests/tools on the path

from chrome_trace import events, ns, procs, tracknames


def groupnames(d):
    return {e["pid"]: e["args"]["name"] for e in d["traceEvents"]
            if e["ph"] == "M" and e["name"] == "process_name"}


def sortidx(d, what):
    return {(e["pid"], e["tid"]) if "tid" in e else e["pid"]: e["args"]["sort_index"]
            for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == what}


def realpid(d):
    return {pid: real for pid, (label, real) in procs(d).items()}


def core_spans(d):
    return [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "neuroncore"]


def overlaps(d):
    names = tracknames(d)
    by = collections.defaultdict(list)
    for e in events(d):
        if e["ph"] == "X":
            by[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
    for k, v in by.items():
        v.sort()
        for (a0, a1), (b0, b1) in zip(v, v[1:]):
            if b0 < a1 and b1 > a1:
                return "overlapping spans on %s: %s and %s" % (names.get(k, k), (a0, a1),
                                                                (b0, b1))
    return None


def dur_of(s):
    v, u = s.split()
    return float(v) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[u]


def core_list(cores):
    out, i = [], 0
    while i < len(cores):
        j = i
        while j + 1 < len(cores) and cores[j + 1] == cores[j] + 1:
            j += 1
        out.append(str(cores[i]) if i == j else "%d-%d" % (cores[i], cores[j]))
        i = j + 1
    return ",".join(out)


def model_table_errors(d, text):
    execs = collections.defaultdict(list)
    seen = set()
    for e in core_spans(d):
        if e["args"]["call"].startswith("nrt_execute"):
            key = (e["pid"], e["ts"], e["args"]["model"], e["args"]["thread"])
            if key in seen:
                continue   # one execution, on each core of its model
            seen.add(key)
            execs[e["name"]].append(e)
    if "\nNRT models" not in text:
        return "no NRT models table"
    body = text.split("\nNRT models")[1].split("\n\n")[0].splitlines()[2:]
    rows = {}
    for line in body:
        m = re.match(r"\s*([\d.]+) % +([\d.]+ \w+) +([\d,]+) +([\d.]+ \w+) +([\d.]+ \w+) "
                     r"+([\d.]+ \w+) +([\d,]+) +([\d,]+) +([\d,]+) +([\d.]+)  (\S+) +(.+)$", line)
        if not m:
            return "unreadable row: %r" % line
        rows[m.group(12)] = m.groups()
    if set(rows) != set(execs):
        return "models %s, trace has %s" % (sorted(rows), sorted(execs))
    total = sum(ns(e["dur"]) for v in execs.values() for e in v)
    for name, v in execs.items():
        r = rows[name]
        ds = [ns(e["dur"]) for e in v]
        t = sum(ds)
        inb = sum(e["args"]["input_bytes"] for e in v)
        outb = sum(e["args"]["output_bytes"] for e in v)
        failed = sum(1 for e in v if e["args"].get("failed"))
        cores = sorted({e["args"]["nc"] for e in core_spans(d) if e["name"] == name})
        if abs(float(r[0]) - 100.0 * t / total) > 0.051:
            return "%s: share %s, trace %.2f" % (name, r[0], 100.0 * t / total)
        for k, w in ((1, t), (3, t / len(v)), (4, min(ds)), (5, max(ds))):
            if abs(dur_of(r[k]) - w) > 0.0005 * w + 1:
                return "%s: column %d is %s, trace %d ns" % (name, k + 1, r[k], w)
        for k, w in ((2, len(v)), (6, failed), (7, inb), (8, outb)):
            if int(r[k].replace(",", "")) != w:
                return "%s: column %d is %s, trace %d" % (name, k + 1, r[k], w)
        if abs(float(r[9]) - (inb + outb) / t) > 0.0005 + 1e-6 * (inb + outb) / t:
            return "%s: GB/s %s, trace %.4f" % (name, r[9], (inb + outb) / t)
        if r[10] != core_list(cores):
            return "%s: cores %s, trace %s" % (name, r[10], core_list(cores))
    return None


if __name__ == "__main__":
    main(globals())

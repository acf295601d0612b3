"""parallel-split.py — the checks of func/t-parallel-split.sh on a trace that K analysis
processes wrote with --split steps:N (each its share's part of every group of steps), against
the serial analyzer's --split steps:N of the same profile, or with --split size:MB (each its
share cut by size).

    index SERIAL_INDEX INDEX K FORMAT
                               the index lists K parts per group of the serial index, in
                               group order (part g * K + k + 1: group g's of analysis
                               process k), each file present; a group's parts cover the
                               serial part's steps and time range, hold processes apart,
                               and together every process; the index's totals are its
                               parts'
    same-chrome SERIAL_INDEX INDEX OUTDIR
                               each part loads alone and holds what the index says (slices,
                               arrow ends: two per arrow drawn whole, one per half); every
                               arrow's ends share one id, and both halves of an arrow are in
                               the same group; the parts of each group together (written to
                               OUTDIR/group-G.json) are the serial part of that group: every
                               slice, instant, counter sample and arrow, on tracks of the
                               same names (only NCCL instance numbers may differ); where an
                               item came after its part closed (the index's "late", serially
                               or here), only the whole is compared: all parts together are
                               all serial parts together; else no arrow end came late
    one-member FILE...         each .gz file is one gzip member (what trace processor reads
                               of a .json.gz), read to its end
    size-index INDEX K BYTES   size:MB: parts numbered 1..N in order of their analysis process
                               (each of the K has parts), files present; each analysis
                               process's parts are a series of ranges from the index's start
                               to its end, of its processes (apart from the others'); none
                               more than twice BYTES (what only the end of the reading
                               places comes after the cut), none but an analysis process's
                               last under half of it; nothing late
"""
import collections
import json
import os
import zlib

from checklib import fail, main
import pftrace


def _load(path):
    with open(path) as f:
        return json.load(f)


def _groups(d, k):
    parts = d["parts"]
    return [parts[g * k:(g + 1) * k] for g in range(len(parts) // k)]


def index(serial, path, k, fmt):
    s, d, k = _load(serial), _load(path), int(k)
    parts = d["parts"]
    if d["format"] != fmt or d["part_by"] != "end" or d["analysis_processes"] != k:
        fail("index: format %s, parts by %s, %s analysis processes" %
             (d["format"], d["part_by"], d.get("analysis_processes")))
    if len(parts) != k * len(s["parts"]) or d["split"] != s["split"]:
        fail("index: %d parts (%s); the serial index %d (%s)" %
             (len(parts), d["split"], len(s["parts"]), s["split"]))
    for key in ("start_ns", "end_ns", "trace_start_realtime_ns"):
        if d[key] != s[key]:
            fail("index: %s %s, serially %s" % (key, d[key], s[key]))
    for key in ("late", "late_flows"):
        if d[key] != sum(p[key] for p in parts):
            fail("index: %s %s, its parts' %d" % (key, d[key], sum(p[key] for p in parts)))
    every = None
    for g, (sp, group) in enumerate(zip(s["parts"], _groups(d, k))):
        seen = set()
        for r, p in enumerate(group):
            n = g * k + r + 1
            f = os.path.join(os.path.dirname(path), p["file"])
            if (p["part"] != n or p["group"] != g + 1 or p["analysis_process"] != r or
                    ".part-%04d" % n not in p["file"] or not os.path.isfile(f)):
                fail("part %d: group %s, analysis process %s, %s" %
                     (n, p.get("group"), p.get("analysis_process"), p["file"]))
            for key in ("start_ns", "end_ns", "first_step", "last_step"):
                if p[key] != sp[key]:
                    fail("part %d: %s %s, the serial part %d's %s" %
                         (n, key, p[key], sp["part"], sp[key]))
            if seen & set(p["processes"]) or len(p["processes"]) != len(p["ranks"]):
                fail("part %d: processes %s, ranks %s" % (n, p["processes"], p["ranks"]))
            seen |= set(p["processes"])
        if every is not None and seen != every:
            fail("group %d: processes %s, group 1's %s" % (g + 1, sorted(seen), sorted(every)))
        every = seen


def _same(what_of, a_path, b_path):
    a = pftrace.without_instances(pftrace.chrome_view(a_path))
    b = pftrace.without_instances(pftrace.chrome_view(b_path))
    for what in ("processes", "slices", "instants", "counters", "flows", "samples"):
        if a[what] != b[what]:
            fail("%s: %s differ: %d serial, %d in the parts; only serial: %s; only in the "
                 "parts: %s" % (what_of, what, sum(a[what].values()), sum(b[what].values()),
                                list((a[what] - b[what]).elements())[:2],
                                list((b[what] - a[what]).elements())[:2]))
    return sum(a["slices"].values())


def _write(path, events):
    with open(path, "w") as f:
        json.dump({"traceEvents": events}, f)


def same_chrome(serial, path, outdir):
    s, d = _load(serial), _load(path)
    k = d["analysis_processes"]
    here = lambda x, p: os.path.join(os.path.dirname(x), p["file"])
    every, every_serial, group_of = [], [], {}
    late = s["late"] or s["late_flows"] or d["late"]
    if not late and d["late_flows"]:
        fail("%d arrow ends came after their part was closed" % d["late_flows"])
    slices = 0
    for g, (sp, group) in enumerate(zip(s["parts"], _groups(d, k)), 1):
        mine = []
        for p in group:
            ev = pftrace.chrome_events(here(path, p))
            n = sum(e["ph"] == "X" for e in ev)
            ends = sum(e["ph"] in ("s", "f") for e in ev)
            if n != p["slices"] or ends != 2 * p["flows"] + p["flow_halves"]:
                fail("part %d: %d slices, %d arrow ends; the index: %s" % (p["part"], n, ends, p))
            for e in ev:
                if e["ph"] in ("s", "f"):
                    group_of.setdefault((e["cat"], e["name"], e["id"]), set()).add(g)
            mine += ev
        _write(os.path.join(outdir, "group-%d.json" % g), mine)
        if not late:
            slices += _same("group %d" % g, here(serial, sp),
                            os.path.join(outdir, "group-%d.json" % g))
        every += mine
        every_serial += pftrace.chrome_events(here(serial, sp))
    ids = collections.Counter((e["ph"], e["cat"], e["name"], e["id"]) for e in every
                              if e["ph"] in ("s", "f"))
    starts = {x[1:] for x in ids if x[0] == "s"}
    finishes = {x[1:] for x in ids if x[0] == "f"}
    if max(ids.values(), default=1) != 1 or starts != finishes:
        fail("arrow ids: %d repeated, %d starts without an end, %d ends without a start" %
             (sum(v > 1 for v in ids.values()), len(starts - finishes), len(finishes - starts)))
    split = [x for x, g in group_of.items() if len(g) > 1]
    if split and not late:
        fail("%d arrows have ends in two groups: %s" % (len(split), split[:2]))
    _write(os.path.join(outdir, "all.json"), every)
    _write(os.path.join(outdir, "all-serial.json"), every_serial)
    slices = _same("all parts", os.path.join(outdir, "all-serial.json"),
                   os.path.join(outdir, "all.json"))
    if not slices:
        fail("the serial parts have no slices")


def size_index(path, k, want):
    d, k, want = _load(path), int(k), int(want)
    parts = d["parts"]
    if d["format"] != "chrome" or d["part_by"] != "end" or d["analysis_processes"] != k or \
            not d["split"].startswith("size:"):
        fail("index: format %s, parts by %s, %s analysis processes, split %s" %
             (d["format"], d["part_by"], d.get("analysis_processes"), d["split"]))
    if [p["part"] for p in parts] != list(range(1, len(parts) + 1)):
        fail("index: parts numbered %s" % [p["part"] for p in parts])
    readers = [p["analysis_process"] for p in parts]
    if readers != sorted(readers) or sorted(set(readers)) != list(range(k)):
        fail("index: analysis processes %s" % readers)
    seen = set()
    for r in range(k):
        mine = [p for p in parts if p["analysis_process"] == r]
        procs = set(mine[0]["processes"])
        if seen & procs:
            fail("analysis process %d: processes %s also another's" % (r, sorted(seen & procs)))
        seen |= procs
        at = d["start_ns"]
        for n, p in enumerate(mine):
            f = os.path.join(os.path.dirname(path), p["file"])
            if ".part-%04d." % p["part"] not in p["file"] or not os.path.isfile(f):
                fail("part %d: %s" % (p["part"], p["file"]))
            if p["start_ns"] != at or set(p["processes"]) != procs:
                fail("part %d: starts at %d, not %d; processes %s" %
                     (p["part"], p["start_ns"], at, p["processes"]))
            at = p["end_ns"]
            if p["late"] or p["late_flows"]:
                fail("part %d: %d items, %d arrows late" % (p["part"], p["late"], p["late_flows"]))
            if p["json_bytes"] > 2 * want or (n + 1 < len(mine) and p["json_bytes"] < want / 2):
                fail("part %d: %d bytes, for parts of %d" % (p["part"], p["json_bytes"], want))
        if at != d["end_ns"]:
            fail("analysis process %d: its parts end at %d, the index at %d" % (r, at, d["end_ns"]))


def one_member(*paths):
    for path in paths:
        with open(path, "rb") as f:
            data = f.read()
        z = zlib.decompressobj(31)
        z.decompress(data)
        if not z.eof or z.unused_data:
            fail("%s: %s" % (path, "ends inside its first member" if not z.eof else
                             "%d bytes after its first member" % len(z.unused_data)))


main(globals())

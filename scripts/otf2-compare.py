#!/usr/bin/env python3
"""otf2-compare.py — compares the OTF2 archives two builds of tprof-analyze write for the same
profile, as otf2-print shows them: every location's records in order (times, regions, MPI
records, parameters, metrics) and the definitions (locations, groups, regions, communicators,
system tree, metrics), with references (<N>) and location ids taken out, so that only what a
reader sees is compared.  Attributes are compared by name: each attribute the old archive has
must be in the new one with the same value (under its new name when --rename says so); what
the new one adds is listed, not counted as a difference.

  scripts/otf2-compare.py [--rename OLD=NEW]... OLD-ANALYZER NEW-ANALYZER PROFILE-DIR
                          [ANALYZE-ARGS...]

Exit status 0 when they agree, 1 when they differ (the differences on stdout), 2 on errors.
Used to check a change of the OTF2 writer against the writer before it."""
import collections
import os
import re
import subprocess
import sys
import tempfile

OTF2_PRINT = os.environ.get("OTF2_PRINT", "otf2-print")
REF = re.compile(r" <\d+>")
REC = re.compile(r"^([A-Z][A-Z0-9_]+)\s+(\d+)\s+(\d+)\s*(.*)$")
DEF = re.compile(r"^([A-Z][A-Z0-9_]+)\s+(\d*)\s+(.*)$")
ATTR = re.compile(r'\("((?:[^"\\]|\\.)*)" <\d+>; (\w+); ("(?:[^"\\]|\\.)*" <\d+>|[^,)]*)\)')
# Definitions whose ids only references see: compared as sets.
UNORDERED = ("LOCATION", "LOCATION_GROUP", "METRIC_CLASS_RECORDER", "REGION")
# Attribute names that changed on purpose, old -> new (--rename OLD=NEW adds to these).
RENAMED = {}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       errors="replace")
    if p.returncode != 0:
        sys.stderr.write("%s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr))
        sys.exit(2)
    return p.stdout


def value(typ, v):
    v = REF.sub("", v).strip()
    if typ in ("UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64"):
        return int(v)
    if typ in ("FLOAT", "DOUBLE"):
        return float(v)
    return v


def read(archive):
    """(locations, events, definitions): location id -> key; key -> [(record, time, text,
    {attribute: value})]; kind -> sorted normalized definition lines."""
    defs = run([OTF2_PRINT, "-G", archive]).splitlines()
    locs, groups, seen = {}, {}, collections.Counter()
    out = collections.defaultdict(list)
    for line in defs:
        m = DEF.match(line)
        if not m or line.startswith("Definition"):
            continue
        kind, ident, text = m.groups()
        if kind == "LOCATION":
            name = re.match(r'Name: "((?:[^"\\]|\\.)*)"', text).group(1)
            group = re.search(r'Group: "((?:[^"\\]|\\.)*)" <\d+>$', text).group(1)
            seen[(group, name)] += 1
            locs[int(ident)] = "%s / %s #%d" % (group, name, seen[(group, name)])
        if kind in ("STRING", "ATTRIBUTE"):
            continue
        text = REF.sub("", text)
        if kind in UNORDERED:
            ident = ""
        out[kind].append((ident + " " + text).strip())
    for k in out:
        if k in UNORDERED:
            out[k].sort()
    events = collections.defaultdict(list)
    last = None                      # the record printed last: attributes follow it
    for line in run([OTF2_PRINT, archive]).splitlines():
        m = REC.match(line)
        if m:
            rec, loc, t, text = m.groups()
            # MPI peers are ranks (kept); the location printed after them is not compared
            text = re.sub(r' \("(?:[^"\\]|\\.)*" <\d+>\)', "", text)
            last = [rec, int(t), REF.sub("", text), {}]
            events[locs.get(int(loc), "location %s" % loc)].append(last)
        elif line.lstrip().startswith("ADDITIONAL ATTRIBUTES:") and last:
            for name, typ, v in ATTR.findall(line):
                last[3][name] = (typ, value(typ, v))
    return events, out


def compare(old, new, limit=12):
    (oev, odef), (nev, ndef) = old, new
    bad = []
    for kind in sorted(set(odef) | set(ndef)):
        a, b = odef.get(kind, []), ndef.get(kind, [])
        if a != b:
            only_a = [x for x in a if x not in b]
            only_b = [x for x in b if x not in a]
            bad.append("definitions %s differ:\n  old only: %s\n  new only: %s" % (
                kind, only_a[:limit], only_b[:limit]))
    extra = collections.Counter()
    for loc in sorted(set(oev) | set(nev)):
        a, b = oev.get(loc, []), nev.get(loc, [])
        if len(a) != len(b):
            bad.append("%s: %d records, now %d" % (loc, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            if x[:3] != y[:3]:
                bad.append("%s, record %d: %s, now %s" % (loc, i, x[:3], y[:3]))
                break
            for name, (typ, v) in x[3].items():
                nn = RENAMED.get(name, name)
                got = y[3].get(nn)
                if got is None or got[1] != v:
                    bad.append("%s, record %d (%s): attribute %r = %r, now %r = %r" % (
                        loc, i, x[2], name, v, nn, got))
            want = {RENAMED.get(n, n) for n in x[3]}
            for name in y[3]:
                if name not in want:
                    extra[name] += 1
    return bad, extra


def main(argv):
    argv = list(argv)
    while len(argv) > 2 and argv[1] == "--rename":
        o, n = argv[2].split("=", 1)
        RENAMED[o] = n
        del argv[1:3]
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    args = argv[4:]
    with tempfile.TemporaryDirectory() as tmp:
        got = []
        for i, analyzer in enumerate(argv[1:3]):
            out = os.path.join(tmp, str(i))
            run([analyzer, argv[3], "--format", "otf2", "-o", out] + args)
            got.append(read(os.path.join(out, "traces.otf2")))
    bad, extra = compare(*got)
    n = sum(len(v) for v in got[0][0].values())
    print("# %s %s: %d records on %d locations; %s" % (
        argv[3], " ".join(args), n, len(got[0][0]), "the same" if not bad else "DIFFERENT"))
    if extra:
        print("# attributes only the new archive has: %s" % ", ".join(
            "%s (%d)" % kv for kv in sorted(extra.items())))
    for b in bad[:40]:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""mpi-io.py — the checks of func/t-mpi-io.sh: apps/mpi-io (and apps/mpi-io.F90) print what
every rank did as one JSON line (the truth): per file, the opens and each rank's reads and
writes with their bytes; a file "PATH.R" stands for the file of each rank R.  Each check reads
it beside what tprof made of the run: the summary as JSON (--summary=json), the Chrome trace,
otf2-print's event listing (with its global definitions, otf2-print -G, in EVENTS.defs)."""
import collections
import json
import re
from importlib import import_module

from checklib import fail, main
from chrome_trace import events as chrome_events, load

otf2 = import_module("lib-otf2")


def _truth(path):
    with open(path) as f:
        t = json.loads(f.read().strip().splitlines()[-1])
    if not t.get("ok", True):
        fail("the program says it read other bytes than it wrote")
    files = {}
    for name, f in t["files"].items():
        if name.endswith(".R"):
            for r in range(t["ranks"]):
                files[name[:-2] + "." + str(r)] = dict(f, ranks=1)
        else:
            files[name] = dict(f, ranks=t["ranks"])
    return t, files


def _total(f, key):
    return f[key] * f["ranks"]


def summary(truth, summary_json):
    """The MPI-IO table: one row per file, with the exact opens, reads, writes and bytes of all
    ranks together; the calls table has the same bytes for the reads and writes."""
    _, files = _truth(truth)
    with open(summary_json) as f:
        s = json.load(f)
    rows = {r["file"]: r for r in s["mpi"]["io"]["rows"]}
    if set(rows) != set(files):
        fail("files in the MPI-IO table: %s, not %s" % (sorted(rows), sorted(files)))
    for name, f in files.items():
        r = rows[name]
        for key in ("reads", "read_bytes", "writes", "write_bytes"):
            if r[key] != _total(f, key):
                fail("%s: %s %d, not %d" % (name, key, r[key], _total(f, key)))
        if r["opens"] != f["opens"] * f["ranks"]:
            fail("%s: %d opens, not %d" % (name, r["opens"], f["opens"] * f["ranks"]))
    calls = {r["name"]: r for r in s["mpi"]["calls"]["rows"]}
    rw = sum(r["bytes"] for n, r in calls.items()
             if re.match(r"MPI_File_i?(read|write)", n) and not n.endswith("_end"))
    want = sum(_total(f, "read_bytes") + _total(f, "write_bytes") for f in files.values())
    if rw != want:
        fail("the calls table's reads and writes moved %d bytes, not %d" % (rw, want))


def chrome(truth, trace):
    """Every MPI-IO call names its file; the reads and writes say which they are, and their
    bytes add up to the truth, file by file."""
    _, files = _truth(truth)
    got = collections.defaultdict(lambda: collections.Counter())
    for e in chrome_events(load(trace)):
        if e.get("ph") != "X" or not e.get("name", "").startswith("MPI_File_"):
            continue
        a = e.get("args", {})
        if e["name"] != "MPI_File_delete" and "file" not in a:
            fail("%s without its file: %s" % (e["name"], a))
        io = a.get("io")
        if io:
            got[a["file"]][io + "s"] += 1
            got[a["file"]][io + "_bytes"] += a["bytes"]
    for name, f in files.items():
        for key in ("reads", "read_bytes", "writes", "write_bytes"):
            if got[name][key] != _total(f, key):
                fail("%s: %s %d in the Chrome trace, not %d" % (name, key, got[name][key],
                                                               _total(f, key)))


def otf2_io(truth, events_path):
    """OTF2's I/O records: a handle per file a rank opened, named after its file, created and
    destroyed once; each read and write an IoOperationBegin and one IoOperationComplete of
    the same matching id on the same location (a nonblocking one issued in between), the
    bytes done adding up to the truth; the paradigm MPI-IO and a regular file per name."""
    _, files = _truth(truth)
    ev = otf2.events(events_path)
    defs = otf2.defs(events_path + ".defs")
    if not any(d == "IO_PARADIGM" and '"MPI-IO"' in x for d, _, x in defs):
        fail("no IO_PARADIGM MPI-IO")
    regular = {otf2.name(x) for d, _, x in defs if d == "IO_REGULAR_FILE"}
    if regular != set(files):
        fail("regular files %s, not %s" % (sorted(regular), sorted(files)))
    handles = {int(i): otf2.name(x) for d, i, x in defs if d == "IO_HANDLE"}
    opens = sum(f["opens"] * f["ranks"] for f in files.values())
    if len(handles) != opens:
        fail("%d I/O handles, not one per open (%d)" % (len(handles), opens))
    hid = re.compile(r'Handle: "[^"]*" <(\d+)>')
    created = collections.Counter(int(hid.search(x).group(1)) for r, _, _, x in ev
                                  if r == "IO_CREATE_HANDLE")
    destroyed = collections.Counter(int(hid.search(x).group(1)) for r, _, _, x in ev
                                    if r == "IO_DESTROY_HANDLE")
    if set(created) != set(handles) or set(created.values()) != {1} or created != destroyed:
        fail("handles created %s and destroyed %s, not each once" % (dict(created),
                                                                     dict(destroyed)))
    begun, done = {}, collections.Counter()
    mid = re.compile(r"Matching Id: (\d+)")
    for r, loc, _, x in ev:
        if not r.startswith("IO_OPERATION"):
            continue
        key = (loc, int(hid.search(x).group(1)), int(mid.search(x).group(1)))
        if r == "IO_OPERATION_BEGIN":
            if key in begun:
                fail("matching id begun twice: %s" % (key,))
            begun[key] = ["WRITE" if "Mode: WRITE" in x else "READ", "NON_BLOCKING" in x,
                          False]
        elif r == "IO_OPERATION_ISSUED":
            if key not in begun or not begun[key][1]:
                fail("issued without a nonblocking begin: %s" % (key,))
            begun[key][2] = True
        elif r == "IO_OPERATION_COMPLETE":
            b = begun.pop(key, None)
            if b is None or (b[1] and not b[2]):
                fail("completed without its begin (or its issue): %s" % (key,))
            n = int(re.search(r"Bytes Result: (\d+)", x).group(1))
            name = handles[key[1]]
            done[(name, b[0])] += n
            done[(name, b[0] + "S")] += 1
    if begun:
        fail("operations never completed: %s" % sorted(begun)[:5])
    for name, f in files.items():
        for mode, key in (("READ", "read"), ("WRITE", "write")):
            if done[(name, mode)] != _total(f, key + "_bytes") or \
                    done[(name, mode + "S")] != _total(f, key + "s"):
                fail("%s: %d %s operations of %d bytes, not %d of %d" % (
                    name, done[(name, mode + "S")], key, done[(name, mode)],
                    _total(f, key + "s"), _total(f, key + "_bytes")))


main(globals())

"""otf2-scene.py — the checks of func/t-otf2-scene.sh on the OTF2 archives tprof-analyze wrote
of synthetic profiles (and of apps/nrt-threads): what otf2-print printed of each, its events
(OUT) and global definitions (OUT.defs), read with the helpers of lib-otf2.py, beside the
Chrome trace (JSON file) of the same profile."""
import collections
import importlib
import json
import math
import re

from checklib import fail, main

otf2 = importlib.import_module("lib-otf2")
events, defs, name, loc_what = otf2.events, otf2.defs, otf2.name, otf2.loc_what

# An attribute as otf2-print prints it: ("name" <id>; TYPE; value), a string value quoted with
# its id.
ATTR = re.compile(r"\(\"((?:[^\"\\\\]|\\\\.)*)\" <\d+>; (\w+); "
                  r"(\"(?:[^\"\\\\]|\\\\.)*\" <\d+>|[^,)]*)\)")
# The model's own arguments under the archive's names.
RENAME = {"correlation": "correlation id", "returned": "return code", "kind": "copy kind",
          "shmem": "shared memory", "time in calls (us)": "time in polls"}


def _same(key, want, ty, got):
    """Whether the attribute (type ty, value got as printed) is the Chrome argument key =
    want."""
    if key == "time in calls (us)":
        return int(got) == round(want * 1000)
    if isinstance(want, bool):
        return int(got) == int(want)
    if isinstance(want, int):
        return int(got) == want
    if isinstance(want, float):
        return math.isclose(float(got), want, rel_tol=1e-5, abs_tol=1e-6)  # as printed
    if isinstance(want, list):
        return got == "[" + ",".join(str(v) for v in want) + "]"
    if isinstance(want, str) and want.startswith("0x") and ty.startswith("UINT"):
        return int(got) == int(want, 16)
    return got == want


def same_scene(path, chrome_path):
    """Every Chrome slice and instant a region at its place and time, its arguments
    attributes: entered on the location named as its track, in its process's group, at its
    time, each of its arguments an attribute of that Enter with its value (nested objects
    left out; a range's and a step's on its Leave).  Prints how many were compared."""
    chrome = json.load(open(chrome_path))
    start = chrome["otherData"]["trace_start_realtime_ns"]
    procs, tracks = {}, {}
    for e in chrome["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "thread_name":
            tracks[(e["pid"], e["tid"])] = e["args"]["name"]
    tracks.update({(p, 2147483000): "steps" for p in procs})
    d = defs(path + ".defs")
    loc = {}
    for k, i, t in d:
        if k == "LOCATION":
            g = re.search(r"Group: \"([^\"]*)\"", t).group(1)
            loc[int(i)] = (re.sub(r"^(GPU|nc) \d+, ", "", g), loc_what(t))
    enters, leaves = collections.defaultdict(list), collections.defaultdict(list)
    for r, lo, t, x in events(path):
        if r in ("ENTER", "LEAVE"):
            attrs = {n: (ty, re.sub(r" <\d+>$", "", v).strip("\"")) for n, ty, v in ATTR.findall(x)}
            (enters if r == "ENTER" else leaves)[(loc[lo], t, name(x))].append(attrs)
    bad, n, nargs = [], 0, 0
    for e in chrome["traceEvents"]:
        if e["ph"] not in ("X", "i") or e["pid"] >= 1000000:
            continue
        where = (procs[e["pid"]], tracks[(e["pid"], e["tid"])])
        t = start + round(e["ts"] * 1000)
        nm = "step" if where[1] == "steps" else e["name"]
        got = enters.get((where, t, nm)) or [a for k, v in enters.items() if k[:2] == (where, t)
                                              for a in v if a.get("label", ("", ""))[1] == nm]
        n += 1
        if not got:
            bad.append("no region %s on %s at %d" % (nm, where, t))
            continue
        if e.get("cat") in ("range", "roctx", "step"):
            # a range's and a step's arguments are on their Leave
            got = leaves.get((where, t + round(e["dur"] * 1000), nm), [])
        for key, want in e.get("args", {}).items():
            if isinstance(want, dict) or (isinstance(want, list) and
                                          any(isinstance(v, (dict, list)) for v in want)):
                continue
            if where[1] == "steps" and key == "step":
                continue
            nargs += 1
            a = RENAME.get(key, key)
            if not any(a in g and _same(key, want, g[a][0], g[a][1]) for g in got):
                bad.append("%s on %s at %d: %s = %r, archive: %s" % (
                    nm, where, t, key, want, [g.get(a) for g in got]))
    if bad or not n:
        fail("%d of %d slices differ:\n%s" % (len(bad), n, "\n".join(bad[:12])))
    print("# %d slices, %d arguments" % (n, nargs))


def tensor_names(path, chrome):
    """nrt-threads: a tensor set's additions name their tensor, in Chrome and in the
    archive."""
    ev = [e for e in json.load(open(chrome))["traceEvents"]
          if e.get("name") == "nrt_add_tensor_to_tensor_set"]
    got = sorted(e["args"].get("tensor") for e in ev)
    adds = [t for r, _, _, t in events(path)
            if r == "ENTER" and name(t) == "nrt_add_tensor_to_tensor_set"]
    if not ev or None in got or sorted(set(got)) != ["img", "map", "x", "y", "z"] or \
            len(adds) != len(ev) or not all("(\"tensor\" <" in t for t in adds):
        fail("tensor set additions: Chrome %s, archive %s" % (got, adds[:3]))


if __name__ == "__main__":
    main(globals())

"""hip-extras.py — the checks of func/t-hip-extras.sh on the Chrome traces and the summary
of HIP programs run on the stand-in runtime: with TPROF_CALLSTACK=1 (apps/hip-gaps) and
with --group-by domain (apps/hip-multi)."""
import json
import re

from checklib import fail, main


def _events(path):
    return json.load(open(path))["traceEvents"]


def launch_stacks(trace):
    """Each launch carries its stack, with the launching function above any kernel stub,
    main() below; each kernel names its caller."""
    ev = _events(trace)
    launches = [e for e in ev if e["ph"] == "X" and e["name"] == "hipLaunchKernel"]
    if len(launches) != 33:
        fail("%d launches" % len(launches))
    fns = {"busy": "burst", "warmup": "main", "timer": "gap"}
    for l in launches:
        st = [f for f in l["args"].get("stack", []) if not f.startswith("__device_stub__")]
        want = next(f for k, f in fns.items() if l["args"]["kernel"].startswith(k))
        if not st or not st[0].startswith(want) or not any(f.startswith("main") for f in st):
            fail("stack %s for %s" % (l["args"].get("stack"), l["args"]["kernel"]))
    for k in (e for e in ev if e.get("cat") == "kernel"):
        want = next(f for p, f in fns.items() if k["name"].startswith(p))
        if not k["args"].get("caller", "").startswith(want):
            fail("caller of %s: %s" % (k["name"], k["args"].get("caller")))


def launching_functions(summary):
    """The summary names burst(), gap() and main() as the functions that launched the
    kernels."""
    s = open(summary).read()
    part = s.split("Kernels by launching function", 1)
    if len(part) < 2:
        fail(s)
    for fn, n in (("burst", 23), ("gap", 9), ("main", 1)):
        if not re.search(r"^\s*\S+ %.*\s" + str(n) + r"\s.*\s" + fn + r"(\(.*)?$", part[1], re.M):
            fail("%s:\n%s" % (fn, s))


def domain_groups(trace):
    """API calls, kernels and copies each sit in their own group, tracks named with their
    process."""
    ev = _events(trace)
    procs = {e["pid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev
               if e["ph"] == "M" and e["name"] == "thread_name"}
    group = {"hip": "API calls", "kernel": "GPU", "copy": "copies"}
    for e in ev:
        if e["ph"] == "X" and e.get("cat") in group:
            if procs.get(e["pid"]) != group[e["cat"]]:
                fail("%s in %s" % (e["cat"], procs.get(e["pid"])))
            if not threads.get((e["pid"], e["tid"]), "").startswith("hip-multi ("):
                fail("track %s" % threads.get((e["pid"], e["tid"])))
    if sorted(v for v in procs.values() if v in group.values()) != ["API calls", "GPU", "copies"]:
        fail(procs)


def flows_joined(trace):
    """Flow arrows still join each launch to its kernel across the groups."""
    ev = _events(trace)
    s = {e["id"] for e in ev if e["ph"] == "s"}
    f = {e["id"] for e in ev if e["ph"] == "f"}
    if len(s) != 12 or s != f:
        fail("%d starts, %d ends" % (len(s), len(f)))


main(globals())

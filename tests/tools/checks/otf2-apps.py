"""otf2-apps.py — the checks of func/t-otf2-apps.sh on the OTF2 archives tprof-analyze wrote
of test programs run under tprof-inspect: what otf2-print printed of each, its events (OUT)
and global definitions (OUT.defs), read with the helpers of lib-otf2.py, beside the Chrome
trace (JSON file) of the same profile."""
import importlib
import json

from checklib import fail, main

otf2 = importlib.import_module("lib-otf2")
events, defs, nesting, name, loc_what = (otf2.events, otf2.defs, otf2.nesting, otf2.name,
                                         otf2.loc_what)


def same_as_chrome(path, chrome):
    """Nested, in time order, and the same regions, samples and processes as Chrome: one
    region per span or mark, one metric sample per counter sample, one location group per
    process.  Prints how many of each."""
    ev = events(path)
    bad = nesting(ev)
    with open(chrome) as f:
        chrome = json.load(f)["traceEvents"]
    spans = sum(1 for e in chrome if e["ph"] in ("X", "i", "b"))
    samples = sum(1 for e in chrome if e["ph"] == "C")
    procs = sum(1 for e in chrome if e["ph"] == "M" and e["name"] == "process_name" and
                e["pid"] < 1000000)
    enters = sum(1 for r, _, _, _ in ev if r == "ENTER")
    metrics = sum(1 for r, _, _, _ in ev if r == "METRIC")
    groups = sum(1 for k, _, t in defs(path + ".defs")
                 if k == "LOCATION_GROUP" and "Type: PROCESS" in t)
    if bad or (enters, metrics, groups) != (spans, samples, procs):
        fail("nesting %s; regions %d, samples %d, processes %d; Chrome: %d, %d, %d" % (
            bad[:5], enters, metrics, groups, spans, samples, procs))
    print("# %d regions, %d samples, %d processes" % (enters, metrics, groups))


def hip_multi_streams(path):
    """hip-multi: 2 devices x 2 streams as accelerator streams, 20 kernels, launches with
    their correlation ids."""
    d = defs(path + ".defs")
    ev = events(path)
    streams = sorted(loc_what(t) for k, _, t in d
                     if k == "LOCATION" and "ACCELERATOR_STREAM" in t)
    kernels = sum(1 for r, _, _, t in ev
                  if r == "ENTER" and name(t).startswith(("scale_a(", "shift_b(")))
    launch = [t for r, _, _, t in ev if r == "ENTER" and name(t) == "hipLaunchKernel"]
    if streams != ["GPU 0 stream 1", "GPU 0 stream 2", "GPU 1 stream 1", "GPU 1 stream 2"] or \
            kernels != 20 or len(launch) != 20 or not all("correlation id" in t for t in launch):
        fail("streams %s, kernels %d, launches %s" % (streams, kernels, launch[:2]))


if __name__ == "__main__":
    main(globals())

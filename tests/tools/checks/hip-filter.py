"""hip-filter.py — the checks of func/t-hip-filter.sh on the Chrome trace of apps/hip-multi
recorded with TPROF_HIP_API_FILTER or TPROF_HIP_API_FILTER_OUT."""
import collections
import json

from checklib import fail, main


def _counts(path):
    """The HIP calls by name, and the number of kernel and of copy spans."""
    ev = json.load(open(path))["traceEvents"]
    calls = collections.Counter(e["name"] for e in ev if e["ph"] == "X" and e.get("cat") == "hip")
    kernels = sum(1 for e in ev if e["ph"] == "X" and e.get("cat") == "kernel")
    copies = sum(1 for e in ev if e["ph"] == "X" and e.get("cat") == "copy")
    return calls, kernels, copies


def only_memcpy(trace):
    """Only the memcpy calls are recorded."""
    calls, _, _ = _counts(trace)
    if set(calls) != {"hipMemcpyAsync"} or calls["hipMemcpyAsync"] != 4:
        fail("calls %s" % calls)


def device_spans(trace):
    """Every kernel and copy still has its device span."""
    _, kernels, copies = _counts(trace)
    if (kernels, copies) != (20, 4):
        fail("kernels %d copies %d" % (kernels, copies))


def no_launch(trace):
    """No launch call is recorded, the other calls are."""
    calls, _, _ = _counts(trace)
    if any("Launch" in n or "CallConfiguration" in n for n in calls):
        fail("calls %s" % calls)
    for n in ("hipSetDevice", "hipMalloc", "hipStreamCreate", "hipMemcpyAsync",
              "hipStreamSynchronize", "hipFree"):
        if not calls[n]:
            fail("%s missing: %s" % (n, calls))


main(globals())

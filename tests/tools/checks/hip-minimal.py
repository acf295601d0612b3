"""hip-minimal.py — the checks of func/t-hip-minimal.sh on the Chrome traces that
tprof-analyze wrote of apps/hip-minimal, each given the trace and N, the number of kernels the
program launched (in each of its rounds)."""
from checklib import fail, main
from chrome_trace import events, load


def _launches(d):
    """The hipLaunchKernel calls of trace D."""
    return [e for e in events(d) if e["name"] == "hipLaunchKernel"]


def launches_untimed(trace, n):
    """Every launch is recorded with its kernel, device, stream and sizes, none timed."""
    d = load(trace)
    n = int(n)
    calls = _launches(d)
    if len(calls) != n:
        fail("%d launches recorded" % len(calls))
    for c in calls:
        a = c["args"]
        if (a.get("kernel"), a.get("device"), a.get("grid"), a.get("block")) != \
                ("minimal_kernel", 1, [4, 1, 1], [64, 1, 1]) or a.get("stream", "0x0") == "0x0":
            fail("launch %s" % c)
    if len({c["args"]["correlation"] for c in calls}) != n:
        fail("correlation ids repeat")
    spans = [e for e in events(d) if e.get("cat") == "kernel"]
    if spans:
        fail("%d device spans without device events" % len(spans))


def late_launches_timed(trace, n):
    """The launches after the dlopen have their device spans; the first ones are untimed."""
    d = load(trace)
    n = int(n)
    calls = _launches(d)
    calls.sort(key=lambda e: e["ts"])
    spans = [e for e in events(d) if e.get("cat") == "kernel"]
    if len(calls) != 2 * n or len(spans) != n:
        fail("%d launches, %d spans" % (len(calls), len(spans)))
    late = {c["args"]["correlation"] for c in calls[n:]}
    got = {s["args"]["correlation"] for s in spans}
    if got != late:
        fail("spans of %d later launches, %d others" % (len(got & late), len(got - late)))
    if any(s["name"] != "minimal_kernel" or s["args"]["device"] != 1 for s in spans):
        fail("spans %s" % spans[:3])


main(globals())

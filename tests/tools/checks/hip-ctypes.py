"""hip-ctypes.py — the checks of func/t-hip-ctypes.sh on the Chrome trace of
apps/hip-ctypes.py, a Python program that reaches the HIP runtime through ctypes alone."""
import json

from checklib import fail, main


def _events(path):
    return json.load(open(path))["traceEvents"]


def calls_in_order(trace):
    """Every HIP call the program made is in the trace, in order, with its arguments."""
    ev = _events(trace)
    calls = sorted((e for e in ev if e["ph"] == "X" and e.get("cat") == "hip"),
                   key=lambda e: e["ts"])
    names = [e["name"] for e in calls]
    want = ["hipGetDeviceCount", "hipSetDevice", "hipMalloc", "hipMemcpy", "hipMemcpy",
            "hipDeviceSynchronize", "hipFree"]
    if names != want:
        fail("calls %s" % names)
    m = calls[2]["args"]
    if m.get("bytes") != 1 << 20 or m.get("ptr", "0x0") == "0x0":
        fail("hipMalloc args %s" % m)
    kinds = [(c["args"].get("kind"), c["args"].get("bytes")) for c in calls[3:5]]
    if kinds != [("HtoD", 1 << 20), ("DtoH", 1 << 20)]:
        fail("hipMemcpy args %s" % kinds)
    if calls[1]["args"].get("device") != 1:
        fail("hipSetDevice args %s" % calls[1]["args"])
    procs = [e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"]
    if not any("hip-ctypes.py" in p for p in procs):
        fail("process names %s" % procs)


def copies_linked(trace):
    """Both copies ran on device 1, timed, each linked to its call."""
    ev = _events(trace)
    copies = [e for e in ev if e["ph"] == "X" and e.get("cat") == "copy"]
    calls = {e["args"]["correlation"]: e for e in ev
             if e["ph"] == "X" and e["name"] == "hipMemcpy"}
    if len(copies) != 2:
        fail("%d copies" % len(copies))
    for c in copies:
        a = c["args"]
        if (a["device"] != 1 or a["bytes"] != 1 << 20 or a["correlation"] not in calls or
                c["dur"] <= 0):
            fail("copy %s" % c)


main(globals())

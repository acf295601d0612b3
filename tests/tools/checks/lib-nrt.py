"""lib-nrt.py — helpers for the checks of the NRT recorder's tests (the tests that source
func/lib-nrt.sh): they read what the recorder wrote (tools/dump-records, one JSON object a
line) and what the stand-in Neuron runtime says it did (its trace file).  A checker imports it
(importlib.import_module("lib-nrt")).

    images(dump)  {image index: {pid, calls (NRT CALL records in order), props (the last of
                   each key), args (the command line), clocks, streams (tid -> stream)}} from
                   a dump-records file
    ns(img, t)    a tick value of that image as CLOCK_MONOTONIC nanoseconds (piecewise-linear
                  between its CLOCK samples, as the analyzer does)
    status(r)     the return code of a CALL; op(r) its NRT op; nrt(r) its NRT fields
    trace(path)   the stand-in's trace lines (load, unload, exec), parsed
"""
import glob
import json

from checklib import fail, main

(OTHER, INIT, CLOSE, LOAD, UNLOAD, EXECUTE, ALLOC, FREE, READ, WRITE, COPY, MEMSET, SET,
 COLL) = range(14)


def images(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        p = out.setdefault(r["image"], {"pid": r["pid"], "calls": [], "props": {}, "clocks": [],
                                        "streams": {}, "strings": set(), "args": []})
        k = r["kind"]
        if k == "call" and r["flags"] == 4:
            p["calls"].append(r)
        elif k == "prop":
            p["props"][r["name"]] = r["value"]
            if r["name"] == "arg":
                p["args"].append(r["value"])
        elif k == "clock":
            p["clocks"].append((r["t0"], r["t1"]))
        elif k == "thread":
            p["streams"][r["t1"]] = r["arg"]
        elif k == "string":
            p["strings"].add(r["string"])
    return out


def ns(img, t):
    if img["props"].get("clock") == 2:
        return t
    c = sorted(set(img["clocks"]))
    if len(c) < 2:
        fail("fewer than two clock samples")
    for i in range(len(c) - 1):
        if t < c[i + 1][0] or i == len(c) - 2:
            (a, x), (b, y) = c[i], c[i + 1]
            return x + (t - a) * (y - x) / (b - a)


def status(r):
    return r["arg"] >> 48


def op(r):
    return r["nrt"]["op"]


def nrt(r):
    return r["nrt"]


def trace(pattern):
    out = []
    for f in sorted(glob.glob(pattern)):
        out += [json.loads(ln) for ln in open(f)]
    return out


if __name__ == "__main__":
    main(globals())

"""nrt-record.py — the checks of func/t-nrt-record.sh on what the recorder wrote of
apps/nrt-threads run against the stand-in libnrt.so.1 (tools/dump-records output, a JSON
object a line), against the program's own account of what it did (the JSON it printed: its
threads and the errors it made on purpose) and the stand-in's trace files (a glob pattern,
read here).  The readers are lib-nrt.py's."""
import collections
import importlib
import json
import os

from checklib import fail, main

nrtlib = importlib.import_module("lib-nrt")
images, ns, status, op, nrt, trace = (nrtlib.images, nrtlib.ns, nrtlib.status, nrtlib.op,
                                      nrtlib.nrt, nrtlib.trace)
(OTHER, INIT, CLOSE, LOAD, UNLOAD, EXECUTE, ALLOC, FREE, READ, WRITE, SET) = (
    nrtlib.OTHER, nrtlib.INIT, nrtlib.CLOSE, nrtlib.LOAD, nrtlib.UNLOAD, nrtlib.EXECUTE,
    nrtlib.ALLOC, nrtlib.FREE, nrtlib.READ, nrtlib.WRITE, nrtlib.SET)


class _Run:
    """What the checks share: img, the one process image of the dump; truth, what the program
    printed; calls, the image's NRT calls; by, those by name; threads, the program's threads."""

    def __init__(self, dump, out):
        imgs = images(dump)
        if len(imgs) != 1:
            fail("%d process images" % len(imgs))
        self.img = list(imgs.values())[0]
        self.truth = json.loads(open(out).read())
        self.calls = self.img["calls"]
        self.by = collections.defaultdict(list)
        for c in self.calls:
            self.by[c["name"]].append(c)
        self.threads = self.truth["threads"]


def _pairs(r, pattern):
    """The executions the stand-in ran (its trace files, PATTERN) paired with the recorded
    ones, thread by thread."""
    st = [e for e in trace(pattern) if e["event"] == "exec"]
    pairs = []
    for tid in sorted({e["tid"] for e in st}):
        s = r.img["streams"].get(tid)
        mine = [e for e in st if e["tid"] == tid]
        rec = [c for c in r.by["nrt_execute"] if c["stream"] == s]
        if len(mine) != len(rec):
            fail("tid %d: %d executions in the stand-in, %d recorded" % (tid, len(mine), len(rec)))
        pairs += list(zip(mine, rec))
    if len(pairs) != 2 * r.threads[0]["executions"] + 1:
        fail("%d executions" % len(pairs))
    return pairs


def same_output(plain, recorded):
    """Its output is unchanged (but for pids and tids)."""
    def strip(path):
        d = json.loads(open(path).read())
        d.pop("pid")
        for t in d["threads"]:
            t.pop("tid")
        return d
    a, b = strip(plain), strip(recorded)
    if a != b or not a["ok"]:
        fail("%s\n%s" % (a, b))


def every_call(dump, out):
    """Every NRT call the program makes is recorded once, with its op."""
    r = _Run(dump, out)
    threads = r.threads
    n = threads[0]["executions"]
    tensors = sum(t["in_tensors"] + t["out_tensors"] for t in threads)
    want = {"nrt_init": (1, INIT), "nrt_load": (3, LOAD), "nrt_get_model_tensor_info": (2, OTHER),
            "nrt_free_model_tensor_info": (2, OTHER), "nrt_allocate_tensor_set": (5, SET),
            "nrt_destroy_tensor_set": (5, SET), "nrt_tensor_allocate": (tensors, ALLOC),
            "nrt_add_tensor_to_tensor_set": (tensors, SET), "nrt_tensor_free": (tensors, FREE),
            "nrt_execute": (2 * n + 1, EXECUTE),
            "nrt_tensor_write": (sum(t["in_tensors"] for t in threads) * n, WRITE),
            "nrt_tensor_read": (sum(t["out_tensors"] for t in threads) * n + 1, READ),
            "nrt_unload": (2, UNLOAD), "nrt_close": (1, CLOSE)}
    got = {k: (len(v), sorted({op(c) for c in v})) for k, v in r.by.items()}
    exp = {k: (v[0], [v[1]]) for k, v in want.items()}
    if got != exp:
        fail("calls %s\nwant %s" % (got, exp))
    if any(c["t1"] < c["t0"] or not c["t1"] for c in r.calls):
        fail("a call without its end")


def thread_executions(dump, out):
    """Each thread's executions: its model, NeuronCore, set bytes and tensors, status 0."""
    r = _Run(dump, out)
    for t in r.threads:
        s = r.img["streams"].get(t["tid"])
        ex = [c for c in r.by["nrt_execute"] if c["stream"] == s]
        if len(ex) != t["executions"]:
            fail("%d executions on stream %s for %s" % (len(ex), s, t))
        for c in ex:
            a = nrt(c)
            want = dict(name=t["model"], nc=t["nc"], in_bytes=t["in_bytes"],
                        out_bytes=t["out_bytes"], in_tensors=t["in_tensors"],
                        out_tensors=t["out_tensors"], model_nc_count=1,
                        bytes=t["in_bytes"] + t["out_bytes"], extra=0)
            got = {k: a[k] for k in want}
            if got != want or status(c) != 0 or c["ext"] != 2 or not a["handle"]:
                fail("execution %s, want %s, status %d" % (a, want, status(c)))


def loads(dump, out, neff_a, neff_b):
    """Loads: the NEFF name, the NeuronCore given, NEFF bytes (those of NEFF_A and NEFF_B);
    unloads name their model."""
    r = _Run(dump, out)
    sizes = [os.path.getsize(p) for p in (neff_a, neff_b)]
    ld = [c for c in r.by["nrt_load"] if status(c) == 0]
    got = [(nrt(c)["name"], nrt(c)["nc"], nrt(c)["bytes"], nrt(c)["extra"]) for c in ld]
    want = [(t["model"], t["nc"], sizes[i], 1) for i, t in enumerate(r.threads)]
    if got != want:
        fail("loads %s, want %s" % (got, want))
    handles = {nrt(c)["name"]: nrt(c)["handle"] for c in ld}
    un = [(nrt(c)["name"], nrt(c)["nc"], nrt(c)["handle"]) for c in r.by["nrt_unload"]]
    if sorted(un) != sorted((t["model"], t["nc"], handles[t["model"]]) for t in r.threads):
        fail("unloads %s" % un)
    ex = {nrt(c)["handle"] for c in r.by["nrt_execute"]}
    if ex != set(handles.values()):
        fail("executions of handles %s, loads %s" % (ex, handles))


def tensor_calls(dump, out):
    """Tensor calls: name, bytes, NeuronCore and device placement; set calls name the
    tensor."""
    r = _Run(dump, out)
    nc_of = {}
    for c in r.by["nrt_tensor_allocate"]:
        a = nrt(c)
        if (status(c) or a["placement"] != 0 or a["bytes"] not in (1024, 2048, 4096) or
                not a["handle"]):
            fail("allocation %s" % a)
        nc_of[a["handle"]] = (a["name"], a["nc"], a["bytes"])
    names = {v[0] for v in nc_of.values()}
    if names != {"image", "bias", "logits", "tokens", "hidden"}:
        fail("tensor names %s" % names)
    for kind in ("nrt_tensor_write", "nrt_tensor_read", "nrt_tensor_free",
                 "nrt_add_tensor_to_tensor_set"):
        for c in r.by[kind]:
            a = nrt(c)
            if kind == "nrt_add_tensor_to_tensor_set":
                if (a["name"], a["nc"], a["bytes"]) not in nc_of.values():
                    fail("%s %s" % (kind, a))
                continue
            if status(c):
                continue
            if (a["name"], a["nc"], a["bytes"]) != nc_of.get(a["handle"]) or a["placement"] != 0:
                fail("%s %s, allocated as %s" % (kind, a, nc_of.get(a["handle"])))
    for t in r.threads:
        s = r.img["streams"][t["tid"]]
        moved = [c for c in r.by["nrt_tensor_write"] + r.by["nrt_tensor_read"]
                 if c["stream"] == s]
        if not moved or any(nrt(c)["nc"] != t["nc"] for c in moved):
            fail("thread of %s moves data elsewhere" % t)


def failed_calls(dump, out):
    """The calls that failed are recorded with their status."""
    r = _Run(dump, out)
    want = {e["call"]: e["status"] for e in r.truth["errors"]}
    if want != {"nrt_execute": 1002, "nrt_tensor_read": 2, "nrt_load": 2}:
        fail("truth %s" % want)
    bad = [(c["name"], status(c)) for c in r.calls if status(c)]
    if sorted(bad) != sorted(want.items()):
        fail("failed calls %s, want %s" % (bad, want))
    e = [c for c in r.by["nrt_execute"] if status(c)][0]
    if (nrt(e)["name"], nrt(e)["in_tensors"], nrt(e)["out_tensors"]) != ("resnet", 0, 1):
        fail("%s" % nrt(e))
    ld = [c for c in r.by["nrt_load"] if status(c)][0]
    if not nrt(ld)["name"].startswith("neff-") or nrt(ld)["bytes"] != 2048 or nrt(ld)["handle"]:
        fail("failed load %s" % nrt(ld))


def standin_executions(dump, out, pattern):
    """Every execution the stand-in ran is recorded, on its thread, with its model, core and
    status."""
    r = _Run(dump, out)
    for e, c in _pairs(r, pattern):
        if (e["model"], e["nc"], e["status"]) != (nrt(c)["name"], nrt(c)["nc"], status(c)):
            fail("%s vs %s" % (e, nrt(c)))


def span_times(dump, out, pattern):
    """The recorded span is the call as the program made it: it holds the stand-in's execution
    and lasts what the stand-in took from entry to return (the wrapper's own cost aside).  A
    loaded machine may stop the thread between the wrapper's clock and the stand-in's, so it
    is most spans, not every one, that must match within 5 %; every one must hold its call."""
    r = _Run(dump, out)
    img = r.img
    diffs = []
    for e, c in _pairs(r, pattern):
        if not e["ran"]:
            continue
        t0, t1 = ns(img, c["t0"]), ns(img, c["t1"])
        slack = 20000   # ns: the tick-to-ns conversion
        if not (t0 - slack <= e["entry_ns"] and e["return_ns"] <= t1 + slack):
            fail("recorded [%d, %d] does not hold the call [%d, %d]" %
                 (t0, t1, e["entry_ns"], e["return_ns"]))
        if not (t0 - slack <= e["start_ns"] and e["end_ns"] <= t1 + slack):
            fail("execution outside the span")
        rec, real = t1 - t0, e["return_ns"] - e["entry_ns"]
        diffs.append(abs(rec - real) / real)
    diffs.sort()
    close = sum(d <= 0.05 for d in diffs)
    if not diffs or close < 0.75 * len(diffs):
        fail("%d of %d recorded durations within 5%% of the stand-in call" % (close, len(diffs)))
    print("# %d of %d within 5%%; median difference %.3f%%, worst %.3f%%"
          % (close, len(diffs), 100 * diffs[len(diffs) // 2], 100 * diffs[-1]))


def runtime_props(dump, out):
    """The runtime's version and the instance are properties of the process."""
    r = _Run(dump, out)
    p = r.img["props"]
    want = {"nrt_version": "2.28.0.0", "nrt_instance": "trn2", "nrt_instance_family": 5,
            "nrt_instance_size": 48, "nrt_arch": "NCv3", "nrt_device_revision": "2.0",
            "nrt_nc_count": 4}
    got = {k: p.get(k) for k in want}
    if got != want:
        fail("props %s" % got)


def parses(path):
    """The file is JSON that parses."""
    json.load(open(path))


def executions_only(dump, out):
    """With TPROF_NRT_API_FILTER=nrt_execute: only the executions are recorded, and they still
    know their sets' bytes."""
    r = _Run(dump, out)
    if set(r.by) != {"nrt_execute"} or len(r.calls) != 4:
        fail("calls %s" % {k: len(v) for k, v in r.by.items()})
    for t in r.threads:
        ex = [c for c in r.calls if c["stream"] == r.img["streams"][t["tid"]]]
        if ([(nrt(c)["name"], nrt(c)["nc"], nrt(c)["in_bytes"], nrt(c)["out_bytes"]) for c in ex]
                != [(t["model"], t["nc"], t["in_bytes"], t["out_bytes"])] * 2):
            fail("executions %s" % [nrt(c) for c in ex])


def filtered_out(dump, out):
    """With TPROF_NRT_API_FILTER_OUT=nrt_tensor,nrt_get: no tensor call and no query is
    recorded; the rest is."""
    r = _Run(dump, out)
    if any(k.startswith("nrt_tensor") or k.startswith("nrt_get") for k in r.by):
        fail("calls %s" % sorted(r.by))
    for k in ("nrt_init", "nrt_load", "nrt_execute", "nrt_add_tensor_to_tensor_set",
              "nrt_unload", "nrt_close"):
        if not r.by[k]:
            fail("no %s: %s" % (k, sorted(r.by)))


def unsupported_neff(dump):
    """The failing load of a program that fails is recorded with
    NRT_UNSUPPORTED_NEFF_VERSION (10)."""
    img = list(images(dump).values())[0]
    ld = [c for c in img["calls"] if c["name"] == "nrt_load"]
    if [(nrt(c)["name"], status(c)) for c in ld] != [("resnet", 0), ("future", 10)]:
        fail("%s" % [nrt(c) for c in ld])


def monotonic(dump, out, pattern):
    """With TPROF_CLOCK=monotonic every recorded execution holds the stand-in's, in
    CLOCK_MONOTONIC."""
    r = _Run(dump, out)
    if r.img["props"].get("clock") != 2:
        fail("clock %s" % r.img["props"].get("clock"))
    st = [e for e in trace(pattern) if e["event"] == "exec"]
    ex = r.by["nrt_execute"]
    if len(st) != len(ex) or len(ex) != 4:
        fail("%d executions, %d in the stand-in" % (len(ex), len(st)))
    for e in st:
        if not any(c["t0"] <= e["entry_ns"] and e["return_ns"] <= c["t1"] for c in ex):
            fail("no span holds %s" % e)


main(globals())

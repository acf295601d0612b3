"""nrt-ctypes-analyze.py — the checks of func/t-nrt-ctypes-analyze.sh on what tprof-analyze
made of apps/nrt-ctypes.py's profile: its Chrome trace and summary, with the stand-in
runtime's trace file (one JSON object a line) and the program's stdout (its timed calls)."""
import importlib
import json
import re

from checklib import fail, main
from chrome_trace import events, load, ns, procs, tracknames

nrt = importlib.import_module("lib-nrt-analyze")


def executions(trace, standin, runs, stdout):
    """Each execution on nc 0, named by the model, from as long as the stand-in took to as
    long as the program timed the call; tensor I/O there too."""
    d = load(trace)
    runs = int(runs)
    names = tracknames(d)
    sn = [json.loads(ln) for ln in open(standin)]
    ran = sorted((ln for ln in sn if ln["event"] == "exec"), key=lambda ln: ln["entry_ns"])
    label = [n for p, (n, r) in procs(d).items()]
    if len(label) != 1 or "nrt-ctypes.py" not in label[0]:
        fail("processes %s" % label)
    timed = [int(v) for v in open(stdout).readline().split("=")[1].split(",")]
    app = list(timed)
    spans = nrt.core_spans(d)
    ex = sorted((e for e in spans if e["args"]["call"] == "nrt_execute"), key=lambda e: e["ts"])
    if len(ex) != runs or len(ran) != runs or len(timed) != runs:
        fail("%d executions on NeuronCore tracks, %d in the stand-in trace, want %d" %
             (len(ex), len(ran), runs))
    for e, ln in zip(ex, ran):
        if (names[(e["pid"], e["tid"])] != "nc 0" or e["name"] != "ctypes-model" or
                e["args"]["nc"] != 0):
            fail("execution %s on %s" % (e, names[(e["pid"], e["tid"])]))
        real, got = ln["return_ns"] - ln["entry_ns"], ns(e["dur"])
        slack = 20000 + 0.002 * real
        if not real - slack <= got <= app.pop(0) + slack:
            fail("execution of %d ns, the stand-in took %d ns, the program timed %s" %
                 (got, real, timed))
        if (e["args"]["input_bytes"], e["args"]["output_bytes"]) != (4096, 4096):
            fail("execution args %s" % e["args"])
    io = [e for e in spans if e["name"] in ("nrt_tensor_write", "nrt_tensor_read")]
    if len(io) != 2 * runs or any(names[(e["pid"], e["tid"])] != "nc 0" or
                                  e["args"]["bytes"] != 4096 for e in io):
        fail("tensor calls on cores: %s" % [(e["name"], names[(e["pid"], e["tid"])]) for e in io])


def python_thread(trace):
    """Every call the program made through ctypes is on its Python thread."""
    d = load(trace)
    names = tracknames(d)
    calls = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nrt"]
    threads = {(e["pid"], e["tid"]) for e in calls}
    if len(threads) != 1 or names[threads.pop()].startswith("nc "):
        fail("NRT calls on %s" % {names[(e["pid"], e["tid"])] for e in calls})
    want = {"nrt_init", "nrt_get_visible_nc_count", "nrt_load", "nrt_tensor_allocate",
            "nrt_allocate_tensor_set", "nrt_add_tensor_to_tensor_set", "nrt_tensor_write",
            "nrt_execute", "nrt_tensor_read", "nrt_tensor_free", "nrt_destroy_tensor_set",
            "nrt_unload", "nrt_close"}
    if {e["name"] for e in calls} != want:
        fail("calls %s" % sorted({e["name"] for e in calls}))


def model_row(trace, summary):
    """The summary: 4 executions of ctypes-model on core 0, equal to the Chrome trace's."""
    err = nrt.model_table_errors(load(trace), open(summary).read())
    if err:
        fail(err)
    if not re.search(r"\n +\d+\.\d+ % +\S+ \w+ +4 .*  0 +ctypes-model\n", open(summary).read()):
        fail("no row of 4 executions of ctypes-model on core 0")


main(globals())

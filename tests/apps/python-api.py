# python-api.py FACTS — every call of the tprof Python module, with known names, nesting and
# values, on the main thread and on a second one.  Prints the same with and without the
# profiler; what differs (whether it records, thread ids, where tprof came from) goes as JSON
# to the file FACTS.
import json
import os
import sys
import threading

import tprof


class Model:
    @tprof.range
    def forward(self, x):                   # bare decorator: named "Model.forward"
        with tprof.range("matmul"):
            return x * 3


@tprof.range("loss")
def loss(y):
    return y - 1


@tprof.range()
def update(v):                              # no name given: "update"
    return v + 0.5


def worker(out):
    out["worker_tid"] = threading.get_native_id()
    for i in range(3):
        with tprof.range("worker outer"):
            with tprof.range("worker inner"):
                tprof.mark("worker mark")
    tprof.counter("worker counter", 7)


def main():
    facts = {"main_tid": threading.get_native_id(), "pid": os.getpid(),
             "enabled": tprof.enabled(), "module": tprof.__file__,
             "torch_loaded": "torch" in sys.modules, "pythonpath": os.environ.get("PYTHONPATH")}
    model = Model()
    results = []
    for n in range(4):
        tprof.step(n)
        with tprof.range("step body") as r:
            results.append(loss(model.forward(n)))
            tprof.counter("loss", n * 1.5)
            tprof.mark("after forward")
        results.append(update(n))
        assert r is tprof.range("step body")
    tprof.step_end()                        # step 3 ends here, not at the exit
    tprof.mark("steps over")
    try:
        with tprof.range("failing"):
            with tprof.range("inside failing"):
                raise ValueError("expected")
    except ValueError as e:
        results.append(str(e))
    with tprof.range("after failure"):
        tprof.mark("closing")
    t = threading.Thread(target=worker, args=(facts,))
    t.start()
    t.join()
    tprof.counter("loss", 0.25)
    tprof.mark(b"bytes name")
    tprof.mark("unicode \u00e9\u4e2d")
    tprof.mark(12)                          # not a string: str(12)
    misuse = []                             # each raises, recording or not
    for call in (lambda: tprof.step(-1), lambda: tprof.step(1 << 64), lambda: tprof.step(None),
                 lambda: tprof.step("1"), lambda: tprof.step(1.5), lambda: tprof.step(object()),
                 lambda: tprof.counter("loss", None), lambda: tprof.counter("loss", "2")):
        try:
            call()
            misuse.append(None)
        except (TypeError, ValueError) as e:
            misuse.append(type(e).__name__)
    print("misuse:", misuse)
    try:
        with tprof.range():
            pass
    except TypeError as e:
        results.append("TypeError: %s" % e)
    print("results:", results)
    print("forward:", Model.forward.__name__, "update:", update.__qualname__)
    with open(sys.argv[1], "w") as f:
        json.dump(facts, f)


main()

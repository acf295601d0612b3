#!/usr/bin/env python3
"""mk-kineto-trace.py — a Chrome trace shaped as PyTorch's profiler (Kineto) writes it, holding
the shapes that real traces made an importer lose arrows, crash or write a bad OTF2 archive
with, for tests/func/t-import-kineto.sh.  It prints what a faithful conversion must give.

  mk-kineto-trace.py [--order file|reversed|shuffled] [--seed N] [--rounds N] FILE

Each round holds:
  launch→kernel ac2g flows: s at the cudaLaunchKernel's start, f ("bp": "e") at the kernel's
    start, in another process (pid 0, "GPU 0"): a kernel in the same microsecond as its launch;
    a launch that starts with its parent op (the same microsecond); an f at the boundary of
    two kernels (one ends where the next starts); an f without "bp" in the gap before its
    kernel (it binds to the next slice); an id used twice (s f s f); a graph launch whose one s
    has three f; a launch on a second thread to a second stream; a chain s → t → f across
    threads; an f without s and an s without f (counted, no arrow)
  args as Kineto writes them ("External id", "Input Dims" of many nested lists), the same keys
    in another order on the next event, a key given twice, an "unfinished" key on a B that
    never ends (an argument and a flag of one name), args of more values than an item shows
The events are written in the order --order asks (Kineto writes f before s at times).

Printed (JSON): arrows (arrows a conversion must draw), ids (flow ids with a start and an
end), slices (X and B events), flow_alone and flow_open (ends with no start, starts never
ended), rounds.
"""
import argparse, json, random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--order", default="file", choices=["file", "reversed", "shuffled"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("file")
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    ev, meta = [], []
    want = {"arrows": 0, "ids": 0, "slices": 0, "flow_alone": 0, "flow_open": 0, "rounds": a.rounds}
    HOST, T1, T2 = 4242, 4242, 4250
    GPU, S7, S8 = 0, 7, 8
    ids = [1000]

    def X(pid, tid, ts, dur, name, cat="cpu_op", args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
        if args is not None:
            e["args"] = args
        ev.append(e)
        want["slices"] += 1

    def flow(ph, fid, pid, tid, ts, bp=True):
        e = {"ph": ph, "id": fid, "pid": pid, "tid": tid, "ts": ts, "cat": "ac2g", "name": "ac2g"}
        if ph == "f" and bp:
            e["bp"] = "e"
        ev.append(e)

    def new_id():
        ids[0] += 1
        return ids[0]

    def launch(tid, ts, corr, stream, k0, kdur=4, bp=True, parent_same_start=False, f_at=None):
        """An op around a launch, the s at the launch, the kernel and its f; one arrow."""
        if parent_same_start:
            X(HOST, tid, ts, 20, "aten::add", args={"External id": corr, "Ev Idx": corr})
            X(HOST, tid, ts, 8, "cudaLaunchKernel", "cuda_runtime", {"correlation": corr})
        else:
            X(HOST, tid, ts - 2, 20, "aten::mm", args={"External id": corr, "Ev Idx": corr})
            X(HOST, tid, ts, 6, "cudaLaunchKernel", "cuda_runtime", {"correlation": corr})
        flow("s", corr, HOST, tid, ts)
        X(GPU, stream, k0, kdur, "gemm_kernel", "kernel",
          {"device": 0, "stream": stream, "correlation": corr, "External id": corr})
        flow("f", corr, GPU, stream, k0 if f_at is None else f_at, bp)

    t = 1695835542000000
    for r in range(a.rounds):
        # a kernel in the same microsecond as its launch
        c = new_id(); launch(T1, t, c, S7, t); t += 50
        want["arrows"] += 1; want["ids"] += 1
        # a launch starting with its parent op
        c = new_id(); launch(T1, t, c, S7, t + 30, parent_same_start=True); t += 60
        want["arrows"] += 1; want["ids"] += 1
        # an f where one kernel ends and the next starts
        c = new_id()
        X(GPU, S7, t + 10, 10, "before_kernel", "kernel", {"device": 0, "stream": S7})
        launch(T1, t, c, S7, t + 20); t += 60
        want["arrows"] += 1; want["ids"] += 1
        # an f without bp in the gap before its kernel: bound to the next slice
        c = new_id(); launch(T1, t, c, S7, t + 30, bp=False, f_at=t + 25); t += 60
        want["arrows"] += 1; want["ids"] += 1
        # an id used twice
        c = new_id()
        launch(T1, t, c, S7, t + 10); t += 40
        launch(T1, t, c, S7, t + 10); t += 40
        want["arrows"] += 2; want["ids"] += 1
        # a graph launch: one s, three kernels
        c = new_id()
        X(HOST, T1, t, 6, "cudaGraphLaunch", "cuda_runtime", {"correlation": c})
        flow("s", c, HOST, T1, t)
        for k in range(3):
            X(GPU, S7, t + 10 + 10 * k, 5, "graph_kernel_%d" % k, "kernel", {"device": 0, "stream": S7})
            flow("f", c, GPU, S7, t + 10 + 10 * k)
        t += 60
        want["arrows"] += 3; want["ids"] += 1
        # a second thread to a second stream
        c = new_id(); launch(T2, t, c, S8, t + 5); t += 40
        want["arrows"] += 1; want["ids"] += 1
        # a chain across threads: s → t → f
        c = new_id()
        X(HOST, T1, t, 10, "producer")
        flow("s", c, HOST, T1, t + 2)
        X(HOST, T2, t + 20, 10, "relay")
        flow("t", c, HOST, T2, t + 22)
        X(GPU, S8, t + 40, 10, "consumer_kernel", "kernel", {"device": 0, "stream": S8})
        flow("f", c, GPU, S8, t + 40)
        t += 60
        want["arrows"] += 2; want["ids"] += 1
        # an f without s, an s without f
        X(GPU, S7, t, 5, "orphan_kernel", "kernel", {"device": 0, "stream": S7})
        flow("f", new_id(), GPU, S7, t)
        X(HOST, T1, t + 10, 5, "cudaLaunchKernel", "cuda_runtime")
        flow("s", new_id(), HOST, T1, t + 10)
        t += 40
        want["flow_alone"] += 1; want["flow_open"] += 1
        # args: the same keys in another order, a key given twice, many values
        X(HOST, T1, t, 5, "aten::cat", args={"alpha": 1, "beta": 2, "Input type": ["float", "int"]})
        X(HOST, T1, t + 10, 5, "aten::cat", args={"beta": 3, "alpha": 4, "Input type": ["int"]})
        ev.append('{"ph":"X","cat":"cpu_op","name":"twice","pid":%d,"tid":%d,"ts":%d,"dur":5,'
                  '"args":{"k":1,"k":2,"unfinished":true}}' % (HOST, T1, t + 20))
        want["slices"] += 1
        dims = [[rnd.randint(1, 512), rnd.randint(1, 512), 3] for _ in range(60)]
        X(HOST, T1, t + 30, 5, "aten::cat", args={"External id": 5, "Input Dims": dims,
                                                 "Concrete Inputs": [str(i) for i in range(40)],
                                                 "Deep": [[[[1]]], [[[2, [3, [4]]]]]]})
        t += 60
    # a B that never ends, with an "unfinished" argument: the flag of the same name comes too
    ev.append({"ph": "B", "cat": "user_annotation", "name": "open_range", "pid": HOST, "tid": T2,
               "ts": t, "args": {"unfinished": 1, "clipped": True}})
    want["slices"] += 1
    meta += [
        {"ph": "M", "name": "process_name", "pid": HOST, "tid": 0, "args": {"name": "python3"}},
        {"ph": "M", "name": "process_name", "pid": GPU, "tid": 0, "args": {"name": "GPU 0"}},
        {"ph": "M", "name": "thread_name", "pid": HOST, "tid": T1, "args": {"name": "main"}},
        {"ph": "M", "name": "thread_name", "pid": HOST, "tid": T2, "args": {"name": "worker"}},
        {"ph": "M", "name": "thread_name", "pid": GPU, "tid": S7, "args": {"name": "stream 7"}},
        {"ph": "M", "name": "thread_name", "pid": GPU, "tid": S8, "args": {"name": "stream 8"}},
    ]
    if a.order == "reversed":
        ev.reverse()
    elif a.order == "shuffled":
        rnd.shuffle(ev)
    text = lambda e: e if isinstance(e, str) else json.dumps(e)
    with open(a.file, "w") as f:
        f.write('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "stand-in"}],\n'
                '"traceEvents": [\n')
        f.write(",\n".join(text(e) for e in meta + ev))
        f.write('\n], "traceName": "kineto-shaped"}\n')
    print(json.dumps(want))


if __name__ == "__main__":
    main()

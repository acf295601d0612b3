"""parallel-import.py — for func/t-parallel-import.sh: traces shaped as tprof.torch writes
PyTorch's (a "tprof" member naming the host and pid, ProfilerStep#N slices, times relative to
the trace's own start), for a job that tools/gen-profile wrote.

    write-traces DIR RANKS STEPS US HOSTRANKS...
                          for each rank of HOSTRANKS, <host>.<pid>.pt.trace.json in DIR (found
                          there by tprof-analyze): its steps (every US microseconds), an
                          operator and a nested one in each; gen-profile's pids (10000 +
                          rank) and hosts (node000 for ranks 0-7, node001 after)
    write-lone PATH STEPS US FIRST
                          a trace of no process of the job (pid 777, no "tprof" member): its
                          steps FIRST..STEPS-1 only (FIRST 0 and STEPS 0: no step at all)
"""
import json
import os

from checklib import main


def _events(pid, steps, us, first=0):
    ev = [{"ph": "M", "name": "process_name", "pid": pid, "args": {"name": "python3"}}]
    for s in range(first, steps):
        t = s * us + 5
        ev.append({"ph": "X", "name": "ProfilerStep#%d" % s, "cat": "user_annotation",
                   "pid": pid, "tid": pid, "ts": t, "dur": us - 10})
        ev.append({"ph": "X", "name": "aten::linear", "cat": "cpu_op", "pid": pid, "tid": pid,
                   "ts": t + 2, "dur": us // 2, "args": {"Input Dims": [[64, 256], [512, 256]]}})
        ev.append({"ph": "X", "name": "aten::mm", "cat": "cpu_op", "pid": pid, "tid": pid,
                   "ts": t + 3, "dur": us // 4})
    return ev


def write_traces(d, ranks, steps, us, *which):
    for r in map(int, which):
        pid, host = 10000 + r, "node%03d" % (r // 8)
        doc = {"tprof": {"host": host, "pid": pid, "tid": pid, "source": "torch"},
               "traceEvents": _events(pid, int(steps), int(us))}
        with open(os.path.join(d, "%s.%d.pt.trace.json" % (host, pid)), "w") as f:
            json.dump(doc, f)


def write_lone(path, steps, us, first):
    doc = {"traceEvents": _events(777, int(steps), int(us), int(first)) if int(steps) else
           [{"ph": "X", "name": "lone", "pid": 777, "tid": 777, "ts": 10, "dur": 20}]}
    with open(path, "w") as f:
        json.dump(doc, f)


main(globals())

# python-torch.py FACTS [DIR] — a small training loop (nn.Linear, SGD, 6 steps of at least
# 20 ms) under tprof.torch.profile(DIR).  Each step also runs a record_function whose name
# needs escaping in JSON and a TorchScript fork, which PyTorch runs on its inter-op thread.
# Prints the same with and without the profiler; what differs goes as JSON to FACTS, with
# the time each step's beginning took (PyTorch's marker, then tprof's step): a thread
# preempted in between puts up to that much between the two.
import json
import os
import socket
import sys
import threading
import time

import torch
from torch.autograd.profiler import record_function

import tprof
import tprof.torch

STEPS = 6
ODD_NAME = 'odd "name" with \\ and \t'


@torch.jit.script
def matmul(x):
    return torch.mm(x, x)


@torch.jit.script
def forked(x):
    fut = torch.jit._fork(matmul, x)
    return torch.jit._wait(fut)


def main():
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = torch.randn(16, 4), torch.randn(16, 2)
    losses = []
    prof = tprof.torch.profile(sys.argv[2] if len(sys.argv) > 2 else None)
    begin_us = []
    begin = prof._begin

    def timed_begin(n):
        t = time.perf_counter_ns()
        begin(n)
        begin_us.append((time.perf_counter_ns() - t) / 1e3)

    prof._begin = timed_begin
    with prof:
        for _ in range(STEPS):
            t0 = time.monotonic()
            opt.zero_grad()
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            with record_function(ODD_NAME):
                forked(torch.ones(8, 8))
            losses.append(round(loss.item(), 4))
            time.sleep(max(0.0, 0.02 - (time.monotonic() - t0)))
            prof.step()
    tprof.mark("profiling stopped")     # tprof's last step has ended before this
    print("steps=%d traces=%d losses=%s" % (prof.step_num, len(prof.paths), losses))
    facts = {"pid": os.getpid(), "main_tid": threading.get_native_id(), "enabled": tprof.enabled(),
             "host": socket.gethostname(), "torch": torch.__version__, "paths": prof.paths,
             "odd_name": ODD_NAME, "steps": STEPS, "begin_us": begin_us}
    with open(sys.argv[1], "w") as f:
        json.dump(facts, f)


main()

# app.py — a small Python program for a first profile (the README's first command):
#
#     tprof-inspect -o out -- python3 examples/app.py
#
# Five steps of made-up training work: each loads a batch (random numbers), then computes
# (sorts and hashes it), and sets a counter; a mark at the end.  `import tprof` finds the
# module that tprof-inspect puts on PYTHONPATH; without the profiler its calls do nothing.
import hashlib
import random

import tprof

rng = random.Random(1)
for n in range(5):
    tprof.step(n)
    with tprof.range("load batch"):
        batch = [rng.random() for _ in range(100_000)]
    with tprof.range("compute"):
        digest = hashlib.sha256(repr(sorted(batch)).encode()).hexdigest()
    tprof.counter("batch mean", sum(batch) / len(batch))
tprof.step_end()
tprof.mark("done")
print("app.py: 5 steps, last digest", digest[:12])

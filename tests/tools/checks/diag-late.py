"""diag-late.py — the checks of func/t-diag-late.sh on the diagnoses (JSON summaries) of the
traces apps/diag-late wrote: steps of 10 ms with one 6 ms kernel each, its device record
written late."""
import json

from checklib import fail, main

KERNEL_NS = 6000000


def _diag(path):
    return json.load(open(path))["diagnosis"]


def all_counted(path, steps):
    """Every step's kernel counted in its step: none came after its step was diagnosed."""
    d, steps = _diag(path), int(steps)
    per = [s["time"]["compute_ns"] for s in d["steps"]]
    if d["late_spans"] != 0 or len(per) != steps or any(c != KERNEL_NS for c in per):
        fail("late_spans %s; compute a step %s" % (d["late_spans"], sorted(set(per))))
    if d["time"]["compute_ns"] != steps * KERNEL_NS:
        fail("compute %d ns, want %d" % (d["time"]["compute_ns"], steps * KERNEL_NS))


def last_late(path, steps, kernels):
    """The device idles after the last of `kernels` kernels, whose record came 3 s after it:
    its step waited 1 s, then was diagnosed; that kernel is counted as late, the others in
    their steps."""
    d, steps, kernels = _diag(path), int(steps), int(kernels)
    per = [s["time"]["compute_ns"] for s in d["steps"]]
    want = [KERNEL_NS] * (kernels - 1) + [0] * (steps - kernels + 1)
    if d["late_spans"] != 1 or per != want:
        fail("late %d (want 1); compute a step %s" % (d["late_spans"], per[:kernels + 2]))


def some_late(path, steps, most):
    """The first kernels came later than the analyzer waited (1 s): counted as late, at most
    `most` of them (those of the steps that ended 1 s before the first came); every later
    one counted in its step, the wait grown; no kernel both or neither."""
    d, steps, most = _diag(path), int(steps), int(most)
    late = d["late_spans"]
    per = [s["time"]["compute_ns"] for s in d["steps"]]
    if not 0 < late <= most or per != [0] * late + [KERNEL_NS] * (steps - late):
        fail("late %d (1..%d); compute a step %s" % (late, most, sorted(set(per))))


if __name__ == "__main__":
    main(globals())

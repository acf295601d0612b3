"""diff.py — the checks of func/t-diff.sh: tprof-analyze --diff and --diff-data (JSON)."""
import json

from checklib import fail, main


def _rows(path, table="items"):
    d = json.load(open(path))
    if d.get("format") != "tprof-diff":
        fail("%s: not a tprof-diff document" % path)
    return d[table]["rows"]


def _row(rows, kind, name):
    for r in rows:
        if r["kind"] == kind and r["name"] == name:
            return r
    fail("no row %s %s" % (kind, name))


def slowed(path, kernel, change, call):
    """The slowed kernel first, its change near the truth and beyond the noise; the call
    within the noise; the steps' compute part more."""
    rows = _rows(path)
    # On a loaded machine host calls may change more than the kernel (a host that comes back
    # late from the call that waits for it, ranks that waited longer in one run than in the
    # other): the kernel must be the first row of device work, and come before every row
    # within the noise.
    device = [r for r in rows if r["kind"] in ("kernel", "copy", "device_collective")]
    first = device[0] if device else {}
    if first.get("kind") != "kernel" or first.get("name") != kernel or \
            first.get("verdict") != "more":
        fail("the first row of device work: %s" % json.dumps(first))
    before = rows[:rows.index(first)]
    if any(r["kind"] != "call" or r["verdict"] == "within_noise" for r in before):
        fail("rows before the kernel: %s" % json.dumps(before)[:600])
    want = float(change)
    if abs(first["change_ns"] - want) > 0.1 * want:
        fail("the kernel's change %d ns, the truth %d" % (first["change_ns"], want))
    if first["noise_ns"] is None or first["change_ns"] <= first["noise_ns"]:
        fail("the kernel's change is not beyond its noise: %s" % json.dumps(first))
    r = _row(rows, "call", call)
    if r["verdict"] != "within_noise":
        fail("%s: %s" % (call, json.dumps(r)))
    c = _row(_rows(path, "steps"), "phase", "compute")
    if c["verdict"] != "more":
        fail("the steps' compute: %s" % json.dumps(c))


def unchanged(path, kernel):
    """The kernel within the noise."""
    r = _row(_rows(path), "kernel", kernel)
    if r["verdict"] != "within_noise":
        fail("%s: %s" % (kernel, json.dumps(r)))


def data(path, steps):
    """--diff-data: the steps, and each item's time per step adding up to its total."""
    d = json.load(open(path))
    if d.get("format") != "tprof-diff-data" or len(d["steps"]) != int(steps):
        fail("%s: format %s, %d steps" % (path, d.get("format"), len(d.get("steps", []))))
    for it in d["items"]:
        if len(it["per_step_ns"]) != int(steps):
            fail("%s: %d steps" % (it["name"], len(it["per_step_ns"])))
        if it["kind"] not in ("phase", "step") and sum(it["per_step_ns"]) != it["total_ns"]:
            fail("%s: per step %d, total %d" % (it["name"], sum(it["per_step_ns"]),
                                               it["total_ns"]))


def no_steps(path):
    """Without steps: no row says more, less or within noise; none has a noise."""
    for r in _rows(path):
        if r["verdict"] in ("more", "less", "within_noise") or r["noise_ns"] is not None:
            fail("a row told from noise without steps: %s" % json.dumps(r))


main(globals())
